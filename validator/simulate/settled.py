"""Which rule settles each stake of a simulated round: the round's hands, dealer and side stakes rebuilt
from its record by the game's mechanics (its hands, and how each action changes them: its declaration's
`inject`, validator/games/<game>/inject.py), then put to the ruleset's compiled settle clauses, as the
simulator did when it played the round.

`simulate --inject` plants a payout violation on a stake the rule it breaks settles; what the stake
gets is the law's (the clauses), which hands there are and what they hold is the mechanics'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from validator.casino.money import to_decimal
from validator.dsl.facts import RoundFacts, StakeFacts
from validator.dsl.model import PaytableOutcome, Ruleset
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.replay.judge import Judge
from validator.replay.side_bets import (
    MAIN_PRIZE,
    SECONDARY_PRIZE,
    DealerCards,
    Meters,
    PlayerCards,
    box_sequences,
    jackpot_facts,
    player_cards,
    prize_hits,
    settle_context,
    side_of,
    split_boxes,
    staked_sides,
)
from validator.replay.state import Hand, Hands

SETTLEMENTS = ("pay", "lose", "push")


# How one action of a round's record changes the round rebuilt from it (a card dealt, a decision): the
# game's mechanics (its declaration's `inject`: validator.simulate.inject.GameInjection.rebuild).
Rebuild = Callable[["RoundRebuilt", list[Any]], None]


class RoundRebuilt:
    """A round record's hands, boxes, dealer, insurances and war stakes, as its actions leave them: the
    bets read here, each action by the game's own rebuilding."""

    def __init__(self, record: dict[str, Any], ruleset: Ruleset) -> None:
        game = GAMES[ruleset.game]
        apply: Rebuild = game.load(game.inject).rebuild
        kit: Hands[Any, Any, Any] = game.load(game.hands).under(ruleset)
        self.boxes: dict[int, Any] = {}  # the game's boxes, hands and dealer
        self.hands: dict[str, Any] = {}
        self.side_stakes: dict[str, Decimal] = {}
        for bet in record["bets"]:
            stake, amount = bet["stake"], to_decimal(bet["amount"])
            number = int(stake.split(":")[0])
            box = self.boxes.get(number)
            if box is None:
                box = self.boxes[number] = kit.box(number)
            if ":" in stake:
                self.side_stakes[stake] = self.side_stakes.get(stake, Decimal(0)) + amount
            else:
                box.stake += amount
                box.seated = box.seated or bool(bet.get("seated", True))
                if bet.get("seated", True):  # whose other boxes the JP1 consolation reads (player_cards)
                    box.seated_players.add(str(bet.get("player") or f"box {number}"))
        for number in sorted(self.boxes):
            box = self.boxes[number]
            box.initial_stake = box.stake
            if box.stake > 0:
                hand = kit.hand(str(number), box, box.stake)
                box.hand_list.append(hand)
                self.hands[hand.name] = hand
        self.dealer: Any = kit.dealer()
        self.insured: dict[int, Decimal] = {}
        self.war: dict[int, Decimal] = {}
        self.actions: list[list[Any]] = record["actions"]
        # An even money settles the hand only where the version offers it (the replay's reading too).
        self.even_money_settles = ruleset.main_settlement_reads("hand.even_money")
        for action in self.actions:
            apply(self, action)

    def held(self, target: str) -> Any:
        """The dealer's cards ("D") or a hand's."""
        return self.dealer if target == "D" else self.hands[target]


@dataclass(frozen=True, slots=True)
class Judged:
    """The clause `check` judges a stake's first settlement by: its rule's id, the kind of stake the
    clause settles (main, insurance, war or the side bet's name), and the settlement it gives, as the
    replay compares it with the log's (a loss or a push with the stake's amount)."""

    rule: str
    kind: str
    verb: str
    amount: Decimal


# A round rebuilt from its record, with its jackpot facts (`rebuild`); None: not a round the simulator
# wrote.
Rebuilt = tuple[RoundRebuilt, Any] | None


def settled_by(rebuilt: Rebuilt, judge: Judge) -> dict[str, tuple[str, str]]:
    """Each stake the round settles → (the id of the rule whose clause gives its settlement, the kind of
    stake the clause settles: main, insurance, war or the side bet's name). A stake the clauses cannot
    settle (an amount left to a house option not declared) is left out. The clauses are asked as the
    simulator asks them, before any settlement is logged (`stake.verb`, `stake.paid`: none)."""
    if rebuilt is None:
        return {}
    round_, jackpot = rebuilt
    found: dict[str, tuple[str, str]] = {}
    seen = {a[1] for a in round_.actions if a and a[0] in SETTLEMENTS}
    for stake in seen:
        decided = _judge(round_, judge, stake, jackpot, None, None)
        if decided is not None:
            found[stake] = (decided.rule, decided.kind)
    return found


def judging(rebuilt: Rebuilt, judge: Judge) -> Callable[[str, str, Decimal | None], Judged | None]:
    """How `check` judges a stake of the round whose first settlement the log shows as `verb` (and, a
    payment, `paid`): the clauses asked as the replay asks them, with `stake.verb` and `stake.paid` (a
    clause may read the settlement logged: one reading of an ambiguous text against another). None: no
    clause settles the stake."""

    def judged(stake: str, verb: str, paid: Decimal | None) -> Judged | None:
        if rebuilt is None:
            return None
        round_, jackpot = rebuilt
        return _judge(round_, judge, stake, jackpot, verb, paid if verb == "pay" else None)

    return judged


