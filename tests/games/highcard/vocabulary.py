"""High card's words of the rules language: the rank of a hand's card and of the dealer's, ace high."""

from __future__ import annotations

from dataclasses import dataclass

from validator.dsl.facts import Facts, fact
from validator.dsl.words import GameWords


@dataclass(eq=False, slots=True)
class HighCardHandFacts(Facts):
    """`hand.*`, high card's."""

    rank: int | None = fact(None, "high card: the value of the hand's card, 2…14 (ace high)")


@dataclass(eq=False, slots=True)
class HighCardDealerFacts(Facts):
    """`dealer.*`, high card's."""

    rank: int | None = fact(None, "high card: the value of the dealer's card, 2…14 (ace high)")


WORDS = GameWords(facts={"hand": HighCardHandFacts, "dealer": HighCardDealerFacts})
