"""The `casino-validator` command: wiring only. Each command calls one module and maps its result to
an exit status: 0 nothing found, 1 findings, 2 the run could not be made."""

from __future__ import annotations

import json
import sys
import time
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from validator import __version__
from validator.cli_help import PlainCommand
from validator.errors import RulesetErrors, ValidatorError
from validator.outputs import replacing

# Plain help (click's own layout, no boxes): it wraps at word boundaries in any terminal width and reads
# the same in a CI log; `-h` works as `--help` everywhere.
_HELP = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
app = typer.Typer(
    name="casino-validator",
    help="Check casino table games (blackjack, bataille) against the law that governs them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=_HELP,
)
rules_app = typer.Typer(
    help="Read, check, compare and test the rulesets.",
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings=_HELP,
)
app.add_typer(rules_app, name="rules")


class Format(StrEnum):
    """`--format`: the names of validator/report's REPORTERS, in their order (a test keeps them equal)."""

    text = "text"
    jsonl = "jsonl"
    json = "json"
    sarif = "sarif"
    junit = "junit"
    github = "github"
    html = "html"


class LintFormat(StrEnum):
    """`lint --format`: every format but `html`, the audit report of rounds."""

    text = "text"
    jsonl = "jsonl"
    json = "json"
    sarif = "sarif"
    junit = "junit"
    github = "github"


class FailLevel(StrEnum):
    error = "error"
    warning = "warning"


# Options `check` and `lint` share: what is reported and what fails (validator/policy.py decides).
SelectOpt = Annotated[
    list[str] | None,
    typer.Option("--select", metavar="RULE,…", help="Report only these rule ids or prefixes (e.g. house/)."),
]
IgnoreOpt = Annotated[
    list[str] | None, typer.Option("--ignore", metavar="RULE,…", help="Leave out these rule ids or prefixes.")
]
FailLevelOpt = Annotated[
    FailLevel | None,
    typer.Option(
        "--fail-level",
        metavar="[error|warning]",
        help="Lowest severity that fails the run (exit 1); default error.",
    ),
]
BaselineOpt = Annotated[
    Path | None, typer.Option("--baseline", metavar="FILE", help="Report only findings not in this baseline.")
]
WriteBaselineOpt = Annotated[
    Path | None,
    typer.Option(
        "--write-baseline", metavar="FILE", help="Record this run's findings as a baseline; exit 0."
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        help="Configuration file (default: casino-validator.toml or pyproject.toml).",
    ),
]
NoConfigOpt = Annotated[bool, typer.Option("--no-config", help="Ignore any configuration file.")]
SarifRootOpt = Annotated[
    Path | None,
    typer.Option(
        "--sarif-root",
        metavar="DIR",
        help="SARIF paths and fingerprints relative to DIR (default: the git work tree, else here).",
    ),
]


def _policy(
    registry, root: str, select, ignore, fail_level, baseline, write_baseline, config, no_config, house=()
):
    from validator.policy import Options, build_policy, split_rules

    options = Options(
        select=split_rules(select),
        ignore=split_rules(ignore),
        fail_level=fail_level.value if fail_level is not None else None,
        baseline=baseline,
        write_baseline=write_baseline,
        config=config,
        no_config=no_config,
    )
    known = {rule.id for ruleset in registry.all() for rule in ruleset.rules}
    return build_policy(options, root=root, known_rules=known, house_files=house)


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"casino-validator: {message}", err=True)
    return typer.Exit(code)


@contextmanager
def _output(path: Path | None):
    if path is None:
        yield sys.stdout
        return
    with replacing(path) as handle:
        yield handle


def progress(outcomes, *, enabled: bool, started: float, logs: list[str], jobs: int, plan=None):
    """A progress line on a terminal for runs longer than a second: rounds, rounds/s, files, and the
    bytes read of the logs' total with an ETA (on a cluster, the plan's shares and bytes done); its clock
    starts with the command."""
    from validator.logs.reader import bytes_read, iter_log_paths
    from validator.progress import input_sizes, with_progress

    if not (enabled and sys.stderr.isatty()):
        return outcomes
    sizes = input_sizes(iter_log_paths(list(logs)))
    total = sum(sizes.values()) or None
    position = bytes_read if jobs == 1 and plan is None else None
    return with_progress(
        outcomes, enabled=True, started=started, total=total, position=position, sizes=sizes, plan=plan
    )


