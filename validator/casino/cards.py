"""Cards: ranks, values, totals. Pure mechanics, the same under every text."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Final

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED = frozenset("HD")

# Blackjack value of each rank; an ace is 1 here and may count 11 in `best_total`. The tables read at
# every card are Final: the compiled build keeps them in C variables, not in the module's dictionary.
BJ_VALUE: Final = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "T": 10,
    "J": 10,
    "Q": 10,
    "K": 10,
}
# The blackjack value of each card by its code (`QH` → 10): the totals kept at every card look a card up
# once, where its rank and then the rank's value were two lookups.
CARD_VALUE: Final = {r + s: BJ_VALUE[r] for s in SUITS for r in RANKS}
# Bataille order: ace high.
BATAILLE_VALUE = {r: i for i, r in enumerate("23456789TJQKA", start=2)}
# Position in a run (for "tierce"): ace low; an ace also follows the king (handled in is_run).
RUN_INDEX = {r: i for i, r in enumerate(RANKS, start=1)}


def normalize(card: str) -> str:
    """`10H` → `TH`: one spelling per card so counts and comparisons are exact."""
    return "T" + card[2:] if card.startswith("10") else card


def all_cards() -> list[str]:
    return [r + s for s in SUITS for r in RANKS]


def best_total(cards: Iterable[str]) -> tuple[int, bool]:
    """(total, soft): every ace counts 1, and one counts 11 when that does not pass 21."""
    total = 0
    aces = 0
    for card in cards:
        rank = card[0]
        total += BJ_VALUE[rank]
        if rank == "A":
            aces += 1
    if aces and total + 10 <= 21:
        return total + 10, True
    return total, False


def value(card: str) -> int:
    return BJ_VALUE[card[0]]


def same_suit(cards: Sequence[str]) -> bool:
    return len({c[1] for c in cards}) == 1


def same_colour(cards: Sequence[str]) -> bool:
    return len({c[1] in RED for c in cards}) == 1


def same_rank(cards: Sequence[str]) -> bool:
    return len({c[0] for c in cards}) == 1


# Where an ace may stand in a run: low only (A-2-3), high only (Q-K-A), either end, or also between
# the king and the two (K-A-2, the ranks wrapping round).
ACE_PLACES = ("low", "high", "both", "wrap")


def is_run(cards: Sequence[str], ace: str = "both") -> bool:
    """Consecutive ranks in any order; by default the ace is low (A-2-3) or high (Q-K-A), not both at
    once (`ace`: see ACE_PLACES)."""
    if len(cards) < 2:
        return False
    if ace == "wrap":
        # Ranks round a circle (A after K and before 2): a run is a block of consecutive positions.
        ring = len(RANKS)
        places = {RANKS.index(c[0]) for c in cards}
        if len(places) != len(cards):
            return False
        return any(all((start + k) % ring in places for k in range(len(cards))) for start in places)
    for high_ace in {"low": (False,), "high": (True,), "both": (False, True)}[ace]:
        idx = sorted(14 if (high_ace and c[0] == "A") else RUN_INDEX[c[0]] for c in cards)
        if all(b == a + 1 for a, b in itertools.pairwise(idx)):
            return True
    return False
