"""The main game of a blackjack version: the player's expected return per unit of initial stake.

The player plays the best strategy these rules allow, composition-dependent at every decision: each
decision is taken on the cards of the hand being played and the dealer's first card, taken out of a full
shoe of the version's decks (for a split hand, also the pair's cards out so far), and every card the
player and the dealer draw later comes from that composition, card by card, with removal. Stand, hit,
double, split (resplits by the rules' limit, split aces and their one card) and surrender are weighed
whenever the version's rules allow them (asked of the rules themselves, `probe`). Every hand the player
can hold is valued this way (`holdings`: every multiset of cards of 21 or less, against each of the
dealer's first cards), with the dealer's drawing for each computed exactly (`dealer.table`).

A split hand is played on its own cards and the pair's cards out so far; the cards drawn to the box's
other hands stay unseen to it (Wizard of Odds' method in its Appendix 9, the published exact tables').

The dealer's blackjack is one of his results, and each stake (doubled and split ones too) is settled
against it by the version's clauses, unless the version says the dealer looks at his cards for a
blackjack before the players decide (parameter `dealer.peeks = true`): then a blackjack ends the round at
once and the players decide knowing he has none. A hole card he does not look at changes nothing: the
players decide without it, as with no hole card (the description of fr/usage-blackjack deals one and
never says the dealer checks it). Insurance and even money are not taken (a separate stake at a loss for
a player who does not count cards).

Figures are computed in binary floating point: sums of products of exact probabilities, to about 1e-15.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from functools import partial

from validator.dsl import ast
from validator.dsl.expr import unparse
from validator.dsl.model import Ruleset
from validator.games.blackjack import dealer as dealer_table
from validator.games.blackjack.dealer import DealerRule
from validator.games.blackjack.hands import BlackjackHand as Hand
from validator.games.blackjack.holdings import ALL, DOUBLED, POWER, TWO, UNSPLIT, Family, Hands, hands
from validator.maths.numeric import Bools, Bytes, Floats, Ints, np
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


def dealer_rule(probe: Probe) -> DealerRule:
    """How the version's dealer draws (its parameters): all the side bets that read his final hand need
    of the rules, without settling the main stake's payoffs (`Rules.read`)."""
    return DealerRule(
        int(probe.param("dealer.stands_on", 17)),
        bool(probe.param("dealer.hits_soft_17", False)),
        bool(probe.param("dealer.hits_17_with_an_ace", False)),
    )


def dealer_cards(rule: DealerRule, outcome: int) -> list[str]:
    """Some cards of the dealer that make one of his results."""
    if outcome == rule.blackjack:
        return ["AS", "TS"]
    if outcome == rule.bust:
        return ["TS", "6S", "TH"]
    total = rule.totals[outcome]
    return ["TS", "5S", "6S"] if total == 21 else _cards(total, False, 2)


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
        rules = cls(
            probe,
            int(probe.param("shoe.decks", 6)),
            dealer_rule(probe),
            bool(probe.param("dealer.peeks", False)),
        )
        rules.build_payoffs()
        return rules

    # ---- settlements, from the version's clauses ----
    def dealer_cards(self, outcome: int) -> list[str]:
        return dealer_cards(self.dealer, outcome)

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

    def split_depth(self, pair: int) -> int:
        """How many cards a split hand of this pair may hold: two where it may neither take a card nor
        double (split aces with one card), three where it may double only, else any number."""
        aces = pair == ACE
        seconds = range(VALUES)
        if any(self.can_hit(pair + i + 2, ACE in (pair, i), 2, aces) for i in seconds):
            return ALL
        if any(self.can_double(pair, i, True, aces) for i in seconds):
            return DOUBLED
        return TWO

    def families(self, full: Composition) -> tuple[Family, ...]:
        """The families of hands this game values: the round's own, and each pair's split hands by the
        pair's cards out (two up to the most hands a box may reach, within the shoe's cards of it)."""
        found = [Family(UNSPLIT, 0, ALL)]
        for pair in range(VALUES):
            most = min(self.max_hands(pair), full[pair])
            if most > 1:
                depth = self.split_depth(pair)
                found.extend(Family(pair, out, depth) for out in range(2, most + 1))
        return tuple(found)