def _registry():
    from validator.registry import default_registry

    return default_registry()


def _root(sarif_root: Path | None) -> str:
    """The project root SARIF paths and fingerprints (baselines) are relative to."""
    from validator.project_root import find_root

    return find_root(sarif_root)


def _version(value: bool) -> None:
    if value:
        from validator.compiled import describe

        typer.echo(f"casino-validator {__version__} ({describe()})")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """casino-validator"""


# ---------------------------------------------------------------- check
@app.command(cls=PlainCommand, short_help="Replay game logs and report what went against the rules.")
def check(
    logs: Annotated[
        list[str],
        typer.Argument(
            metavar="LOG...", help="Log files, folders (every *.jsonl, *.jsonl.gz), or - for stdin."
        ),
    ],
    ruleset: Annotated[
        str | None,
        typer.Option(
            "--ruleset", metavar="ID[@DATE]", help="ID or ID@YYYY-MM-DD; overrides the table record."
        ),
    ] = None,
    house: Annotated[
        Path | None, typer.Option("--house", metavar="FILE", help="A house-rules/1 YAML file to apply.")
    ] = None,
    fmt: Annotated[
        Format,
        typer.Option("--format", "-f", metavar=f"[{'|'.join(Format)}]", help="Output format."),
    ] = Format.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the report to FILE.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help="Processes of a local Dask cluster (files, tables, a table's shoes).",
        ),
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="A running Dask scheduler to check on (default: $DASK_SCHEDULER_ADDRESS).",
        ),
    ] = None,
    dataset: Annotated[
        Path | None,
        typer.Option(
            "--dataset",
            metavar="DIR",
            help="Also write every round, finding and run as Parquet under DIR (`report`).",
        ),
    ] = None,
    sarif_root: SarifRootOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    fail_level: FailLevelOpt = None,
    baseline: BaselineOpt = None,
    write_baseline: WriteBaselineOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
    max_log_bytes: Annotated[
        str | None,
        typer.Option(metavar="SIZE", help="Most bytes read from one log, uncompressed (default 16G)."),
    ] = None,
    max_line_bytes: Annotated[
        str | None, typer.Option(metavar="SIZE", help="Longest line read (default 1M).")
    ] = None,
    max_broken_records: Annotated[
        int | None,
        typer.Option(metavar="N", help="Broken records in a row reported one by one (default 100)."),
    ] = None,
) -> None:
    """Replay game logs and report where the dealing or the money went against the rules."""
    from validator.check import check_logs, rule_catalogue
    from validator.findings import Summary
    from validator.logs.reader import Limits, configure, limits_from_options
    from validator.report import make_reporter

    started = time.monotonic()
    run = None
    try:
        configure(limits_from_options(max_log_bytes, max_line_bytes, max_broken_records))
        root = _root(sarif_root)
        if dataset is not None:
            from validator.dataset.writer import DatasetRun

            options = {
                "ruleset": ruleset,
                "house": str(house) if house else None,
                "jobs": jobs,
                "format": fmt.value,
            }
            run = DatasetRun.start(str(dataset), logs, options, str(house) if house else None)
        collect = run is not None or fmt == Format.html
        registry = _registry()
        policy = _policy(
            registry, root, select, ignore, fail_level, baseline, write_baseline, config, no_config
        )
        lookup = None
        house_label = None
        if house is not None:
            from validator.house.apply import house_lookup

            lookup, house_label = house_lookup(house, registry)
        with _output(output) as out:
            reporter = make_reporter(fmt, out, color=output is None and out.isatty(), root=root)
            summary = Summary(house=house_label)
            if house is None:
                summary.notes.append("no house rules given: the regulation's defaults apply")
            from validator.cluster import check_on_cluster, scheduler_address
            from validator.progress import PlanProgress

            plan = None
            scheduler = scheduler_address(scheduler, jobs)
            if jobs > 1 or scheduler:
                if ruleset:
                    registry.resolve(ruleset)
                plan = PlanProgress()
                house_path = str(house) if house is not None else None
                outcomes = check_on_cluster(
                    logs,
                    summary,
                    jobs=jobs,
                    scheduler=scheduler,
                    ruleset=ruleset,
                    house=house_path,
                    progress=plan,
                    dataset=run.spec if run else None,
                    collect=fmt == Format.html,
                )
            else:
                outcomes = check_logs(
                    registry, logs, ruleset=ruleset, house=lookup, summary=summary, collect=collect
                )
                if run is not None:
                    outcomes = run.writer().write_all(outcomes)
            shown = progress(outcomes, enabled=not quiet, started=started, logs=logs, jobs=jobs, plan=plan)
            for outcome in policy.apply(shown, summary):
                reporter.round(outcome)
            policy.finish(summary)
            reporter.finish(summary, rule_catalogue(registry, summary.rulesets))
        if run is not None:
            run.commit(summary)
    except ValidatorError as exc:
        if run is not None:
            run.abort()
        raise _fail(str(exc)) from None
    except BaseException:
        if run is not None:
            run.abort()
        raise
    finally:
        configure(Limits())  # the command's limits end with it (a test runs many commands in one process)
    raise typer.Exit(policy.exit_status(summary))


