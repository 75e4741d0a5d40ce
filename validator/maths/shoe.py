"""A shoe by blackjack value: how many cards of each value (ace = index 0 … ten-value = index 9) it holds.

Mechanics only: the number of decks is the version's `shoe.decks` parameter.
"""

from __future__ import annotations

from validator.casino.cards import BJ_VALUE, RANKS, SUITS

VALUES = 10  # ace, 2 … 9, ten-value
Composition = tuple[int, ...]


def full_shoe(decks: int) -> Composition:
    counts = [0] * VALUES
    for rank in RANKS:
        counts[BJ_VALUE[rank] - 1] += len(SUITS) * decks
    return tuple(counts)


def without(comp: Composition, *indexes: int) -> Composition:
    counts = list(comp)
    for index in indexes:
        counts[index] -= 1
    return tuple(counts)


def card_of(index: int, suit: str = "S") -> str:
    """A card of that value, to build the facts a rule reads (ten-value: a ten)."""
    return ("A23456789T"[index]) + suit
