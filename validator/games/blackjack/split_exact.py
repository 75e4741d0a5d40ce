"""The exact return of the play `main_game` computed for split pairs, to measure its split hands' method
on the version's own figure (docs/maths.md, "What is not exact").

`main_game` values a split hand as Wizard of Odds' Appendix 9 does: from the shoe less its own cards and
the pair's cards out so far, the other hands' cards unseen. That is the published tables' definition, and
not the exact return of any play: the box's earlier hands took second cards that were *not* of the pair
(else they would have been split again), and the later hands' second cards come from a shoe that lacks
them. Here the same play (each split hand decided as `main_game` decides it: on its cards, the dealer's
first card and the hands the box holds) is valued exactly, as Eric Farmer's calculator values a post-split
play (github.com/possibly-wrong/blackjack): the hands are dealt one after the other (a second card of the
pair split again while the box may take a hand more), each played to its end before the next takes its
second card; the cards an earlier hand drew beyond its second are unseen to the play, so they change no
expectation (an unseen card taken at random from a shoe leaves the return of a play that does not look at
it unchanged). What the play knows is how many of the pair's cards are out (`j`) and how many second
cards were not of the pair (`n`): a card taken at random, of the pair or not, gives

    X(j, n - 1) = q X(j + 1, n - 1) + (1 - q) X(j, n),   q = the pair's share of the shoe at (j, n - 1),

so every value at (j, n) comes from values with the pair's cards alone out (`n` = 0), which are the
values of the play (fixed, as decided for the box's hands) on the hands of the pair's families with `j`
of its cards out: the same dealer's tables as `main_game`'s, a family more for each card.

`gap(game)` is the figure less the exact return of its play, per unit of initial stake: the best play's
exact return is at least the figure less it (the exact best play returns no less than this play).
"""

from __future__ import annotations

from validator.games.blackjack.holdings import Family, Hands, hands
from validator.games.blackjack.maths import (
    DOUBLE,
    HIT,
    TEN,
    MainGame,
    _settling,
    dealer_rows,
)
from validator.maths.numeric import Floats, Ints, np
from validator.maths.shoe import VALUES, without

Bounds = tuple[Floats, Floats]  # (low, high), by the dealer's first card: equal where computed exactly


def _family_index(found: Hands, pair: int, out: int) -> int:
    return next(i for i, f in enumerate(found.families) if f.pair == pair and f.out == out)


def _fixed_values(game: MainGame, pair: int, most: int) -> dict[tuple[int, int], Floats]:
    """For each family `f` the play decides by (2 … most hands in the box) and each family `g` >= f of
    the pair (g of its cards out): the value of every two-card hand [pair, c] of family g played as
    family f's hands are (arrays second card × first cards; NaN where the family has no such hand).

    Read from the game's own values (`_played_as`)."""
    found, values = game.hands, game.values
    index = {out: _family_index(found, pair, out) for out in range(2, most + 1)}
    high = found.starts[index[most] + 1]
    result: dict[tuple[int, int], Floats] = {}
    for f in range(2, most + 1):
        # Family f played as itself: its best play. The families after it: played as family f's hands.
        start, end = found.starts[index[f]], found.starts[index[f] + 1]
        result[(f, f)] = _by_second(found, index[f], pair, f, values.best)
        if f == most:
            break
        fixed = _played_as(game, (start, end), (end, high))
        for g in range(f + 1, most + 1):
            result[(f, g)] = _by_second(found, index[g], pair, g, fixed, end)
    return result


def _same_cards(keys: Ints, family: tuple[int, int], wanted: Ints) -> Ints:
    """The hands of a family (`keys[low:high]`, sorted) holding the cards of each key of `wanted`: every
    one is there (a family with fewer of the pair's cards out holds every hand of one with more)."""
    low, high = family
    at = low + np.minimum(np.searchsorted(keys[low:high], wanted), high - low - 1)
    if not np.array_equal(keys[at], wanted):  # i18n: not shown (a bug of the program)
        raise AssertionError("split_exact: a hand missing from the family that decides its play")
    return at


