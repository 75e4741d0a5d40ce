"""The main game of a blackjack version: the player's expected return per unit of initial stake.

The player plays the best strategy these rules allow, composition-dependent for the first decision and
total-dependent after it: each initial hand (two cards and the dealer's first card) is removed from a
full shoe of the version's decks, and every later card, the player's and the dealer's, is drawn from that
composition (the dealer's own cards with removal, card by card). Stand, hit, double, split (resplits by
the rules' limit, split aces and their one card) and surrender are weighed whenever the version's rules
allow them. The dealer's blackjack is one of his results, and each stake (doubled and split ones too) is
settled against it by the version's clauses, unless the version says the dealer looks at his cards for
a blackjack before the players decide (parameter `dealer.peeks = true`): then a blackjack ends the round
at once and the players decide knowing he has none. A hole card he does not look at changes nothing:
the players decide without it, as with no hole card (the description of fr/usage-blackjack deals one
and never says the dealer checks it). Insurance and even money are not taken (a separate stake at a
loss for a player who does not count cards).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache, partial

from validator.games.blackjack.dealer import DealerRule, final_distribution
from validator.maths.probe import Probe
from validator.maths.shoe import VALUES, Composition, card_of, full_shoe, without
from validator.replay.state import Hand

Dist = dict[float, float]
MAX_HANDS = 8  # where a version puts no limit on splitting, the box is taken to reach 8 hands at most
TEN = VALUES - 1
ACE = 0


def _cards(hard: int, ace: bool, count: int) -> list[str]:
    """Some cards of that hard total (aces as 1), holding an ace when asked, `count` of them if possible."""
    cards: list[str] = ["AS"] if ace else []
    rest = hard - (1 if ace else 0)
    slots = max(count - len(cards), 1)
    while rest > 0 and slots > 0:
        part = min(10, rest if slots == 1 else max(2, rest - 2 * (slots - 1)))
        cards.append(card_of(part - 1, "SHDC"[len(cards) % 4]))
        rest -= part
        slots -= 1
        if slots == 0 and rest > 0:
            slots = 1
    return cards


def _total(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


@dataclass(slots=True)
class Rules:
    """The game the version's rules make, read through the probe once per table."""

    probe: Probe
    decks: int
    dealer: DealerRule
    peeks: bool
    pay: dict[tuple[str, int], tuple[float, ...]] = field(default_factory=dict)
    cache: dict[tuple[object, ...], bool] = field(default_factory=dict)

    @classmethod
    def read(cls, probe: Probe) -> Rules:
        stands_on = int(probe.param("dealer.stands_on", 17))
        rule = DealerRule(stands_on, bool(probe.param("dealer.hits_soft_17", False)))
        rules = cls(probe, int(probe.param("shoe.decks", 6)), rule, bool(probe.param("dealer.peeks", False)))
        rules.build_payoffs()
        return rules

    # ---- settlements, from the version's clauses ----
    def dealer_cards(self, outcome: int) -> list[str]:
        rule = self.dealer
        if outcome == rule.blackjack:
            return ["AS", "TS"]
        if outcome == rule.bust:
            return ["TS", "6S", "TH"]
        total = rule.totals[outcome]
        return ["TS", "5S", "6S"] if total == 21 else _cards(total, False, 2)

    def build_payoffs(self) -> None:
        probe = self.probe
        dealers = [probe.dealer(self.dealer_cards(o)) for o in range(self.dealer.size)]
        hands: dict[tuple[str, int], Callable[[], Hand]] = {}
        for stake in (1, 2):
            doubled = stake == 2
            for total in range(4, 22):
                cards = ["TS", "5S", "6S"] if total == 21 else _cards(total, False, 3 if doubled else 2)
                hands[(str(total), stake)] = partial(probe.hand, cards, doubled=doubled, stake=Decimal(stake))
            hands[("bust", stake)] = partial(
                probe.hand, ["TS", "6S", "TH"], doubled=doubled, stake=Decimal(stake)
            )
        hands[("blackjack", 1)] = lambda: probe.hand(["AS", "TS"])
        hands[("surrender", 1)] = lambda: probe.hand(["TS", "6S"], surrendered=True)
        for key, make in hands.items():
            row = []
            for dealer in dealers:
                net = probe.settle(make(), dealer)
                row.append(float(net) if net is not None else 0.0)
            self.pay[key] = tuple(row)
        split_natural = probe.hand(["AS", "TS"], split=True).blackjack
        self.pay[("split21", 1)] = self.pay[("blackjack", 1)] if split_natural else self.pay[("21", 1)]

    # ---- decisions, from the version's rules (cached per situation) ----
    def _legal(
        self, key: tuple[object, ...], event: str, make: Callable[[], tuple[object, object, object]]
    ) -> bool:
        found = self.cache.get(key)
        if found is None:
            hand, dealer, amount = make()
            found = self.probe.legal(event, hand, dealer, amount)  # type: ignore[arg-type]
            self.cache[key] = found
        return found

    def up(self, index: int) -> object:
        return self.probe.dealer([card_of(index, "D")])

    def can_hit(self, hard: int, ace: bool, cards: int, split_aces: bool = False) -> bool:
        probe = self.probe
        return self._legal(
            ("hit", hard, ace, min(cards, 3), split_aces),
            "hit",
            lambda: (
                probe.hand(_cards(hard, ace, cards), split=split_aces, split_aces=split_aces),
                self.up(TEN),
                None,
            ),
        )

    def can_double(self, first: int, second: int, split: bool, split_aces: bool) -> bool:
        probe = self.probe
        return self._legal(
            ("double", first, second, split, split_aces),
            "double",
            lambda: (
                probe.hand([card_of(first, "S"), card_of(second, "H")], split=split, split_aces=split_aces),
                self.up(TEN),
                Decimal(1),
            ),
        )

    def can_surrender(self, first: int, second: int, up: int) -> bool:
        probe = self.probe
        return self._legal(
            ("surrender", first, second, up),
            "surrender",
            lambda: (probe.hand([card_of(first, "S"), card_of(second, "H")]), self.up(up), None),
        )

    def can_split(self, pair: int, hands: int, identical: bool = True) -> bool:
        probe = self.probe
        aces = pair == ACE
        other = card_of(pair, "H") if identical or pair != TEN else "KH"

        def make() -> tuple[object, object, object]:
            hand = probe.hand(
                [card_of(pair, "S"), other],
                split=hands > 1,
                split_aces=aces and hands > 1,
                box_hands=hands,
                ace_splits=hands - 1 if aces else 0,
            )
            return hand, self.up(TEN), Decimal(1)

        return self._legal(("split", pair, hands, identical), "split", make)

    def same_game(self, other: Rules) -> bool:
        """Would `other` give every answer this game was computed with? Then its figures are these."""
        if (other.decks, other.dealer, other.peeks, other.pay) != (
            self.decks,
            self.dealer,
            self.peeks,
            self.pay,
        ):
            return False
        asks: dict[str, Callable[..., bool]] = {
            "hit": lambda hard, ace, cards, split_aces: other.can_hit(hard, ace, cards, split_aces),
            "double": other.can_double,
            "surrender": other.can_surrender,
            "split": other.can_split,
        }
        return all(asks[str(key[0])](*key[1:]) == answer for key, answer in list(self.cache.items()))

    def max_hands(self, pair: int) -> int:
        """How many hands a box may reach by splitting this pair (1: no split)."""
        hands = 1
        while hands < MAX_HANDS and self.can_split(pair, hands):
            hands += 1
        return hands