# ---------------------------------------------------------------- report
@app.command(cls=PlainCommand, short_help="The audit report of datasets, one offline HTML file.")
def report(
    datasets: Annotated[
        list[Path],
        typer.Argument(metavar="DATASET...", help="Dataset folders written by `check --dataset`."),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the HTML to FILE.")
    ] = None,
    start: Annotated[
        str | None, typer.Option("--from", metavar="YYYY-MM-DD", help="First day (local).")
    ] = None,
    end: Annotated[str | None, typer.Option("--to", metavar="YYYY-MM-DD", help="Last day (local).")] = None,
    casino: Annotated[
        str | None, typer.Option("--casino", metavar="NAME", help="Only this casino (its name in the logs).")
    ] = None,
    table: Annotated[str | None, typer.Option("--table", metavar="ID", help="Only this table id.")] = None,
) -> None:
    """The audit report, one self-contained HTML file, from datasets queried with DuckDB."""
    from validator.audit import audit_html, parse_day

    try:
        html = audit_html(
            [str(d) for d in datasets],
            _registry(),
            start=parse_day(start, "--from"),
            end=parse_day(end, "--to"),
            casino=casino,
            table=table,
        )
        with _output(output) as out:
            out.write(html)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


# ---------------------------------------------------------------- explain
@app.command(cls=PlainCommand, short_help="Replay one round step by step and say why each finding was made.")
def explain(
    log: Annotated[str, typer.Argument(metavar="LOG", help="The log file holding the round.")],
    round_id: Annotated[
        str, typer.Option("--round", metavar="ID", help="The round id to replay step by step.")
    ],
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", metavar="ID[@DATE]", help="ID or ID@YYYY-MM-DD.")
    ] = None,
    house: Annotated[
        Path | None, typer.Option("--house", metavar="FILE", help="A house-rules/1 YAML file to apply.")
    ] = None,
) -> None:
    """Replay one round step by step and say why each finding was made.

    Exit status 1 when the round has a finding, 0 when it is clean, 2 when it cannot be explained."""
    from validator.explain import explain

    try:
        registry = _registry()
        lookup = None
        if house is not None:
            from validator.house.apply import house_lookup

            lookup, _ = house_lookup(house, registry)
        told = explain(registry, log, round_id, ruleset=ruleset, house=lookup)
        for line in told.lines:
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None
    raise typer.Exit(told.exit_status)


