"""Every hand a player can hold in a round, as the main game values them: its cards as a multiset of values,
the hands one card more (or busted), and the cards out of the shoe while it is played (its row).

The hands of a round fall into families: the round's own hands (its first two cards, then each card it
draws), and for each pair the rules let split and each number of the pair's cards out so far (two, and one
more at each resplit), the hands of a split box, each starting with one of the pair's cards. A split hand
is played from the shoe without its own cards and the pair's cards out so far; the cards drawn to the
box's other hands are not taken out (Wizard of Odds' method in its Appendix 9: "only how many hands the
player had already split, but not the other cards drawn in those hands").

A hand's row is the cards out of the shoe while it is played (beyond the dealer's first card): its own
cards, and for a split hand the pair's other cards out. Rows are shared between hands (the hand 8-8-3 and
the split hand 8-3 with one more eight out have the same row): the dealer's drawing is computed once per
row (`dealer.table`).

Multisets are keyed by an integer, RADIX to the power of the value for each card: a card more is a sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from validator.maths.numeric import Bools, Ints, np
from validator.maths.shoe import VALUES, Composition

RADIX = 32  # more than the cards of one value any row holds (21 aces and seven more of a split pair)
POWER = tuple(RADIX**i for i in range(VALUES))
BUST = -1  # a child that busts
NONE = -2  # a card the family does not draw (a hand that may take no card, or a card the shoe lacks)
UNSPLIT = -1  # the pair of the round's own hands: none

# How far a family's hands go: their first two cards only (a split ace that takes no card), those and one
# card more (a split ace doubled, where the rules allow it but no card), or every card.
TWO, DOUBLED, ALL = 2, 3, 22


@dataclass(frozen=True, slots=True)
class Family:
    pair: int  # UNSPLIT, or the value index of the split pair
    out: int  # the pair's cards out of the shoe while a hand is played (0 for the round's own hands)
    depth: int  # TWO, DOUBLED or ALL: the most cards a hand holds

    @property
    def extra(self) -> int:
        """The pair's cards out beyond the hand's own first card."""
        return self.out - 1 if self.pair != UNSPLIT else 0


@dataclass(frozen=True, slots=True)
class Hands:
    """The hands of some families, side by side: for hand k, its family (index into `families`), hard
    total, whether it holds an ace, how many cards, its row (index into `rows`), and its child for each
    value (the hand one card more: an index, BUST or NONE). A family's hands are consecutive, sorted by
    their cards' key (`keys`, from `starts[f]`); `roots[f]` are its two-card hands."""

    families: tuple[Family, ...]
    family: Ints
    hard: Ints
    ace: Bools
    cards: Ints
    row: Ints
    child: Ints  # hands × values
    rows: Ints  # rows × values: the cards out, by value
    keys: Ints
    starts: tuple[int, ...]  # where each family's hands begin (and, last, the count of hands)
    roots: tuple[Ints, ...]
    levels: tuple[Ints, ...]  # the hands of each hard total, 0 … 21

    def find(self, family: int, counts: tuple[int, ...] | list[int]) -> int | None:
        """The hand of `family` holding these cards (by value), None if the family has no such hand."""
        low, high = self.starts[family], self.starts[family + 1]
        key = key_of(counts)
        at = low + int(np.searchsorted(self.keys[low:high], key))
        return at if at < high and int(self.keys[at]) == key else None


def key_of(counts: tuple[int, ...] | list[int]) -> int:
    return sum(c * p for c, p in zip(counts, POWER, strict=True))


@lru_cache(maxsize=8)
def _multisets(shoe: Composition) -> tuple[Ints, Ints, Ints]:
    """Every multiset of values the shoe holds whose hard total is 21 or less (an ace counted 1), two cards
    or more, sorted by key: their keys, hard totals and numbers of cards."""
    found: list[tuple[int, int, int]] = []
    counts = [0] * VALUES

    def grow(start: int, hard: int, cards: int, key: int) -> None:
        if cards >= 2:
            found.append((key, hard, cards))
        for value in range(start, VALUES):
            if hard + value + 1 > 21:
                break
            if counts[value] < shoe[value]:
                counts[value] += 1
                grow(value, hard + value + 1, cards + 1, key + POWER[value])
                counts[value] -= 1

    grow(0, 0, 0, 0)
    found.sort()
    table = np.array(found, dtype=np.int64)
    return table[:, 0].copy(), table[:, 1].copy(), table[:, 2].copy()


@lru_cache(maxsize=8)
def hands(shoe: Composition, families: tuple[Family, ...]) -> Hands:
    """The hands of `families` dealt from `shoe` (kept per process: the figures of a version's options and
    readings share them)."""
    every_key, every_hard, every_cards = _multisets(shoe)
    power = np.array(POWER, dtype=np.int64)
    parts: list[tuple[Ints, Ints, Ints, Ints]] = []  # per family: positions in `every`, child, removed keys
    starts = [0]
    for fam in families:
        chosen = every_cards <= fam.depth
        if fam.pair != UNSPLIT:
            held = (every_key // POWER[fam.pair]) % RADIX
            chosen &= (held >= 1) & (held + fam.extra <= shoe[fam.pair])
        where = np.nonzero(chosen)[0]
        keys = every_key[where]
        wanted = keys[:, None] + power[None, :]  # one card more, by value
        at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
        child = np.where(keys[at] == wanted, at + starts[-1], NONE)
        busts = every_hard[where][:, None] + np.arange(1, VALUES + 1)[None, :] > 21
        child = np.where(busts, BUST, child)
        removed = keys + (fam.extra * POWER[fam.pair] if fam.pair != UNSPLIT else 0)
        parts.append((where, child, removed, np.full(len(where), len(starts) - 1, dtype=np.int64)))
        starts.append(starts[-1] + len(where))
    where = np.concatenate([part[0] for part in parts])
    removed_keys, row = np.unique(np.concatenate([part[2] for part in parts]), return_inverse=True)
    rows = (removed_keys[:, None] // power[None, :]) % RADIX
    keys = every_key[where]
    hard = every_hard[where]
    cards = every_cards[where]
    family = np.concatenate([part[3] for part in parts])
    aces = (keys % RADIX) > 0
    roots = tuple(low + np.nonzero(cards[low:high] == 2)[0] for low, high in pairwise(starts))
    return Hands(
        families,
        family,
        hard,
        aces,
        cards,
        row.astype(np.int64),
        np.concatenate([part[1] for part in parts]).astype(np.int64),
        rows.astype(np.int64),
        keys,
        tuple(starts),
        roots,
        tuple(np.nonzero(hard == total)[0] for total in range(22)),
    )
