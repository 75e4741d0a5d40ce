"""What other reports call: a table's theoretical house edge."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from validator.maths.edge import house_for, main_return
from validator.registry import default_registry


def house_edge(ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None = None) -> Decimal:
    """The house edge of the main stake, as a fraction of the initial stake (0.0051 is 0.51 %), of the
    version of `ruleset_id` in force on `on`, with the house options `house_entry` (option name → value,
    as `house.lint.house_options` gives them; None: the version's defaults). Raises ValidatorError
    (unknown ruleset, no version that day, a required option missing)."""
    ruleset = default_registry().in_force(ruleset_id, on)
    options = tuple(sorted((k, repr(v)) for k, v in (house_entry or {}).items()))
    return _edge(ruleset.version, options, dict(house_entry or {}), ruleset_id, on)


_EDGES: dict[tuple[str, tuple[tuple[str, str], ...]], Decimal] = {}


def _edge(
    version: str, key: tuple[tuple[str, str], ...], entry: dict[str, Any], ruleset_id: str, on: date
) -> Decimal:
    found = _EDGES.get((version, key))
    if found is None:
        ruleset = default_registry().in_force(ruleset_id, on)
        ev, _, _ = main_return(ruleset, house_for(ruleset, entry))
        found = -Decimal(repr(ev)).quantize(Decimal("0.00000001"))
        _EDGES[(version, key)] = found
    return found
