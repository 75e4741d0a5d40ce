"""The text's own words for what a house file keys (`alias "…"`): how a word is compared, and which
words of a version may stand for which names.

A house file is keyed by the names the ruleset gives (`surrender`, `lucky_ladies`, `side_bets`), or by
the words of the text those names stand for, declared beside each in the ruleset (`alias "abandon"`):
an option, a fixed value, a side bet, a side bet's setting, the side bets as a whole. A word is compared
without case, accents or punctuation (`Dames de Cœur`, `dames_de_coeur`). The law's words live in the
rulesets; this module only reads them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from validator.dsl.model import FixedDef, OptionDef, Ruleset, SideBetDef

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss"})


def normalized(word: str) -> str:
    """`Dames de Cœur` → `dames_de_coeur`; `2 + 1 cartes` → `2_1_cartes`; `black-jack payé` →
    `black_jack_paye`."""
    plain = unicodedata.normalize("NFKD", word.translate(_LIGATURES))
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


@dataclass(frozen=True, slots=True)
class Words:
    """A version's words, by where a house file writes them: each maps a normalized word to the name it
    stands for. `options`: the table's options and the values the text fixes (under `options:`);
    `side_bets`: the side bets; `settings`: each side bet's settings (under its block); `sections`: the
    table entry's own keys (`mises additionnelles` → `side_bets`)."""

    options: dict[str, str]
    side_bets: dict[str, str]
    settings: dict[str, dict[str, str]]
    sections: dict[str, str]


SIDE_BETS = "side_bets"


def words(ruleset: Ruleset) -> Words:
    """The words `ruleset` declares, by where a house file writes them."""
    options: dict[str, str] = {}
    settings: dict[str, dict[str, str]] = {}
    for name, option in ruleset.options.items():
        bet, dot, setting = name.partition(".")
        if dot and bet in ruleset.side_bets:
            settings.setdefault(bet, {}).update((normalized(a), setting) for a in option.aliases)
        else:
            options.update((normalized(a), name) for a in option.aliases)
    for name, fixed in ruleset.fixed.items():
        options.update((normalized(a), name) for a in fixed.aliases)
    return Words(
        options,
        {normalized(a): name for name, bet in ruleset.side_bets.items() for a in bet.aliases},
        settings,
        {normalized(a): SIDE_BETS for a in ruleset.side_bets_aliases},
    )


@dataclass(frozen=True, slots=True)
class Clash:
    """A word two names of one place of a house file would share (or a word that is another name there)."""

    line: int  # the line of the name whose alias it is
    kind: str  # what that name is in the ruleset: option, fixed, side_bet
    place: str  # options, side_bets, side_bets.<bet>
    word: str
    name: str
    other: str


def clashes(
    options: Mapping[str, OptionDef], fixed: Mapping[str, FixedDef], side_bets: Mapping[str, SideBetDef]
) -> Iterator[Clash]:
    """Each word a house file could not read one way only; `rules check` refuses a version with one."""
    Named = tuple[str, str, tuple[str, ...], int]  # its name in the place, its kind, aliases, line
    table: list[Named] = []
    per_bet: dict[str, list[Named]] = {}
    for name, option in options.items():
        bet, dot, setting = name.partition(".")
        if dot and bet in side_bets:
            per_bet.setdefault(bet, []).append((setting, "option", option.aliases, option.line))
        else:
            table.append((name, "option", option.aliases, option.line))
    table += [(name, "fixed", f.aliases, f.line) for name, f in fixed.items()]
    places = [
        ("options", table),
        (SIDE_BETS, [(n, "side_bet", b.aliases, b.line) for n, b in side_bets.items()]),
    ]
    places += [(f"{SIDE_BETS}.{bet}", found) for bet, found in per_bet.items()]
    for place, names in places:
        taken = {normalized(name): name for name, _kind, _aliases, _line in names}
        for name, kind, aliases, line in names:
            for alias in aliases:
                other = taken.setdefault(normalized(alias), name)
                if other != name:
                    yield Clash(line, kind, place, alias, name, other)
