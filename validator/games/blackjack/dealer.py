"""The dealer's final result from a shoe composition: drawn card by card with removal, exactly.

Results are indexed by `DealerRule.outcomes`: each standing total from `stands_on` to 21, then "bust",
then "blackjack" (two cards making 21). Cached per (rule, composition, first card).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from validator.maths.shoe import VALUES, Composition


@dataclass(frozen=True, slots=True)
class DealerRule:
    """How the dealer draws, as the version's parameters say: he stands from `stands_on`, and draws on a
    soft total equal to `stands_on` when `hits_soft` is true."""

    stands_on: int
    hits_soft: bool
    # He draws on any total of `stands_on` holding an ace, a hard one too (A-6-K).
    hits_with_ace: bool = False

    def stands(self, total: int, soft: bool, ace: bool) -> bool:
        """Whether the dealer stops on `total` (21 or less; `soft`: an ace counted 11; `ace`: he holds
        one)."""
        if total < self.stands_on:
            return False
        if total != self.stands_on:
            return True
        return not ((self.hits_soft and soft) or (self.hits_with_ace and ace))

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(range(self.stands_on, 22))

    @property
    def bust(self) -> int:
        return len(self.totals)

    @property
    def blackjack(self) -> int:
        return len(self.totals) + 1

    @property
    def size(self) -> int:
        return len(self.totals) + 2


@lru_cache(maxsize=65536)
def final_distribution(rule: DealerRule, comp: Composition, up: int) -> tuple[float, ...]:
    """P(each outcome) for a dealer whose first card is value index `up`, drawing from `comp` (the
    first card already out of it)."""
    result = [0.0] * rule.size
    counts = list(comp)
    first = rule.totals[0]
    bust, natural = rule.bust, rule.blackjack
    stands = rule.stands

    def draw(hard: int, ace: bool, cards: int, p: float, left: int) -> None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            result[bust] += p
            return
        if stands(total, soft, ace):
            if cards == 2 and total == 21:
                result[natural] += p
            else:
                result[total - first] += p
            return
        for i in range(VALUES):
            c = counts[i]
            if c:
                counts[i] = c - 1
                draw(hard + i + 1, ace or i == 0, cards + 1, p * c / left, left - 1)
                counts[i] = c
        return

    draw(up + 1, up == 0, 1, 1.0, sum(counts))
    return tuple(result)


# ---- the same distribution, for many compositions: each final hand of the dealer as a multiset ----
Term = tuple[
    int, int, float, tuple[tuple[int, int], ...]
]  # (outcome, cards drawn, orderings, (value, count)…)


@lru_cache(maxsize=64)
def terms(rule: DealerRule, up: int) -> tuple[Term, ...]:
    """Every way the dealer's hand can end from first card `up`, as the multiset of the cards he draws:
    its outcome, how many cards, and how many orders of those cards he would draw them in (an order is
    one where he draws on every total before the last card and stands or busts on the last). The
    probability of a multiset from a composition is orderings × Π falling factorials of the counts /
    the falling factorial of the shoe's size: composition-free terms, evaluated by `distribution`."""
    found: dict[tuple[int, tuple[int, ...]], int] = {}
    drawn = [0] * VALUES
    first = rule.totals[0]
    stands = rule.stands

    def draw(hard: int, ace: bool, cards: int) -> None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        outcome = -1
        if total > 21:
            outcome = rule.bust
        elif stands(total, soft, ace):
            outcome = rule.blackjack if cards == 2 and total == 21 else total - first
        if outcome >= 0:
            key = (outcome, tuple(drawn))
            found[key] = found.get(key, 0) + 1
            return
        for i in range(VALUES):
            drawn[i] += 1
            draw(hard + i + 1, ace or i == 0, cards + 1)
            drawn[i] -= 1

    draw(up + 1, up == 0, 1)
    return tuple(
        (outcome, sum(counts), float(orders), tuple((i, c) for i, c in enumerate(counts) if c))
        for (outcome, counts), orders in sorted(found.items())
    )


# The longest hand the dealer can draw, in cards (and the falling factorials' length per value).
LONGEST = 22


@lru_cache(maxsize=64)
def _flat_terms(rule: DealerRule, up: int) -> tuple[tuple[int, int, float, tuple[int, ...]], ...]:
    """`terms`, each (value, count) written as one index into a flat table of falling factorials
    (value × LONGEST + count): the same factors, in the same order, read with one subscript."""
    return tuple(
        (outcome, cards, orders, tuple(i * LONGEST + c for i, c in counts))
        for outcome, cards, orders, counts in terms(rule, up)
    )


def distribution(rule: DealerRule, comp: Composition, up: int) -> list[float]:
    """`final_distribution`, from the multiset terms (faster where many compositions are asked). Each
    term's product is taken in the order `terms` gives its factors, and the terms summed in their order,
    whatever the table's layout: the figures do not depend on how fast they are had."""
    size = sum(comp)
    inverse = [1.0] * LONGEST
    product = 1.0
    for k in range(1, LONGEST):
        product *= size - k + 1
        inverse[k] = 1.0 / product if product > 0 else 0.0
    falling: list[float] = []
    for count in comp:
        value = 1.0
        falling.append(value)
        for k in range(1, LONGEST):
            value *= count - k + 1
            falling.append(value)
    result = [0.0] * rule.size
    for outcome, cards, orders, factors in _flat_terms(rule, up):
        value = orders * inverse[cards]
        for k in factors:
            value *= falling[k]
        result[outcome] += value
    return result


@lru_cache(maxsize=8192)
def shared_distribution(rule: DealerRule, comp: Composition, up: int) -> tuple[float, ...]:
    """`distribution`, kept per process: the main game asks it of every composition its hands leave, and
    the side bets that read the dealer's final result (hyper blackjack) ask it of the same ones."""
    return tuple(distribution(rule, comp, up))
