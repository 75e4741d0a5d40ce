"""What each table's rules give the house in theory, beside the hold it kept: the house edge of the main
stake (`validator.maths.api.house_edge`) of the versions the table's rounds were judged by, with the
options its house-rules entry chose, weighted by the rounds played under each.

A table whose figure cannot be had — its house file no longer at the path the run named, an entry the
version refuses, a ruleset this tool no longer knows — gets no theoretical figure rather than a wrong
one: the report leaves the cell empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError


def theoretical_edges(con: Any) -> dict[str, Decimal]:
    """Table id → the house edge of its rules (a fraction of the initial main stake)."""
    rows = con.execute(
        """
        SELECT "table", ruleset, house_file, sum(weight) AS rounds
        FROM rounds WHERE "table" IS NOT NULL AND ruleset IS NOT NULL AND status <> 'unreadable'
        GROUP BY 1, 2, 3
        """
    ).fetchall()
    weighted: dict[str, Decimal] = {}
    counted: dict[str, int] = {}
    priced: set[str] = set()
    failed: set[str] = set()
    for table, version, house_file, rounds in rows:
        edge = _edge(version, house_file, table)
        if edge is None:
            failed.add(table)
            continue
        priced.add(table)
        weighted[table] = weighted.get(table, Decimal(0)) + edge * rounds
        counted[table] = counted.get(table, 0) + rounds
    return {
        table: (weighted[table] / counted[table]).quantize(Decimal("0.00000001"))
        for table in sorted(priced - failed)
    }


@cache
def _edge(version: str, house_file: str | None, table: str) -> Decimal | None:
    from validator.maths.api import house_edge

    family, _, day = version.partition("@")
    try:
        on = date.fromisoformat(day) if day else date.today()
        entry = _entry(house_file, table) if house_file else None
        return house_edge(family, on, entry)
    except (ValidatorError, ValueError, LookupError):
        return None


def _entry(house_file: str, table: str) -> Mapping[str, Any]:
    from validator.house.load import load_house

    if not Path(house_file).is_file():
        raise LookupError(house_file)
    entry = load_house(Path(house_file)).tables.get(table)
    if not isinstance(entry, Mapping):
        raise LookupError(table)
    return entry
