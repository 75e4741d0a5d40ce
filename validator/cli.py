"""The `casino-validator` command: wiring only. Each command calls one module and maps its result to
an exit status: 0 nothing found, 1 findings, 2 the run could not be made."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from validator import __version__
from validator.errors import RulesetErrors, ValidatorError
from validator.outputs import replacing

app = typer.Typer(
    name="casino-validator",
    help="Check casino table games (blackjack, bataille) against the law that governs them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="Read, check, compare and test the rulesets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")

FORMATS = "text, jsonl, json, sarif, junit, github"


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


def progress(outcomes, *, enabled: bool):
    """A progress line on a terminal for runs longer than a second: rounds, rounds/s, files."""
    from validator.progress import with_progress

    return with_progress(outcomes, enabled=enabled and sys.stderr.isatty())


def _registry():
    from validator.registry import default_registry

    return default_registry()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"casino-validator {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """casino-validator"""


# ---------------------------------------------------------------- check
@app.command()
def check(
    logs: Annotated[
        list[str], typer.Argument(help="Log files, folders (every *.jsonl, *.jsonl.gz), or - for stdin.")
    ],
    ruleset: Annotated[
        str | None, typer.Option("--ruleset", help="ID or ID@YYYY-MM-DD; overrides the table record.")
    ] = None,
    house: Annotated[Path | None, typer.Option("--house", help="A house-rules/1 YAML file to apply.")] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"Output format: {FORMATS}.")] = "text",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to FILE.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")] = False,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="Parallel processes (files, tables, a table's shoes).")
    ] = 1,
    max_log_bytes: Annotated[
        str | None, typer.Option(help="Most bytes read from one log, uncompressed (default 16G).")
    ] = None,
    max_line_bytes: Annotated[str | None, typer.Option(help="Longest line read (default 1M).")] = None,
    max_broken_records: Annotated[
        int | None, typer.Option(help="Broken records in a row reported one by one (default 100).")
    ] = None,
) -> None:
    """Replay game logs and report where the dealing or the money went against the rules."""
    from validator.check import check_logs, rule_catalogue
    from validator.findings import Summary
    from validator.logs.reader import Limits, configure, limits_from_options
    from validator.report import make_reporter

    try:
        configure(limits_from_options(max_log_bytes, max_line_bytes, max_broken_records))
        registry = _registry()
        lookup = None
        house_label = None
        if house is not None:
            from validator.house.apply import house_lookup

            lookup, house_label = house_lookup(house, registry)
        with _output(output) as out:
            reporter = make_reporter(fmt, out, color=output is None and out.isatty())
            summary = Summary(house=house_label)
            if house is None:
                summary.notes.append("no house rules given: the regulation's defaults apply")
            if jobs > 1:
                from validator.parallel import check_parallel

                if ruleset:
                    registry.resolve(ruleset)
                outcomes = check_parallel(
                    logs, jobs, summary, ruleset=ruleset, house=str(house) if house is not None else None
                )
            else:
                outcomes = check_logs(registry, logs, ruleset=ruleset, house=lookup, summary=summary)
            for outcome in progress(outcomes, enabled=not quiet):
                reporter.round(outcome)
            reporter.finish(summary, rule_catalogue(registry, summary.rulesets))
    except ValidatorError as exc:
        raise _fail(str(exc)) from None
    finally:
        configure(Limits())  # the command's limits end with it (a test runs many commands in one process)
    raise typer.Exit(1 if summary.findings else 0)


# ---------------------------------------------------------------- explain
@app.command()
def explain(
    log: Annotated[str, typer.Argument(help="The log file holding the round.")],
    round_id: Annotated[str, typer.Option("--round", help="The round id to replay step by step.")],
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="ID or ID@YYYY-MM-DD.")] = None,
    house: Annotated[Path | None, typer.Option("--house", help="A house-rules/1 YAML file to apply.")] = None,
) -> None:
    """Replay one round step by step and say why each finding was made."""
    from validator.explain import explain_round

    try:
        registry = _registry()
        lookup = None
        if house is not None:
            from validator.house.apply import house_lookup

            lookup, _ = house_lookup(house, registry)
        for line in explain_round(registry, log, round_id, ruleset=ruleset, house=lookup):
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


# ---------------------------------------------------------------- simulate
@app.command()
def simulate(
    ruleset: Annotated[str, typer.Option("--ruleset", help="ID@YYYY-MM-DD: the version to play by.")],
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="How many rounds.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Same seed, same file.")] = 1,
    table: Annotated[str, typer.Option("--table", help="The table id written in the log.")] = "T-01",
    house: Annotated[
        Path | None, typer.Option("--house", help="House-rules file; its entry for --table applies.")
    ] = None,
    start: Annotated[
        str | None, typer.Option("--start", help="Opening time, ISO 8601 (default: the version's date).")
    ] = None,
    minimum: Annotated[
        str | None,
        typer.Option("--minimum", help="Table minimum (default: the house entry's, else 10)."),
    ] = None,
    maximum: Annotated[
        str | None,
        typer.Option("--maximum", help="Table maximum (default: the house entry's, else 1000)."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to FILE (.gz: compressed).")
    ] = None,
    inject: Annotated[
        str | None,
        typer.Option(
            "--inject",
            help="RULE[,RULE…]: break these rules (ids as `rules show` lists them) at random rounds.",
        ),
    ] = None,
    rate: Annotated[
        float, typer.Option("--rate", help="With --inject: the share of rounds given a violation.")
    ] = 0.05,
) -> None:
    """Play séances by a ruleset version and write them as hand-log/1.

    With --inject, the planted violations are written beside the log as LOG.planted.json: for each, the
    rule, round, line and stake of the finding `check` must give.

    Every option is checked before anything is written: the limits are judged by the version's own
    rules on the table, and the séance must stay within the dates the version is in force.
    """
    from validator.simulate.plan import prepare
    from validator.simulate.run import write

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
@app.command()
def lint(
    files: Annotated[list[Path], typer.Argument(help="House-rules/1 YAML files (règlement intérieur).")],
    fmt: Annotated[str, typer.Option("--format", "-f", help=f"Output format: {FORMATS}.")] = "text",
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to FILE.")] = None,
    when: Annotated[
        str | None,
        typer.Option("--date", help="YYYY-MM-DD: the rulesets' versions in force that day (default: today)."),
    ] = None,
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
        with _output(output) as out:
            reporter = make_reporter(fmt, out, color=output is None and out.isatty())
            summary = Summary(house=", ".join(str(f) for f in files))
            for outcome in lint_files(registry, files, day, summary, cannot_read):
                reporter.round(outcome)
            reporter.finish(summary, rule_catalogue(registry, summary.rulesets))
    except ValidatorError as exc:
        raise _fail(str(exc)) from None
    raise typer.Exit(2 if unreadable else 1 if summary.findings else 0)


# ---------------------------------------------------------------- schema
@app.command()
def schema(which: Annotated[str, typer.Argument(help="hand-log or house-rules")]) -> None:
    """Print a JSON Schema the project ships."""
    if which == "hand-log":
        from validator.logs.reader import load_schema
    elif which == "house-rules":
        from validator.house.schema import load_schema  # type: ignore[no-redef]
    else:
        raise _fail(f"unknown schema {which!r}: choose hand-log or house-rules")
    typer.echo(json.dumps(load_schema(), indent=2, ensure_ascii=False))


# ---------------------------------------------------------------- rules
@rules_app.command("list")
def rules_list() -> None:
    """Families, their versions and the dates each is in force."""
    from validator.rules_view import list_lines

    try:
        for line in list_lines(_registry()):
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@rules_app.command("show")
def rules_show(spec: Annotated[str, typer.Argument(help="ID or ID@YYYY-MM-DD")]) -> None:
    """The resolved ruleset: parameters, house options, side bets and rules."""
    from validator.rules_view import show_lines

    try:
        for line in show_lines(_registry().pick(spec)):
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@rules_app.command("diff")
def rules_diff(
    old: Annotated[str, typer.Argument(help="ID@DATE")],
    new: Annotated[str, typer.Argument(help="ID@DATE")],
) -> None:
    """What changed between two versions, parameter by parameter and rule by rule."""
    from validator.rules_view import diff_lines

    try:
        registry = _registry()
        for line in diff_lines(registry.pick(old), registry.pick(new)):
            typer.echo(line)
    except ValidatorError as exc:
        raise _fail(str(exc)) from None


@rules_app.command("check")
def rules_check(
    files: Annotated[list[Path], typer.Argument(help="Ruleset files (.rules) or folders.")],
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


@rules_app.command("test")
def rules_test(
    directory: Annotated[
        Path | None, typer.Argument(help="Fixture folder (default: tests/fixtures/rules).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every case.")] = False,
) -> None:
    """Run rule fixtures: each log must give exactly the findings its .expect.json lists."""
    from validator.fixtures import find_fixtures, run_fixture

    root = directory or Path("tests/fixtures/rules")
    passed = failed = 0
    try:
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
