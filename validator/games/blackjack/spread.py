"""The distribution of a blackjack round's net result on the main stake, under the play `main_game`
computed: each net result (per unit of initial stake) with its probability, its variance, and the
covariance of two boxes' results in one round.

The play is walked forward from every initial hand with its probability, every hand the play reaches
with its weight against each first card of the dealer (`_walk`): each hand that stands (or is doubled,
busts, surrenders) is settled against the dealer's final results from the hand's row, so a round's net
result and the dealer's result are known together. A split box's hands are taken as independent given
the dealer's result (their joint law given it is the product of each hand's), the dealer's result drawn
from the shoe after the pair and his first card; this is the one approximation here, and
`Spread.split_gap` says how far it moves the mean from the exact figure. Two boxes of one round are
independent given the dealer's result in the same way (the covariance is the variance of the mean result
given the dealer's cards, his first card and his result, as Griffin computes it).
"""

from __future__ import annotations

from dataclasses import replace

from validator.games.blackjack.hands import UNSPLIT
from validator.games.blackjack.maths import (
    ACE,
    DOUBLE,
    HIT,
    KEY,
    STAND,
    TEN,
    MainGame,
    SplitParts,
    Spread,
    bust_mass,
    p_natural,
)
from validator.maths.numeric import Bytes, Floats, np
from validator.maths.shoe import VALUES, without

Joint = dict[tuple[float, int, int], float]  # (net result, dealer's first card, his result) → probability
SURRENDER = 3  # an initial hand surrendered (beside STAND, HIT, DOUBLE)
CODES = {"stand": STAND, "hit": HIT, "double": DOUBLE, "surrender": SURRENDER}


def _walk(game: MainGame, family: int, start: Floats, plays: Bytes) -> Floats:
    """The settlements of one family's hands, walked forward from its two-card hands: `start` (hands of
    the family × first cards × kinds) their weights, `plays` (hands × first cards) their first decision.
    Returns the mass settled under each settlement key and stake (keys × 2 × first cards × kinds ×
    the dealer's results)."""
    found, values = game.hands, game.values
    low, high = found.starts[family], found.starts[family + 1]
    count, kinds = high - low, start.shape[2]
    outcomes = values.dealer.shape[2]
    arriving = np.zeros((count, VALUES, kinds))
    stands = np.zeros((count, VALUES, kinds))  # standing on one stake
    doubled = np.zeros((count, VALUES, kinds))  # standing on a doubled stake
    hits = np.zeros((count, VALUES, kinds))  # taking a card on one stake (its bust with it)
    doubles = np.zeros((count, VALUES, kinds))  # doubling (its bust with it)
    surrenders = np.zeros((count, VALUES, kinds))
    two = found.cards[low:high] == 2
    later = values.action[low:high] == HIT  # a hand of three cards or more: does it take a card?
    hard = found.hard[low:high]
    for total in range(2, 22):
        level = np.nonzero(hard == total)[0]
        if not len(level):
            continue
        first = two[level][:, None, None]
        decided = plays[level][:, :, None]
        weight = np.where(first, start[level], arriving[level])
        hitting = np.where(first, decided == HIT, later[level][:, :, None]) * weight
        stands[level] = np.where(first, decided == STAND, ~later[level][:, :, None]) * weight
        doubles[level] = np.where(first, decided == DOUBLE, False) * weight
        surrenders[level] = np.where(first, decided == SURRENDER, False) * weight
        hits[level] = hitting
        kids = found.child[low + level]
        present = kids >= 0
        chance = values.chance[low + level]  # level × card × first card (0 for a card that busts)
        doubling = doubles[level]
        for card in range(VALUES):
            inside = present[:, card]
            if inside.any():
                targets = kids[inside, card] - low
                arriving[targets] += hitting[inside] * chance[inside, card][:, :, None]
                doubled[targets] += doubling[inside] * chance[inside, card][:, :, None]
    dealer = values.dealer[low:high]
    bust = bust_mass(values.dealer, values.chance, found.child, np.arange(low, high))
    totals = np.where(found.ace[low:high] & (hard + 10 <= 21), hard + 10, hard)
    keys = totals - 4
    split = game.hands.families[family].pair != UNSPLIT
    keys = np.where(two & (totals == 21), KEY["split21" if split else "blackjack"], keys)
    settled = np.zeros((len(KEY), 2, VALUES, kinds, outcomes))
    for weight, table, key, stake in (
        (stands, dealer, keys, 0),
        (doubled, dealer, keys, 1),
        (hits, bust, np.full(count, KEY["bust"]), 0),
        (doubles, bust, np.full(count, KEY["bust"]), 1),
        (surrenders, dealer, np.full(count, KEY["surrender"]), 0),
    ):
        mass = np.einsum("nuk,nuo->nuko", weight, table)
        np.add.at(settled[:, stake], key, mass)
    return settled


