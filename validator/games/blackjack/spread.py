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

from dataclasses import dataclass, replace

from validator.games.blackjack.holdings import UNSPLIT
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
    deals,
    p_natural,
)
from validator.maths.numeric import Bytes, Floats, np
from validator.maths.shoe import VALUES

Law = dict[float, Floats]  # net result → its probability with each (first card, dealer's result)
SURRENDER = 3  # an initial hand surrendered (beside STAND, HIT, DOUBLE)
CODES = {"stand": STAND, "hit": HIT, "double": DOUBLE, "surrender": SURRENDER}


@dataclass(frozen=True, slots=True)
class _Walked:
    """The weights `_forward` carried to each hand of a range (hands × first cards × kinds): standing on
    one stake and on a doubled one, taking a card, doubling, surrendering, and arriving from a hand that
    took a card."""

    stands: Floats
    doubled: Floats
    hits: Floats
    doubles: Floats
    surrenders: Floats
    arriving: Floats


def _forward(game: MainGame, low: int, high: int, start: Floats, plays: Bytes) -> _Walked:
    """The play walked forward from the two-card hands of the hands low … high (one family, or several
    consecutive families: a hand's children are in its own family, so a walk of several is each one's
    walk, element by element, in fewer passes): `start` (hands × first cards × kinds) their weights,
    `plays` (hands × first cards) their first decision."""
    found, values = game.hands, game.values
    count, kinds = high - low, start.shape[2]
    arriving = np.zeros((count, VALUES, kinds))  # from a hand that took a card
    stands = np.zeros((count, VALUES, kinds))  # standing on one stake
    doubled = np.zeros((count, VALUES, kinds))  # standing on a doubled stake
    hits = np.zeros((count, VALUES, kinds))  # taking a card on one stake
    doubles = np.zeros((count, VALUES, kinds))  # doubling
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
    return _Walked(stands, doubled, hits, doubles, surrenders, arriving)


def _walk(game: MainGame, family: int, start: Floats, plays: Bytes) -> Floats:
    """The settlements of one family's hands, walked forward from its two-card hands: `start` (hands of
    the family × first cards × kinds) their weights, `plays` (hands × first cards) their first decision.
    Returns the mass settled under each settlement key and stake (keys × 2 × first cards × kinds ×
    the dealer's results)."""
    low, high = game.hands.starts[family], game.hands.starts[family + 1]
    return _settled(game, family, _forward(game, low, high, start, plays), 0)


def _settled(game: MainGame, family: int, walked: _Walked, offset: int) -> Floats:
    """`_walk`'s settlements of one family, from a walk whose hands begin `offset` hands before the
    family's (each weight taken apart as an array of its own, as a walk of the family alone made it)."""
    found, values = game.hands, game.values
    low, high = found.starts[family], found.starts[family + 1]
    part = slice(low - offset, high - offset)
    stands, doubled, hits, doubles, surrenders, arriving = (
        weight[part].copy()
        for weight in (
            walked.stands,
            walked.doubled,
            walked.hits,
            walked.doubles,
            walked.surrenders,
            walked.arriving,
        )
    )
    count, kinds = high - low, stands.shape[2]
    outcomes = values.dealer.shape[2]
    two = found.cards[low:high] == 2
    hard = found.hard[low:high]
    dealer = values.dealer[low:high]
    totals = np.where(found.ace[low:high] & (hard + 10 <= 21), hard + 10, hard)
    keys = totals - 4
    split = game.hands.families[family].pair != UNSPLIT
    keys = np.where(two & (totals == 21), KEY["split21" if split else "blackjack"], keys)
    chosen = (keys[:, None] == np.arange(len(KEY))[None, :]).astype(np.float64)  # hands × keys
    settled = np.zeros((len(KEY), 2, VALUES, kinds, outcomes))
    for weight, stake in ((stands, 0), (doubled, 1)):
        mass = np.einsum("nuk,nuo->nuko", weight, dealer).reshape(count, -1)
        settled[:, stake] += (chosen.T @ mass).reshape(len(KEY), VALUES, kinds, outcomes)
    # A card that busts: the dealer's results averaged over the next card are the hand's own (a card
    # unseen changes none of his chances), so the bust's share is the hand's results less those of the
    # hands its card led to (`maths.bust_mass`, summed over the hands first).
    for taking, led, stake in ((hits, arriving, 0), (doubles, doubled, 1)):
        settled[KEY["bust"], stake] += np.einsum("nuk,nuo->uko", taking - led, dealer)
    settled[KEY["surrender"], 0] += np.einsum("nuk,nuo->uko", surrenders, dealer)
    return settled


def _joint(game: MainGame, settled: Floats, kind: int = 0) -> Law:
    """The settled masses of `_walk` by net result: each its probability with each first card and result
    of the dealer (first cards × results)."""
    rules = game.rules
    law: Law = {}
    for index, key in enumerate(KEY):
        for stake in (1, 2):
            mass = settled[index, stake - 1, :, kind, :]
            if not mass.any():
                continue
            row = rules.pay.get((key, stake), rules.pay[(key, 1)])
            for outcome, net in enumerate(row):
                column = mass[:, outcome]
                if column.any():
                    found = law.setdefault(net, np.zeros(mass.shape))
                    found[:, outcome] += column
    return law