@dataclass(slots=True)
class Outcome:
    """One initial hand's best play: its expected return and the distribution of the round's net result
    (splits are one line: the box's total over its hands is not tracked card by card)."""

    ev: float
    action: str
    dist: Dist


def _add(into: Dist, dist: Dist, weight: float) -> None:
    for net, p in dist.items():
        into[net] = into.get(net, 0.0) + p * weight


class Position:
    """The values of every hand against one dealer card, from one composition (after the initial cards)."""

    def __init__(self, rules: Rules, comp: Composition, up: int, *, track: bool = True) -> None:
        self.rules = rules
        self.track = track  # False: expected returns only, no distribution of results (faster)
        self.up = up
        n = sum(comp)
        self.p = [c / n for c in comp]
        full = final_distribution(rules.dealer, comp, up)
        natural = rules.dealer.blackjack
        self.natural = full[natural]
        if rules.peeks:
            rest = 1.0 - self.natural
            self.dist = tuple(
                0.0 if i == natural else (x / rest if rest else 0.0) for i, x in enumerate(full)
            )
        else:
            self.dist = full
        self.memo: dict[tuple[int, bool, bool], tuple[float, Dist]] = {}
        self.stand_memo: dict[tuple[str, int], tuple[float, Dist]] = {}

    def settle(self, key: str, stake: int = 1) -> tuple[float, Dist]:
        found = self.stand_memo.get((key, stake))
        if found is None:
            row = self.rules.pay[(key, stake)]
            dist: Dist = {}
            ev = 0.0
            for p, net in zip(self.dist, row, strict=True):
                if p:
                    dist[net] = dist.get(net, 0.0) + p
                    ev += p * net
            found = (ev, dist)
            self.stand_memo[(key, stake)] = found
        return found

    def stand(self, hard: int, ace: bool, stake: int = 1) -> tuple[float, Dist]:
        total = _total(hard, ace)
        return self.settle("bust" if total > 21 else str(total), stake)

    def play(self, hard: int, ace: bool, split_aces: bool = False) -> tuple[float, Dist]:
        """Best of standing and hitting for a hand of three cards or more (or a split ace's)."""
        key = (hard, ace, split_aces)
        found = self.memo.get(key)
        if found is not None:
            return found
        if hard > 21:
            best = self.settle("bust")
        else:
            best = self.stand(hard, ace)
            if _total(hard, ace) < 21 or self.rules.can_hit(hard, ace, 3, split_aces):
                hit = self.hit(hard, ace, split_aces)
                if hit[0] > best[0]:
                    best = hit
        self.memo[key] = best
        return best

    def hit(self, hard: int, ace: bool, split_aces: bool = False) -> tuple[float, Dist]:
        dist: Dist = {}
        ev = 0.0
        for i, p in enumerate(self.p):
            if p:
                value = self.play(hard + i + 1, ace or i == ACE, split_aces)
                ev += p * value[0]
                if self.track:
                    _add(dist, value[1], p)
        return ev, dist

    def double(self, hard: int, ace: bool) -> tuple[float, Dist]:
        dist: Dist = {}
        ev = 0.0
        for i, p in enumerate(self.p):
            if p:
                value = self.stand(hard + i + 1, ace or i == ACE, 2)
                ev += p * value[0]
                if self.track:
                    _add(dist, value[1], p)
        return ev, dist

    def two_cards(self, first: int, second: int, *, split: bool, split_aces: bool) -> tuple[float, str, Dist]:
        """Best play of a two-card hand (no split, no surrender here)."""
        rules = self.rules
        hard, ace = first + second + 2, ACE in (first, second)
        if _total(hard, ace) == 21:
            stand = self.settle("split21" if split else "blackjack")
        else:
            stand = self.stand(hard, ace)
        options = [(stand[0], "stand", stand[1])]
        if split_aces and not rules.can_hit(hard, ace, 2, True):
            return options[0]
        if _total(hard, ace) < 21 or rules.can_hit(hard, ace, 2, split_aces):
            hit = self.hit(hard, ace, split_aces)
            options.append((hit[0], "hit", hit[1]))
        if rules.can_double(first, second, split, split_aces):
            dbl = self.double(hard, ace)
            options.append((dbl[0], "double", dbl[1]))
        return max(options, key=lambda o: o[0])

    def split(self, pair: int, hands: int) -> float:
        """Expected return of splitting a pair into at most `hands` hands (each hand's stake one unit)."""
        aces = pair == ACE
        values = [self.two_cards(pair, i, split=True, split_aces=aces)[0] for i in range(VALUES)]
        q = self.p[pair]
        nonpair = (sum(self.p[i] * values[i] for i in range(VALUES) if i != pair) / (1 - q)) if q < 1 else 0.0
        anyhand = sum(self.p[i] * values[i] for i in range(VALUES))

        @cache
        def rest(have: int, open_: int) -> float:
            if open_ == 0:
                return 0.0
            if have < hands:
                return q * rest(have + 1, open_ + 1) + (1 - q) * (nonpair + rest(have, open_ - 1))
            return anyhand + rest(have, open_ - 1)

        return rest(2, 2)