# The events whose rules the game asks (`Rules.can_hit`, …) and the stake it settles (`Rules.pay`).
ASKED = ("hit", "double", "surrender", "split")
SETTLED = "main"


def asked(ruleset: Ruleset) -> tuple[object, ...]:
    """Everything `Rules` reads of a version, as the version applies it: its game, its parameters, the
    checks on the decisions the game asks, the main stake's settle clauses. Two versions alike in it
    give every answer alike (a reading that changes a side bet or the order of settlement does not
    change the main game: `Rules.same_game` need not ask again)."""

    def text(node: ast.Expr | None) -> str | None:
        return None if node is None else unparse(node)

    checks = tuple(
        (
            event,
            tuple(
                (text(c.applied_guard), text(c.applied_require))
                for _r, c in ruleset.checks_by_event.get(event, ())
            ),
        )
        for event in ASKED
    )
    settles = tuple(
        (
            s.verb,
            text(s.applied_guard),
            text(s.applied_amount) if s.amount_node is None or s.applied_amount is not None else id(s),
        )
        for _r, s in ruleset.settles_by_stake.get(SETTLED, ())
    )
    params = tuple(sorted((name, repr(p.value)) for name, p in ruleset.parameters.items()))
    return ruleset.game, params, checks, settles


class DealerRows:
    """The dealer's results (`dealer.table`) for every row (the cards out) asked so far of one dealer's rule
    and shoe: each row is computed once per process, whatever families, options or readings ask it. A
    version's options and readings that keep its dealer ask mostly the same rows (a box split to fewer
    hands holds a subset of the rows of one split to more; the split bound's families past the game's
    are mostly rows of the game's), so only the rows not yet known are computed. A row's results may differ
    in their last bit with the rows computed beside it (the matrix product's blocking), so a game's figures
    may differ by 1e-16 with what this process computed before: each command computes in a fixed order,
    and prints the same figures at every run."""

    def __init__(self, rule: DealerRule, full: Composition) -> None:
        self.rule, self.full = rule, full
        self.power = np.array(POWER, dtype=np.int64)
        # Blocks of rows, each sorted by key: the rows known are not copied whenever a few are added (a
        # block is merged into the one before it once it is as large).
        self.blocks: list[tuple[Ints, Floats]] = []

    def of(self, rows: Ints) -> Floats:
        """The results for each row of `rows` (rows × values): an array rows × first cards × outcomes, the
        caller's own."""
        ours = rows @ self.power
        found: Floats = np.empty((len(ours), VALUES, self.rule.size))
        missing = np.ones(len(ours), dtype=np.bool_)
        for keys, known in self.blocks:
            at = np.minimum(np.searchsorted(keys, ours), len(keys) - 1)
            have = missing & (keys[at] == ours)
            found[have] = known[at[have]]
            missing &= ~have
        if missing.any():
            wanted, first = np.unique(ours[missing], return_index=True)
            new = dealer_table.table(self.rule, self.full, rows[np.flatnonzero(missing)[first]])
            found[missing] = new[np.searchsorted(wanted, ours[missing])]
            self.blocks.append((wanted, new))
            while len(self.blocks) > 1 and len(self.blocks[-2][0]) <= len(self.blocks[-1][0]):
                (low_keys, low), (high_keys, high) = self.blocks.pop(-2), self.blocks.pop()
                keys = np.concatenate((low_keys, high_keys))
                order = np.argsort(keys, kind="stable")
                self.blocks.append((keys[order], np.concatenate((low, high))[order]))
        return found


# The dealers' rows kept in this process, the latest last (a few shoes and rules: the suite's published
# games ask six shoes under two rules, a version's figures one).
_DEALERS: dict[tuple[DealerRule, Composition], DealerRows] = {}
_KEPT_DEALERS = 4


