"""What the blackjack and bataille engines share: reading bets and stakes, taking cards out of the
shoe, recording and judging settlements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from decimal import Decimal
from typing import Any, ClassVar, Final, Generic, cast

from mypy_extensions import mypyc_attr

from validator.casino.ledger import Decision
from validator.casino.money import fmt
from validator.casino.stakes import AMOUNTS, MalformedRound, Settlement, amount_of, parse_stake
from validator.dsl.codegen import AllHeld, Settle
from validator.dsl.facts import (
    ActionFacts,
    BetFacts,
    BustFacts,
    CardFacts,
    DealFacts,
    MistakeFacts,
    ReshuffleFacts,
    RoundFacts,
    SettleFacts,
    StakeFacts,
    TurnFacts,
)
from validator.dsl.model import PaytableOutcome, Rule, SettleDef
from validator.findings.finding import Finding
from validator.i18n import N_, _
from validator.logs import decode
from validator.logs.decode import (
    Action,
    Bet,
    Burn,
    Charge,
    CutCard,
    Deal,
    DealDown,
    Discard,
    Double,
    Hit,
    LateBet,
    Lose,
    Mistake,
    Pay,
    Push,
    Reshuffle,
    RoundRecord,
    Unsettled,
)
from validator.logs.rules.replayable import INCONSISTENT, UNKNOWN_HAND, UNKNOWN_STAKE
from validator.replay.judge import Judge
from validator.replay.side_bets import RoundSideBets, side_of
from validator.replay.state import ZERO, BoxT, Cards, DealerT, Hands, HandT, Shoe, TableState

# `10H` → `TH` (cards.normalize), as a lookup: every other code is already its own spelling.
_TENS = {f"10{suit}": f"T{suit}" for suit in "SHDC"}
# A box's first hand is named by its number (1 to 9, as a stake names it), looked up rather than made.
_BOX_NAMES: Final = tuple(str(number) for number in range(10))
# A bet as read_bets reads it: (stake, box, kind, amount, seated, bet, bettor), bettor "" for a side bet.
BetEntry = tuple[str, BoxT, str, Decimal, bool, Bet, str]
# The decoder's "left out" (msgspec's UNSET, `logs.decode`), under its one name, as the per-round code of
# the engines reads it (here and each game's replay, which imports it from here): `Final` names are C
# statics in the compiled build, where a name imported from an interpreted module is looked up in the
# module's dict at each use.
UNSET: Final = decode.UNSET


class InPlace:
    """The facts of the frequent events, made once per judge (a ruleset version at a table) and
    changed in place at each event rather than made anew: a finding reads them (message, expected,
    actual) when it is written, before they change."""

    __slots__ = (
        "action",
        "bet",
        "bust",
        "card",
        "deal",
        "hands",
        "held",
        "hole_card",
        "round",
        "settle",
        "settlement",
        "settles_even_money",
        "settles_surrender",
        "stake",
        "stake_end",
        "turn",
        "turn_then",
        "whose_words",
    )

    def __init__(self) -> None:
        self.card = CardFacts()
        self.deal = DealFacts()
        self.turn = TurnFacts()
        self.settle = SettleFacts()
        self.stake = StakeFacts()  # a stake settled (settle clauses)
        self.stake_end = StakeFacts()  # a stake at the end of the round
        self.action = ActionFacts()
        self.bet = BetFacts()
        self.bust = BustFacts()
        self.round = RoundFacts()
        # The generated checks of _FREQUENT, then the card and deal rules as one (`Judge.folded`).
        self.held: tuple[AllHeld | None, ...] | None = None
        # Each stake's generated settle function under the judge's house options (`Judge.under_house`),
        # set with `held`: the engine calls it without going through the judge.
        self.settlement: dict[str, Settle] = {}
        # The game's decisions checked right after the turn rules, each verb's rules and the turn's as one
        # function (`Judge.folded`): None until the game's first round asks.
        self.turn_then: dict[str, AllHeld] | None = None
        # The game's hands as the version plays them (`RoundReplay.game_hands`): None until the first
        # round makes them.
        self.hands: Hands[Any, Any, Any] | None = None
        # The parameters the mechanics read every round (`Ruleset.param`), read once per judge: None
        # until the first round reads them.
        self.hole_card: bool | None = None
        # Whether a main settle clause reads `hand.surrendered` (`hand.even_money`): None until the first
        # round asks.
        self.settles_surrender: bool | None = None
        self.settles_even_money: bool | None = None
        # Blackjack's words of whose turn it is (`turn.whose`), in the run's language: None until the
        # first round looks them up.
        self.whose_words: dict[int, str] | None = None

    @staticmethod
    def for_round(judge: Judge, record: RoundRecord, shoe: Shoe) -> InPlace:
        """The judge's facts changed in place (made at its first round), set back for a new round."""
        in_place: InPlace | None = judge.in_place
        if in_place is None:
            in_place = judge.in_place = InPlace()
        in_place.begin_round(record, shoe)
        return in_place

    def frequent(self, judge: Judge, all_held: dict[str, AllHeld]) -> tuple[AllHeld | None, ...]:
        """The generated checks of the frequent events (`_FREQUENT`), None where no rule listens, then the
        card's and the deal's as one (None: ask each): found once per judge, and afresh while `explain`
        traces a round (its checks then run every rule, each event's own)."""
        self.settlement = judge.under_house().settlement  # the same while `explain` traces
        if judge.trace is not None:
            return (*(all_held.get(event) for event in _FREQUENT), None)
        held = self.held
        if held is None:
            folded = judge.folded("card", "deal")
            held = self.held = (*(all_held.get(event) for event in _FREQUENT), folded)
        return held

    def begin_round(self, record: RoundRecord, shoe: Shoe) -> None:
        """The facts a round starts from, set back from the round before."""
        facts = self.round
        facts.players = facts.bettors = facts.boxes = facts.free_seats = 0
        facts.live_hands = facts.live_blackjacks = 0
        facts.table_drew = facts.second_cards_dealt = False
        facts.same_shoe = record.shoe == shoe.id
        facts.reshuffle_due = shoe.cut_card_out
        facts.cards_left = shoe.left
        card = self.card
        card.code, card.in_shoe, card.copies = None, True, shoe.decks
        deal = self.deal
        deal.hand = deal.expected = None
        turn = self.turn
        turn.box, turn.current, turn.dealer_drawing, turn.whose = 0, 0, False, ""
        turn.hand, turn.place, turn.current_place = "", None, None
        settle = self.settle
        settle.box = settle.previous_box = 0
        settle.place = settle.previous_place = None
        settle.dealer_done = True