def initial(
    rules: Rules, first: int, second: int, up: int, comp: Composition, *, track: bool = True
) -> Outcome:
    """Best play of one initial hand against the dealer's first card, from `comp` (all three removed)."""
    pos = Position(rules, comp, up, track=track)
    ev, action, dist = pos.two_cards(first, second, split=False, split_aces=False)
    options: list[tuple[float, str, Dist]] = [(ev, action, dist)]
    if rules.can_surrender(first, second, up):
        sur = pos.settle("surrender")
        options.append((sur[0], "surrender", sur[1]))
    if first == second:
        hands = rules.max_hands(first)
        if hands > 1:
            value = pos.split(first, hands)
            options.append((value, "split", {}))
        if first == TEN and hands > 1 and not rules.can_split(first, 1, identical=False):
            # Only identical ten-value cards split (K-K, not K-Q): the split counts for that share.
            decks = rules.decks
            share = (4 * decks - 1) / (16 * decks - 1)
            best_split = max(options, key=lambda o: o[0])
            no_split = max((o for o in options if o[1] != "split"), key=lambda o: o[0])
            mixed = share * best_split[0] + (1 - share) * no_split[0]
            options = [(mixed, f"{best_split[1]} (identical) / {no_split[1]}", no_split[2])]
    best = max(options, key=lambda o: o[0])
    ev, action, dist = best
    if action == "split":
        dist = {}
    if rules.peeks and pos.natural:
        hand_key = "blackjack" if first + second + 2 == 11 and ACE in (first, second) else "20"
        vs_natural = rules.pay[(hand_key, 1)][rules.dealer.blackjack]
        ev = pos.natural * vs_natural + (1 - pos.natural) * ev
        scaled: Dist = {}
        _add(scaled, dist, 1 - pos.natural)
        scaled[vs_natural] = scaled.get(vs_natural, 0.0) + pos.natural
        dist = scaled
    return Outcome(ev, action, dist)