# ---------------------------------------------------------------- simulate
@app.command(cls=PlainCommand, short_help="Play séances by a ruleset version, written as hand-log/1.")
def simulate(
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            metavar="ID[@DATE]",
            help="ID@YYYY-MM-DD: the version to play by; the séance starts on DATE.",
        ),
    ],
    rounds: Annotated[int, typer.Option("--rounds", min=1, metavar="N", help="How many rounds.")] = 100,
    seed: Annotated[int, typer.Option("--seed", metavar="N", help="Same seed, same file.")] = 1,
    table: Annotated[
        str, typer.Option("--table", metavar="ID", help="The table id written in the log.")
    ] = "T-01",
    house: Annotated[
        Path | None,
        typer.Option("--house", metavar="FILE", help="House-rules file; its entry for --table applies."),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option("--start", metavar="TIME", help="Opening time, ISO 8601 (default: the version's date)."),
    ] = None,
    minimum: Annotated[
        str | None,
        typer.Option(
            "--minimum",
            metavar="AMOUNT",
            help="Table minimum (default: the house entry's, else the version's own, else 10).",
        ),
    ] = None,
    maximum: Annotated[
        str | None,
        typer.Option(
            "--maximum",
            metavar="AMOUNT",
            help="Table maximum (default: the house entry's, else the version's own, else 1000).",
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write to FILE (.gz: compressed).")
    ] = None,
    inject: Annotated[
        str | None,
        typer.Option(
            "--inject",
            metavar="RULE,…",
            help="RULE[,RULE…]: break these rules (ids as `rules show` lists them) at random rounds.",
        ),
    ] = None,
    rate: Annotated[
        float,
        typer.Option("--rate", metavar="R", help="With --inject: the share of rounds given a violation."),
    ] = 0.05,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
) -> None:
    """Play séances by a ruleset version and write them as hand-log/1.

    With --inject, the planted violations are written beside the log as LOG.planted.json: for each, the
    rule, round, line and stake of the finding `check` must give.

    Every option is checked before anything is written: the limits are judged by the version's own
    rules on the table, and the séance must stay within the dates the version is in force.
    """
    from validator.simulate.plan import prepare
    from validator.simulate.run import write

    started = time.monotonic()

    try:
        chosen, records = prepare(
            _registry(),
            ruleset=ruleset,
            rounds=rounds,
            seed=seed,
            table=table,
            house=house,
            start=start,
            minimum=minimum,
            maximum=maximum,
        )
        from validator.progress import with_count

        records = with_count(
            records,
            total=rounds,
            counts=lambda record: record.get("type") == "round",
            enabled=sys.stderr.isatty() and not quiet,
            started=started,
        )
        if inject is None:
            write(records, output, sys.stdout.buffer)
            return
        from validator.simulate.inject import inject as plant
        from validator.simulate.inject import truth_path, write_truth

        if output is None:
            raise ValidatorError("--inject needs --output: the planted violations are written beside the log")
        planted: list = []
        rule_ids = [r.strip() for r in inject.split(",") if r.strip()]
        write(plant(records, chosen, rule_ids, rate, seed, planted), output, sys.stdout.buffer)
        write_truth(truth_path(output), chosen, planted)
        typer.echo(f"{output}: {len(planted)} violations planted, listed in {truth_path(output)}", err=True)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


# ---------------------------------------------------------------- lint
class EdgeFormat(StrEnum):
    text = "text"
    json = "json"