# The events whose generated checks the engines call directly, in the order of `RoundReplay.held_*`.
_FREQUENT = ("card", "deal", "turn", "settle", "bet", "side_bet", "box", "stake_end")


# The actions that take a card out of the shoe.
CardAction = Deal | DealDown | Hit | Double | Burn | Discard
CARD_ACTIONS = frozenset((Deal, DealDown, Hit, Double, Burn, Discard))
# How a void round's message says what the log did with a stake.
_VOID_WORDS = {"pay": N_("paid"), "lose": N_("collected"), "push": N_("returned")}

__all__ = ["MalformedRound", "RoundReplay", "Settlement", "amount_of", "parse_stake"]


@mypyc_attr(allow_interpreted_subclasses=True)
class RoundReplay(ABC, Generic[BoxT, HandT, DealerT]):
    """State and helpers of one round; subclasses walk the actions of their game, on its hands."""

    # Set by each game's replay(): the dealer's cards, and the receivers still owed a card of the
    # initial deal, in the order the text deals them.
    dealer: DealerT
    owed: list[str]
    # The kinds of stake that make the game's main stake, whose house edge `edge` computes: the main
    # stake itself (with its doubles and splits); a game whose main stake grows into another (bataille's
    # war) names it too. The audit's hold counts these on the main line (`validator.casino.ledger`).
    main_game: ClassVar[frozenset[str]] = frozenset(("main",))

    @abstractmethod
    def replay(self) -> None:
        """Walk the round's actions in order: deal, decisions, the dealer's draw, settlements."""

    @abstractmethod
    def game_hands(self) -> Hands[BoxT, HandT, DealerT]:
        """The game's hands (its declaration's `hands`), which `Hands.under` makes the version's."""

    def __init__(self, judge: Judge, table: TableState, shoe: Shoe, record: RoundRecord, line: int) -> None:
        self.judge = judge
        self.table = table
        self.shoe = shoe
        self.record = record  # as the reader decoded it: read by attribute (validator/logs/decode.py)
        self.line = line
        self.round_id: str = record.round
        self.boxes: dict[int, BoxT] = {}
        self.hands: dict[str, HandT] = {}
        self.side_stakes: dict[str, Decimal] = {}
        self.settlements: dict[str, list[Settlement]] = {}
        in_place = self.facts_in_place = InPlace.for_round(judge, record, shoe)
        kit = in_place.hands
        if kit is None:
            kit = in_place.hands = self.game_hands().under(judge.ruleset)
        self.kit: Hands[BoxT, HandT, DealerT] = kit
        self.facts = in_place.round
        self.bust_facts = in_place.bust
        card = self.card_facts = in_place.card
        deal = self.deal_facts = in_place.deal
        turn = self.turn_facts = in_place.turn
        settle = self.settle_facts = in_place.settle
        self.stake_facts = in_place.stake_end
        self.settled_facts = in_place.stake
        self.action_facts = in_place.action
        self.bet_facts = in_place.bet
        self.ctx: dict[str, Any] = {
            "house": judge.house,
            "table": table,
            "round": self.facts,
            "card": card,
            "deal": deal,
            "turn": turn,
            "settle": settle,
        }
        self.listening = judge.ruleset.checks_by_event
        all_held = self.all_held = judge.all_held()
        held = in_place.held if judge.trace is None else None
        if held is None:
            held = in_place.frequent(judge, all_held)
        (
            self.held_card,
            self.held_deal,
            self.held_turn,
            self.held_settle,
            self.held_bet,
            self.held_side_bet,
            self.held_box,
            self.held_stake_end,
            self.held_card_deal,
        ) = held
        self.settlement = in_place.settlement
        self.pending_card: str | None = None  # a card drawn by mistake, to be the next card drawn (1.1)
        self.cut_card_seen = False
        self.cut_card_at: str | None = None  # where the round's cut card came out, as its action says
        self.previous_settled_box = 0
        self.previous_settled_verb: str | None = None
        self.previous_settled_place: int | None = None
        # hand-log/1.1 `layout`: each box's hands in their places, from the player's right; None where
        # the log does not give it (hand-log/1 numbers hands in the order of the splits, not by place).
        layout = record.layout
        self.layout: dict[int, list[str]] | None = (
            None if layout is UNSET else {int(box): hands for box, hands in layout.items()}
        )
        self.order_broken = False  # the round's final settlement has left the order the text gives
        # The boxes whose hands were settled out of their places (hand-log/1.1 layout), and those findings.
        self.places_broken: set[int] = set()
        self.place_findings: list[Finding] = []
        # Set by each game's replay(); empty and False until it starts dealing.
        self.owed = []
        self.owed_boxes = 0  # receivers in `owed` other than the dealer
        self.dealer_started = False
        # The side stakes' mechanics (`sides`), made when the round first needs them: most rounds have
        # no side bet, and the object would be made and freed for nothing.
        self.side_bets: RoundSideBets | None = None
        # The main stakes (and insurances) settled so far in the final settlement, which side_settle
        # reads; of them, the main stakes alone (insurances left out).
        self.final_main = self.final_main_stakes = 0
        self.clear_records()

    def clear_records(self) -> None:
        """What the round keeps for `explain`, the audit dataset and hand-log/1.2's money: None or empty
        until the layer that wants it sets it, or the log shows it."""
        # `explain` sets a story: each step with the rules it ran and the state after it.
        self.story: list[tuple[str, list[tuple[str, str, bool]], str]] | None = None
        self._told = 0
        # The audit dataset sets this: stake → the settlement the rules give, (verb, amount).
        self.rules_give: dict[str, tuple[str, Decimal]] | None = None
        # The audit dataset sets this too: each decision taken, with the cards it was taken on.
        self.decisions: list[Decision] | None = None
        # hand-log/1.2: what the engine charged the bettors for each stake (`charge`), None until a charge
        # is read; the stakes it left unsettled (`unsettled`); the stakes of bets taken late (`bet`).
        self.charges: dict[str, Decimal] | None = None
        self.unsettled: set[str] = set()
        # After the round: the stakes whose charges differ from the stake (stake, kind: never, more, less).
        self.charge_gaps: list[tuple[str, str]] = []

    @property
    def sides(self) -> RoundSideBets:
        """The round's side stakes, followed as the actions name them (made at the first use)."""
        sides = self.side_bets
        if sides is None:
            sides = self.side_bets = RoundSideBets(self)
        return sides

    def saw_cut_card(self, action: CutCard) -> None:
        if not self.shoe.cut_card:
            raise MalformedRound(
                _(
                    "the cut card came out of shoe {shoe}, whose record says it has none (cut_card false)"
                ).format(shoe=repr(self.shoe.id)),
                INCONSISTENT,
            )
        self.cut_card_seen = True
        if self.cut_card_at is None:
            self.cut_card_at = action.place

    def note_decision(self, verb: str, hand: HandT) -> None:
        """A decision taken on `hand`, with its cards and the dealer's in sight, for the audit dataset
        (`decisions` is None in every other run: nothing is kept)."""
        decisions = self.decisions
        if decisions is None:
            return
        dealer = self.dealer
        seen = list(dealer.card_list) if dealer is not None else []
        for card in dealer.hidden if dealer is not None else ():
            if card in seen:  # a card dealt face down and not yet turned over
                seen.remove(card)
        decisions.append(
            Decision(
                hand=hand.name,
                verb=verb,
                cards=tuple(hand.card_list),
                dealer=tuple(seen),
                stake=hand.stake,
                split=bool(getattr(hand, "split", False)),
                split_aces=bool(getattr(hand, "split_aces", False)),
                hands=len(hand.box.hand_list),
            )
        )

    def release(self) -> None:
        """Break the round's reference cycles (a hand and its box, the round and its side bets) once it
        has been judged and read: its objects are then freed at once by their reference counts instead
        of piling up for the cycle collector, which otherwise walks some 35 objects of every round."""
        for box in self.boxes.values():
            box.hand_list.clear()
        self.side_bets = None

    def rightmost_seated_box(self) -> str | None:
        """The highest box with a seated player's main bet, as text; None when no player is seated."""
        highest = 0
        for number, box in self.boxes.items():
            if box.seated and number > highest:
                highest = number
        return _BOX_NAMES[highest] if highest else None

    def open_round(self) -> bool:
        """A round's opening, the same at every game: its bets read; a round declared void judged as one
        (`replay_void`) and False returned, its play not walked; else the bets told (`explain`) and the
        dealer seated in front of the boxes, True."""
        self.read_bets()
        if self.record.void is not UNSET:  # hand-log/1.1: declared void, its play not judged
            self.replay_void()
            return False
        if self.story is not None:
            self.narrate(_("bets: {bets}").format(bets=self.describe_bets()))
        self.dealer = self.kit.dealer()
        self.ctx["dealer"] = self.dealer
        return True

    def replay_void(self) -> None:
        """A round declared void (hand-log/1.1 `void`, after its bets are read): none of its play is
        judged as play; the cards it shows are out of the shoe (the card rules judge them), and every
        stake placed must be returned, once, by a `push`: anything else contradicts the void."""
        for action in self.record.actions:
            kind = type(action)
            if kind in CARD_ACTIONS:  # a card out of the shoe (a reveal shows one already out)
                self.take(cast(CardAction, action).card)
            elif type(action) is CutCard:
                self.saw_cut_card(action)
            elif type(action) is Pay or type(action) is Lose or type(action) is Push:
                self.record_settlement(action, 0)
        stakes = {name: hand.stake for name, hand in self.hands.items()}
        stakes.update(self.side_stakes)
        for name, done in self.settlements.items():
            if name not in stakes:
                raise MalformedRound(
                    _("void round: stake {name} is settled but was never bet").format(name=repr(name)),
                    UNKNOWN_STAKE,
                )
            if len(done) != 1 or done[0].verb != "push":
                what = _(_VOID_WORDS[done[0].verb])
                if len(done) > 1:
                    what = _("{what} more than once").format(what=what)
                raise MalformedRound(
                    _(
                        "void round ({why}): stake {name} is {what}; a void round's stakes are returned "
                        "(push)"
                    ).format(why=self.record.void, name=repr(name), what=what),
                    INCONSISTENT,
                )
        for name in stakes:
            if name not in self.settlements:
                raise MalformedRound(
                    _(
                        "void round ({why}): stake {name} is never returned; a void round's stakes are "
                        "returned (push)"
                    ).format(why=self.record.void, name=repr(name)),
                    INCONSISTENT,
                )
        self.narrate(_("void round ({why}): every stake returned").format(why=self.record.void))

    # ---- hand-log/1.2: the money actions every game reads ----
    def money_action(self, action: Action) -> bool:
        """A hand-log/1.2 `charge`, `unsettled` or `bet` (a late bet), read; False for any other action."""
        if type(action) is Charge:
            parse_stake(action.stake)
            amount = amount_of(action.amount, _("charge amount"))
            charges = self.charges
            if charges is None:
                charges = self.charges = {}
            charges[action.stake] = charges.get(action.stake, ZERO) + amount
            return True
        if type(action) is Unsettled:
            parse_stake(action.stake)
            self.unsettled.add(action.stake)
            return True
        if type(action) is LateBet:
            self.late_bet(action)
            return True
        return False

    def late_bet(self, action: LateBet) -> None:
        """A bet taken once the round had begun (hand-log/1.2 `bet`, where the log puts it): its stake
        rides from then on, and the `late_bet` rules judge it (`bet.before_deal` false). A main bet adds
        to a box already dealt to (a box with no hand in the round has no place in its deal)."""
        stake = action.stake
        box_no, split, kind = parse_stake(stake)
        amount = amount_of(action.amount, _("bet amount"))
        seated = True if action.seated is UNSET else action.seated
        box = self.boxes.get(box_no)
        if kind == "main":
            if split is not None or box is None or not box.hand_list:
                raise MalformedRound(
                    _(
                        "a bet taken during the round on {stake}, which is no box already in play: a late "
                        "bet adds to a box dealt to, or is a side bet"
                    ).format(stake=repr(stake))
                )
            hand = box.hand_list[0]
            hand.stake += amount
            box.stake += amount
            # i18n: not shown (a bettor's key, as read_bets makes one for a bet that names no player)
            bettor = action.player or (f"box {box_no}" if seated else f"box {box_no}, standing late")
            box.bettor_stakes[bettor] = box.bettor_stakes.get(bettor, ZERO) + amount
            if seated:
                box.seated = True
                box.seated_players.add(bettor)
            else:
                box.standing = True
            info = self.bet_facts
            info.amount, info.seated, info.main = amount, seated, True
            info.side = info.case = None
            info.side_offered, info.player_main, info.before_deal = False, True, False
            info.box_has_main, info.box_seated = True, box.seated
            info.box_exists = 1 <= box_no <= self.table.seats
            self.check("late_bet", at=stake, bet=info)
            return
        before = self.side_stakes.pop(stake, None)  # more on a side stake placed: still judged as late
        self.sides.first_seen(stake, amount)
        if stake not in self.side_stakes:  # insurance and war are taken by their own actions
            raise MalformedRound(
                _("a bet taken during the round on {stake}, which is no side bet").format(stake=repr(stake))
            )
        if before is not None:
            self.side_stakes[stake] += before

    def check_charges(self) -> None:
        """hand-log/1.2, at the end of a round that logs charges: each stake against what was charged
        for it. No text encoded here speaks of a player's account, so a gap is reported in the summary
        (`charge_gaps`), never a finding."""
        charges = self.charges
        if charges is None:
            return
        stakes = self.all_stakes()
        for name in charges:
            if name not in stakes:
                raise MalformedRound(
                    _("stake {name} is charged but was never bet in this round").format(name=repr(name)),
                    UNKNOWN_STAKE,
                )
        for name, stake in stakes.items():
            charged = charges.get(name, ZERO)
            if charged == stake:
                continue
            kind = "never" if not charged and stake else ("more" if charged > stake else "less")
            self.charge_gaps.append((name, kind))

    def check_unsettled(self) -> None:
        """hand-log/1.2: a stake the log says was left unsettled has no settlement, and was bet."""
        stakes = self.all_stakes()
        for name in self.unsettled:
            if name not in stakes:
                raise MalformedRound(
                    _("stake {name} is said unsettled but was never bet in this round").format(
                        name=repr(name)
                    ),
                    UNKNOWN_STAKE,
                )
            if name in self.settlements:
                raise MalformedRound(
                    _("stake {name} is said unsettled and yet is settled").format(name=repr(name)),
                    INCONSISTENT,
                )

    # ---- explain ----
    def narrate(self, what: str) -> None:
        if self.story is None or self.judge.trace is None:
            return
        ran = self.judge.trace[self._told :]
        self._told = len(self.judge.trace)
        self.story.append((what, list(ran), self.describe()))

    def describe_bets(self) -> str:
        parts = [
            _("box {box}").format(box=f"{n} {fmt(b.stake)}") for n, b in sorted(self.boxes.items()) if b.stake
        ]
        parts += [f"{name} {fmt(amount)}" for name, amount in self.side_stakes.items()]
        return ", ".join(parts) or _("none")

    def describe(self) -> str:
        parts = []
        for hand in self.hands.values():
            if hand.card_list:
                parts.append(f"{hand.name}: {hand.shown()}")
        dealer = self.ctx.get("dealer")
        if dealer is not None and dealer.card_list:
            parts.append(f"D: {dealer.shown()}")
        return " | ".join(parts)

    # ---- checks ----
    def check(self, event: str, at: str | None = None, **namespaces: Any) -> bool:
        """Run the rules of `event` with these facts; `at` is the stake a finding names. A namespace
        the hot paths change in place (card, deal, turn, settle) may be given for this event only: the
        one changed in place is put back after it, so later events do not read this one's facts."""
        if not namespaces or event not in self.all_held:  # no rule listens: the context is left alone
            return self.check_in_place(event, at)
        self.ctx.update(namespaces)
        try:
            return self.check_in_place(event, at)
        finally:
            ctx = self.ctx
            for name in namespaces:
                if name == "card":
                    ctx[name] = self.card_facts
                elif name == "deal":
                    ctx[name] = self.deal_facts
                elif name == "turn":
                    ctx[name] = self.turn_facts
                elif name == "settle":
                    ctx[name] = self.settle_facts

    def check_in_place(self, event: str, at: str | None = None) -> bool:
        """`check` for the hot paths, which have already set the event's facts in the context."""
        all_held = self.all_held.get(event)
        if all_held is None or all_held(self.ctx):
            return True
        return self.judge.run(self.listening[event], event, self.ctx, self.line, self.round_id, at)

    def run_rules(self, event: str, at: str | None) -> bool:
        """The rules of `event` run one by one, when its generated check did not answer "all held"."""
        return self.judge.run(self.listening[event], event, self.ctx, self.line, self.round_id, at)

    def deal_owed(self, target: str, raw_card: str, face_down: bool = False) -> None:
        """A card of the initial deal. It is due to the first receiver still owed one; a card out of
        turn is one finding, and the receiver it skipped is still owed its card. `face_down`: dealt
        face down (hand-log/1.1 `deal_down`)."""
        owed = self.owed  # the next one owed last (`owe`)
        expected = owed[-1]
        # Who is owed this card, the dealer's place in the deal aside (deal.expected_hand): the first hand
        # still owed one, or the dealer while his card is owed.
        if target == "D" and "D" in owed:
            expected_hand = "D"
        else:
            expected_hand = (
                expected if expected != "D" else next((r for r in reversed(owed) if r != "D"), expected)
            )
        # The first one owed (expected), or a card out of turn to a later one: the earliest it is owed.
        if expected == target:
            owed.pop()  # the list's last item: no other moves
            was_owed = True
        else:
            found = _last_index(owed, target)
            was_owed = found >= 0
            if was_owed:
                del owed[found]
        if was_owed:
            if target != "D":
                self.owed_boxes -= 1
            self.facts.second_cards_dealt = not self.owed_boxes
        # The dealer's second card of the initial deal is his hole card where the game has one.
        hole = target == "D" and len(self.dealer.card_list) == 1
        both = self.held_card_deal
        deal = self.deal_facts
        if both is None or self.pending_card is not None:
            card = self.take(raw_card, face_down, hole) if face_down or hole else self.take(raw_card)
            deal.hand, deal.expected = target, expected
            deal.expected_hand = expected_hand
            held = self.held_deal
            if held is not None and not held(self.ctx):
                self.run_rules("deal", target)
        else:
            # `take`, written out, and the card's rules and the deal's asked in one call: nothing either
            # reads changes between them (the card rules read card.* and round.*, the deal's deal.* and
            # round.*). Where one did not hold, each is asked in turn, as `take` and the deal would have.
            card = raw_card if len(raw_card) == 2 else _TENS.get(raw_card, raw_card)
            card_facts = self.card_facts
            card_facts.code = card
            card_facts.in_shoe = self.shoe.take(card)
            card_facts.face_down, card_facts.hole = face_down, hole
            deal.hand, deal.expected = target, expected
            deal.expected_hand = expected_hand
            if not both(self.ctx):
                self.card_then_deal(target)
        if target == "D":
            self.dealer.add(card)
            if face_down:
                self.dealer.hidden += (card,)
        else:
            hand = self.hands.get(target)
            if hand is not None:
                hand.add(card)
                if face_down:
                    hand.hidden += (card,)

    def card_then_deal(self, target: str) -> None:
        """A card of the initial deal, its facts and the deal's set, whose rules did not all hold: the card
        rules, then the deal rules, each asked alone and run where it did not hold."""
        ctx = self.ctx
        held = self.held_card
        if held is not None and not held(ctx):
            self.run_rules("card", None)
        held = self.held_deal
        if held is not None and not held(ctx):
            self.run_rules("deal", target)

    def owe(self, receivers: list[str]) -> None:
        """The receivers owed a card of the initial deal, in the order the text deals them (`receivers`
        is the round's own: kept, reversed)."""
        # Kept from the last to be dealt to the next: each card in turn takes the list's last item, which
        # moves no other (written so for speed; `owed` is read elsewhere only for being empty).
        receivers.reverse()
        self.owed = receivers
        self.owed_boxes = len(receivers) - receivers.count("D")

    def check_deal(self, target: str, expected: str) -> None:
        """A card dealt to `target` when the text deals it to `expected`."""
        deal = self.deal_facts
        deal.hand, deal.expected = target, expected
        deal.expected_hand = expected
        held = self.held_deal
        if held is not None and not held(self.ctx):
            self.run_rules("deal", target)

    def place_of(self, hand: str, box: int) -> int | None:
        """The hand's place in its box, 1 at the player's right, where the log gives the box's layout
        (hand-log/1.1); else None."""
        layout = self.layout
        if layout is None:
            return None
        places = layout.get(box)
        if places is None:
            return None
        if hand not in places:
            raise MalformedRound(
                _("layout of box {box} does not name hand {hand}").format(box=box, hand=hand), INCONSISTENT
            )
        return places.index(hand) + 1

    def check_layout(self) -> None:
        """At the end of the round: the layout names each box's hands, every one and no other."""
        layout = self.layout
        if layout is None:
            return
        for box, places in layout.items():
            held = self.boxes.get(box)
            names = sorted(hand.name for hand in held.hand_list) if held is not None else []
            if sorted(places) != names:
                raise MalformedRound(
                    _("layout of box {box} names {places}; the box's hands are {hands}").format(
                        box=box, places=", ".join(places), hands=", ".join(names) or _("none")
                    ),
                    INCONSISTENT,
                )

    def check_settle_order(
        self,
        stake: str,
        box: int,
        dealer_done: bool = True,
        verb: str | None = None,
        place: int | None = None,
    ) -> bool:
        """A stake of box `box` settled (`verb`: pay, lose, push) in the final settlement, after the box
        settled before it; `place`: the hand's place in its box, where the log gives it. Once a
        settlement has left the order, the round's later ones are not compared with the boxes before
        them: an engine settling from the wrong end is one finding a round, not one a box. False when
        the settlement came before its time only: the next one is then compared with the one before."""
        settle = self.settle_facts
        settle.box, settle.dealer_done = box, dealer_done
        settle.previous_box = 0 if self.order_broken else self.previous_settled_box
        settle.verb, settle.previous_verb = verb, self.previous_settled_verb
        settle.place = place
        settle.previous_place = (
            self.previous_settled_place
            if place is not None
            and not self.order_broken
            and self.previous_settled_box == box
            and box not in self.places_broken
            else None
        )
        held = self.held_settle
        if held is not None and not held(self.ctx):
            judge = self.judge
            found = len(judge.findings)
            self.run_rules("settle", stake)
            if not dealer_done:
                settle.dealer_done = True  # was the order broken too, or only the time?
                only_the_time = held(self.ctx)
                settle.dealer_done = dealer_done
                if only_the_time:
                    # Settled before its time, and in order had it waited: one finding, its time. It
                    # is not where the final settlement stands, so the stakes settled after it are
                    # not compared with it (docs/findings.md, "One finding per cause").
                    return False
            self.settle_order_findings(found)
        self.previous_settled_box = box
        self.previous_settled_verb = verb
        self.previous_settled_place = place
        return True

    def settle_order_findings(self, found: int) -> None:
        """The findings a settlement made from `found` on, by what their rules read: the order across boxes
        (`settle.previous_box`), the order among a box's hands (`settle.previous_place`), or neither (its
        time). The order across boxes broken, the round's later settlements are not compared with the
        boxes before them; the order among a box's hands broken, that box's later hands are not compared.
        A settlement that leaves both orders is one mistake, the order the text gives (« de droite à
        gauche »), in one direction: the finding on the boxes is the cause, and those on the hands of a box,
        at this settlement or before it in the round, its consequences (docs/findings.md)."""
        judge = self.judge
        boxes: list[Finding] = []
        for finding in judge.findings[found:]:
            reads = judge.rule_reads(finding.rule, "settle")
            if "settle.previous_box" in reads:
                boxes.append(finding)
            elif "settle.previous_place" in reads:
                self.place_findings.append(finding)
                self.places_broken.add(self.settle_facts.box)
        if not boxes:
            return
        self.order_broken = True
        if self.place_findings:
            saved = judge.cause
            judge.cause = boxes[0]
            for finding in self.place_findings:
                if finding.caused_by is None:
                    judge.mark_consequence(judge.findings.index(finding))
            judge.cause = saved
            self.place_findings = []

    def check_settle_time(self, stake: str, box: int) -> None:
        """A stake of box `box` settled before the final settlement, while players still play."""
        settle = self.settle_facts
        settle.box, settle.previous_box, settle.dealer_done = box, 0, False
        settle.place = settle.previous_place = None
        held = self.held_settle
        if held is not None and not held(self.ctx):
            self.run_rules("settle", stake)
        settle.dealer_done = True

    # ---- bets ----
    def read_bets(self) -> None:
        """The round's bets: each box's stake and bettors, the round's counts, the bet rules on each bet
        in turn, then each box's first hand opened, in the order of the boxes."""
        # How many boxes each seated player and each bettor (seated or standing) bets a main stake on:
        # a box is counted when the bettor first shows on it (the box's own bettors say so), with no
        # set of boxes per bettor.
        players_boxes: dict[str, int] = {}
        bettors_boxes: dict[str, int] = {}
        entries, with_main, seated_boxes, in_order, side_bets = self.place_bets(players_boxes, bettors_boxes)
        # Each box's most boxes any of its seated players (player_boxes), any of its bettors
        # (bettor_boxes) bets on: the most over its main bets.
        for _stake, box, _kind, _amount, seated, _bet, bettor in entries:
            if bettor:
                count = bettors_boxes[bettor]
                if count > box.bettor_boxes:
                    box.bettor_boxes = count
                if seated:
                    count = players_boxes[bettor]
                    if count > box.player_boxes:
                        box.player_boxes = count
        round_facts = self.facts
        round_facts.players = len(players_boxes)
        round_facts.bettors = len(bettors_boxes)
        round_facts.boxes = with_main
        round_facts.free_seats = self.table.seats - seated_boxes
        round_facts.side_bets = tuple(side_bets)
        self.check_in_place("round")
        if self.held_bet is not None or self.held_side_bet is not None:
            self.judge_bets(entries)
        # Each box with a main stake opens its first hand, in the order of the boxes' numbers (sorted only
        # where the bets named them out of order), judged by the `box` rules.
        held_box = self.held_box
        boxes = self.boxes
        hands = self.hands
        kit = self.kit
        ctx = self.ctx
        ordered = list(boxes.values()) if in_order else [boxes[number] for number in sorted(boxes)]
        for box in ordered:
            if box.stake:
                hand = kit.hand(_BOX_NAMES[box.number], box, box.stake)
                box.hand_list.append(hand)
                hands[hand.name] = hand
                ctx["box"] = box
                if held_box is not None and not held_box(ctx):
                    self.run_rules("box", hand.name)

    def place_bets(
        self, players_boxes: dict[str, int], bettors_boxes: dict[str, int]
    ) -> tuple[list[BetEntry[BoxT]], int, int, bool, list[str]]:
        """Each bet placed on its box (made at its first bet): (stake, box, kind, amount, seated, bet,
        bettor) of each, bettor "" for a side bet; how many boxes have a main stake, how many are seated;
        whether the boxes were first named in the order of their numbers (the usual case); the side bets
        staked (round.side_bets). Counts each bettor's boxes in `players_boxes` and `bettors_boxes`."""
        entries: list[BetEntry[BoxT]] = []
        boxes = self.boxes
        with_main = seated_boxes = 0
        last_box = 0
        in_order = True
        side_bets: list[str] = []
        for n, bet in enumerate(self.record.bets):
            stake = bet.stake
            box_no, split, kind = parse_stake(stake)
            if split is not None:
                raise MalformedRound(
                    _("bets[{n}]: a bet is placed on a box, not on split hand {stake}").format(
                        n=n, stake=repr(stake)
                    )
                )
            value = bet.amount
            try:  # `amount_of`'s first step, written out
                amount = AMOUNTS[value.__class__, value]
            except (KeyError, TypeError):
                amount = amount_of(value, "bets[{}].amount", n)
            seated_field = bet.seated  # left out: seated
            seated = True if seated_field is UNSET else seated_field
            box = boxes.get(box_no)
            if box is None:
                box = boxes[box_no] = self.kit.box(box_no)
                if box_no < last_box:
                    in_order = False
                last_box = box_no
            if kind == "main":
                if not box.stake and amount:
                    with_main += 1
                if seated and not box.seated:
                    seated_boxes += 1
                bettor = self.main_bet(box, amount, bet, seated, n, players_boxes, bettors_boxes)
            else:
                bettor = ""
                name = f"{box_no}:{kind}"
                self.side_stakes[name] = self.side_stakes.get(name, ZERO) + amount
                side_name = self.judge.stake_sides.get(kind.partition(":")[0])
                if side_name is not None and side_name not in side_bets:
                    side_bets.append(side_name)
            entries.append((stake, box, kind, amount, seated, bet, bettor))
        return entries, with_main, seated_boxes, in_order, side_bets

    @staticmethod
    def main_bet(
        box: BoxT,
        amount: Decimal,
        bet: Bet,
        seated: bool,
        n: int,
        players_boxes: dict[str, int],
        bettors_boxes: dict[str, int],
    ) -> str:
        """A main bet added to its box's stake and its bettor's; the bettor's name (the box's when the bet
        names no player)."""
        # A log's amount that is not zero is positive with no positive exponent (an integer, a decimal
        # string or a float below 10^15: `to_decimal` refuses more), so ZERO + amount is the amount itself:
        # a box's or a bettor's first stake is taken as it is, no addition made (for speed). A stake is
        # never negative: "stake > 0" is "stake is not zero".
        previous = box.stake
        if not previous and amount:
            box.stake = amount if previous is ZERO else previous + amount
        else:
            box.stake = previous + amount
        box.initial_stake = box.stake
        box_no = box.number
        bettor = bet.player or (f"box {box_no}" if seated else f"box {box_no}, standing {n}")
        stakes = box.bettor_stakes
        own = stakes.get(bettor)
        if own is None:
            stakes[bettor] = amount if amount else ZERO + amount
            bettors_boxes[bettor] = bettors_boxes.get(bettor, 0) + 1
        else:
            stakes[bettor] = own + amount
        if not seated:
            box.standing = True
            return bettor
        # The player is the bettor: his name, else the box's (UNSET is false, as "" is).
        box.seated = True
        players = box.seated_players
        if bettor not in players:
            players.add(bettor)
            players_boxes[bettor] = players_boxes.get(bettor, 0) + 1
        return bettor

    def judge_bets(self, entries: list[BetEntry[BoxT]]) -> None:
        """The `bet` rules on every bet, and the `side_bet` rules on the side bets, in the bets' order."""
        held_bet, held_side_bet = self.held_bet, self.held_side_bet
        ctx = self.ctx
        info = ctx["bet"] = self.bet_facts
        seats = self.table.seats
        placed = self.record.bets
        for stake, box, kind, amount, seated, bet, _bettor in entries:
            box_no = box.number
            info.amount, info.seated, info.main = amount, seated, kind == "main"
            info.box_has_main, info.box_seated = bool(box.stake), box.seated
            info.box_exists = 1 <= box_no <= seats
            if kind == "main":
                info.side = info.case = None
                info.side_offered, info.player_main, info.before_deal = False, True, True
                if held_bet is not None and not held_bet(ctx):
                    self.run_rules("bet", stake)
                continue
            side = self.sides.bet_facts(kind, box_no, bet, placed)
            info.side, info.case, info.side_offered = side["side"], side["case"], side["side_offered"]
            info.player_main, info.before_deal = side["player_main"], side["before_deal"]
            if held_bet is not None and not held_bet(ctx):
                self.run_rules("bet", stake)
            if held_side_bet is not None and not held_side_bet(ctx):
                self.run_rules("side_bet", stake)

    # ---- cards ----
    def take(self, raw: str, face_down: bool = False, hole: bool = False) -> str:
        """A card out of the shoe, and the card rules judged on it. `face_down`: dealt face down
        (hand-log/1.1); `hole`: the dealer's second card of the initial deal."""
        card = raw if len(raw) == 2 else _TENS.get(raw, raw)  # `10H` is the one code of 3 characters
        pending = self.pending_card
        if pending is not None:
            # A card drawn by mistake and used as the next card drawn: already out, already judged.
            if card != pending:
                raise MalformedRound(
                    _(
                        "{card} drawn where the card drawn by mistake, {pending}, was to be the next card"
                    ).format(card=card, pending=pending),
                    INCONSISTENT,
                )
            self.pending_card = None
            return card
        card_facts = self.card_facts
        card_facts.code = card
        card_facts.in_shoe = self.shoe.take(card)
        card_facts.face_down, card_facts.hole = face_down, hole
        held = self.held_card
        if held is not None and not held(self.ctx):
            self.run_rules("card", None)
        return card

    def mistake(self, action: Mistake) -> None:
        """A card exposed or drawn by mistake (hand-log/1.1): out of the shoe, judged as a card, then by
        the rules of what became of it; `used`, it is the next card drawn."""
        card = self.take(action.card)
        facts = MistakeFacts(code=card, what=action.what, fate=action.fate)
        self.check("mistake", at=None, mistake=facts, round=self.facts)
        if action.fate == "used":
            self.pending_card = card

    def reshuffle(self, action: Reshuffle) -> None:
        """The discards shuffled back in the middle of the round (hand-log/1.1): the shoe holds every card
        but those on the table, then gives up the cards discarded unseen. hand-log/1.2 `all`: every card
        of the decks, the table's taken back too (they stay in the hands: the round goes on with them)."""
        with_table = action.scope == "all"
        facts = ReshuffleFacts(
            cards_left=self.shoe.left, discarded=len(action.discarded), with_table=with_table
        )
        on_table: list[str] = []
        if not with_table:
            on_table = [card for hand in self.hands.values() for card in hand.on_table()]
            on_table += self.dealer.on_table()
        self.shoe.reshuffle(on_table)
        # The reshuffle puts the cut card back in (docs/hand-log.md): a cut card seen earlier in the round
        # no longer makes the next round due for a reshuffle, and no longer says where the next cut is.
        self.cut_card_seen = False
        self.cut_card_at = None
        for card in action.discarded:
            self.take(card)
        self.check("reshuffle", at=None, reshuffle=facts, round=self.facts)

    def check_mistakes_used(self) -> None:
        """At the end of the round: a card drawn by mistake and said used was used."""
        if self.pending_card is not None:
            raise MalformedRound(
                _(
                    "the card drawn by mistake, {card}, was to be used as the next card, and no card was "
                    "drawn after it"
                ).format(card=self.pending_card),
                INCONSISTENT,
            )

    def reveal(self, target: str, raw_card: str) -> None:
        """A card dealt face down turned face up: it must be one the receiver holds face down."""
        card = _TENS.get(raw_card, raw_card)
        holder: Cards = self.dealer if target == "D" else self.hand(target, "reveal")
        hidden = list(holder.hidden)
        if card not in hidden:
            raise MalformedRound(
                _("reveal of {card} on {target}, which holds no such card face down").format(
                    card=card, target=repr(target)
                ),
                INCONSISTENT,
            )
        hidden.remove(card)
        holder.hidden = tuple(hidden)
        holder.revealed += 1

    def hand(self, name: str, verb: str) -> HandT:
        hand = self.hands.get(name)
        if hand is None:
            raise MalformedRound(
                _("{verb} on hand {name}, which was never opened in this round").format(
                    verb=verb, name=repr(name)
                ),
                UNKNOWN_HAND,
            )
        return hand

    # ---- settlements ----
    def record_settlement(self, action: Pay | Lose | Push, index: int) -> Settlement:
        verb, stake = action.verb, action.stake
        if stake not in self.hands:  # a hand's name is a stake (the engine made it): no call to know it
            parse_stake(stake)  # a stake that is none is malformed
        amount = None
        value: Any = UNSET  # a push, or a loss of the whole stake, names no amount
        if type(action) is Pay or type(action) is Lose:
            value = action.amount
        if value is not UNSET:
            try:  # `amount_of`'s first step, written out
                amount = AMOUNTS[value.__class__, value]
            except (KeyError, TypeError):
                amount = amount_of(value, "{} {}", verb, stake)
        settlement = Settlement(verb, amount, index)
        done = self.settlements.get(stake)
        if done is None:
            self.settlements[stake] = [settlement]
        else:
            done.append(settlement)
        return settlement

    def all_stakes(self) -> dict[str, Decimal]:
        stakes = {name: hand.stake for name, hand in self.hands.items()}
        stakes.update(self.side_stakes)
        return stakes

    def judge_settlement(self, stake_kind: str, name: str, amount: Decimal, **namespaces: Any) -> None:
        """Compare the log's first settlement of a stake with what the ruleset gives it."""
        self.ctx.update(namespaces)
        self.judge_hand_settlement(stake_kind, name, amount)

    def judge_hand_settlement(self, stake_kind: str, name: str, amount: Decimal) -> None:
        """`judge_settlement` with the context's hand, box and dealer already set."""
        done = self.settlements.get(name)
        if not done:
            return  # the stake-settled-once rule reports it; no second finding for one mistake
        first = done[0]
        ctx = self.ctx
        stake = ctx["stake"] = self.settled_facts
        stake.name, stake.amount, stake.settlements = name, amount, len(done)
        stake.case = side_of(name.split(":", 1)[1], self.judge.stake_sides)[1] if ":" in name else None
        stake.verb, stake.paid = first.verb, (first.amount if first.verb == "pay" else None)
        # `Judge.expected_settlement`'s first step, written out: the stake's generated settle function
        # (the context's house options are the judge's); where it cannot answer, the judge says why.
        decide = self.settlement.get(stake_kind)
        fast: Any = decide(ctx) if decide is not None else False
        decided: tuple[Rule, SettleDef, Decimal | None] | None = (
            fast if fast is not False else self.judge.expected_settlement(stake_kind, ctx)
        )
        if decided is None:
            return
        rule, settle, expected_amount = decided
        verb = settle.verb
        lines: tuple[str, ...] = ()
        if isinstance(expected_amount, PaytableOutcome):
            # A side bet settled by its paytables: paid what its lines give, lost when none holds.
            lines = expected_amount.lines
            verb = "pay" if expected_amount.winnings is not None else "lose"
            expected_amount = expected_amount.winnings
        expected = _outcome(verb, expected_amount, amount)
        actual = _outcome(first.verb, first.amount, amount)
        # `expected == actual`, item by item: the compiled build compares its tuples without boxing them.
        same = expected[0] == actual[0] and expected[1] == actual[1]
        if self.rules_give is not None:
            self.rules_give[name] = expected
        if self.story is not None:
            mark = _("ok") if same else _("WRONG")
            told = _("settle {stake}: the rules give {expected} ({rule}); the log shows {actual}: {mark}")
            self.story.append(
                (
                    told.format(
                        stake=name,
                        expected=f"{expected[0]} {fmt(expected[1])}",
                        rule=rule.id,
                        actual=f"{actual[0]} {fmt(actual[1])}",
                        mark=mark,
                    ),
                    [],
                    "",
                )
            )
        if same:
            return
        self.judge.payout(
            rule,
            self.ctx,
            line=self.line,
            round_id=self.round_id,
            stake=name,
            expected={expected[0]: fmt(expected[1]), **({"line": " + ".join(lines)} if lines else {})},
            actual={actual[0]: fmt(actual[1])},
            discrepancy=_net(actual) - _net(expected),
        )

    def check_every_stake_settled(self) -> None:
        if self.unsettled:
            self.check_unsettled()
        self.check_charges()
        hands, side_stakes = self.hands, self.side_stakes
        for name in self.settlements:
            if name not in hands and name not in side_stakes:
                raise MalformedRound(
                    _("stake {name} is settled but was never bet in this round").format(name=repr(name)),
                    UNKNOWN_STAKE,
                )
        stake = self.ctx["stake"] = self.stake_facts
        stake.case = stake.verb = stake.paid = None
        held = self.held_stake_end
        if held is None:
            return
        settlements = self.settlements
        # `all_stakes`, in its order and with its values, without making it.
        for name, hand in hands.items():
            stake.name = name
            stake.amount = side_stakes.get(name, hand.stake) if side_stakes else hand.stake
            done = settlements.get(name)
            stake.settlements = len(done) if done else 0
            if not held(self.ctx):
                self.run_rules("stake_end", name)
        for name, amount in side_stakes.items():
            if name in hands:
                continue  # judged above, in the hand's place
            stake.name, stake.amount = name, amount
            done = settlements.get(name)
            stake.settlements = len(done) if done else 0
            if not held(self.ctx):
                self.run_rules("stake_end", name)


def _last_index(items: list[str], item: str) -> int:
    """Where `item` last stands in `items`; -1 where it is not there."""
    for index in range(len(items) - 1, -1, -1):
        if items[index] == item:
            return index
    return -1


def show_action(action: Action) -> str:
    """An action as the log writes it (its verb, then its items), for `explain`."""
    items = (getattr(action, name) for name in action.__struct_fields__)
    return " ".join([action.verb, *(str(item) for item in items if item is not UNSET)])


def _outcome(verb: str, amount: Decimal | None, stake: Decimal) -> tuple[str, Decimal]:
    if verb == "pay":
        return "pay", amount if amount is not None else ZERO
    if verb == "lose":
        return "lose", amount if amount is not None else stake
    return "push", stake


def _net(outcome: tuple[str, Decimal]) -> Decimal:
    verb, amount = outcome
    return amount if verb == "pay" else (-amount if verb == "lose" else ZERO)