def _joint(game: MainGame, settled: Floats, kind: int = 0) -> dict[tuple[float, int, int], float]:
    """The settled masses of `_walk` as (net result, first card, dealer's result) → probability."""
    rules = game.rules
    joint: dict[tuple[float, int, int], float] = {}
    keys = list(KEY)
    for index, key in enumerate(keys):
        for stake in (1, 2):
            mass = settled[index, stake - 1, :, kind, :]
            if not mass.any():
                continue
            row = rules.pay.get((key, stake), rules.pay[(key, 1)])
            for up in range(VALUES):
                for outcome, p in enumerate(mass[up].tolist()):
                    if p:
                        k = (row[outcome], up, outcome)
                        joint[k] = joint.get(k, 0.0) + p
    return joint


def _split_joint(game: MainGame, split: SplitParts) -> Joint:
    """A split box's net result with the dealer's result, its hands independent given his result."""
    pair, hands = split.pair, split.hands
    found, values = game.hands, game.values
    full = np.asarray(game.full, dtype=np.float64)
    eye = np.eye(VALUES)
    # The law of one hand's net result given the dealer's result, by first card: for each count of the
    # pair's cards out, any second card ("any"), or one not of the pair's ("other").
    laws: dict[tuple[str, int], list[dict[int, dict[float, float]]]] = {}
    for out in range(2, hands + 1):
        family = next(i for i, f in enumerate(found.families) if f.pair == pair and f.out == out)
        low, high = found.starts[family], found.starts[family + 1]
        base = np.zeros(VALUES)
        base[pair] = out
        chance = np.clip(full[:, None] - base[:, None] - eye, 0.0, None) / (full.sum() - out - 1.0)
        start = np.zeros((high - low, VALUES, 2))
        for k in found.roots[family]:
            row = [int(c) for c in found.rows[found.row[k]]]
            row[pair] -= out
            second = next(i for i in range(VALUES) if row[i])
            start[k - low, :, 0] = chance[second]
            if second != pair:
                start[k - low, :, 1] = chance[second]
        settled = _walk(game, family, start, values.action[low:high])
        for index, kind in enumerate(("any", "other")):
            by_up: list[dict[int, dict[float, float]]] = [{} for _ in range(VALUES)]
            for (net, up, outcome), p in _joint(game, settled, index).items():
                law = by_up[up].setdefault(outcome, {})
                law[net] = law.get(net, 0.0) + p
            for by_dealer in by_up:
                for law in by_dealer.values():
                    mass = sum(law.values())
                    for net in law:
                        law[net] /= mass
            laws[(kind, out)] = by_up
    # The box's hands, as maths._split's recursion draws them: the law of the net result of the hands
    # still to be dealt, given the dealer's result, for each (hands so far, hands open).
    pair_row = [0] * VALUES
    pair_row[pair] = 2
    root = found.find(0, pair_row)
    assert root is not None
    out_joint: Joint = {}
    for up in range(VALUES):
        dealer = values.dealer[root, up].tolist()
        for o, p_o in enumerate(dealer):
            if not p_o:
                continue
            memo: dict[tuple[int, int], dict[float, float]] = {}

            def rest(
                have: int,
                open_: int,
                o: int = o,
                up: int = up,
                memo: dict[tuple[int, int], dict[float, float]] = memo,
            ) -> dict[float, float]:
                if open_ == 0:
                    return {0.0: 1.0}
                found_law = memo.get((have, open_))
                if found_law is not None:
                    return found_law
                q = float(split.part(have)[0][up])
                out = min(have, hands)
                law: dict[float, float] = {}
                if have < hands:
                    if q:
                        _mix(law, rest(have + 1, open_ + 1), q)
                    _mix(law, _sum(laws[("other", out)][up].get(o, {}), rest(have, open_ - 1)), 1 - q)
                else:
                    _mix(law, _sum(laws[("any", out)][up].get(o, {}), rest(have, open_ - 1)), 1.0)
                memo[(have, open_)] = law
                return law

            for net, p in rest(2, 2).items():
                out_joint[(net, up, o)] = out_joint.get((net, up, o), 0.0) + p_o * p
    return out_joint


