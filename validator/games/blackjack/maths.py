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
from functools import partial

from validator.games.blackjack.dealer import DealerRule, shared_distribution
from validator.games.blackjack.hands import BlackjackHand as Hand
from validator.maths.probe import Probe
from validator.maths.shoe import VALUES, Composition, card_of, full_shoe, without

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
        rule = DealerRule(
            stands_on,
            bool(probe.param("dealer.hits_soft_17", False)),
            bool(probe.param("dealer.hits_17_with_an_ace", False)),
        )
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


Removed = tuple[int, ...]  # the cards out of the shoe by value (beyond the dealer's first card)


def _plus(removed: Removed, index: int) -> Removed:
    return (*removed[:index], removed[index] + 1, *removed[index + 1 :])


def tracked_cards(decks: int) -> int:
    """How many of a hand's cards are taken out of the shoe, for its later cards and the dealer's draw.
    The cards after them are drawn from the shoe as it was after them (the play then depends on the
    hand's total, from that composition). TRACKED[decks] keeps a version's figures within the CPU time
    docs/edge.md states; benchmarks/bench_edge.py measures what it costs against every card taken out."""
    return TRACKED.get(decks, TRACKED_MANY)


TRACKED = {1: 21, 2: 21}
TRACKED_MANY = 2


class Against:
    """Every hand the player can hold against one dealer's first card, valued composition-dependent at
    every decision: from the shoe without the dealer's card and every card the hand holds (for a split
    hand, also the pair's cards already out), the player's next card and the dealer's whole draw exact.

    Where the dealer looks at his cards for a blackjack first, the values are the expected results *and*
    no dealer's blackjack (his blackjack left out of each distribution): the hole card is one more
    unseen card, and the play given that he has none is the best for these joint values (every option at
    a decision is scaled by the same probability that he has none)."""

    def __init__(self, rules: Rules, full: Composition, up: int, track: int) -> None:
        self.rules = rules
        self.up = up
        self.shoe = without(full, up)
        self.size = sum(self.shoe)
        self.track = track
        self.natural = rules.dealer.blackjack
        self.naturals = tuple(i for i in range(VALUES) if _total(up + i + 2, ACE in (up, i)) == 21)
        self.dealer_memo: dict[Removed, list[float]] = {}
        self.value_memo: dict[tuple[Removed, str, int], float] = {}  # a settled hand's value
        self.memo: dict[tuple[Removed, int, bool, bool, int], tuple[float, bool]] = {}
        self.two_memo: dict[tuple[Removed, int, int, bool, bool], tuple[float, str]] = {}
        self.split_memo: dict[tuple[int, int], tuple[float, SplitParts]] = {}
        rows = [rules.pay[(str(t), 1)] for t in range(4, 22)]
        low = rows[0]
        self.low_totals = (
            {t for t, row in zip(range(4, 22), rows, strict=True) if row == low}
            if all(a <= b for row in rows for a, b in zip(low, row, strict=True))
            else set()
        )

    # ---- the shoe ----
    def left(self, removed: Removed) -> int:
        return self.size - sum(removed)

    def p_natural(self, removed: Removed) -> float:
        """The probability that the dealer's next card makes his blackjack."""
        left = self.left(removed)
        return sum(self.shoe[i] - removed[i] for i in self.naturals) / left if left else 0.0

    def dealer(self, removed: Removed) -> list[float]:
        found = self.dealer_memo.get(removed)
        if found is None:
            comp = tuple(s - r for s, r in zip(self.shoe, removed, strict=True))
            found = list(shared_distribution(self.rules.dealer, comp, self.up))
            if self.rules.peeks:
                found[self.natural] = 0.0
            self.dealer_memo[removed] = found
        return found

    # ---- settled hands ----
    def value(self, removed: Removed, key: str, stake: int = 1) -> float:
        memo = (removed, key, stake)
        found = self.value_memo.get(memo)
        if found is not None:
            return found
        row = self.rules.pay[(key, stake)]
        if key == "bust" and min(row) == max(row):
            # A busted hand loses whatever the dealer draws: only his blackjack's chance counts.
            found = row[0] * (1.0 - self.p_natural(removed) if self.rules.peeks else 1.0)
        else:
            found = sum(p * net for p, net in zip(self.dealer(removed), row, strict=True))
        self.value_memo[memo] = found
        return found

    def stand(self, removed: Removed, hard: int, ace: bool, stake: int = 1) -> float:
        total = _total(hard, ace)
        return self.value(removed, "bust" if total > 21 else str(total), stake)

    # ---- decisions ----
    def play(
        self, removed: Removed, hard: int, ace: bool, split_aces: bool = False, limit: int = 21
    ) -> tuple[float, bool]:
        """A hand of three cards or more: the best of standing and hitting, and whether to hit."""
        key = (removed, hard, ace, split_aces, limit)
        found = self.memo.get(key)
        if found is not None:
            return found
        if hard > 21:
            found = (self.value(removed, "bust"), False)
        else:
            total = _total(hard, ace)
            if total < 21 or self.rules.can_hit(hard, ace, 3, split_aces):
                hit = self.hit(removed, hard, ace, split_aces, limit)
                if total in self.low_totals and (hard <= 11 or total != hard):
                    # A hand no card can bust, standing where it loses unless the dealer busts: a card
                    # and standing is as good (the card unseen changes none of his chances), so hit.
                    found = (hit, True)
                else:
                    stand = self.stand(removed, hard, ace)
                    found = (hit, True) if hit > stand else (stand, False)
            else:
                found = (self.stand(removed, hard, ace), False)
        self.memo[key] = found
        return found

    def hit(self, removed: Removed, hard: int, ace: bool, split_aces: bool = False, limit: int = 21) -> float:
        left = self.left(removed)
        tracked = sum(removed) < limit
        ev = 0.0
        for i in range(VALUES):
            count = self.shoe[i] - removed[i]
            if count:
                after = _plus(removed, i) if tracked else removed
                ev += count / left * self.play(after, hard + i + 1, ace or i == ACE, split_aces, limit)[0]
        return ev

    def double(self, removed: Removed, hard: int, ace: bool) -> float:
        left = self.left(removed)
        tracked = self.track > 2
        ev = 0.0
        for i in range(VALUES):
            count = self.shoe[i] - removed[i]
            if count:
                after = _plus(removed, i) if tracked else removed
                ev += count / left * self.stand(after, hard + i + 1, ace or i == ACE, 2)
        return ev

    def two_cards(
        self, removed: Removed, first: int, second: int, *, split: bool, split_aces: bool
    ) -> tuple[float, str]:
        """Best play of a two-card hand (no split, no surrender here): its value and the action."""
        key = (removed, first, second, split, split_aces)
        found = self.two_memo.get(key)
        if found is not None:
            return found
        rules = self.rules
        hard, ace = first + second + 2, ACE in (first, second)
        if _total(hard, ace) == 21:
            stand = self.value(removed, "split21" if split else "blackjack")
        else:
            stand = self.stand(removed, hard, ace)
        best = (stand, "stand")
        if not (split_aces and not rules.can_hit(hard, ace, 2, True)):
            if _total(hard, ace) < 21 or rules.can_hit(hard, ace, 2, split_aces):
                # The hand's cards beyond the `track` first are drawn, not taken out (see exact_cards).
                limit = sum(removed) - 2 + self.track
                hit = self.hit(removed, hard, ace, split_aces, limit)
                if hit > best[0]:
                    best = (hit, "hit")
            if rules.can_double(first, second, split, split_aces):
                dbl = self.double(removed, hard, ace)
                if dbl > best[0]:
                    best = (dbl, "double")
        self.two_memo[key] = best
        return best

    def split(self, pair: int, hands: int) -> tuple[float, SplitParts]:
        """Splitting a pair into at most `hands` hands, each hand's stake one unit. Each hand is played
        composition-dependent from the shoe without its own cards and the pair's cards out so far
        (two, and one more at each resplit); the cards drawn to the box's other hands are not taken
        out (Wizard of Odds' method in its Appendix 9: "only how many hands the player had already
        split, but not the other cards drawn in those hands")."""
        found = self.split_memo.get((pair, hands))
        if found is not None:
            return found
        aces = pair == ACE
        parts: dict[int, tuple[float, float, float]] = {}  # pair cards out → (pair card's chance, any, other)
        for out in range(2, min(hands, SPLIT_OUT) + 1):
            base = tuple(out if i == pair else 0 for i in range(VALUES))
            left = self.left(base)
            values = [0.0] * VALUES
            for i in range(VALUES):
                count = self.shoe[i] - base[i]
                if count:
                    ev = self.two_cards(_plus(base, i), pair, i, split=True, split_aces=aces)[0]
                    values[i] = count / left * ev
            q = (self.shoe[pair] - out) / left
            anyhand = sum(values)
            other = (anyhand - values[pair]) / (1 - q) if q < 1 else 0.0
            parts[out] = (q, anyhand, other)

        def rest(have: int, open_: int) -> float:
            if open_ == 0:
                return 0.0
            q, anyhand, other = parts[min(have, SPLIT_OUT)]
            if have < hands:
                return q * rest(have + 1, open_ + 1) + (1 - q) * (other + rest(have, open_ - 1))
            return anyhand + rest(have, open_ - 1)

        found = (rest(2, 2), SplitParts(pair, hands, parts))
        self.split_memo[(pair, hands)] = found
        return found


