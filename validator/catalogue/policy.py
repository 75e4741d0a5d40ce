"""What is reported and what fails: the one place that decides, whatever the format.

Between the run and the reporter, `Policy.apply` leaves out the findings `--select`/`--ignore`, a
baseline or an inline suppression take out (each counted in the summary, never hidden silently), and
`Policy.exit_status` says whether what is left fails the run at `--fail-level`. Reports only ever see
what the policy lets through; the summary they print is already adjusted.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from validator.catalogue import builtin_docs
from validator.errors import ValidatorError
from validator.findings.baseline import entry, read_baseline, write_baseline
from validator.findings.config import FAIL_LEVELS, load_config
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.findings.fingerprint import fingerprint
from validator.findings.project_root import fingerprint_file
from validator.findings.suppressions import Suppression, read_suppressions
from validator.i18n import _, use_config

_RANK = {"warning": 0, "error": 1}


@dataclass(frozen=True, slots=True)
class Options:
    """What the command line gave; empty values fall back on the configuration file."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_level: str | None = None
    baseline: Path | None = None
    write_baseline: Path | None = None
    config: Path | None = None
    no_config: bool = False


@dataclass
class Policy:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_level: str = "error"
    baseline: Counter[str] | None = None
    baseline_file: Path | None = None
    write_baseline: Path | None = None
    # The project root fingerprints are relative to, as found when a baseline is first read or written
    # (`commands.common.project_root`: `git rev-parse` runs only then, once).
    root: Callable[[], str] = lambda: "."
    suppressions: list[Suppression] = field(default_factory=list)
    _used: set[int] = field(default_factory=set)
    _recorded: list[dict[str, Any]] = field(default_factory=list)

    # --- deciding -------------------------------------------------------------------------------------

    def selected(self, rule: str) -> bool:
        if self.select and not rule.startswith(self.select):
            return False
        return not (self.ignore and rule.startswith(self.ignore))

    def apply(self, outcomes: Iterable[RoundOutcome], summary: Summary) -> Iterator[RoundOutcome]:
        """The outcomes with only the findings to report; `summary` is adjusted as they pass."""
        for outcome in outcomes:
            # A clean round: nothing to select, suppress or baseline.
            yield self.one(outcome, summary) if outcome.findings else outcome
        yield from self.unused(summary)

    def one(self, outcome: RoundOutcome, summary: Summary) -> RoundOutcome:
        """`apply` of one outcome that has findings (`check` calls it so, without a generator between
        the replay and the reporter, for speed: a clean round passes as it is), then `unused` at the end."""
        hidden: list[tuple[Finding, str]] = []
        kept = [f for f in outcome.findings if self._keep(f, summary, hidden)]
        if len(kept) == len(outcome.findings):
            return outcome
        status = outcome.status
        if status == "findings" and not kept:
            summary.rounds_with_findings -= 1
            summary.rounds_clean += 1
            status = "clean"
        if outcome.entry is not None and outcome.findings and not kept:
            summary.tables_with_findings -= 1
        return replace(outcome, findings=tuple(kept), status=status, suppressed=tuple(hidden))

    def _keep(self, finding: Finding, summary: Summary, hidden: list[tuple[Finding, str]]) -> bool:
        suppressed = self._suppression(finding)
        if not self.selected(finding.rule):
            summary.uncount(finding)
            summary.ignored += 1
            return False
        if suppressed is not None:
            summary.uncount(finding)
            summary.suppressed[
                f"{suppressed.file}:{suppressed.line}: {finding.rule}: {suppressed.reason}"
            ] += 1
            hidden.append((finding, suppressed.reason))
            return False
        if self.baseline is not None:
            key = fingerprint(finding, fingerprint_file(finding.file, self.root()))
            if self.baseline[key] > 0:
                self.baseline[key] -= 1
                summary.uncount(finding)
                summary.baselined += 1
                return False
        if self.write_baseline is not None:
            self._recorded.append(entry(finding, self.root()))
        return True

    def _suppression(self, finding: Finding) -> Suppression | None:
        for index, suppression in enumerate(self.suppressions):
            if suppression.matches(finding.rule, finding.file, finding.line):
                self._used.add(index)
                return suppression
        return None

    def unused(self, summary: Summary) -> Iterator[RoundOutcome]:
        """The findings of the suppressions no finding used, once every outcome has passed."""
        if not self.suppressions:
            return  # `check`'s case: suppressions are read from house files, by `lint`
        # start-up: the linter's rules (its schema, jsonschema, YAML) load only where suppressions are read
        from validator.house.rules import unused_suppression

        for index, suppression in enumerate(self.suppressions):
            if index in self._used or not self.selected(unused_suppression.ID):
                continue
            for finding in unused_suppression.check(suppression):
                summary.count(finding)
                yield RoundOutcome(suppression.file, suppression.line, None, (finding,), "none")

    # --- the end of the run ---------------------------------------------------------------------------

    def finish(self, summary: Summary) -> None:
        """Notes for the summary, and the baseline written when asked."""
        if self.write_baseline is not None:
            count = write_baseline(self.write_baseline, self._recorded)
            summary.notes.append(
                _("baseline written: {file} ({count} findings)").format(file=self.write_baseline, count=count)
            )
        if self.baseline_file is not None:
            summary.notes.append(
                _("baseline {file}: {count} known findings not reported").format(
                    file=self.baseline_file, count=summary.baselined
                )
            )
        if summary.ignored:
            summary.notes.append(
                _("{count} findings left out by --select/--ignore").format(count=summary.ignored)
            )
        for text, count in sorted(summary.suppressed.items()):
            summary.notes.append(_("suppressed inline ({count}): {text}").format(count=count, text=text))
        if not self.fails(summary) and summary.findings and self.write_baseline is None:
            summary.notes.append(
                _("{count} findings below the fail level ({level}): the run passes").format(
                    count=summary.findings, level=self.fail_level
                )
            )

    def fails(self, summary: Summary) -> bool:
        floor = _RANK[self.fail_level]
        return any(count > 0 and _RANK.get(level, 1) >= floor for level, count in summary.by_severity.items())

    def exit_status(self, summary: Summary) -> int:
        if self.write_baseline is not None:
            return 0
        return 1 if self.fails(summary) else 0


