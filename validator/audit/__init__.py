"""The audit report: DuckDB over the dataset's Parquet files (`query`), then one self-contained HTML
page (`html`). `casino-validator report` and `check --format html` both end here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any

from validator.errors import ValidatorError
from validator.i18n import N_, _

if TYPE_CHECKING:
    from validator.audit.theory import Theory


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
    datasets: Sequence[str],
    registry: Any,
    *,
    start: date | None = None,
    end: date | None = None,
    casino: str | None = None,
    table: str | None = None,
    theory: Theory | None = None,
    title: str = N_("Audit report"),
    csv_folder: str | None = None,
    as_of: date | None = None,
    csv_dialect: str | None = None,
) -> str:
    """The report over these datasets, filtered; `theory`: table id → its figures (`audit.theory.Theory`:
    by default computed from the versions and house entries the tables' rounds were judged by, each with
    what a logged decision costs; or given, (house edge, variance) for a whole table). A filter that
    matches nothing stops the run (exit 2) naming what the datasets hold. `csv_folder`: each table of
    the page also written there as CSV, in `csv_dialect` (`comma`, `semicolon`; by default the
    language's: validator/audit/dialects.py). `as_of`: the day the report is read, whose start (UTC) the
    findings' video is counted from (None: now)."""
    if start is not None and end is not None and start > end:
        raise ValidatorError(_("--from {start} is after --to {end}").format(start=start, end=end))
    # Imported when a report is made: the package is imported by every command (the command line reads
    # the CSV dialects of `audit.dialects`), the page, the queries and the rulesets' loading are not.
    import duckdb

    from validator.audit.html import reading_glosses, render, rule_docs, stake_titles, write_csv
    from validator.audit.query import Filters, build, check_filters, connect
    from validator.audit.theory import theory as compute
    from validator.findings.words import side_words

    filters = Filters(start, end, casino, table)
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
        write_csv(audit, csv_folder, csv_dialect)
    return render(audit, rule_docs(registry), title=title, csv_dialect=csv_dialect, titles=titles)


def dataset_notes(datasets: Sequence[str]) -> list[str]:
    """What a report should say of the datasets besides its figures: runs not counted (still running,
    or killed before their commit)."""
    from validator.audit.query import sources  # the queries' libraries, loaded by a report only

    return sources(datasets).notes
