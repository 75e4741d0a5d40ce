"""The text's own words in a house file: `abandon: true` for `surrender: true`, `dames_de_coeur:` (or
"dames de cœur":) for `lucky_ladies:`, `black_jack_payé:` for the fixed `blackjack_pays`, a whole
`mises_additionnelles:` block for `side_bets:` with the side bets and their settings inside it in the
text's words too, as the ruleset declares them (`alias "…"` beside each name: validator/dsl/aliases.py,
which also says how a word is compared). No word is written here: every one comes from the version.

A table's entry is read with its words replaced by the names they stand for, once its version is known
(`resolve`); where each key was written is kept, so a finding still points at the line of the word the
casino wrote. An entry that writes both a name and its word keeps both: the word is then reported as an
unknown key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validator.dsl.aliases import normalized, words
from validator.dsl.model import Ruleset
from validator.house.load import HouseFile, check_types

__all__ = ["normalized", "resolve"]

OPTIONS = "options"
SIDE_BETS = "side_bets"


def resolve(house: HouseFile, table_id: str, ruleset: Ruleset) -> None:
    """Replace, in the table's entry, each word of `ruleset` by the name it stands for (the entry's own
    keys, its options and fixed values, its side bets and their settings), keeping where each was
    written. Idempotent: an entry already read is left as it is."""
    entry = house.tables.get(table_id)
    if not isinstance(entry, dict):
        return
    said = words(ruleset)
    base: tuple[Any, ...] = ("tables", table_id)
    renames = _Renames(house)
    # A block in the text's words is read as the block it stands for, when it is one (a mapping); a
    # value of another kind keeps its word, and the linter says the key is not one it knows.
    own = renames.of(base, entry, said.sections, lambda value: isinstance(value, dict))
    sections = renames.count
    if sections:  # the same entry, its keys renamed in place (callers hold it)
        entry.clear()
        entry.update(own)
    options = entry.get(OPTIONS)
    if isinstance(options, dict):
        entry[OPTIONS] = renames.of((*base, OPTIONS), options, said.options)
    bets = entry.get(SIDE_BETS)
    if isinstance(bets, dict):
        entry[SIDE_BETS] = bets = renames.of((*base, SIDE_BETS), bets, said.side_bets)
        for bet, settings in bets.items():
            own_words = said.settings.get(bet) if isinstance(bet, str) else None
            if own_words and isinstance(settings, dict):
                bets[bet] = renames.of((*base, SIDE_BETS, bet), settings, own_words)
    if renames.count:
        house.rekeyed()
    if sections:
        # A block in the text's words escaped the reading's type checks: held to them now (exit 2 at
        # its line, as `side_bets: 3` is refused when the file is read).
        check_types(house)


class _Renames:
    """The renaming of one entry's keys, counted."""

    def __init__(self, house: HouseFile) -> None:
        self.house = house
        self.count = 0

    def of(
        self,
        path: tuple[Any, ...],
        values: dict[Any, Any],
        words: dict[str, str],
        fits: Callable[[Any], bool] | None = None,
    ) -> dict[Any, Any]:
        """`values` with each key that is a word of `words` replaced by its name (its place in the file
        moved with it), unless the name is written too; the order of the keys kept."""
        if not words:
            return values
        renamed: dict[Any, Any] = {}
        for key, value in values.items():
            name = words.get(normalized(key)) if isinstance(key, str) else None
            if (
                name is not None
                and name != key
                and name not in values
                and name not in renamed
                and (fits is None or fits(value))
            ):
                _move_places(self.house, (*path, key), (*path, name))
                renamed[name] = value
                self.count += 1
            else:
                renamed[key] = value
        return renamed


def _move_places(house: HouseFile, old: tuple[Any, ...], new: tuple[Any, ...]) -> None:
    for place_path, place in list(house.places.items()):
        if place_path[: len(old)] == old:
            house.places[new + place_path[len(old) :]] = place