def _split_joint(game: MainGame, split: SplitParts) -> Law:
    """A split box's net result with the dealer's result, its hands independent given his result. The
    laws are kept for every first card and result of the dealer at once (arrays first cards × results)."""
    pair, hands = split.pair, split.hands
    found, values = game.hands, game.values
    full = np.asarray(game.full, dtype=np.float64)
    eye = np.eye(VALUES)
    outcomes = values.dealer.shape[2]
    # The law of one hand's net result given the dealer's first card and result: for each count of the
    # pair's cards out, any second card ("any"), or one not of the pair's ("other").
    laws: dict[tuple[str, int], Law] = {}
    # The pair's families (one per count of its cards out: consecutive) walked forward in one pass.
    families = {
        out: next(i for i, f in enumerate(found.families) if f.pair == pair and f.out == out)
        for out in range(2, hands + 1)
    }
    first, last = found.starts[min(families.values())], found.starts[max(families.values()) + 1]
    start = np.zeros((last - first, VALUES, 2))
    for out, family in families.items():
        base = np.zeros(VALUES)
        base[pair] = out
        chance = np.clip(full[:, None] - base[:, None] - eye, 0.0, None) / (full.sum() - out - 1.0)
        for k in found.roots[family]:
            row = [int(c) for c in found.rows[found.row[k]]]
            row[pair] -= out
            second = next(i for i in range(VALUES) if row[i])
            start[k - first, :, 0] = chance[second]
            if second != pair:
                start[k - first, :, 1] = chance[second]
    walked = _forward(game, first, last, start, values.action[first:last])
    for out, family in families.items():
        settled = _settled(game, family, walked, first)
        for index, kind in enumerate(("any", "other")):
            law = _joint(game, settled, index)
            mass = sum(law.values(), np.zeros((VALUES, outcomes)))
            with np.errstate(divide="ignore", invalid="ignore"):
                scale = np.where(mass > 0, 1.0 / mass, 0.0)
            laws[(kind, out)] = {net: p * scale for net, p in law.items()}
    # The box's hands, as maths._split's recursion draws them: the law of the net result of the hands
    # still to be dealt, given the dealer's result, for each (hands so far, hands open).
    memo: dict[tuple[int, int], Law] = {}

    def rest(have: int, open_: int) -> Law:
        if open_ == 0:
            return {0.0: np.ones((VALUES, outcomes))}
        done = memo.get((have, open_))
        if done is not None:
            return done
        q = split.part(have)[0][:, None]  # by first card
        out = min(have, hands)
        law: Law = {}
        if have < hands:
            _mix(law, rest(have + 1, open_ + 1), q)
            _mix(law, _sum(laws[("other", out)], rest(have, open_ - 1)), 1.0 - q)
        else:
            _mix(law, _sum(laws[("any", out)], rest(have, open_ - 1)), np.ones((VALUES, 1)))
        memo[(have, open_)] = law
        return law

    pair_row = [0] * VALUES
    pair_row[pair] = 2
    root = found.find(0, pair_row)
    assert root is not None
    dealer = values.dealer[root]  # first cards × results: the dealer's, from the pair's row
    return {net: p * dealer for net, p in rest(2, 2).items()}


def _mix(into: Law, law: Law, weight: Floats) -> None:
    for net, p in law.items():
        found = into.get(net)
        into[net] = p * weight if found is None else found + p * weight


def _sum(hand: Law, rest: Law) -> Law:
    """The law of a hand's result plus the rest's (independent given the dealer's result)."""
    law: Law = {}
    for a, pa in hand.items():
        for b, pb in rest.items():
            found = law.get(a + b)
            law[a + b] = pa * pb if found is None else found + pa * pb
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
    found = game.hands
    low, high = found.starts[0], found.starts[1]
    start = np.zeros((high - low, VALUES, 1))
    plays = np.zeros((high - low, VALUES), dtype=np.int8)
    outcomes = game.values.dealer.shape[2]
    naturals: Law = {}
    split_weight: dict[int, Floats] = {}
    for first, second, up, p in deals(full):
        k = game.root(first, second) - low
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
            net = rules.pay[(hand_key, 1)][natural]
            naturals.setdefault(net, np.zeros((VALUES, outcomes)))[up, natural] += p * p_natural(
                full, removed, up
            )
    joint = _joint(game, _walk(game, 0, start, plays))
    _mix(joint, naturals, np.ones((1, 1)))
    for pair, weights in split_weight.items():
        _mix(joint, _split_joint(game, game.splits[pair][1]), weights[:, None])
    law = {net: float(p.sum()) for net, p in joint.items()}
    # The dealer's first card and result: the round's mass and mean result given them.
    mass = sum(joint.values(), np.zeros((VALUES, outcomes)))
    summed = sum((net * p for net, p in joint.items()), np.zeros((VALUES, outcomes)))
    mean = sum(net * p for net, p in law.items())
    variance = sum(net * net * p for net, p in law.items()) - mean * mean
    with np.errstate(divide="ignore", invalid="ignore"):
        covariance = float(np.where(mass > 0, summed * summed / mass, 0.0).sum()) - mean * mean
    lines = tuple(sorted(((net, p) for net, p in law.items() if p > 0), key=lambda x: -x[0]))
    return Spread(lines, mean, variance, covariance, mean - game.ev)


def with_spread(game: MainGame) -> MainGame:
    return replace(game, spread=spread(game))