@dataclass(frozen=True, slots=True)
class MainGame:
    ev: float
    lines: tuple[tuple[str, float, float], ...]  # (label, probability, net)
    split_probability: float
    split_return: float
    strategy: dict[tuple[int, int, int], str]
    rules: Rules


def main_game(probe: Probe, rules: Rules | None = None, *, track: bool = True) -> MainGame:
    """The main stake's expected return; with `track`, the distribution of each round's net result."""
    rules = rules or Rules.read(probe)
    full = full_shoe(rules.decks)
    total = sum(full)
    ev = 0.0
    dist: Dist = {}
    split_p = split_ev = 0.0
    strategy: dict[tuple[int, int, int], str] = {}
    for first in range(VALUES):
        for second in range(first, VALUES):
            p_hand = full[first] / total * (full[second] - (first == second)) / (total - 1)
            if first != second:
                p_hand *= 2
            after = without(full, first, second)
            for up in range(VALUES):
                p = p_hand * after[up] / (total - 2)
                outcome = initial(rules, first, second, up, without(after, up), track=track)
                ev += p * outcome.ev
                strategy[(first, second, up)] = outcome.action
                if outcome.action == "split":
                    split_p += p
                    split_ev += p * outcome.ev
                else:
                    _add(dist, outcome.dist, p)
    lines = tuple(
        sorted(((_net_label(net), p, net) for net, p in dist.items() if p > 0), key=lambda x: -x[2])
    )
    return MainGame(ev, lines, split_p, split_ev / split_p if split_p else 0.0, strategy, rules)


def _net_label(net: float) -> str:
    return format(Decimal(repr(net)).normalize(), "f") if net else "0"
