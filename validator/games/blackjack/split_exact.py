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

from validator.games.blackjack.dealer import table
from validator.games.blackjack.holdings import Family, Hands, hands
from validator.games.blackjack.maths import (
    DOUBLE,
    HIT,
    KEY,
    STAND,
    TEN,
    MainGame,
    _busts,
    _chances,
    _pay_table,
    _standing,
)
from validator.maths.numeric import Floats, np
from validator.maths.shoe import VALUES, without


def _family_index(found: Hands, pair: int, out: int) -> int:
    return next(i for i, f in enumerate(found.families) if f.pair == pair and f.out == out)


def _fixed_values(game: MainGame, pair: int, most: int, deepest: int) -> dict[tuple[int, int], Floats]:
    """For each family `f` the play decides by (2 … most hands in the box) and each count `g` >= f of
    the pair's cards out (up to `deepest`): the value of every two-card hand [pair, c] of family g played
    as family f's hands are (arrays second card × first cards; NaN where the family has no such hand)."""
    rules, full = game.rules, game.full
    depth = next(f.depth for f in game.hands.families if f.pair == pair)
    families = tuple(Family(pair, out, depth) for out in range(2, deepest + 1))
    found = hands(full, families)
    dealer = table(rules.dealer, full, found.rows)[found.row]
    if rules.peeks:
        dealer = dealer.copy()
        dealer[:, :, rules.dealer.blackjack] = 0.0
    chance = _chances(full, found)
    one, two = _pay_table(rules, 1), _pay_table(rules, 2)
    stand, doubled = _standing(found, dealer, one, two)
    busted = (
        _busts(dealer, chance, found.child, one[KEY["bust"]]),
        _busts(dealer, chance, found.child, two[KEY["bust"]]),
    )
    kids = np.maximum(found.child, 0)
    values: dict[tuple[int, int], Floats] = {}
    for f in range(2, most + 1):
        decides = _family_index(game.hands, pair, f)
        low, high = game.hands.starts[decides], game.hands.starts[decides + 1]
        keys = game.hands.keys[low:high]
        # Every hand of a family g >= f is one of family f's (fewer of the pair's cards in the shoe).
        first = found.starts[f - 2]
        at = low + np.searchsorted(keys, found.keys[first:])
        action = np.zeros((len(found.hard), VALUES), dtype=np.int8)
        action[first:] = game.values.action[at]
        value = stand.copy()
        for total in range(21, 1, -1):
            level = found.levels[total]
            level = level[level >= first]
            if not len(level):
                continue
            hit = np.einsum("ncu,ncu->nu", chance[level], value[kids[level]]) + busted[0][level]
            double = np.einsum("ncu,ncu->nu", chance[level], doubled[kids[level]]) + busted[1][level]
            chosen = action[level]
            value[level] = np.where(chosen == HIT, hit, np.where(chosen == DOUBLE, double, value[level]))
        for g in range(f, deepest + 1):
            by_second = np.full((VALUES, VALUES), np.nan)
            for k in found.roots[g - 2].tolist():
                row = found.rows[found.row[k]].copy()
                row[pair] -= g
                by_second[int(np.flatnonzero(row)[0])] = value[k]
            values[(f, g)] = by_second
    return values


class _Box:
    """A split box of `pair` dealt hand by hand, the play fixed: its exact return by the dealer's first
    card (see the module's text)."""

    def __init__(self, game: MainGame, pair: int, most: int) -> None:
        full = np.asarray(game.full, dtype=np.float64)
        self.pair, self.most = pair, most
        self.deepest = int(min(2 * most - 1, full[pair]))
        self.total = float(full.sum())
        self.held = full[pair] - (np.arange(VALUES) == pair)  # the pair's cards, less the dealer's first
        self.shoe = full
        self.values = _fixed_values(game, pair, most, self.deepest)
        self.parts: dict[tuple[int, int, int], tuple[Floats, Floats]] = {}
        self.memo: dict[tuple[int, int, int, int], Floats] = {}

    def q(self, j: int, n: int) -> Floats:
        """The chance that the next card is of the pair, `j` of its cards and `n` others out (and the
        dealer's first card): by his first card."""
        return np.clip(self.held - j, 0.0, None) / (self.total - 1.0 - j - n)

    def part(self, f: int, j: int, n: int) -> tuple[Floats, Floats]:
        """A hand played as family f's, its second card dealt at (j, n): its value with a second card not
        of the pair, and with one of the pair (each times its chance), by the dealer's first card."""
        key = (f, j, n)
        found = self.parts.get(key)
        if found is not None:
            return found
        if n == 0:
            eye = np.eye(VALUES)
            base = np.zeros(VALUES)
            base[self.pair] = j
            chance = np.clip(self.shoe[:, None] - base[:, None] - eye, 0.0, None) / (self.total - j - 1.0)
            by_second = self.values[(f, j)]
            chance = np.where(np.isnan(by_second), 0.0, chance)
            weighted = chance * np.nan_to_num(by_second)
            pairs = weighted[self.pair]
            found = (weighted.sum(axis=0) - pairs, pairs)
        else:
            q = self.q(j, n - 1)
            before = self.part(f, j, n - 1)
            deeper = self.part(f, j + 1, n - 1) if np.any(q > 0) else before
            found = (
                (before[0] - q * deeper[0]) / (1.0 - q),
                (before[1] - q * deeper[1]) / (1.0 - q),
            )
        self.parts[key] = found
        return found

    def value(self, have: int, j: int, n: int, open_: int) -> Floats:
        """The return of the hands still to take their second card: `have` hands in the box, `j` of the
        pair's cards out, `n` second cards not of the pair, `open_` hands waiting."""
        if open_ == 0:
            return np.zeros(VALUES)
        key = (have, j, n, open_)
        found = self.memo.get(key)
        if found is not None:
            return found
        q = self.q(j, n)
        other, pairs = self.part(have, j, n)
        value = other + (1.0 - q) * self.value(have, j, n + 1, open_ - 1)
        if have < self.most:
            if np.any(q > 0):
                value = value + q * self.value(have + 1, j + 1, n, open_ + 1)
        else:
            value = value + pairs
            if np.any(q > 0):
                value = value + q * self.value(have, j + 1, n, open_ - 1)
        self.memo[key] = value
        return value


def exact_split(game: MainGame, pair: int) -> Floats:
    """The exact return of splitting `pair` as the play does, each hand one unit, by the dealer's first
    card (`game.splits[pair][0]` is Appendix 9's figure of it)."""
    most = game.splits[pair][1].hands
    return _Box(game, pair, most).value(2, 2, 0, 2)


def gap(game: MainGame) -> float:
    """The game's return less the exact return of the play it describes (per unit of initial stake): what
    the split hands' method adds to the figure, measured on it."""
    full = game.full
    total = sum(full)
    found = 0.0
    for pair in sorted(game.splits):
        weights = np.zeros(VALUES)
        p_hand = full[pair] / total * (full[pair] - 1) / (total - 1)
        after = without(full, pair, pair)
        for up in range(VALUES):
            action = game.strategy.get((pair, pair, up), "")
            if not action.startswith("split"):
                continue
            share = 1.0
            if " / " in action:  # identical ten-value cards only: their share of the pairs of tens
                decks = game.rules.decks
                share = (4 * decks - 1) / (16 * decks - 1) if pair == TEN else 1.0
            weights[up] = p_hand * after[up] / (total - 2) * share
        if weights.any():
            found += float(np.dot(weights, game.splits[pair][0] - exact_split(game, pair)))
    return found


__all__ = ["STAND", "exact_split", "gap"]