def dealer_rows(rule: DealerRule, full: Composition) -> DealerRows:
    """The rows of this dealer's rule and shoe known in this process (`DealerRows`)."""
    key = (rule, full)
    found = _DEALERS.pop(key, None) or DealerRows(rule, full)
    _DEALERS[key] = found
    while len(_DEALERS) > _KEPT_DEALERS:
        del _DEALERS[next(iter(_DEALERS))]
    return found


def _dealer_rows(rule: DealerRule, full: Composition, families: tuple[Family, ...]) -> Floats:
    """The dealer's results for every row of these families' hands (`DealerRows`: a version's options and
    readings share them)."""
    return dealer_rows(rule, full).of(hands(full, families).rows)


# The settlements a hand's value reads, by key (`Rules.pay`): its total (4 … 21), a bust, a blackjack, a
# surrender, a split hand's 21 on two cards.
TOTAL_KEYS = tuple(str(total) for total in range(4, 22))
KEYS = (*TOTAL_KEYS, "bust", "blackjack", "surrender", "split21")
KEY = {key: index for index, key in enumerate(KEYS)}
STAND, HIT, DOUBLE = 0, 1, 2
ACTIONS = ("stand", "hit", "double")
NEVER = -np.inf  # the value of a play the rules do not allow


@dataclass(frozen=True, slots=True)
class Values:
    """Every hand's values against each first card of the dealer (arrays hands × 10 first cards):
    standing (a two-card 21 as the rules settle it: a blackjack, or a split hand's 21), taking a card and
    then playing best (NEVER where the rules do not allow it), doubling (two-card hands; NEVER where not
    allowed), and the best of them with its action (STAND, HIT or DOUBLE): for a hand of three cards or
    more, of standing and hitting. Where the dealer looks for a blackjack first, each value is the
    expected result *and* no dealer's blackjack (the play that maximises it is the best given he has
    none: every option at a decision is scaled by the same probability)."""

    stand: Floats
    hit: Floats
    double: Floats
    best: Floats
    action: Bytes
    chance: Floats  # hands × values × first cards: the probability of each next card that keeps the hand
    # at 21 or less (0 for one that busts it)
    dealer: Floats  # hands × first cards × outcomes: the dealer's results from the hand's row


def _pay_table(rules: Rules, stake: int) -> Floats:
    return np.array(
        [rules.pay[(key, stake)] if (key, stake) in rules.pay else rules.pay[(key, 1)] for key in KEYS]
    )


def _settling(
    rules: Rules, full: Composition, found: Hands, rows: Floats
) -> tuple[Floats, Floats, Floats, Floats, tuple[Floats, Floats]]:
    """What the hands `found` are settled by against the dealer's `rows` (each row's results, by first
    card): the chance of each next card (`_chances`), the dealer's results by hand (a blackjack taken out
    where he peeks), what standing pays at the stake and at a doubled stake (`_standing`), and what a
    bust with the next card pays at each (`_busts`, its mass computed once for both)."""
    chance = _chances(full, found)
    dealer = rows[found.row]  # an index array: a copy, never the rows themselves
    if rules.peeks:
        dealer[:, :, rules.dealer.blackjack] = 0.0
    one, two = _pay_table(rules, 1), _pay_table(rules, 2)
    stand, doubled = _standing(found, dealer, one, two)
    mass: list[Floats] = []
    busted = (
        _busts(dealer, chance, found.child, one[KEY["bust"]], mass),
        _busts(dealer, chance, found.child, two[KEY["bust"]], mass),
    )
    return chance, dealer, stand, doubled, busted


def _values(rules: Rules, full: Composition, found: Hands, rows: Floats) -> Values:
    chance, dealer, stand, doubled, busted = _settling(rules, full, found, rows)
    hit, double, best, action = _play_best(
        found, chance, stand, doubled, busted, (_may_hit(rules, found), _may_double(rules, found))
    )
    return Values(stand, hit, double, best, action, chance, dealer)


