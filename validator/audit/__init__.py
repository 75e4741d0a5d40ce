"""The audit report: DuckDB over the dataset's Parquet files (`query`), then one self-contained HTML
page (`html`). `casino-validator report` and `check --format html` both end here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from validator.errors import ValidatorError


def parse_day(value: str | None, option: str) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValidatorError(f"{option} {value!r}: give a day as YYYY-MM-DD") from None


def audit_html(
    datasets: Sequence[str],
    registry: Any,
    *,
    start: date | None = None,
    end: date | None = None,
    casino: str | None = None,
    table: str | None = None,
    theoretical: Mapping[str, Decimal] | None = None,
    title: str = "Audit report",
) -> str:
    """The report over these datasets, filtered; `theoretical`: table id → the house edge of its rules
    (by default, computed from the versions and house entries the tables' rounds were judged by)."""
    from validator.audit.html import render, rule_docs
    from validator.audit.query import Filters, build, connect

    if start is not None and end is not None and start > end:
        raise ValidatorError(f"--from {start} is after --to {end}")
    import duckdb

    filters = Filters(start, end, casino, table)
    try:
        if theoretical is None:
            from validator.audit.theory import theoretical_edges

            theoretical = theoretical_edges(connect(datasets, filters))
        audit = build(datasets, filters, theoretical=theoretical)
    except duckdb.Error as error:  # a file its manifest lists, damaged inside (checked whole only here)
        lines = str(error).strip().splitlines() or [type(error).__name__]
        raise ValidatorError(f"{', '.join(datasets)}: cannot read the dataset ({lines[0][:300]})") from None
    return render(audit, rule_docs(registry), title=title)


def dataset_notes(datasets: Sequence[str]) -> list[str]:
    """What a report should say of the datasets besides its figures: runs not counted (still running,
    or killed before their commit)."""
    from validator.audit.query import sources

    return sources(datasets).notes
