"""What other reports call: a table's theoretical house edge."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.house.lint import option_value
from validator.i18n import _
from validator.maths.edge import house_for, main_return
from validator.rulebook.registry import default_registry

_EDGES: dict[tuple[str, tuple[tuple[str, str], ...]], Decimal] = {}
_ENTRY_KEYS = ("options", "side_bets")  # a house-rules/1 table entry, as written in the file


def house_edge(ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None = None) -> Decimal:
    """The house edge of the main stake, as a fraction of the initial stake (Decimal("0.00513017") is
    0.513 %), of the version of `ruleset_id` in force on `on`, for a player using the strategy `edge`
    states. `house_entry`: the table's entry of a house-rules/1 file as written (its `options` and
    `side_bets`), or the options already keyed as the rules name them (`house.lint.house_options`);
    None: the version's defaults. Raises ValidatorError: unknown ruleset, no version in force that day,
    a required option missing, a value the version does not allow."""
    ruleset = default_registry().in_force(ruleset_id, on)
    options = ruleset_options(ruleset, house_entry or {})
    key = (ruleset.version, tuple(sorted((k, repr(v)) for k, v in options.items())))
    found = _EDGES.get(key)
    if found is None:
        ev, _json, _game = main_return(ruleset, house_for(ruleset, options))
        found = -Decimal(repr(ev)).quantize(Decimal("0.00000001"))
        _EDGES[key] = found
    return found


def ruleset_options(ruleset: Ruleset, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a house entry (as written in the file, or already keyed), as the rules name them."""
    if not any(k in entry for k in _ENTRY_KEYS):
        return dict(entry)
    raw: dict[str, Any] = dict(entry.get(_ENTRY_KEYS[0]) or {})
    for bet, settings in (entry.get(_ENTRY_KEYS[1]) or {}).items():
        raw.update({f"{bet}.{k}": v for k, v in (settings or {}).items()})
    options: dict[str, Any] = {}
    for name, value in raw.items():
        option = ruleset.options.get(name)
        if option is None:
            continue  # a fixed key, or one the linter reports: it changes no figure
        converted, problem = option_value(option, value)
        if problem is not None or not option.allows(converted):
            raise ValidatorError(
                _("{version}: option {name}: {allowed}").format(
                    version=ruleset.version, name=name, allowed=problem or _("not allowed")
                )
            )
        options[name] = converted
    return options