def _chances(full: Composition, found: Hands) -> Floats:
    """Hands × values × first cards: the probability of each next card, from the shoe less the hand's
    row and the dealer's first card, that keeps the hand at 21 or less (0 for one that busts it)."""
    shoe = np.asarray(full, dtype=np.float64)
    removed = found.rows[found.row].astype(np.float64)  # hands × values
    left = shoe.sum() - removed.sum(axis=1) - 1.0  # the shoe less the hand's row and the dealer's card
    chance = shoe[None, :, None] - removed[:, :, None] - np.eye(VALUES)[None, :, :]
    np.clip(chance, 0.0, None, out=chance)
    chance /= left[:, None, None]
    # Only the cards that leave the hand at 21 or less (a child of the family): a bust comes in through
    # the bust's own value (`_busts`).
    chance *= (found.child >= 0)[:, :, None]
    return chance


def _split_pairs(found: Hands) -> Ints:
    """Each hand's family's pair (UNSPLIT for the round's own hand)."""
    pairs = np.array([f.pair for f in found.families], dtype=np.int64)
    return pairs[found.family]


def _standing(found: Hands, dealer: Floats, one: Floats, two: Floats) -> tuple[Floats, Floats]:
    """What standing pays each hand (hands × first cards), at its stake and at a doubled stake."""
    totals = np.where(found.ace & (found.hard + 10 <= 21), found.hard + 10, found.hard)
    keys = totals - 4
    stand = np.einsum("nuo,no->nu", dealer, one[keys])
    doubled = np.einsum("nuo,no->nu", dealer, two[keys])
    split = _split_pairs(found) != UNSPLIT
    # A two-card 21: the round's own hand is a blackjack, a split hand's 21 as the rules settle it.
    natural = (found.cards == 2) & (totals == 21)
    for mask, key in ((natural & ~split, "blackjack"), (natural & split, "split21")):
        if mask.any():
            stand[mask] = np.einsum("nuo,o->nu", dealer[mask], one[KEY[key]])
    return stand, doubled


def _may_hit(rules: Rules, found: Hands) -> Bools:
    """Whether the rules let each hand take a card: asked once per situation (hard total, an ace, two
    cards or more, a split ace), the hands that share it read the answer."""
    split_aces = _split_pairs(found) == ACE
    situation = ((found.hard * 2 + found.ace) * 2 + (found.cards > 2)) * 2 + split_aces
    asked = np.unique(situation)
    answers = np.zeros(int(asked.max()) + 1, dtype=np.bool_)
    for code in asked.tolist():
        rest, aces = divmod(code, 2)
        rest, more = divmod(rest, 2)
        hard, ace = divmod(rest, 2)
        answers[code] = rules.can_hit(hard, bool(ace), 3 if more else 2, bool(aces))
    return answers[situation]  # type: ignore[no-any-return]


def _may_double(rules: Rules, found: Hands) -> Bools:
    """Whether the rules let each two-card hand (a family's root) double."""
    double_ok = np.zeros(len(found.hard), dtype=np.bool_)
    for family, roots in enumerate(found.roots):
        fam = found.families[family]
        for k in roots:
            if fam.pair == UNSPLIT:
                low, high = _pair_of(found, int(k))
            else:
                low, high = fam.pair, _second(found, int(k), fam.pair)
            double_ok[k] = rules.can_double(low, high, fam.pair != UNSPLIT, fam.pair == ACE)
    return double_ok


def _play_best(
    found: Hands,
    chance: Floats,
    stand: Floats,
    doubled: Floats,
    busted: tuple[Floats, Floats],
    allowed: tuple[Bools, Bools],
) -> tuple[Floats, Floats, Floats, Bytes]:
    """Hitting, doubling, the best play and its action for every hand, by hard total from 21 down: a
    card raises it, so a hand's children are valued before it. `busted`: what a bust with the next card
    pays at the hand's stake and doubled; `allowed`: may each hand hit, double."""
    count = len(found.hard)
    child = found.child
    hit_ok, double_ok = allowed
    hit = np.full((count, VALUES), NEVER)
    double = np.full((count, VALUES), NEVER)
    best = stand.copy()
    action = np.zeros((count, VALUES), dtype=np.int8)
    for total in range(21, 1, -1):
        level = found.levels[total]
        if not len(level):
            continue
        takers = level[hit_ok[level]]
        if len(takers):
            kids = np.maximum(child[takers], 0)  # a bust (or no such child): chance 0, its bust's value added
            hit[takers] = np.einsum("ncu,ncu->nu", chance[takers], best[kids]) + busted[0][takers]
        doublers = level[double_ok[level]]
        if len(doublers):
            kids = np.maximum(child[doublers], 0)
            drawn = np.einsum("ncu,ncu->nu", chance[doublers], doubled[kids])
            double[doublers] = drawn + busted[1][doublers]
        here, hits, doubles = best[level], hit[level], double[level]
        chosen = np.zeros(here.shape, dtype=np.int8)
        takes = hits > here
        here = np.where(takes, hits, here)
        chosen[takes] = HIT
        doubling = doubles > here
        here = np.where(doubling, doubles, here)
        chosen[doubling] = DOUBLE
        best[level] = here
        action[level] = chosen
    return hit, double, best, action


