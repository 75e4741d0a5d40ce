"""The dealer's final result from a shoe composition: drawn card by card with removal, exactly.

Results are indexed by `DealerRule.outcomes`: each standing total from `stands_on` to 21, then "bust",
then "blackjack" (two cards making 21). Cached per (rule, composition, first card). `table` gives them
for many compositions at once (every hand of a main game), against every first card of the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from validator.maths.numeric import Floats, Ints, np
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
    factor: Ints  # which (value, count before) the card multiplies in: value * run + count before
    run: int  # more than the cards of one value any hand of the dealer holds
    cards: Ints  # |m|
    levels: tuple[tuple[int, int], ...]  # the nodes of each size, as ranges (size 1, 2, …)
    columns: Ints  # the (first card, outcome) of each row of `orders`: those a final hand reaches
    orders: Floats  # columns × nodes: the orders of each final hand, by first card and outcome


def _finals(rule: DealerRule) -> dict[tuple[int, ...], dict[int, float]]:
    """Every final hand of the dealer that does not bust, his first card included, with the number of
    orders he can draw it in for each first card and outcome (key: first card × outcomes + outcome):
    his hands still drawing, card by card, merged by their cards (what he does next depends on them only)."""
    finals: dict[tuple[int, ...], dict[int, float]] = {}
    first_total = rule.totals[0]
    for up in range(VALUES):
        start = [0] * VALUES
        start[up] = 1
        drawing: dict[tuple[int, ...], float] = {tuple(start): 1.0}
        while drawing:
            following: dict[tuple[int, ...], float] = {}
            for held, ways in drawing.items():
                hard = sum((i + 1) * c for i, c in enumerate(held))
                cards = sum(held)
                for value in range(VALUES):
                    more = list(held)
                    more[value] += 1
                    new_hard = hard + value + 1
                    ace = more[0] > 0
                    soft = ace and new_hard + 10 <= 21
                    total = new_hard + 10 if soft else new_hard
                    if total > 21:
                        continue
                    after = tuple(more)
                    if rule.stands(total, soft, ace):
                        outcome = rule.blackjack if cards + 1 == 2 and total == 21 else total - first_total
                        column = finals.setdefault(after, {})
                        key = up * rule.size + outcome
                        column[key] = column.get(key, 0.0) + ways
                    else:
                        following[after] = following.get(after, 0.0) + ways
            drawing = following
    return finals


@lru_cache(maxsize=16)
def _hands(rule: DealerRule) -> _Hands:
    finals = _finals(rule)
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
    run = max(max(node) for node in ordered)
    parent, factor, cards = [0], [0], [0]
    for node in ordered[1:]:
        value = last(node)
        before = list(node)
        before[value] -= 1
        parent.append(index[tuple(before)])
        factor.append(value * run + before[value])
        cards.append(sum(node))
    levels = []
    for size in range(1, max(cards) + 1):
        inside = [k for k, c in enumerate(cards) if c == size]
        levels.append((inside[0], inside[-1] + 1))
    columns = sorted({key for column in finals.values() for key in column})
    row_of = {key: k for k, key in enumerate(columns)}
    orders = np.zeros((len(columns), len(ordered)))
    for final, column in finals.items():
        for key, number in column.items():
            orders[row_of[key], index[final]] = number
    return _Hands(
        np.array(parent, dtype=np.int64),
        np.array(factor, dtype=np.int64),
        run,
        np.array(cards, dtype=np.int64),
        tuple(levels),
        np.array(columns, dtype=np.int64),
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
    ordered = removed[order].T.astype(np.float64)  # values × rows, by the cards out
    sizes = sizes[order]
    found = np.empty((len(hands.columns), rows))
    products = np.empty((len(hands.parent), CHUNK))
    factors = np.empty((VALUES, hands.run, CHUNK))
    steps = np.arange(hands.run, dtype=np.float64)[:, None]
    longest = int(hands.cards.max())
    # Each chunk: shoes of one size (the same N), at most CHUNK of them.
    bounds = np.flatnonzero(np.diff(sizes)) + 1
    for low, high in zip(np.concatenate(([0], bounds)), np.concatenate((bounds, [rows])), strict=True):
        for start in range(int(low), int(high), CHUNK):
            end = min(start + CHUNK, int(high))
            width = end - start
            left = full[:, None] - ordered[:, start:end]  # values × shoes
            factor = factors[:, :, :width]
            np.subtract(left[:, None, :], steps, out=factor)  # C_i - j, for each value and count before
            flat = factor.reshape(VALUES * hands.run, width)
            product = products[:, :width]
            product[0] = 1.0
            for first, last in hands.levels:
                np.multiply(
                    product[hands.parent[first:last]], flat[hands.factor[first:last]], out=product[first:last]
                )
            # One shoe size for the whole chunk: N / N_(k) for each size k of a hand, a number.
            n = total - float(sizes[start])
            scale = np.ones(longest + 1)
            falling = 1.0
            for k in range(1, longest + 1):
                falling *= n - k + 1
                scale[k] = n / falling if falling > 0 else 0.0
            np.matmul(hands.orders * scale[hands.cards], product, out=found[:, start:end])
    result = np.zeros((rows, VALUES * rule.size))
    unsorted = np.empty_like(found)
    unsorted[:, order] = found
    result[:, hands.columns] = unsorted.T
    shaped = result.reshape(rows, VALUES, rule.size)
    held = full[None, :] - removed  # rows × values: the first card's count
    with np.errstate(divide="ignore", invalid="ignore"):
        shaped /= held[:, :, None]
    shaped[held <= 0] = 0.0
    shaped[:, :, rule.bust] = np.where(held > 0, 1.0 - shaped.sum(axis=2), 0.0)
    return shaped