def _mix(into: dict[float, float], law: dict[float, float], weight: float) -> None:
    for net, p in law.items():
        into[net] = into.get(net, 0.0) + p * weight


def _sum(hand: dict[float, float], rest: dict[float, float]) -> dict[float, float]:
    """The law of a hand's result plus the rest's (independent given the dealer's result)."""
    if not hand:
        return rest
    law: dict[float, float] = {}
    for a, pa in hand.items():
        for b, pb in rest.items():
            law[a + b] = law.get(a + b, 0.0) + pa * pb
    return law


def _parts(decks: int, first: int, action: str) -> list[tuple[str, float]]:
    """The plays an initial hand's action stands for: "split (identical) / stand" splits identical
    ten-value pairs only (their share of the pairs of tens), the others stand."""
    if " / " not in action:
        return [(action, 1.0)]
    chosen, other = action.split(" / ")
    share = (4 * decks - 1) / (16 * decks - 1) if first == TEN else 1.0
    return [(chosen.split(" ")[0], share), (other, 1.0 - share)]


def spread(game: MainGame) -> Spread:
    """The distribution of a round's net result under the game's play (see the module's text)."""
    rules = game.rules
    full = game.full
    total = sum(full)
    found = game.hands
    low, high = found.starts[0], found.starts[1]
    start = np.zeros((high - low, VALUES, 1))
    plays = np.zeros((high - low, VALUES), dtype=np.int8)
    joint: Joint = {}
    split_weight: dict[int, Floats] = {}
    for first in range(VALUES):
        for second in range(first, VALUES):
            p_hand = full[first] / total * (full[second] - (first == second)) / (total - 1)
            if first != second:
                p_hand *= 2
            after = without(full, first, second)
            k = game.root(first, second) - low
            for up in range(VALUES):
                p = p_hand * after[up] / (total - 2)
                if not p:
                    continue
                for part, share in _parts(rules.decks, first, game.strategy[(first, second, up)]):
                    if part == "split":
                        split_weight.setdefault(first, np.zeros(VALUES))[up] += p * share
                    else:
                        start[k, up, 0] += p * share
                        plays[k, up] = CODES[part]
                if rules.peeks:
                    hand_key = "blackjack" if first + second + 2 == 11 and ACE in (first, second) else "20"
                    natural = rules.dealer.blackjack
                    removed = [0] * VALUES
                    removed[first] += 1
                    removed[second] += 1
                    key = (rules.pay[(hand_key, 1)][natural], up, natural)
                    joint[key] = joint.get(key, 0.0) + p * p_natural(full, removed, up)
    for key, p in _joint(game, _walk(game, 0, start, plays)).items():
        joint[key] = joint.get(key, 0.0) + p
    for pair, weights in split_weight.items():
        for (net, up, o), p in _split_joint(game, game.splits[pair][1]).items():
            if weights[up]:
                joint[(net, up, o)] = joint.get((net, up, o), 0.0) + float(weights[up]) * p
    law: dict[float, float] = {}
    by_dealer: dict[tuple[int, int], list[float]] = {}  # the dealer's first card and result: the round's
    for (net, up, o), p in joint.items():
        law[net] = law.get(net, 0.0) + p
        entry = by_dealer.setdefault((up, o), [0.0, 0.0])
        entry[0] += p
        entry[1] += p * net
    mean = sum(net * p for net, p in law.items())
    variance = sum(net * net * p for net, p in law.items()) - mean * mean
    covariance = sum(s * s / m for m, s in by_dealer.values() if m) - mean * mean
    lines = tuple(sorted(((net, p) for net, p in law.items() if p > 0), key=lambda x: -x[0]))
    return Spread(lines, mean, variance, covariance, mean - game.ev)


def with_spread(game: MainGame) -> MainGame:
    return replace(game, spread=spread(game))