def _known(prefix: str, known_rules: Iterable[str]) -> bool:
    """Whether some rule id (of the rulesets, or Python-side) is or starts with `prefix`."""
    return any(rule.startswith(prefix) for rule in (*known_rules, *builtin_docs.BUILTIN))


def _unknown_rule_message(option: str, value: str, known: set[str]) -> str:
    """An id no rule has or starts with: the closest ids, and the command that lists them all."""
    ids = sorted(known | set(builtin_docs.BUILTIN))
    close = difflib.get_close_matches(value, ids, n=3, cutoff=0.6)
    names: dict[str, list[str]] = {}
    for rule_id in ids:
        names.setdefault(rule_id.rsplit("/", 1)[-1], []).append(rule_id)
    for name in difflib.get_close_matches(value.rsplit("/", 1)[-1], list(names), n=3, cutoff=0.6):
        close.extend(r for r in names[name] if r not in close)
    hint = _("did you mean {ids}? ").format(ids=", ".join(close[:3])) if close else ""
    return _(
        "{option} {value}: no rule id is or starts with it ({hint}`rules list --ids` lists them)"
    ).format(option=option, value=value, hint=hint)


def build_policy(
    options: Options,
    *,
    root: Callable[[], str],
    known_rules: Iterable[str],
    house_files: Iterable[Path] = (),
) -> Policy:
    """The policy of a run: the command line over the configuration file; unknown rules in --select or
    --ignore, a bad configuration or an unreadable baseline stop the run (exit 2)."""
    if options.baseline is not None and options.write_baseline is not None:
        raise ValidatorError(
            _("--baseline and --write-baseline: give one (a baseline is written from a full run)")
        )
    config = load_config(options.config, disabled=options.no_config)
    use_config(config.lang)
    select = options.select or config.select
    ignore = options.ignore or config.ignore
    known = set(known_rules)
    for option, values in (("--select", select), ("--ignore", ignore)):
        for value in values:
            if not _known(value, known):
                raise ValidatorError(_unknown_rule_message(option, value, known))
    fail_level = options.fail_level or config.fail_level or "error"
    if fail_level not in FAIL_LEVELS:
        raise ValidatorError(
            _("--fail-level {value}: choose one of {choices}").format(
                value=fail_level, choices=", ".join(FAIL_LEVELS)
            )
        )
    baseline_file = options.baseline if options.write_baseline is None else None
    if baseline_file is None and options.write_baseline is None:
        baseline_file = config.baseline
    suppressions = [s for path in house_files for s in read_suppressions(path)]
    return Policy(
        select=select,
        ignore=ignore,
        fail_level=fail_level,
        baseline=read_baseline(baseline_file) if baseline_file is not None else None,
        baseline_file=baseline_file,
        write_baseline=options.write_baseline,
        root=root,
        suppressions=suppressions,
    )


def split_rules(values: Iterable[str] | None) -> tuple[str, ...]:
    """`--select a,b --select c` → ("a", "b", "c")."""
    return tuple(v.strip() for value in values or () for v in value.split(",") if v.strip())