@app.command(cls=PlainCommand, short_help="House edge and side-bet returns of a version and a house entry.")
def edge(
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", metavar="ID[@DATE]", help="ID or ID@YYYY-MM-DD.")
    ] = None,
    house: Annotated[
        Path | None, typer.Option("--house", metavar="FILE", help="A house-rules/1 file (with --table).")
    ] = None,
    table: Annotated[
        str | None, typer.Option("--table", metavar="ID", help="The table whose house entry applies.")
    ] = None,
    fmt: Annotated[
        EdgeFormat, typer.Option("--format", "-f", metavar="[text|json]", help="Output format.")
    ] = EdgeFormat.text,
    options: Annotated[bool, typer.Option("--options", help="What each house option would change.")] = False,
) -> None:
    """Exact expected return of the main stake and every side bet, each outcome with its probability."""
    from validator.maths.cli_edge import run

    try:
        typer.echo(
            run(_registry(), ruleset=ruleset, house=house, table=table, fmt=fmt.value, with_options=options),
            nl=False,
        )
    except RulesetErrors as exc:
        raise _fail(str(exc)) from None
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@app.command(cls=PlainCommand, short_help="Check house-rules files against what the regulation allows.")
def lint(
    files: Annotated[
        list[Path],
        typer.Argument(metavar="HOUSE.yaml...", help="House-rules/1 YAML files (règlement intérieur)."),
    ],
    fmt: Annotated[
        LintFormat,
        typer.Option("--format", "-f", metavar=f"[{'|'.join(LintFormat)}]", help="Output format."),
    ] = LintFormat.text,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the report to FILE.")
    ] = None,
    when: Annotated[
        str | None,
        typer.Option(
            "--date",
            metavar="YYYY-MM-DD",
            help="YYYY-MM-DD: the rulesets' versions in force that day (default: today).",
        ),
    ] = None,
    sarif_root: SarifRootOpt = None,
    select: SelectOpt = None,
    ignore: IgnoreOpt = None,
    fail_level: FailLevelOpt = None,
    baseline: BaselineOpt = None,
    write_baseline: WriteBaselineOpt = None,
    config: ConfigOpt = None,
    no_config: NoConfigOpt = False,
) -> None:
    """Check house rules against what the regulation lets a casino choose, table by table."""
    import os
    from datetime import date

    from validator.check import rule_catalogue
    from validator.findings import Summary
    from validator.house.lint import lint_files
    from validator.report import make_reporter

    # A file named twice (or by two paths) is linted once, as `check` reads a log named twice once.
    unique: dict[str, Path] = {}
    for file in files:
        unique.setdefault(os.path.realpath(file), file)
    files = list(unique.values())
    unreadable: list[str] = []

    def cannot_read(message: str) -> None:
        unreadable.append(message)
        typer.echo(f"casino-validator: {message}", err=True)

    try:
        try:
            day = date.fromisoformat(when) if when else date.today()
        except ValueError:
            raise ValidatorError(f"--date {when!r}: give a day as YYYY-MM-DD") from None
        registry = _registry()
        root = _root(sarif_root)
        policy = _policy(
            registry, root, select, ignore, fail_level, baseline, write_baseline, config, no_config, files
        )
        with _output(output) as out:
            reporter = make_reporter(fmt, out, color=output is None and out.isatty(), root=root)
            summary = Summary(house=", ".join(str(f) for f in files), subject="house")
            for outcome in policy.apply(lint_files(registry, files, day, summary, cannot_read), summary):
                reporter.round(outcome)
            policy.finish(summary)
            reporter.finish(summary, rule_catalogue(registry, summary.rulesets, builtin=("house/",)))
    except ValidatorError as exc:
        raise _fail(str(exc)) from None
    raise typer.Exit(2 if unreadable else policy.exit_status(summary))


