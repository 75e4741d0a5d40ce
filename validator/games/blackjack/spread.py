"""The distribution of a blackjack round's net result on the main stake, under the play `main_game`
computed: each net result (per unit of initial stake) with its probability, its variance, and the
covariance of two boxes' results in one round.

The play is walked forward from every initial hand with its probability: each hand that stands (or is
doubled, busts, surrenders) is settled against the dealer's final result from the composition its value
was computed with, so a round's net result and the dealer's result are known together. A split box's
hands are taken as independent given the dealer's result (their joint law given it is the product of
each hand's), the dealer's result drawn from the shoe after the pair and his first card; this is the one
approximation here, and `Spread.split_gap` says how far it moves the mean from the exact figure. Two
boxes of one round are independent given the dealer's result in the same way (the covariance is the
variance of the mean result given the dealer's cards, his first card and his result, as Griffin
computes it).
"""

from __future__ import annotations

from dataclasses import replace

from validator.games.blackjack.maths import (
    ACE,
    SPLIT_OUT,
    TEN,
    Against,
    MainGame,
    Removed,
    SplitParts,
    Spread,
    _plus,
    _total,
)
from validator.maths.shoe import VALUES, without

Joint = dict[tuple[float, int], float]  # (net result, the dealer's result) → probability
Node = tuple[Removed, int, bool, bool, int]  # a hand of three cards or more, keyed as Against.play keys it


class _Walk:
    """The hands of one dealer's first card, walked forward; terminals collected, then settled."""

    def __init__(self, against: Against) -> None:
        self.against = against
        self.nodes: list[dict[Node, float]] = [{} for _ in range(32)]
        self.settled: dict[tuple[Removed, str, int], float] = {}

    def terminal(self, removed: Removed, hard: int, ace: bool, stake: int, weight: float) -> None:
        total = _total(hard, ace)
        key = (removed, "bust" if total > 21 else str(total), stake)
        self.settled[key] = self.settled.get(key, 0.0) + weight

    def two(self, removed: Removed, first: int, second: int, split: bool, split_aces: bool, w: float) -> None:
        ag = self.against
        hard, ace = first + second + 2, ACE in (first, second)
        _, action = ag.two_cards(removed, first, second, split=split, split_aces=split_aces)
        if action == "stand":
            if _total(hard, ace) == 21:
                key = (removed, "split21" if split else "blackjack", 1)
                self.settled[key] = self.settled.get(key, 0.0) + w
            else:
                self.terminal(removed, hard, ace, 1, w)
        elif action == "double":
            left = ag.left(removed)
            for i in range(VALUES):
                count = ag.shoe[i] - removed[i]
                if count:
                    after = _plus(removed, i) if ag.track > 2 else removed
                    self.terminal(after, hard + i + 1, ace or i == ACE, 2, w * count / left)
        else:
            self.hit((removed, hard, ace, split_aces, sum(removed) - 2 + ag.track), w)

    def hit(self, node: Node, w: float) -> None:
        ag = self.against
        removed, hard, ace, split_aces, limit = node
        left = ag.left(removed)
        tracked = sum(removed) < limit
        for i in range(VALUES):
            count = ag.shoe[i] - removed[i]
            if count:
                after = _plus(removed, i) if tracked else removed
                child = (after, hard + i + 1, ace or i == ACE, split_aces, limit)
                bucket = self.nodes[min(child[1], 31)]
                bucket[child] = bucket.get(child, 0.0) + w * count / left

    def run(self) -> None:
        """Every hand still drawing, by increasing hard total (a card always raises it)."""
        ag = self.against
        for bucket in self.nodes:
            for node, w in bucket.items():
                removed, hard, ace, split_aces, limit = node
                if hard > 21 or not ag.play(removed, hard, ace, split_aces, limit)[1]:
                    self.terminal(removed, hard, ace, 1, w)
                else:
                    self.hit(node, w)
            bucket.clear()

    def joint(self) -> Joint:
        self.run()
        ag = self.against
        out: Joint = {}
        for (removed, key, stake), w in self.settled.items():
            row = ag.rules.pay[(key, stake)]
            for o, p in enumerate(ag.dealer(removed)):
                if p:
                    k = (row[o], o)
                    out[k] = out.get(k, 0.0) + w * p
        self.settled = {}
        return out


