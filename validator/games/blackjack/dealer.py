"""The dealer's final result from a shoe composition: drawn card by card with removal, exactly.

Results are indexed by `DealerRule.outcomes`: each standing total from `stands_on` to 21, then "bust",
then "blackjack" (two cards making 21). Cached per (rule, composition, first card). `table` gives them
for many compositions at once (every hand of a main game), against every first card of the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from validator.maths.numeric import np, npt
from validator.maths.shoe import VALUES, Composition

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


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


# ---- every first card at once, for many compositions: the dealer's whole hand as a multiset ----
#
# A final hand of the dealer that does not bust (his first card included) is a multiset m of values.
# From a shoe of N cards holding C_i of value i, the probability of drawing its cards in one given order
# is C_(m) / N_(|m|), with C_(m) the product over values of the falling factorials (C_i)_(m_i) and N_(k)
# = N (N-1) … (N-k+1); the orders he can draw it in (his first card first, drawing on every total before
# the last card) are counted once per first card and outcome (`terms`). So P(outcome o | first card u) =
# sum over m of orders(m, u, o) · C_(m) / N_(|m|) / (C_u / N), and the bust is what is left. Eric
# Farmer's calculator computes these products once per shoe for every first card at once (its
# dealer_s17.hpp); here they are computed for many shoes at once, the shoes side by side in arrays.


@dataclass(frozen=True, slots=True)
class _Hands:
    """The dealer's final hands (not busted) and the multisets on the way to them, each built from its
    parent by one more card (value order): the products C_(m) are taken parent by parent."""

    parent: Ints  # the node one card fewer (node 0: no card)
    factor: Ints  # which (value, count before) the card multiplies in: value * _RUN + count before
    cards: Ints  # |m|
    levels: tuple[tuple[int, int], ...]  # the nodes of each size, as ranges (size 1, 2, …)
    orders: Floats  # (10 · outcomes) × nodes: the orders of each final hand, by first card and outcome


_RUN = 32  # more than the cards of one value any hand of the dealer holds


@lru_cache(maxsize=16)
def _hands(rule: DealerRule) -> _Hands:
    finals: dict[tuple[int, ...], dict[int, float]] = {}
    for up in range(VALUES):
        for outcome, _cards, ways, counts in terms(rule, up):
            if outcome == rule.bust:
                continue
            drawn = [0] * VALUES
            for value, count in counts:
                drawn[value] += count
            drawn[up] += 1
            column = finals.setdefault(tuple(drawn), {})
            key = up * rule.size + outcome
            column[key] = column.get(key, 0.0) + ways
    nodes: set[tuple[int, ...]] = set()
    for final in finals:
        built = [0] * VALUES
        for value in range(VALUES):
            for _ in range(final[value]):
                built[value] += 1
                nodes.add(tuple(built))

    def last(node: tuple[int, ...]) -> int:
        return max(i for i in range(VALUES) if node[i])

    ordered = [(0,) * VALUES, *sorted(nodes, key=lambda n: (sum(n), last(n), n[last(n)], n))]
    index = {node: k for k, node in enumerate(ordered)}
    parent, factor, cards = [0], [0], [0]
    for node in ordered[1:]:
        value = last(node)
        before = list(node)
        before[value] -= 1
        parent.append(index[tuple(before)])
        factor.append(value * _RUN + before[value])
        cards.append(sum(node))
    levels = []
    for size in range(1, max(cards) + 1):
        inside = [k for k, c in enumerate(cards) if c == size]
        levels.append((inside[0], inside[-1] + 1))
    orders = np.zeros((VALUES * rule.size, len(ordered)))
    for final, column in finals.items():
        for key, number in column.items():
            orders[key, index[final]] = number
    return _Hands(
        np.array(parent, dtype=np.int64),
        np.array(factor, dtype=np.int64),
        np.array(cards, dtype=np.int64),
        tuple(levels),
        orders,
    )


CHUNK = 1024  # shoes computed side by side (their products fit a processor's cache)


def table(rule: DealerRule, shoe: Composition, removed: Ints) -> Floats:
    """P(each outcome | the dealer's first card) for each row of `removed` (cards out of `shoe`, by value;
    the first card not among them): an array rows × 10 first cards × outcomes. A first card the shoe no
    longer holds has every probability 0."""
    hands = _hands(rule)
    rows = removed.shape[0]
    full = np.asarray(shoe, dtype=np.float64)
    total = float(full.sum())
    sizes = removed.sum(axis=1)
    order = np.argsort(sizes, kind="stable")
    found = np.empty((VALUES * rule.size, rows))
    nodes = len(hands.parent)
    products = np.empty((nodes, CHUNK))
    counts = np.empty((VALUES * _RUN, CHUNK))
    longest = int(hands.cards.max())
    start = 0
    while start < rows:
        size = int(sizes[order[start]])
        end = start
        while end < rows and end - start < CHUNK and int(sizes[order[end]]) == size:
            end += 1
        width = end - start
        picked = order[start:end]
        left = full[:, None] - removed[picked].T  # values × shoes
        factors = counts[:, :width]
        for value in range(VALUES):
            for before in range(_RUN):
                factors[value * _RUN + before] = left[value] - before
        product = products[:, :width]
        product[0] = 1.0
        for low, high in hands.levels:
            np.multiply(
                product[hands.parent[low:high]], factors[hands.factor[low:high]], out=product[low:high]
            )
        # One shoe size for the whole chunk: N / N_(k) for each size k of a hand, a number.
        n = total - size
        scale = np.ones(longest + 1)
        falling = 1.0
        for k in range(1, longest + 1):
            falling *= n - k + 1
            scale[k] = n / falling if falling > 0 else 0.0
        found[:, picked] = (hands.orders * scale[hands.cards]) @ product
        start = end
    result = found.T.reshape(rows, VALUES, rule.size)
    left_all = full[None, :] - removed  # rows × values: the first card's count
    with np.errstate(divide="ignore", invalid="ignore"):
        result = np.where(left_all[:, :, None] > 0, result / left_all[:, :, None], 0.0)
    result[:, :, rule.bust] = np.where(left_all > 0, 1.0 - result.sum(axis=2), 0.0)
    return np.ascontiguousarray(result)
