"""What each table's rules give the house in theory, beside the hold it kept: the house edge of the main
stake of the versions the table's rounds were judged by, with the options its house-rules entry chose,
weighted by the rounds played under each; and the variance of the main stake's result per unit staked,
from which the report draws the 95 % band the hold should fall in.

Both come from `validator.maths.api.main_statistics`, the sibling of `house_edge` for the report's bands:
one computation of the version's main game, `edge`'s own. Blackjack's main stake gives its variance
(composition-dependent, splits included: within 0.01 of Wizard of Odds' Appendix 4, tests/maths),
bataille its outcomes, each net with its probability.

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
    return {table: edge for table, (edge, _) in theory(con).items()}


def theory(con: Any) -> dict[str, tuple[Decimal, float]]:
    """Table id → (the house edge of its rules, the variance per unit staked), weighted by rounds."""
    rows = con.execute(
        """
        SELECT table_id, ruleset, house_file, sum(weight) AS rounds
        FROM rounds WHERE table_id IS NOT NULL AND ruleset IS NOT NULL AND status <> 'unreadable'
        GROUP BY 1, 2, 3
        """
    ).fetchall()
    weighted: dict[str, Decimal] = {}
    spread: dict[str, float] = {}
    counted: dict[str, int] = {}
    priced: set[str] = set()
    failed: set[str] = set()
    for table, version, house_file, rounds in rows:
        edge = _edge(version, house_file, table)
        variance = _variance(version, house_file, table)
        if edge is None or variance is None:
            failed.add(table)
            continue
        priced.add(table)
        weighted[table] = weighted.get(table, Decimal(0)) + edge * rounds
        spread[table] = spread.get(table, 0.0) + variance * rounds
        counted[table] = counted.get(table, 0) + rounds
    return {
        table: (
            (weighted[table] / counted[table]).quantize(Decimal("0.00000001")),
            spread[table] / counted[table],
        )
        for table in sorted(priced - failed)
    }


@cache
def _main(version: str, house_file: str | None, table: str) -> tuple[Decimal, float] | None:
    """The house edge of the main stake and its variance per unit staked (`main_statistics`); None where
    the figure cannot be had."""
    from validator.maths.api import main_statistics

    family, _, day = version.partition("@")
    try:
        on = date.fromisoformat(day) if day else date.today()
        entry = _entry(house_file, table) if house_file else None
        found = main_statistics(family, on, entry)
    except (ValidatorError, ValueError, LookupError):
        return None
    return found.house_edge, float(found.variance)


def _edge(version: str, house_file: str | None, table: str) -> Decimal | None:
    found = _main(version, house_file, table)
    return found[0] if found is not None else None


def _variance(version: str, house_file: str | None, table: str) -> float | None:
    found = _main(version, house_file, table)
    return found[1] if found is not None else None


def _entry(house_file: str, table: str) -> Mapping[str, Any]:
    from validator.house.load import load_house

    if not Path(house_file).is_file():
        raise LookupError(house_file)
    entry = load_house(Path(house_file)).tables.get(table)
    if not isinstance(entry, Mapping):
        raise LookupError(table)
    return entry