def _add(into: Joint, joint: Joint, weight: float) -> None:
    for k, p in joint.items():
        into[k] = into.get(k, 0.0) + p * weight


def _split_joint(against: Against, split: SplitParts) -> Joint:
    """A split box's net result with the dealer's result, its hands independent given his result."""
    pair, hands = split.pair, split.hands
    aces = pair == ACE
    kinds: dict[tuple[str, int], dict[int, dict[float, float]]] = {}  # hand kind → dealer's result → law
    for out, (q, _, _) in split.parts.items():
        base = tuple(out if i == pair else 0 for i in range(VALUES))
        left = against.left(base)
        for kind in ("any", "other"):
            walk = _Walk(against)
            for i in range(VALUES):
                count = against.shoe[i] - base[i]
                if not count or (kind == "other" and i == pair):
                    continue
                w = count / left / (1 - q if kind == "other" else 1.0)
                walk.two(_plus(base, i), pair, i, True, aces, w)
            by_dealer: dict[int, dict[float, float]] = {}
            for (net, o), p in walk.joint().items():
                by_dealer.setdefault(o, {})
                by_dealer[o][net] = by_dealer[o].get(net, 0.0) + p
            for law in by_dealer.values():
                mass = sum(law.values())
                for net in law:
                    law[net] /= mass
            kinds[(kind, out)] = by_dealer
    # The box's hands, as Against.split's recursion draws them: the law of the net result of the hands
    # still to be dealt, given the dealer's result, for each (hands so far, hands open).
    dealer = against.dealer(tuple(2 if i == pair else 0 for i in range(VALUES)))
    out_joint: Joint = {}
    for o, p_o in enumerate(dealer):
        if not p_o:
            continue
        memo: dict[tuple[int, int], dict[float, float]] = {}

        def rest(
            have: int, open_: int, o: int = o, memo: dict[tuple[int, int], dict[float, float]] = memo
        ) -> dict[float, float]:
            if open_ == 0:
                return {0.0: 1.0}
            found = memo.get((have, open_))
            if found is not None:
                return found
            q = split.part(have)[0]
            out = min(have, SPLIT_OUT)
            law: dict[float, float] = {}
            if have < hands:
                if q:
                    _mix(law, rest(have + 1, open_ + 1), q)
                _mix(law, _sum(kinds[("other", out)].get(o, {}), rest(have, open_ - 1)), 1 - q)
            else:
                _mix(law, _sum(kinds[("any", out)].get(o, {}), rest(have, open_ - 1)), 1.0)
            memo[(have, open_)] = law
            return law

        for net, p in rest(2, 2).items():
            out_joint[(net, o)] = out_joint.get((net, o), 0.0) + p_o * p
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


def _initial_joint(game: MainGame, against: Against, first: int, second: int, action: str) -> Joint:
    rules = game.rules
    removed = _plus(_plus((0,) * VALUES, first), second)
    joint: Joint = {}
    for part, share in _parts(rules.decks, first, action):
        if part == "split":
            split = against.split(first, rules.max_hands(first))[1]
            _add(joint, _split_joint(against, split), share)
            continue
        walk = _Walk(against)
        if part == "surrender":
            walk.settled[(removed, "surrender", 1)] = 1.0
        else:
            walk.two(removed, first, second, False, False, 1.0)
        _add(joint, walk.joint(), share)
    if rules.peeks:
        hand_key = "blackjack" if first + second + 2 == 11 and ACE in (first, second) else "20"
        natural = rules.dealer.blackjack
        k = (rules.pay[(hand_key, 1)][natural], natural)
        joint[k] = joint.get(k, 0.0) + against.p_natural(removed)
    return joint


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
    full = game.full
    total = sum(full)
    joint: dict[tuple[float, int, int], float] = {}  # (net, his first card, his result) → probability
    for up, against in enumerate(game.against):
        for first in range(VALUES):
            for second in range(first, VALUES):
                p_hand = full[first] / total * (full[second] - (first == second)) / (total - 1)
                if first != second:
                    p_hand *= 2
                after = without(full, first, second)
                p = p_hand * after[up] / (total - 2)
                if p:
                    action = game.strategy[(first, second, up)]
                    for (net, o), q in _initial_joint(game, against, first, second, action).items():
                        joint[(net, up, o)] = joint.get((net, up, o), 0.0) + p * q
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