def _played_as(game: MainGame, play: tuple[int, int], hands: tuple[int, int]) -> Floats:
    """The values of the game's hands low … high played as the hands of the same cards low' … high'
    (`play`: a family of the pair with fewer of its cards out, which holds each of them) are: a hand
    that stands, doubles or hits as the play says is worth its standing or doubling value, or its
    hitting value with each child's value under the play in place of its best (`Values.hit` is the
    card's chance times the children's best values, and what a bust with it pays)."""
    found, values = game.hands, game.values
    low, high = hands
    at = _same_cards(found.keys, play, found.keys[low:high])
    action = values.action[at]
    best = values.best[low:high]
    hit, double, stand = values.hit[low:high], values.double[low:high], values.stand[low:high]
    chance = values.chance[low:high]
    kids = np.where(found.child[low:high] >= 0, found.child[low:high] - low, 0)
    hard = found.hard[low:high]
    fixed = best.copy()
    with np.errstate(invalid="ignore"):  # a play the rules do not allow is never chosen (-inf there)
        for total in range(21, 1, -1):
            level = np.nonzero(hard == total)[0]
            if not len(level):
                continue
            chosen = action[level]
            below = fixed[kids[level]] - best[kids[level]]
            hits = hit[level] + np.einsum("lcu,lcu->lu", chance[level], below)
            fixed[level] = np.where(
                chosen == HIT, hits, np.where(chosen == DOUBLE, double[level], stand[level])
            )
    return fixed


# How wide the bounds on the exact return may be (per unit of initial stake) before a family more of the
# pair is valued: 1e-8, a millionth of a point of return.
TOLERANCE = 1e-8
# The families valued past the most hands a box takes before the bounds are first looked at: two are what
# the shipped versions need (their bounds within TOLERANCE then), and each look at the bounds walks the
# box again.
FIRST_BEYOND = 2


class _Rows:
    """The dealer's results by row (the cards out): the game's, and the rows of the families valued past it,
    from the rows this dealer's rule and shoe already has in this process (`maths.DealerRows`). A family
    with one more of the pair's cards out has mostly rows already known (a hand's row is its
    family-before's hand with that card more), so only the others are computed (`dealer.table`)."""

    def __init__(self, game: MainGame) -> None:
        self.known = dealer_rows(game.rules.dealer, game.full)

    def of(self, found: Hands) -> Floats:
        return self.known.of(found.rows)


def _beyond_values(
    game: MainGame, rows: _Rows, pair: int, most: int, out: int
) -> dict[tuple[int, int], Floats]:
    """`_fixed_values` for the family of the pair with `out` of its cards out, more than a box takes
    hands (`most`): not among the game's, so valued here (its dealer's tables, chances and settlements
    as `main_game` computes them), played as each family f <= most plays."""
    rules, full = game.rules, game.full
    depth = next(f.depth for f in game.hands.families if f.pair == pair)
    found = hands(full, (Family(pair, out, depth),))
    chance, _dealer, stand, doubled, busted = _settling(rules, full, found, rows.of(found))
    plays = list(range(2, most + 1))
    action = np.empty((len(plays), len(found.hard), VALUES), dtype=np.int8)
    for i, f in enumerate(plays):
        index = _family_index(game.hands, pair, f)
        start, end = game.hands.starts[index], game.hands.starts[index + 1]
        action[i] = game.values.action[_same_cards(game.hands.keys, (start, end), found.keys)]
    kids = np.maximum(found.child, 0)
    value = np.repeat(stand[None], len(plays), axis=0)
    for total in range(21, 1, -1):
        level = found.levels[total]
        if not len(level):
            continue
        hits = np.einsum("lcu,flcu->flu", chance[level], value[:, kids[level]]) + busted[0][level][None]
        doubles = np.einsum("lcu,lcu->lu", chance[level], doubled[kids[level]]) + busted[1][level]
        chosen = action[:, level]
        value[:, level] = np.where(
            chosen == HIT, hits, np.where(chosen == DOUBLE, doubles[None], value[:, level])
        )
    result: dict[tuple[int, int], Floats] = {}
    for i, f in enumerate(plays):
        result[(f, out)] = _by_second(found, 0, pair, out, value[i])
    return result


