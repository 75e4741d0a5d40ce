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
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.errors import ValidatorError

if TYPE_CHECKING:
    from validator.maths.game import DecisionCosts


@dataclass(frozen=True, slots=True)
class Priced:
    """One version's figures at one table (with its house file's options): the main stake's edge and
    variance per unit staked, the covariance of two boxes' main stakes in one round (None where the
    game gives none: the report then takes a round's boxes as one unit, the wider band), and what a
    logged decision costs against the best play (None: the figures only, every decision priced as the
    best play)."""

    edge: Decimal
    variance: float
    covariance: float | None = None
    cost: DecisionCosts | None = None
    # A bet of its own, as the logs name its stake's kind (`insurance`, `hyper:17`) → (its house edge,
    # its variance per unit staked).
    bets: Mapping[str, tuple[Decimal, float]] = field(default_factory=dict)


def priced(theory: Theory, table: str, version: str | None, house_file: str | None) -> Priced | None:
    """The figures `theory` gives the rounds of `table` judged by `version` with `house_file`."""
    found = theory.get(table)
    if found is None:
        return None
    if isinstance(found, Priced):
        return found
    if isinstance(found, tuple):  # (edge, variance): figures given for the whole table
        return Priced(found[0], float(found[1]))
    return found.get((version or "", house_file)) if version is not None else None


# Table id → its figures: one `Priced` for the whole table (given figures), or per (version, house file)
# its rounds were judged by, as `theory` computes them.
Theory = Mapping[str, Priced | Mapping[tuple[str, str | None], Priced] | tuple[Decimal, float]]


def theoretical_edges(con: Any) -> dict[str, Decimal]:
    """Table id → the house edge of its rules (a fraction of the initial main stake), weighted by rounds."""
    return {table: edge for table, (edge, _) in weighted(con, theory(con)).items()}


def weighted(
    con: Any, found: Mapping[str, Mapping[tuple[str, str | None], Priced]]
) -> dict[str, tuple[Decimal, float]]:
    """Table id → (edge, variance) weighted by the rounds judged by each version."""
    rows = con.execute(
        """
        SELECT table_id, ruleset, house_file, sum(weight) AS rounds
        FROM rounds WHERE table_id IS NOT NULL AND ruleset IS NOT NULL AND status <> 'unreadable'
        GROUP BY 1, 2, 3
        """
    ).fetchall()
    edges: dict[str, Decimal] = {}
    spread: dict[str, float] = {}
    counted: dict[str, int] = {}
    for table, version, house_file, rounds in rows:
        priced = found.get(table, {}).get((version, house_file))
        if priced is None:
            continue
        edges[table] = edges.get(table, Decimal(0)) + priced.edge * rounds
        spread[table] = spread.get(table, 0.0) + priced.variance * rounds
        counted[table] = counted.get(table, 0) + rounds
    return {
        table: (
            (edges[table] / counted[table]).quantize(Decimal("0.00000001")),
            spread[table] / counted[table],
        )
        for table in sorted(counted)
    }


def theory(con: Any) -> dict[str, dict[tuple[str, str | None], Priced]]:
    """Table id → (version, house file) → its `Priced` figures. A table one of whose versions cannot be
    priced is left out whole: no figure rather than a wrong one."""
    rows = con.execute(
        """
        SELECT DISTINCT table_id, ruleset, house_file
        FROM rounds WHERE table_id IS NOT NULL AND ruleset IS NOT NULL AND status <> 'unreadable'
        """
    ).fetchall()
    found: dict[str, dict[tuple[str, str | None], Priced]] = {}
    failed: set[str] = set()
    for table, version, house_file in rows:
        priced = _priced(version, house_file, table)
        if priced is None:
            failed.add(table)
            continue
        found.setdefault(table, {})[(version, house_file)] = priced
    return {table: found[table] for table in sorted(set(found) - failed)}


@cache
def _priced(version: str, house_file: str | None, table: str) -> Priced | None:
    """The version's figures at the table (`validator.maths.api.table_theory`); None where they cannot
    be had."""
    from validator.maths.api import table_theory

    family, _, day = version.partition("@")
    try:
        on = date.fromisoformat(day) if day else date.today()
        entry = _entry(house_file, table) if house_file else None
        found = table_theory(family, on, entry)
    except (ValidatorError, ValueError, LookupError):
        return None
    covariance = found.statistics.covariance
    return Priced(
        found.main.house_edge,
        float(found.main.variance),
        float(covariance) if covariance is not None else None,
        found.cost,
        {bet: (figures.house_edge, float(figures.variance)) for bet, figures in found.bets.items()},
    )


def _entry(house_file: str, table: str) -> Mapping[str, Any]:
    from validator.house.load import load_house

    if not Path(house_file).is_file():
        raise LookupError(house_file)
    entry = load_house(Path(house_file)).tables.get(table)
    if not isinstance(entry, Mapping):
        raise LookupError(table)
    return entry
