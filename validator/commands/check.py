"""`casino-validator check`: replay logs and report their findings, in one process or on a Dask cluster."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from validator.checking.progress import input_sizes, with_progress
from validator.checking.readings import judged_under_readings
from validator.checking.serial import check_logs, rule_catalogue
from validator.commands import common
from validator.errors import ValidatorError
from validator.extras import require
from validator.findings.finding import Summary
from validator.i18n import _, ngettext
from validator.logs.limits import Limits, configure, limits_from_options
from validator.logs.reader import FoundLogs, bytes_read, check_openable, find_logs, iter_log_paths

if TYPE_CHECKING:
    from validator.audit.dataset.writer import DatasetRun
    from validator.catalogue.policy import Policy
    from validator.checking.options import CheckOptions
    from validator.dsl.model import Ruleset
    from validator.findings.finding import RoundOutcome
    from validator.formats.base import Reporter
    from validator.rulebook.registry import Registry

    # What house_lookup gives: the options of each (table, version).
    HouseLookup = Callable[[str, Ruleset], dict[str, Any]]


def run(options: CheckOptions, *, started: float) -> int:
    """Replay the logs and report; the exit status of the findings at the fail level. `started`: when the
    command started (the progress line's clock)."""
    run = None
    _require_extras(options)
    try:
        limits = options.limits
        configure(limits_from_options(limits.max_log_bytes, limits.max_line_bytes, limits.max_broken_records))
        root = common.project_root(options.sarif_root)
        if options.dataset is not None:
            run = _start_dataset(options)
        registry = _registry(options)
        policy = common.policy(registry, root, options.policy)
        lookup = None
        house_label = None
        if options.house is not None:
            from validator.house.apply import house_lookup

            lookup, house_label = house_lookup(options.house, registry)
        # The logs found once (a folder, or a store's prefix, listed once): every layer below takes them.
        found = find_logs(list(options.logs))
        check_openable(found)
        if run is not None:
            run.paths = found
        with common.output(options.output) as out:
            reporter = common.reporter(options.format, out, options.output, root)
            summary = Summary(house=house_label)
            if options.house is None:
                summary.notes.append(_("no house rules given: the regulation's defaults apply"))
            unread = skipped_note(found.not_read)
            if unread:
                summary.notes.append(unread)
            judged = _Judged(options, registry, found, summary, run)
            outcomes, plan = judged.outcomes(lookup, reporter)
            shown = progress(
                outcomes, enabled=not options.quiet, started=started, logs=found, jobs=options.jobs, plan=plan
            )
            _report(shown, reporter, policy, summary, registry)
            if run is not None:
                # Committed before --output takes its name: a run whose record cannot be written
                # leaves the previous report in place.
                run.commit(summary)
    except BaseException:
        if run is not None:
            run.abort()
        raise
    finally:
        configure(Limits())  # the command's limits end with it (a test runs many commands in one process)
    return policy.exit_status(summary)


def _start_dataset(options: CheckOptions) -> DatasetRun:
    """The run's record in the dataset of --dataset, started (its notes said as warnings)."""
    from validator.audit.dataset.writer import DatasetRun  # start-up: the audit's modules, for --dataset only

    assert options.dataset is not None
    house_path = str(options.house) if options.house is not None else None
    recorded = {
        "ruleset": options.ruleset,
        "house": house_path,
        "jobs": options.jobs,
        "format": options.format,
        # The readings asked for (the summary, in the same row, lists every reading applied).
        "readings": list(options.policy.readings),
        "all_readings": options.all_readings,
    }
    run = DatasetRun.start(str(options.dataset), list(options.logs), recorded, house_path)
    for note in run.notes:
        common.error(f"warning: {note}")
    return run


def _registry(options: CheckOptions) -> Registry:
    """The rulesets and readings the logs are judged by. A pinned version that does not exist stops the
    run here, in one line (exit 2), rather than giving the same finding on every record of every log."""
    choices = options.policy
    registry = common.registry(choices.readings, choices.config, choices.no_config)
    if options.ruleset:
        family, when = registry.resolve(options.ruleset)
        if when is not None:
            registry.in_force(family, when)
    return registry


@dataclass(frozen=True, slots=True)
class _Judged:
    """Where the logs are judged: on a cluster (--jobs, --scheduler), once per reading's alternative
    (--all-readings), or in this process."""

    options: CheckOptions
    registry: Registry
    found: FoundLogs
    summary: Summary
    run: DatasetRun | None

    def outcomes(self, lookup: HouseLookup | None, reporter: Reporter) -> tuple[Iterable[RoundOutcome], Any]:
        """The rounds' outcomes, in order, and the cluster's plan (None in this process)."""
        options, run = self.options, self.run
        collect = run is not None or options.format == "html"
        scheduler = scheduler_address(options.scheduler, options.jobs)
        if options.all_readings and (options.jobs > 1 or scheduler):
            raise ValidatorError(
                _(
                    "--all-readings judges the logs once per alternative in this process: give it "
                    "without --jobs or --scheduler"
                )
            )
        if options.jobs > 1 or scheduler:
            return self.on_cluster(scheduler, reporter)
        judge = judged_under_readings if options.all_readings else check_logs
        outcomes: Iterable[RoundOutcome] = judge(
            self.registry,
            self.found,
            ruleset=options.ruleset,
            house=lookup,
            summary=self.summary,
            collect=collect,
        )
        if run is not None:
            outcomes = run.writer().write_all(outcomes)
        return outcomes, None

    def on_cluster(self, scheduler: str | None, reporter: Reporter) -> tuple[Iterable[RoundOutcome], Any]:
        # start-up: the cluster's modules load only for --jobs or --scheduler
        from validator.checking.cluster import check_on_cluster
        from validator.checking.progress import PlanProgress

        run = self.run
        plan = PlanProgress()
        outcomes = check_on_cluster(
            self.found,
            self.summary,
            replace(self.options, scheduler=scheduler),  # the address $DASK_SCHEDULER_ADDRESS gives
            readings=tuple(sorted(self.registry.chosen.items())),
            progress=plan,
            dataset=run.spec if run else None,
            report=reporter,
        )
        return outcomes, plan


def _report(
    outcomes: Iterable[RoundOutcome], reporter: Reporter, policy: Policy, summary: Summary, registry: Registry
) -> None:
    """The outcomes through the policy to the reporter, then the summary and the rules' catalogue."""
    # `policy.apply` written out, for speed: a round without findings has nothing for the policy,
    # and goes to the reporter only if its format keeps something of such rounds (a format
    # without `quiet_rounds` writes nothing of them: `--jobs` never gives them to it).
    keeps_clean = reporter.quiet_rounds() is not None
    for outcome in outcomes:
        if outcome.findings:
            reporter.round(policy.one(outcome, summary))
        elif keeps_clean:
            reporter.round(outcome)
    for outcome in policy.unused(summary):
        reporter.round(outcome)
    policy.finish(summary)
    reporter.finish(summary, rule_catalogue(registry, summary.rulesets))


def skipped_note(skipped: Sequence[str], shown: int = 5) -> str | None:
    """The note naming the files of the folders given that were not read (not `*.jsonl`, `*.jsonl.gz`)."""
    if not skipped:
        return None
    names = ", ".join(skipped[:shown])
    if len(skipped) > shown:
        names += _(" and {n} more").format(n=len(skipped) - shown)
    return ngettext(
        "{n} file in the folders given not read (not *.jsonl or *.jsonl.gz): {names}",
        "{n} files in the folders given not read (not *.jsonl or *.jsonl.gz): {names}",
        len(skipped),
    ).format(n=len(skipped), names=names)


def _require_extras(options: CheckOptions) -> None:
    """The extras the options need, checked before anything is read or written."""
    if options.dataset is not None:
        require("audit", "--dataset")
    if options.format == "html":
        require("audit", "--format html")  # i18n: not shown (an option, named as written)
    if options.jobs > 1:
        require("cluster", "--jobs")
    if scheduler_address(options.scheduler, options.jobs):
        require("cluster", "--scheduler" if options.scheduler else "DASK_SCHEDULER_ADDRESS")


def scheduler_address(option: str | None, jobs: int) -> str | None:
    """The cluster `check` runs on: --scheduler, else $DASK_SCHEDULER_ADDRESS unless --jobs asks for a
    local cluster; None for a local cluster or one process."""
    if option is not None and jobs > 1:
        raise ValidatorError(
            _("--jobs starts a local cluster, --scheduler uses a running one: give one of them")
        )
    if option is not None:
        return option
    return (os.environ.get("DASK_SCHEDULER_ADDRESS") or None) if jobs == 1 else None


def progress(
    outcomes: Iterable[RoundOutcome],
    *,
    enabled: bool,
    started: float,
    logs: Iterable[str],
    jobs: int,
    plan: Any = None,
) -> Iterable[RoundOutcome]:
    """A progress line on a terminal for runs longer than a second: rounds, rounds/s, files, and the
    bytes read of the logs' total with an ETA (on a cluster, the plan's shares and bytes done); its clock
    starts with the command."""
    if not (enabled and sys.stderr.isatty()):
        return outcomes
    sizes = input_sizes(iter_log_paths(logs))
    total = sum(sizes.values()) or None
    position = bytes_read if jobs == 1 and plan is None else None
    return with_progress(
        outcomes, enabled=True, started=started, total=total, position=position, sizes=sizes, plan=plan
    )