def rebuild(record: dict[str, Any], ruleset: Ruleset, judge: Judge, meters: Meters | None) -> Rebuilt:
    """The round rebuilt from its record, and its jackpot facts; None: not a round the simulator wrote."""
    try:
        round_ = RoundRebuilt(record, ruleset)
    except (KeyError, IndexError, ValueError, TypeError, ValidatorError):
        return None
    hits = _jackpot_hands(round_, ruleset, judge, meters)
    return round_, jackpot_facts(meters, *hits)


def _judge(
    round_: RoundRebuilt, judge: Judge, stake: str, jackpot: Any, verb: str | None, paid: Decimal | None
) -> Judged | None:
    try:
        return _decide(round_, judge, stake, jackpot, verb, paid)
    except (AttributeError, TypeError, ArithmeticError, KeyError):
        return None


def _decide(
    round_: RoundRebuilt, judge: Judge, stake: str, jackpot: Any, verb: str | None, paid: Decimal | None
) -> Judged | None:
    dealer = round_.dealer
    if ":" not in stake:
        hand = round_.hands.get(stake)
        if hand is None:
            return None
        return _first(judge, "main", _ctx(hand, dealer, stake, hand.stake, verb, paid), hand.stake)
    box_no, _unused, kind = stake.partition(":")
    number = int(box_no)
    first = round_.hands.get(box_no)
    if kind in ("insurance", "war"):
        amount = (round_.insured if kind == "insurance" else round_.war).get(number)
        if first is None or amount is None:
            return None
        return _first(judge, kind, _ctx(first, dealer, stake, amount, verb, paid), amount)
    side, case = side_of(kind, judge.stake_sides)
    box = round_.boxes.get(number)
    if side is None or box is None or stake not in round_.side_stakes or not box.hand_list:
        return None
    sequences = box_sequences(round_.actions)
    cards = list(dealer.card_list)
    split = split_boxes(round_.actions)
    staked = staked_sides(round_.side_stakes, judge.stake_sides)
    seated = {n: b.seated_players for n, b in round_.boxes.items()}
    amount = round_.side_stakes[stake]
    ctx = settle_context(
        judge.house,
        box=box,
        hand=box.hand_list[0],
        dealer=dealer,
        stake=StakeFacts(name=stake, amount=amount, settlements=1, case=case, verb=verb, paid=paid),
        player=player_cards(judge.ruleset, judge.house, number, sequences, cards, split, staked, seated),
        dealer_cards=DealerCards(cards),
        jackpot=jackpot,
        round=RoundFacts(),
    )
    return _first(judge, side, ctx, amount)


def _ctx(
    hand: Hand, dealer: Any, stake: str, amount: Decimal, verb: str | None, paid: Decimal | None
) -> dict[str, Any]:
    return {
        "round": RoundFacts(),
        "box": hand.box,
        "hand": hand,
        "dealer": dealer,
        "stake": StakeFacts(name=stake, amount=amount, settlements=1, verb=verb, paid=paid),
    }


def _first(judge: Judge, kind: str, ctx: dict[str, Any], amount: Decimal) -> Judged | None:
    decided = judge.expected_settlement(kind, {"house": judge.house, **ctx})
    if decided is None:
        return None
    rule, settle, given = decided
    verb = settle.verb
    if isinstance(given, PaytableOutcome):  # paid what its lines give, lost when none holds
        verb = "pay" if given.winnings is not None else "lose"
        given = given.winnings
    if verb == "pay":
        return Judged(rule.id, kind, verb, given if given is not None else Decimal(0))
    if verb == "lose":
        return Judged(rule.id, kind, verb, given if given is not None else amount)
    return Judged(rule.id, kind, verb, amount)


def _jackpot_hands(
    round_: RoundRebuilt, ruleset: Ruleset, judge: Judge, meters: Meters | None
) -> tuple[int, int]:
    """The round's stakes of progressive side bets whose cards win the main and the secondary meter."""
    main = secondary = 0
    sequences = box_sequences(round_.actions)
    split = split_boxes(round_.actions)
    cards = list(round_.dealer.card_list)
    for stake in round_.side_stakes:
        box_no, _unused, kind = stake.partition(":")
        side = side_of(kind, judge.stake_sides)[0]
        bet = ruleset.side_bets.get(side) if side is not None else None
        box = round_.boxes.get(int(box_no))
        if bet is None or not bet.prizes or box is None or not box.hand_list:
            continue
        number = int(box_no)
        ctx = {
            "house": judge.house,
            "box": box,
            "hand": box.hand_list[0],
            "dealer": round_.dealer,
            "stake": None,
            "player": PlayerCards(number, sequences, cards[0] if cards else None, split_boxes=split),
            "dealer_cards": DealerCards(cards),
            "jackpot": jackpot_facts(meters, 0, 0),
        }
        won = prize_hits(bet, ctx)
        main += MAIN_PRIZE in won
        secondary += SECONDARY_PRIZE in won
    return main, secondary