# ---------------------------------------------------------------- schema
@app.command(cls=PlainCommand, short_help="Print a JSON Schema (hand-log, house-rules, findings).")
def schema(
    which: Annotated[str, typer.Argument(metavar="hand-log|house-rules|findings", help="Which schema.")],
) -> None:
    """Print a JSON Schema: of hand-log/1, house-rules/1, or the json output (a jsonl line: $defs/finding)."""
    if which == "hand-log":
        from validator.logs.reader import load_schema
    elif which == "house-rules":
        from validator.house.schema import load_schema
    elif which == "findings":
        from validator.report.schema import findings_schema as load_schema
    else:
        raise _fail(f"unknown schema {which!r}: choose hand-log, house-rules or findings")
    typer.echo(json.dumps(load_schema(), indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- rules
@rules_app.command("list", cls=PlainCommand, short_help="Families, their versions and their dates.")
def rules_list() -> None:
    """Families, their versions and the dates each is in force."""
    from validator.rules_view import list_lines

    try:
        for line in list_lines(_registry()):
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@rules_app.command(
    "show", cls=PlainCommand, short_help="One ruleset version resolved, or one rule with its docs."
)
def rules_show(
    spec: Annotated[str, typer.Argument(metavar="ID[@DATE]|RULE-ID", help="A ruleset version, or one rule.")],
) -> None:
    """A ruleset version resolved (parameters, options, side bets, rules), or one rule: its reference,
    docs and the versions that have it."""
    from validator.rules_view import is_rule_id, rule_lines, show_lines

    try:
        registry = _registry()
        lines = rule_lines(registry, spec) if is_rule_id(registry, spec) else show_lines(registry.pick(spec))
        for line in lines:
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@rules_app.command("diff", cls=PlainCommand, short_help="What changed between two versions.")
def rules_diff(
    old: Annotated[str, typer.Argument(metavar="ID@DATE", help="The older version.")],
    new: Annotated[str, typer.Argument(metavar="ID@DATE", help="The newer version.")],
) -> None:
    """What changed between two versions, parameter by parameter and rule by rule."""
    from validator.rules_view import diff_lines

    try:
        registry = _registry()
        for line in diff_lines(registry.pick(old), registry.pick(new)):
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@rules_app.command(
    "check", cls=PlainCommand, short_help="Check ruleset files; errors as FILE:LINE:COL: message."
)
def rules_check(
    files: Annotated[
        list[Path], typer.Argument(metavar="FILE...", help="Ruleset files (.rules) or folders.")
    ],
) -> None:
    """Check rulesets for syntax and meaning; each error as FILE:LINE:COL: message (exit 2)."""
    import os

    from validator.registry import load_all

    paths: list[Path] = []
    seen: set[str] = set()  # a file named twice (or also through its folder) is checked once
    for path in files:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.rules") if p.is_file())
            if not found:
                raise _fail(f"{path}: no ruleset file (*.rules) in this folder")
        elif path.exists():
            found = [path]
        else:
            raise _fail(f"{path}: no such file or directory")
        for each in found:
            key = os.path.realpath(each)
            if key not in seen:
                seen.add(key)
                paths.append(each)
    try:
        registry = load_all(paths)
    except RulesetErrors as exc:
        for error in exc.errors:
            typer.echo(str(error), err=True)
        raise typer.Exit(2) from None
    except ValidatorError as exc:
        raise _fail(str(exc)) from None
    for ruleset in registry.all():
        typer.echo(f"{ruleset.file}: ok — {ruleset.version}, {len(ruleset.rules)} rules")


@rules_app.command(
    "test", cls=PlainCommand, short_help="Run rule fixtures (a log and the findings it must give)."
)
def rules_test(
    directory: Annotated[
        Path | None,
        typer.Argument(metavar="DIR", help="Fixture folder (default: the project's tests/fixtures/rules)."),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every case.")] = False,
) -> None:
    """Run rule fixtures: each log must give exactly the findings its .expect.json lists."""
    from validator.fixtures import default_fixture_dir, find_fixtures, run_fixture

    passed = failed = 0
    try:
        root = directory or default_fixture_dir()
        registry = _registry()
        for expect in find_fixtures(root):
            for result in run_fixture(registry, expect, root):
                label = result.name + (f" @ {result.ruleset}" if result.ruleset else "")
                if result.ok:
                    passed += 1
                    if verbose:
                        typer.echo(f"PASS: {label}")
                else:
                    failed += 1
                    typer.echo(f"FAIL: {label}")
                    for problem in result.problems:
                        typer.echo(f"  {problem}")
    except ValidatorError as exc:
        raise _fail(str(exc)) from None
    typer.echo("-" * 60)
    typer.echo(f"PASS: {passed}/{passed + failed}" + (f"   FAIL: {failed}" if failed else ""))
    raise typer.Exit(1 if failed or not passed else 0)


def main() -> None:
    from validator.guard import run

    run(app)
