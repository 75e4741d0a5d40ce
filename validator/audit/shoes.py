"""Each shoe's order, tested as regulators test shufflers: is it a random order, and is it an order an
earlier shoe already had (a pre-arranged or replayed shoe)?

The cards are those the logs show coming out of each shoe, in order (every round's deals, draws, burns and
discards: the dataset's `cards`), so a shoe is tested on what was dealt of it, up to its cut card.

- **Order** (`order_test`): the number of *links*, two cards in a row of one suit and ranks next to each
  other (7♠ 8♠, 8♠ 7♠; ace low, king high), as new decks are ordered and as a shuffle too short leaves
  them. In a random order of the cards dealt, each two places in a row hold two distinct cards drawn at
  random from them: the expected number of links is exactly λ = L ÷ n (n cards, L the ordered pairs of
  them that link), and their count is close to Poisson(λ) (rare, weakly dependent events: Chen–Stein).
  A shoe is flagged when P(Poisson(λ) ≥ its links) is below `ALPHA` ÷ (shoes tested) (Bonferroni), and
  only with `MIN_CARDS` cards at least. A shoe of six new decks unshuffled has about 290 links in 300
  cards; a random one about 11.
- **Reuse** (`reused`): a shoe holding a run of `RUN` cards in a row that an earlier shoe of the
  datasets also held, in that order. Two random shoes of six decks share a given run of 12 cards with
  probability below (6 ÷ 300)¹² ≈ 4 × 10⁻²¹ per pair of places: over a year of 10 000 shoes of 300
  cards (5 × 10⁷ pairs of shoes, 9 × 10⁴ pairs of places each) the chance of one false alarm is under
  2 × 10⁻⁸.

The false-alarm rate measured on random shoes is in docs/audit.md (`benchmarks/bench_shoes.py`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RANKS = "A23456789TJQK"
ALPHA = 0.01  # family-wise: the chance that any random shoe of a report is flagged by luck alone
MIN_CARDS = 52  # a shoe with fewer cards dealt is not tested for its order
RUN = 12  # cards in a row shared with an earlier shoe that make it a reused order


@dataclass(frozen=True, slots=True)
class OrderTest:
    cards: int
    links: int
    expected: float  # λ: the links a random order of these cards has on average
    p: float  # P(Poisson(λ) ≥ links)


def _rank(card: str) -> int:
    return RANKS.find(card[:1])


def _linked(a: str, b: str) -> bool:
    return len(a) == len(b) == 2 and a[1] == b[1] and abs(_rank(a) - _rank(b)) == 1 and _rank(a) >= 0


def cards_of(text: str | None) -> list[str]:
    """The dataset's `cards` (two characters each) as a list."""
    text = text or ""
    return [text[i : i + 2] for i in range(0, len(text) - 1, 2)]


def order_test(cards: Sequence[str]) -> OrderTest:
    """The links of this order, and how likely as many in a random order of the same cards."""
    n = len(cards)
    links = sum(1 for a, b in itertools.pairwise(cards) if _linked(a, b))
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    # Ordered pairs of distinct cards (by place) that link: each copy of a card with each copy of a
    # card of the same suit one rank away.
    pairs = 0
    for card, k in counts.items():
        rank = _rank(card)
        if rank < 0 or len(card) != 2:
            continue
        for step in (-1, 1):
            if 0 <= rank + step < len(RANKS):
                pairs += k * counts.get(RANKS[rank + step] + card[1], 0)
    expected = pairs / n if n > 1 else 0.0
    return OrderTest(n, links, expected, poisson_tail(links, expected))


def poisson_tail(k: int, lam: float) -> float:
    """P(X ≥ k) for X ~ Poisson(lam), by summing the terms below k (exact in floats for small lam)."""
    if k <= 0:
        return 1.0
    if lam <= 0.0:
        return 0.0
    term = math.exp(-lam)
    below = 0.0
    for i in range(k):
        below += term
        term *= lam / (i + 1)
    return max(0.0, 1.0 - below) if below < 0.999999 else _upper(k, lam)


def _upper(k: int, lam: float) -> float:
    """P(X ≥ k) summed from k upwards (where 1 − P(X < k) would lose it to rounding)."""
    log_term = -lam + k * math.log(lam) - math.lgamma(k + 1)
    total = 0.0
    i = k
    while True:
        term = math.exp(log_term)
        total += term
        if term < total * 1e-17 or i > k + 10_000:
            return total
        i += 1
        log_term += math.log(lam) - math.log(i)


@dataclass(frozen=True, slots=True)
class Reuse:
    shoe: tuple[str, ...]  # the shoe that reuses an order: (table, shoe id)
    earlier: tuple[str, ...]  # the earlier shoe whose order it repeats
    at: int  # the place in `shoe` where the shared run starts (0: its first card dealt)


def reused(shoes: Iterable[tuple[tuple[str, ...], Sequence[str]]], run: int = RUN) -> list[Reuse]:
    """Each shoe (in the order given: earlier first) holding `run` cards in a row that an earlier shoe
    held in that order: the first such place, and the earlier shoe."""
    seen: dict[tuple[str, ...], tuple[str, ...]] = {}
    found: list[Reuse] = []
    for key, cards in shoes:
        windows = [tuple(cards[i : i + run]) for i in range(len(cards) - run + 1)]
        for at, window in enumerate(windows):
            earlier = seen.get(window)
            if earlier is not None and earlier != key:
                found.append(Reuse(key, earlier, at))
                break
        for window in windows:
            seen.setdefault(window, key)
    return found