def bust_mass(dealer: Floats, chance: Floats, child: Ints, nodes: Ints) -> Floats:
    """For each hand of `nodes`: the probability that its next card busts it and the dealer ends with each
    of his results (nodes × first cards × outcomes). The dealer's results from the hand's row, less those
    from each child's row weighted by the card's chance (`chance`: of the cards that do not bust it): a
    card unseen changes none of his chances (averaged over the next card, his results are the row's), so
    a bust needs no row of its own."""
    below = dealer[np.maximum(child[nodes], 0)]  # nodes × values × first cards × outcomes
    averaged: Floats = np.einsum("ncu,ncuo->nuo", chance[nodes], below)
    return dealer[nodes] - averaged


def _busts(
    dealer: Floats, chance: Floats, child: Ints, pay: Floats, mass: list[Floats] | None = None
) -> Floats:
    """What a bust with the next card pays each hand (hands × first cards): `bust_mass` settled by `pay`;
    where a bust pays the same whatever the dealer's result (the rule's), from the mass of his results
    alone (the same difference, summed over his results first). `mass`, where given: that difference,
    kept there for the next call on the same hands (a hand's stake and its doubled stake)."""
    count = len(child)
    if float(pay.min()) == float(pay.max()):
        if mass:
            return mass[0] * float(pay[0])
        counted: Floats = dealer.sum(axis=2)  # hands × first cards: the mass of the dealer's results counted
        below = counted[np.maximum(child, 0)]  # hands × values × first cards
        averaged: Floats = np.einsum("ncu,ncu->nu", chance, below)
        difference: Floats = counted - averaged
        if mass is not None:
            mass.append(difference)
        return difference * float(pay[0])
    found = np.empty((count, VALUES))
    for low in range(0, count, 2048):
        nodes = np.arange(low, min(low + 2048, count))
        found[nodes] = bust_mass(dealer, chance, child, nodes) @ pay
    return found


def _pair_of(found: Hands, k: int) -> tuple[int, int]:
    """The two values of a two-card hand, the lower first."""
    row = found.rows[found.row[k]]
    held = [i for i in range(VALUES) for _ in range(int(row[i]))]
    return held[0], held[-1]


def _second(found: Hands, k: int, pair: int) -> int:
    """The other card of a split hand of `pair` (its first card is the pair's)."""
    fam = found.families[int(found.family[k])]
    row = [int(c) for c in found.rows[found.row[k]]]
    row[pair] -= fam.extra + 1
    return next(i for i in range(VALUES) if row[i])


@dataclass(frozen=True, slots=True)
class SplitParts:
    """A pair split into at most `hands` hands: for each count of the pair's cards out (2 … hands), the
    chance that a hand's second card is one of the pair's, the value of a hand from its second card on
    (any second card), and given a second card that is not the pair's (arrays by the dealer's first
    card)."""

    pair: int
    hands: int
    parts: dict[int, tuple[Floats, Floats, Floats]]

    def part(self, have: int) -> tuple[Floats, Floats, Floats]:
        return self.parts[min(have, self.hands)]