@dataclass(frozen=True, slots=True)
class SplitParts:
    pair: int
    hands: int
    parts: dict[int, tuple[float, float, float]]  # pair cards out (at most SPLIT_OUT) → values

    def part(self, have: int) -> tuple[float, float, float]:
        return self.parts[min(have, SPLIT_OUT)]


# A box split into more hands than this is valued as with this many of the pair's cards out (a fifth hand
# needs three more of the pair's cards): +0.000026 points of return with eight hands at six decks,
# measured against every pair's card out; listed by `edge` where a box may reach more hands.
SPLIT_OUT = 4


def initial(rules: Rules, against: Against, first: int, second: int) -> tuple[float, str]:
    """Best play of one initial hand against the dealer's first card: its expected return and action."""
    up = against.up
    removed = _plus(_plus((0,) * VALUES, first), second)
    ev, action = against.two_cards(removed, first, second, split=False, split_aces=False)
    options: list[tuple[float, str]] = [(ev, action)]
    if rules.can_surrender(first, second, up):
        options.append((against.value(removed, "surrender"), "surrender"))
    if first == second:
        hands = rules.max_hands(first)
        if hands > 1:
            options.append((against.split(first, hands)[0], "split"))
        if first == TEN and hands > 1 and not rules.can_split(first, 1, identical=False):
            # Only identical ten-value cards split (K-K, not K-Q): the split counts for that share.
            decks = rules.decks
            share = (4 * decks - 1) / (16 * decks - 1)
            best_split = max(options, key=lambda o: o[0])
            no_split = max((o for o in options if o[1] != "split"), key=lambda o: o[0])
            mixed = share * best_split[0] + (1 - share) * no_split[0]
            options = [(mixed, f"{best_split[1]} (identical) / {no_split[1]}")]
    ev, action = max(options, key=lambda o: o[0])
    if rules.peeks:
        hand_key = "blackjack" if first + second + 2 == 11 and ACE in (first, second) else "20"
        vs_natural = rules.pay[(hand_key, 1)][rules.dealer.blackjack]
        ev += against.p_natural(removed) * vs_natural
    return ev, action