def _by_second(found: Hands, family: int, pair: int, out: int, value: Floats, offset: int = 0) -> Floats:
    """The values of a family's two-card hands [pair, c] by c (second card × first cards; NaN where the
    family has no such hand), read from `value` (by hand of `found`, from hand `offset` on)."""
    by_second = np.full((VALUES, VALUES), np.nan)
    for k in found.roots[family].tolist():
        row = found.rows[found.row[k]].copy()
        row[pair] -= out
        by_second[int(np.flatnonzero(row)[0])] = value[k - offset]
    return by_second


class _Box:
    """A split box of `pair` dealt hand by hand, the play fixed: its exact return by the dealer's first
    card (see the module's text), as bounds: a hand's value with more of the pair's cards out than the
    game's families hold (`most`, the most hands a box takes: only reached through the second cards
    known not of the pair, at a chance of the pair's share to the power of the cards past it) is only
    known to lie within what a hand can win or lose (`reach`)."""

    def __init__(self, game: MainGame, pair: int, most: int, rows: _Rows) -> None:
        full = np.asarray(game.full, dtype=np.float64)
        self.pair, self.most = pair, most
        self.total = float(full.sum())
        self.held = full[pair] - (np.arange(VALUES) == pair)  # the pair's cards, less the dealer's first
        self.shoe = full
        self.reach = max(abs(x) for row in game.rules.pay.values() for x in row)
        self.game = game
        self.rows = rows
        self.values = _fixed_values(game, pair, most)
        self.deepest = most  # the families valued (the rest bounded)
        # No state asks for more of the pair's cards out: two to start, one more at each second card.
        self.last = int(min(2 * most - 1, full[pair]))
        self.parts: dict[tuple[int, int, int], tuple[Bounds, Bounds]] = {}
        self.memo: dict[tuple[int, int, int, int], Bounds] = {}

    def deeper(self) -> None:
        """Value the pair's next family (one more of its cards out), and forget what was bounded."""
        self.deepest += 1
        self.values.update(_beyond_values(self.game, self.rows, self.pair, self.most, self.deepest))
        self.parts.clear()
        self.memo.clear()

    def q(self, j: int, n: int) -> Floats:
        """The chance that the next card is of the pair, `j` of its cards and `n` others out (and the
        dealer's first card): by his first card."""
        share: Floats = np.clip(self.held - j, 0.0, None) / (self.total - 1.0 - j - n)
        return share

    def _computed(self, f: int, j: int) -> tuple[Bounds, Bounds]:
        """`part` with only the pair's cards out: from the game's values where its families hold j."""
        if (f, j) not in self.values:
            wide = np.full(VALUES, self.reach)
            return (-wide, wide), (-wide, wide)
        eye = np.eye(VALUES)
        base = np.zeros(VALUES)
        base[self.pair] = j
        chance = np.clip(self.shoe[:, None] - base[:, None] - eye, 0.0, None) / (self.total - j - 1.0)
        by_second = self.values[(f, j)]
        weighted = np.where(np.isnan(by_second), 0.0, chance) * np.nan_to_num(by_second)
        pairs = weighted[self.pair]
        other = weighted.sum(axis=0) - pairs
        return (other, other), (pairs, pairs)

    def part(self, f: int, j: int, n: int) -> tuple[Bounds, Bounds]:
        """A hand played as family f's, its second card dealt at (j, n): its value with a second card not
        of the pair, and with one of the pair (each times its chance), by the dealer's first card."""
        key = (f, j, n)
        found = self.parts.get(key)
        if found is not None:
            return found
        if n == 0:
            found = self._computed(f, j)
        else:
            q = self.q(j, n - 1)
            before = self.part(f, j, n - 1)
            deeper = self.part(f, j + 1, n - 1) if np.any(q > 0) else before
            found = (_removed(before[0], deeper[0], q), _removed(before[1], deeper[1], q))
        self.parts[key] = found
        return found

    def value(self, have: int, j: int, n: int, open_: int) -> Bounds:
        """The return of the hands still to take their second card: `have` hands in the box, `j` of the
        pair's cards out, `n` second cards not of the pair, `open_` hands waiting."""
        if open_ == 0:
            return np.zeros(VALUES), np.zeros(VALUES)
        key = (have, j, n, open_)
        found = self.memo.get(key)
        if found is not None:
            return found
        q = self.q(j, n)
        other, pairs = self.part(have, j, n)
        rest = self.value(have, j, n + 1, open_ - 1)
        low, high = other[0] + (1.0 - q) * rest[0], other[1] + (1.0 - q) * rest[1]
        if have == self.most:  # a second card of the pair is played, not split again
            low, high = low + pairs[0], high + pairs[1]
        if np.any(q > 0):
            # Split again (one hand more to deal), or at the most hands played: one of the pair's more out.
            split = have < self.most
            then = self.value(have + split, j + 1, n, open_ + 1 if split else open_ - 1)
            low, high = low + q * then[0], high + q * then[1]
        found = (low, high)
        self.memo[key] = found
        return found