def _split(
    rules: Rules, full: Composition, found: Hands, values: Values, pair: int
) -> tuple[Floats, SplitParts]:
    """Splitting a pair into at most as many hands as the rules allow, each hand's stake one unit: the
    value by the dealer's first card. Each hand is played from the shoe without its own cards and the
    pair's cards out so far (two, one more at each resplit): a second card of the pair's is split again
    while the box may take a hand more."""
    shoe = np.asarray(full, dtype=np.float64)
    most = max(f.out for f in found.families if f.pair == pair)
    parts: dict[int, tuple[Floats, Floats, Floats]] = {}
    eye = np.eye(VALUES)
    for out in range(2, most + 1):
        family = found.families.index(next(f for f in found.families if f.pair == pair and f.out == out))
        base = np.zeros(VALUES)
        base[pair] = out
        left = shoe.sum() - out - 1.0
        chance = np.clip(shoe[:, None] - base[:, None] - eye, 0.0, None) / left  # second card × first card
        weighted = np.zeros((VALUES, VALUES))
        for k in found.roots[family]:
            second = _second(found, int(k), pair)
            weighted[second] = chance[second] * values.best[k]
        q = chance[pair]
        anyhand = weighted.sum(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            other = np.where(q < 1.0, (anyhand - weighted[pair]) / (1.0 - q), 0.0)
        parts[out] = (q, anyhand, other)
    split = SplitParts(pair, most, parts)
    memo: dict[tuple[int, int], Floats] = {}

    def rest(have: int, open_: int) -> Floats:
        if open_ == 0:
            return np.zeros(VALUES)
        key = (have, open_)
        done = memo.get(key)
        if done is not None:
            return done
        q, anyhand, other = split.part(have)
        if have < most:
            value = q * rest(have + 1, open_ + 1) + (1.0 - q) * (other + rest(have, open_ - 1))
        else:
            value = anyhand + rest(have, open_ - 1)
        memo[key] = value
        return value

    return rest(2, 2), split


def _naturals(up: int) -> tuple[int, ...]:
    """The dealer's second cards that make his blackjack with this first card."""
    return tuple(i for i in range(VALUES) if _total(up + i + 2, ACE in (up, i)) == 21)


def p_natural(full: Composition, removed: list[int] | tuple[int, ...], up: int) -> float:
    """The probability that the dealer's second card makes his blackjack, the cards `removed` and his first
    card out of the shoe."""
    left = sum(full) - sum(removed) - 1
    count = sum(full[i] - removed[i] - (i == up) for i in _naturals(up))
    return count / left if left > 0 else 0.0


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
    strategy: dict[tuple[int, int, int], str]  # (first, second, dealer's first card) → the first decision
    rules: Rules
    full: Composition
    hands: Hands
    values: Values
    splits: dict[int, tuple[Floats, SplitParts]]  # by pair: its split value by first card, its parts
    roots: dict[int, int]  # first × 10 + second (first <= second) → the round's own two-card hand
    spread: Spread | None = None  # the distribution of a round's net result (spread.with_spread)

    @property
    def lines(self) -> tuple[tuple[str, float, float], ...]:
        """(label, probability, net) of each net result of a round, best first."""
        if self.spread is None:
            return ()
        return tuple((_net_label(net), p, net) for net, p in self.spread.lines)

    def root(self, first: int, second: int) -> int:
        """The round's own two-card hand of these values (first <= second)."""
        return self.roots[first * VALUES + second]


def choices(game: MainGame, first: int, second: int, up: int, beat: float = NEVER) -> dict[str, float]:
    """The value of each first decision the rules allow an initial hand against the dealer's first card
    (where he looks for a blackjack first: with no blackjack of his, as `Values`). Surrender only where
    it is worth more than `beat` (whether the rules allow it is asked only then: a question of the rules
    costs more than the rest)."""
    rules, values = game.rules, game.values
    k = game.root(first, second)
    found = {"stand": float(values.stand[k, up])}
    for action, table in (("hit", values.hit), ("double", values.double)):
        if table[k, up] != NEVER:
            found[action] = float(table[k, up])
    surrender = float(np.dot(values.dealer[k, up], rules.pay[("surrender", 1)]))
    if surrender > beat and rules.can_surrender(first, second, up):
        found["surrender"] = surrender
    if first == second and first in game.splits:
        found["split"] = float(game.splits[first][0][up])
    return found


def initial(game: MainGame, first: int, second: int, up: int) -> tuple[float, str]:
    """Best play of one initial hand against the dealer's first card: its expected return and action."""
    rules = game.rules
    k = game.root(first, second)
    values = game.values
    options: list[tuple[float, str]] = [(float(values.best[k, up]), ACTIONS[int(values.action[k, up])])]
    allowed = choices(game, first, second, up, beat=options[0][0])
    options += [(allowed[action], action) for action in ("surrender", "split") if action in allowed]
    if "split" in allowed and first == TEN and not rules.can_split(first, 1, identical=False):
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
        removed = [0] * VALUES
        removed[first] += 1
        removed[second] += 1
        ev += p_natural(game.full, removed, up) * vs_natural
    return ev, action


# The games computed in this process, the latest last: a simulated séance, `edge`'s figures and the audit's
# theoretical figure ask for the same version's game again and again (the test suite, in one process, for
# every séance it plays).
_GAMES: list[MainGame] = []
_KEPT_GAMES = 4


def main_game(probe: Probe, rules: Rules | None = None) -> MainGame:
    """The main stake's expected return and the best play (`games.blackjack.spread` adds the
    distribution). A game already computed in this process whose rules answer every question as these
    do (`Rules.same_game`) is given again."""
    rules = rules or Rules.read(probe)
    for game in reversed(_GAMES):
        if game.rules.same_game(rules):
            return game
    game = _main_game(rules)
    _GAMES.append(game)
    del _GAMES[:-_KEPT_GAMES]
    return game


def deals(full: Composition) -> Iterator[tuple[int, int, int, float]]:
    """Every initial deal from the shoe, as the main game weighs it: the player's two cards by value (the
    lower first), the dealer's first card, and its probability (nonzero), in that order (first, second,
    first card)."""
    total = sum(full)
    for first in range(VALUES):
        for second in range(first, VALUES):
            p_hand = full[first] / total * (full[second] - (first == second)) / (total - 1)
            if first != second:
                p_hand *= 2
            after = without(full, first, second)
            for up in range(VALUES):
                p = p_hand * after[up] / (total - 2)
                if p:
                    yield first, second, up, p


def _main_game(rules: Rules) -> MainGame:
    full = full_shoe(rules.decks)
    families = rules.families(full)
    found = hands(full, families)
    values = _values(rules, full, found, _dealer_rows(rules.dealer, full, families))
    pairs = {f.pair for f in families if f.pair != UNSPLIT}
    splits = {pair: _split(rules, full, found, values, pair) for pair in sorted(pairs)}
    roots = {}
    for k in found.roots[0].tolist():
        low, high = _pair_of(found, k)
        roots[low * VALUES + high] = k
    game = MainGame(0.0, 0.0, 0.0, {}, rules, full, found, values, splits, roots)
    ev = split_p = split_ev = 0.0
    strategy: dict[tuple[int, int, int], str] = {}
    for first, second, up, p in deals(full):
        value, action = initial(game, first, second, up)
        ev += p * value
        strategy[(first, second, up)] = action
        if action == "split":
            split_p += p
            split_ev += p * value
    return MainGame(
        ev,
        split_p,
        split_ev / split_p if split_p else 0.0,
        strategy,
        rules,
        full,
        found,
        values,
        splits,
        roots,
    )


def _net_label(net: float) -> str:
    return format(Decimal(repr(net)).normalize(), "f") if net else "0"


class Play:
    """The best play of a version's main game, computed whole at the first question (a simulated séance
    asks it of its hands), or read from a game already computed (`of`)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._game: MainGame | None = None

    @classmethod
    def of(cls, game: MainGame) -> Play:
        play = cls(game.rules)
        play._game = game
        return play

    @property
    def game(self) -> MainGame:
        if self._game is None:
            self._game = main_game(self.rules.probe, self.rules)
        return self._game

    def action(self, first: int, second: int, up: int) -> str:
        """The first decision for an initial hand (first <= second) against the dealer's first card."""
        return self.game.strategy[(first, second, up)]
