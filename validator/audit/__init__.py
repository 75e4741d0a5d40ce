"""The audit report: DuckDB over the dataset's Parquet files (`query`), then one self-contained HTML
page (`html`). `casino-validator report` and `check --format html` both end here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from validator.errors import ValidatorError
from validator.i18n import _


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
    theoretical: Mapping[str, Decimal] | None = None,
    title: str = "Audit report",
) -> str:
    """The report over these datasets, filtered; `theoretical`: table id → the house edge of its rules
    (by default, computed from the versions and house entries the tables' rounds were judged by)."""
    from validator.audit.html import render, rule_docs
    from validator.audit.query import Filters, build, connect

    if start is not None and end is not None and start > end:
        raise ValidatorError(_("--from {start} is after --to {end}").format(start=start, end=end))
    filters = Filters(start, end, casino, table)
    if theoretical is None:
        from validator.audit.theory import theoretical_edges

        theoretical = theoretical_edges(connect(datasets, filters))
    audit = build(datasets, filters, theoretical=theoretical)
    return render(audit, rule_docs(registry), title=title)
