"""The text's own words in a house file: `abandon: true` for `surrender: true`, `dames_de_coeur:` (or
"dames de cœur":) for `lucky_ladies:`, as the ruleset declares them (`alias "…"` on an option or a
side bet). A key is compared without case, accents or punctuation.

A table's entry is read with its aliases replaced by the names they stand for, once its version is
known (`resolve`); where each key was written is kept, so a finding still points at the line of the
word the casino wrote. An entry that writes both a name and its alias keeps both: the alias is then
reported as an unknown key.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from validator.dsl.model import Ruleset
from validator.house.load import HouseFile

OPTIONS = "options"
SIDE_BETS = "side_bets"
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss"})


def normalized(word: str) -> str:
    """`Dames de Cœur` → `dames_de_coeur`; `2 + 1 cartes` → `2_1_cartes`."""
    plain = unicodedata.normalize("NFKD", word.translate(_LIGATURES))
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def option_aliases(ruleset: Ruleset) -> dict[str, str]:
    """Each declared word of a table option (not a side bet's setting), normalized → the option's name."""
    return {
        normalized(alias): name
        for name, option in ruleset.options.items()
        if not ("." in name and name.partition(".")[0] in ruleset.side_bets)
        for alias in option.aliases
    }


def side_bet_aliases(ruleset: Ruleset) -> dict[str, str]:
    """Each declared word of a side bet, normalized → the side bet's name."""
    return {normalized(alias): name for name, bet in ruleset.side_bets.items() for alias in bet.aliases}


def resolve(house: HouseFile, table_id: str, ruleset: Ruleset) -> None:
    """Replace, in the table's entry, each alias of `ruleset` by the name it stands for (options and
    side bets), keeping where each was written."""
    entry = house.tables.get(table_id)
    if not isinstance(entry, dict):
        return
    base: tuple[Any, ...] = ("tables", table_id)
    for section, words in ((OPTIONS, option_aliases(ruleset)), (SIDE_BETS, side_bet_aliases(ruleset))):
        values = entry.get(section)
        if not isinstance(values, dict) or not words:
            continue
        renamed: dict[Any, Any] = {}
        for key, value in values.items():
            name = words.get(normalized(key)) if isinstance(key, str) else None
            if name is not None and name != key and name not in values and name not in renamed:
                _move_places(house, (*base, section, key), (*base, section, name))
                renamed[name] = value
            else:
                renamed[key] = value
        entry[section] = renamed


def _move_places(house: HouseFile, old: tuple[Any, ...], new: tuple[Any, ...]) -> None:
    for path, place in list(house.places.items()):
        if path[: len(old)] == old:
            house.places[new + path[len(old) :]] = place
