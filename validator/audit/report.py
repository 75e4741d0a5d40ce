"""The audit report over datasets, as `casino-validator report` and `check --format html` ask for it:
DuckDB over the dataset's Parquet files (validator/audit/query.py), then one self-contained HTML page
(validator/audit/html.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time
from typing import Any

from validator.audit.html import reading_glosses, render, rule_docs, stake_titles, write_csv
from validator.audit.options import ReportOptions
from validator.audit.query import Filters, build, check_filters, connect, sources
from validator.audit.theory import Theory
from validator.audit.theory import theory as compute
from validator.errors import ValidatorError
from validator.findings.words import side_words
from validator.i18n import N_, _


def parse_day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValidatorError(
            _("{option} {value!r}: give a day as YYYY-MM-DD").format(option=option, value=value)
        ) from None


def audit_html(
    options: ReportOptions,
    registry: Any,
    *,
    theory: Theory | None = None,
    title: str = N_("Audit report"),
) -> str:
    """The report over the datasets of `options`, filtered by its days (`--from`, `--to`), casino and
    table; `theory`: table id → its figures (`audit.theory.Theory`: by default computed from the versions
    and house entries the tables' rounds were judged by, each with what a logged decision costs; or given,
    (house edge, variance) for a whole table). A filter that matches nothing stops the run (exit 2) naming
    what the datasets hold. `options.csv`: each table of the page also written there as CSV, in
    `options.csv_dialect` (`comma`, `semicolon`; by default the language's: validator/audit/dialects.py).
    `options.as_of`: the day the report is read, whose start (UTC) the findings' video is counted from
    (None: now)."""
    datasets = [str(d) for d in options.datasets]
    start, end = parse_day(options.start, "--from"), parse_day(options.end, "--to")
    as_of = parse_day(options.as_of, "--as-of")
    csv_folder = str(options.csv) if options.csv is not None else None
    if start is not None and end is not None and start > end:
        raise ValidatorError(_("--from {start} is after --to {end}").format(start=start, end=end))
    import duckdb

    filters = Filters(start, end, options.casino, options.table)
    try:
        check_filters(datasets, filters)
        if theory is None:
            theory = compute(connect(datasets, filters))
        moment = datetime.combine(as_of, time(0), UTC) if as_of is not None else None
        audit = build(datasets, filters, theory=theory, glosses=reading_glosses(registry), as_of=moment)
    except duckdb.Error as error:  # a file its manifest lists, damaged inside (checked whole only here)
        lines = str(error).strip().splitlines() or [type(error).__name__]
        raise ValidatorError(
            _("{datasets}: cannot read the dataset ({error})").format(
                datasets=", ".join(datasets), error=lines[0][:300]
            )
        ) from None
    titles = stake_titles(registry)
    every = {name: title for named in titles.values() for name, title in named.items()}
    for line in audit.hold_bets:  # a bet of its own by its name in the run's language
        line["bet_words"] = side_words(str(line["bet"]), every)
    if csv_folder is not None:
        write_csv(audit, csv_folder, options.csv_dialect)
    return render(audit, rule_docs(registry), title=title, csv_dialect=options.csv_dialect, titles=titles)


def dataset_notes(datasets: Sequence[str]) -> list[str]:
    """What a report should say of the datasets besides its figures: runs not counted (still running,
    or killed before their commit)."""
    return sources(datasets).notes