@dataclass(frozen=True, slots=True)
class Spread:
    """A round's net result on the main stake: computed by `games.blackjack.spread`."""

    lines: tuple[tuple[float, float], ...]  # (net result, probability), best first
    mean: float
    variance: float
    covariance: float  # of two boxes' net results in one round (each one initial unit)
    split_gap: float  # the distribution's mean less the exact figure (the split boxes' approximation)


@dataclass(frozen=True, slots=True)
class MainGame:
    ev: float
    split_probability: float
    split_return: float
    strategy: dict[tuple[int, int, int], str]
    rules: Rules
    against: tuple[Against, ...]  # by the dealer's first card: every value computed, for the play
    full: Composition
    tracked: int  # how many of a hand's cards were taken out of the shoe
    spread: Spread | None = None  # the distribution of a round's net result (spread.with_spread)

    @property
    def lines(self) -> tuple[tuple[str, float, float], ...]:
        """(label, probability, net) of each net result of a round, best first."""
        if self.spread is None:
            return ()
        return tuple((_net_label(net), p, net) for net, p in self.spread.lines)


def main_game(probe: Probe, rules: Rules | None = None, *, tracked: int | None = None) -> MainGame:
    """The main stake's expected return and the best play. `tracked`: how many of a hand's cards are
    taken out of the shoe (default: `tracked_cards`). `games.blackjack.spread` adds the distribution."""
    rules = rules or Rules.read(probe)
    full = full_shoe(rules.decks)
    total = sum(full)
    cards = tracked if tracked is not None else tracked_cards(rules.decks)
    ev = 0.0
    split_p = split_ev = 0.0
    strategy: dict[tuple[int, int, int], str] = {}
    against = tuple(Against(rules, full, up, cards) for up in range(VALUES))
    for first in range(VALUES):
        for second in range(first, VALUES):
            p_hand = full[first] / total * (full[second] - (first == second)) / (total - 1)
            if first != second:
                p_hand *= 2
            after = without(full, first, second)
            for up in range(VALUES):
                p = p_hand * after[up] / (total - 2)
                if not p:
                    continue
                value, action = initial(rules, against[up], first, second)
                ev += p * value
                strategy[(first, second, up)] = action
                if action == "split":
                    split_p += p
                    split_ev += p * value
    return MainGame(
        ev, split_p, split_ev / split_p if split_p else 0.0, strategy, rules, against, full, cards
    )


def _net_label(net: float) -> str:
    return format(Decimal(repr(net)).normalize(), "f") if net else "0"


class Play:
    """The best play, computed on demand for the situations that arise (a simulated séance's), or read
    from a game computed whole (`of`)."""

    def __init__(self, rules: Rules, tracked: int | None = None) -> None:
        self.rules = rules
        self.full = full_shoe(rules.decks)
        self.tracked = tracked if tracked is not None else tracked_cards(rules.decks)
        self.by_up: dict[int, Against] = {}
        self.actions: dict[tuple[int, int, int], str] = {}

    @classmethod
    def of(cls, game: MainGame) -> Play:
        play = cls(game.rules, game.tracked)
        play.by_up = dict(enumerate(game.against))
        play.actions = dict(game.strategy)
        return play

    def against(self, up: int) -> Against:
        found = self.by_up.get(up)
        if found is None:
            found = self.by_up[up] = Against(self.rules, self.full, up, self.tracked)
        return found

    def action(self, first: int, second: int, up: int) -> str:
        """The first decision for an initial hand (first <= second) against the dealer's first card."""
        key = (first, second, up)
        found = self.actions.get(key)
        if found is None:
            found = self.actions[key] = initial(self.rules, self.against(up), first, second)[1]
        return found