def _removed(before: Bounds, deeper: Bounds, q: Floats) -> Bounds:
    """X(j, n) from X(j, n - 1) and X(j + 1, n - 1): (before - q deeper) / (1 - q), as bounds."""
    return (before[0] - q * deeper[1]) / (1.0 - q), (before[1] - q * deeper[0]) / (1.0 - q)


def exact_split(game: MainGame, pair: int, weights: Floats, rows: _Rows | None = None) -> Bounds:
    """The exact return of splitting `pair` as the play does, each hand one unit, by the dealer's first
    card, as bounds (`game.splits[pair][0]` is Appendix 9's figure of it): a family of the pair more is
    valued while the bounds, weighted by `weights` (by first card), are wider than TOLERANCE."""
    box = _Box(game, pair, game.splits[pair][1].hands, rows or _Rows(game))
    for _ in range(FIRST_BEYOND):
        if box.deepest < box.last:
            box.deeper()
    while True:
        low, high = box.value(2, 2, 0, 2)
        if box.deepest >= box.last or float(np.dot(weights, high - low)) <= TOLERANCE:
            return low, high
        box.deeper()


def gap(game: MainGame) -> tuple[float, float]:
    """The game's return less the exact return of the play it describes, per unit of initial stake, as
    bounds (low, high): what the split hands' method adds to the figure, measured on it. The best play's
    exact return is at least the figure less `high`."""
    full = game.full
    total = sum(full)
    low = high = 0.0
    rows = _Rows(game)
    for pair in sorted(game.splits):
        weights = np.zeros(VALUES)
        p_hand = full[pair] / total * (full[pair] - 1) / (total - 1)
        after = without(full, pair, pair)
        for up in range(VALUES):
            action = game.strategy.get((pair, pair, up), "")
            if not action.startswith("split"):
                continue
            share = 1.0
            if " / " in action and pair == TEN:  # identical ten-value cards only: their share of tens
                decks = game.rules.decks
                share = (4 * decks - 1) / (16 * decks - 1)
            weights[up] = p_hand * after[up] / (total - 2) * share
        if weights.any():
            exact = exact_split(game, pair, weights, rows)
            figure = game.splits[pair][0]
            low += float(np.dot(weights, figure - exact[1]))
            high += float(np.dot(weights, figure - exact[0]))
    return low, high
