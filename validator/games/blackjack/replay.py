"""Replaying a blackjack round: deal order, turns, decisions, the dealer's drawing, settlement.

Who acts when and what a total is are mechanics, here; whether an action was allowed and what a
stake must get are the ruleset's rules, evaluated at each step by the judge.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Final

from validator.dsl.codegen import AllHeld
from validator.dsl.facts import ActionFacts, RequestFacts, SettleFacts
from validator.findings.finding import Finding
from validator.games.blackjack.hands import (
    HANDS,
    BlackjackBox,
    BlackjackDealer,
    BlackjackHand,
    BlackjackHands,
)
from validator.i18n import _, current
from validator.logs.decode import (
    Action,
    Approve,
    Burn,
    Charge,
    CutCard,
    Deal,
    DealDown,
    Discard,
    Double,
    EvenMoney,
    Hit,
    Insurance,
    Lose,
    Mistake,
    Pay,
    Peek,
    Push,
    Request,
    Reshuffle,
    Reveal,
    Split,
    Stand,
    Surrender,
)
from validator.logs.rules.replayable import INCONSISTENT, WRONG_GAME
from validator.replay.round_base import (
    UNSET,
    MalformedRound,
    RoundReplay,
    amount_of,
    parse_stake,
    show_action,
)
from validator.replay.state import Box

# Actions are told apart by their class, `type(action) is …` (or a set of classes): `isinstance` of a
# msgspec struct that does not match goes through its metaclass, several times slower.
Decision = Hit | Stand | Double | Split | Surrender
Settling = Pay | Lose | Push
DECISIONS: Final = frozenset((Hit, Stand, Double, Split, Surrender))
SETTLEMENTS: Final = frozenset((Pay, Lose, Push))
# The classes told apart at every action under Final names (written so for speed): the
# compiled build keeps a Final name in a C variable, where it looks an imported name up in the module's
# dictionary at each use.
DEAL: Final = Deal
DEAL_DOWN: Final = DealDown
HIT: Final = Hit
DOUBLE: Final = Double
SPLIT: Final = Split
SURRENDER: Final = Surrender
LOSE: Final = Lose
# What a log may write between a busting card and its collection that is no step of the game: the red
# cut card coming out of the shoe, an engine's charge of a stake (hand-log/1.2).
NOT_A_STEP: Final = frozenset((CutCard, Charge))
PAST_ALL_BOXES: Final = 8
# After the dealer's early second card, the events whose findings are its consequences: the insurance
# and even money it decides, the side bets judged against the dealer's cards, and a peek at it.
CONSEQUENT_EVENTS: Final = frozenset(("insurance", "even_money", "insurance_settle", "side_settle", "peek"))
# Of their findings, those whose rule reads what the card changed: the dealer's cards (not his first card,
# which he held already); and, at the card itself, its face (a hole card dealt face down is the same early
# card). A peek looks at it, whatever its rule reads.
CHANGED_BY_EARLY_CARD: Final = ("dealer.", "card.face_down", "card.hole")
KEPT_BY_EARLY_CARD: Final = frozenset(("dealer.up_ace", "dealer.up_ten"))
WHOLLY_CONSEQUENT: Final = frozenset(("peek",))
# "Whose turn" in words, for messages, in each language as it is first needed (`turn.whose`: the English
# message reads "it was box 3's turn", the French "c'était le tour de la case 3"); key 0 is the dealer's.
_WHOSE: dict[str, dict[int, str]] = {}


def _whose_words() -> dict[int, str]:
    """`_WHOSE` of the language in use (asked once a round: the language does not change within one)."""
    language = current()
    words = _WHOSE.get(language)
    if words is None:
        words = _WHOSE[language] = {n: _("box {box}'s").format(box=n) for n in range(1, 10)}
        words[0] = _("the dealer's")
    return words


def _whose(words: dict[int, str], box: int | None) -> str:
    return words.get(0 if box is None else box) or _("box {box}'s").format(box=box)


def insurance_stake(insured: str) -> str:
    """The stake of an insurance taken on `insured`: a box ("3" → "3:insurance") or, hand-log/1.2, a
    split hand ("3/2" → "3:insurance:2")."""
    box, _slash, split = insured.partition("/")
    return f"{box}:insurance:{split}" if split else f"{box}:insurance"


def insured_hand(box_no: int, kind: str) -> str:
    """The hand an insurance stake's kind insures: "insurance" the box's first, "insurance:2" hand "/2"."""
    _head, _colon, split = kind.partition(":")
    return f"{box_no}/{split}" if split else str(box_no)


class BlackjackRound(RoundReplay[BlackjackBox, BlackjackHand, BlackjackDealer]):
    def game_hands(self) -> BlackjackHands:
        return HANDS

    def replay(self) -> None:
        in_place = self.facts_in_place
        hole_card = in_place.hole_card
        if hole_card is None:
            hole_card = in_place.hole_card = bool(self.judge.ruleset.param("dealer.hole_card"))
        self.judge.cause = None  # a cause is one round's
        if not self.open_round():
            return
        order = list(self.hands)  # the hands' names, in the order of their boxes
        # Receivers still owed a card of the initial deal, in the order the text deals them.
        self.owe([*order, "D", *order, "D"] if hole_card else [*order, "D", *order])
        self.in_initial = True
        self.dealer_started = False
        # The hands are opened in the order of their boxes: the first to play is the first opened.
        self.current_box = next(iter(self.hands.values())).box.number if self.hands else PAST_ALL_BOXES
        actions = self.record.actions
        self.find_last_moves(actions)
        self.decided = False  # a player has made a decision in this round
        # The words of whose turn it is, in the language in use (chosen once for the run): looked up once
        # per judge.
        whose_words = in_place.whose_words
        if whose_words is None:
            whose_words = in_place.whose_words = _whose_words()
        self.whose_words = whose_words
        # A hit's and a stand's rules asked with the turn's in one call (`Judge.folded`): per judge; none
        # while `explain` traces the round (each event is asked alone, so that every rule runs).
        turn_then = in_place.turn_then if self.judge.trace is None else {}
        if turn_then is None:
            turn_then = in_place.turn_then = self.folded_decisions()
        self.turn_then = turn_then
        # The place in its box of the hand that made the last decision, and its box (hand-log/1.1 layout).
        self.current_place: int | None = None
        self.current_place_box = 0
        # The boxes one of whose split hands was dealt its second card out of place (deal-order).
        self.place_broken: set[int] = set()
        # Hands whose surrender a rule refused: where no clause settles a surrendered hand, the law
        # gives their money no settlement to judge, and the refused surrender is the one finding.
        self.refused_surrenders: set[str] = set()
        # Insurances settled out of their time (a finding at their settlement), by stake; None until one
        # is (most rounds have none: no dict made for them).
        self.insurance_timing: dict[str, Finding] | None = None
        self.play(actions)
        self.finish()
        self.judge.cause = None
        if self.story is not None:  # the words are looked up only when `explain` tells the round
            self.narrate(_("end of the round"))

    def play(self, actions: list[Action]) -> None:
        """Each action in turn (told to `explain`'s story where it keeps one)."""
        if self.story is not None:
            for index, action in enumerate(actions):
                self.step(action, index, actions)
                self.narrate(show_action(action))
            return
        owed = self.owed
        for index, action in enumerate(actions):
            kind = type(action)
            if owed and type(action) is DEAL and self.in_initial:  # `deal`'s first case, written out
                self.deal_owed(action.hand, action.card)
                self.in_initial = bool(owed)
            elif kind in DECISIONS:  # `step`'s first two cases, written out: most of the others
                self.decision(action, index, actions)  # type: ignore[arg-type]
            elif kind in SETTLEMENTS:
                self.settle_action(action, index)  # type: ignore[arg-type]
            else:
                self.step(action, index, actions)

    def folded_decisions(self) -> dict[str, AllHeld]:
        """The decisions checked right after the turn (`decision`) whose rules and the turn's are one
        generated function: a hit and a stand (the others read an amount or mark splits in between)."""
        judge = self.judge
        folded = {}
        for verb in ("hit", "stand"):
            held = judge.folded("turn", verb)
            if held is not None:
                folded[verb] = held
        return folded

    def find_last_moves(self, actions: list[Action]) -> None:
        """Where the round's last decision is, and the dealer's last card: a settlement after it comes
        once he has determined his point (-1: none)."""
        self.last_decision = -1
        for index in range(len(actions) - 1, -1, -1):
            if type(actions[index]) in DECISIONS:
                self.last_decision = index
                break
        self.last_dealer_card = -1
        for index in range(len(actions) - 1, -1, -1):
            action = actions[index]
            if (type(action) is DEAL or type(action) is DEAL_DOWN) and action.hand == "D":
                self.last_dealer_card = index
                break

    # ---- one action ----
    def step(self, action: Action, index: int, actions: list[Action]) -> None:
        kind = type(action)
        if kind in DECISIONS:
            # Told apart by class above: a Decision (no `cast`, a call at every action in the plain build).
            self.decision(action, index, actions)  # type: ignore[arg-type]
        elif kind in SETTLEMENTS:
            self.settle_action(action, index)  # type: ignore[arg-type]
        elif type(action) is DEAL:
            self.deal(action.hand, action.card, index)
        elif type(action) is DEAL_DOWN:
            self.deal(action.hand, action.card, index, face_down=True)
        elif type(action) is Reveal:
            self.reveal(action.hand, action.card)
        elif type(action) is Peek:
            self.peek()
        elif type(action) is Mistake:
            self.mistake(action)
        elif type(action) is Reshuffle:
            self.reshuffle(action)
        elif type(action) is Insurance:
            self.insurance(action)
        elif type(action) is EvenMoney:
            self.even_money(action)
        else:
            self.other_action(action)

    def other_action(self, action: Action) -> None:
        """The actions that move no card of a hand and decide nothing: a card burnt or discarded, the cut
        card, a supervisor's approval, a refused request, hand-log/1.2's money; else no blackjack action."""
        if type(action) is Burn or type(action) is Discard:
            self.take(action.card)
        elif type(action) is CutCard:
            self.saw_cut_card(action)
        elif type(action) is Approve:
            self.sides.approve(action)  # a supervisor's approval of a JP1 payment: judged with the side bets
        elif type(action) is Request:
            self.request(action)
        elif not self.money_action(action):  # hand-log/1.2: charge, unsettled, a late bet
            raise MalformedRound(
                _("{verb} is not an action of blackjack").format(verb=repr(action.verb)), WRONG_GAME
            )

    def insurance(self, action: Insurance) -> None:
        """An insurance taken: judged by the `insurance` rules, and its stake placed as a side stake."""
        # A box's insurance, on its first hand; hand-log/1.2: a split hand's own ("3/2").
        hand = (
            self.hand(action.box, "insurance")
            if "/" in action.box
            else self.first_hand(action.box, "insurance")
        )
        amount = amount_of(action.amount, _("insurance amount"))
        bettors = hand.box.bettor_stakes
        # Whose stake insures: the box's when one player bets on it; with bettors behind the seated
        # player, those the log names (hand-log/1.1 `by`), else hand-log/1 cannot say whose it is
        # and its half is not judged.
        insurer: Decimal | None = hand.box.initial_stake if len(bettors) <= 1 else None
        by = action.by
        if by is not UNSET:
            unknown = [name for name in by if name not in bettors]
            if unknown:
                raise MalformedRound(
                    _("insurance on box {box} by {name}, who has no main bet on the box").format(
                        box=action.box, name=repr(unknown[0])
                    ),
                    INCONSISTENT,
                )
            insurer = sum((bettors[name] for name in set(by)), Decimal(0))
        name = insurance_stake(action.box)
        self.check(
            "insurance",
            at=name,
            hand=hand,
            box=hand.box,
            action=ActionFacts(verb="insurance", hand=hand.name, amount=amount, insurer_stake=insurer),
        )
        self.note_decision("insurance", hand)
        self.side_stakes[name] = self.side_stakes.get(name, Decimal(0)) + amount

    def even_money(self, action: EvenMoney) -> None:
        """Even money taken on a blackjack, judged by the `even_money` rules."""
        hand = self.first_hand(action.box, "even_money")
        self.check(
            "even_money",
            at=hand.name,
            hand=hand,
            box=hand.box,
            action=ActionFacts(verb="even_money", hand=hand.name, amount=None),
        )
        self.note_decision("even_money", hand)
        # Even money the text does not offer (the French texts) leaves the hand a blackjack: its rule
        # (no-even-money) is the finding, and the payment the log makes is judged as any other, its
        # time (before the dealer's point) and its amount (docs/findings.md).
        hand.even_money = self.settles_even_money()

    def request(self, action: Request) -> None:
        """hand-log/1.2: a player's request the engine refused or turned into another action (the action
        done, if any, follows in the log and is replayed as any). The `request` rules judge it against the
        hand as it stands when asked."""
        hand = self.hand(action.hand, "request")
        if action.done == action.asked:
            raise MalformedRound(
                _(
                    "request of {asked} on hand {hand} said done as asked: a request is logged only when "
                    "refused or changed"
                ).format(asked=action.asked, hand=repr(action.hand)),
                INCONSISTENT,
            )
        self.check(
            "request",
            at=hand.name,
            hand=hand,
            box=hand.box,
            request=RequestFacts(asked=action.asked, done=action.done),
        )

    def first_hand(self, box: str, verb: str) -> BlackjackHand:
        return self.hand(str(parse_stake(box)[0]), verb)

    def deal(self, target: str, raw_card: str, index: int, face_down: bool = False) -> None:
        if self.in_initial and self.owed:
            self.deal_owed(target, raw_card, face_down)
            self.in_initial = bool(self.owed)
            return
        self.in_initial = False
        if target == "D":
            self.dealer_draw(raw_card, index, face_down)
            return
        hand = self.hand(target, "deal")
        # Outside the initial deal, only a split hand waiting for its second card is dealt to, the one
        # at the right of the others first. hand-log/1 numbers the hands in the order of the splits, not
        # by their place: with one split the first hand lies at the right, but a hand split again puts
        # its new hand beside it, in a place the log does not give; with more than two hands in the box
        # any hand waiting for its card may be the next. A hand-log/1.1 `layout` gives the places.
        box_hands = hand.box.hand_list
        places = None if self.layout is None else self.layout.get(hand.box.number)
        if places is not None:
            hands = self.hands
            waiting = next(
                (name for name in places if name in hands and len(hands[name].card_list) == 1),
                _("a hand waiting after a split"),
            )
        elif len(box_hands) > 2 and len(hand.card_list) == 1:
            waiting = target
        else:
            waiting = next(
                (h.name for h in box_hands if len(h.card_list) == 1), _("a hand waiting after a split")
            )
        card = self.take(raw_card, face_down)
        self.check_deal(target, waiting)
        hand.add(card)
        if places is not None and target != waiting:
            # A card dealt out of its place (deal-order): the play among the box's hands that follows is
            # its consequence, and the order of their decisions is no longer judged (one finding). A card
            # dealt in its place moves no play: dealing a split hand its second card is the dealer's, and
            # the text orders the player's own determining of his hands (« déterminant la situation de la
            # main la plus à sa droite avant de passer à la suivante »).
            self.place_broken.add(hand.box.number)
        if face_down:
            hand.hidden += (card,)
        # A split hand's card is drawn at the table like a hit (art. 55-4, 3°: « la deuxième carte tirée »).
        hand.box.drew = True
        self.facts.table_drew = True

    def dealer_draw(self, raw_card: str, index: int, face_down: bool = False) -> None:
        # A second card the dealer takes at the initial deal, before any player has played, while
        # decisions follow: the card he holds from then on, and the players still play in turn (one
        # finding for the early card, none for the play after it).
        # So is his second card when no player has played and none plays after it while a hand was left a
        # decision (the round his blackjack, seen at a peek, ends before the players play).
        early = (
            not self.dealer_started
            and not self.decided
            and len(self.dealer.card_list) == 1
            and (index < self.last_decision or self.decision_left())
        )
        if not early and not self.dealer_started:
            self.dealer_started = True
            self.current_box = PAST_ALL_BOXES
        judge = self.judge
        taken = len(judge.findings)
        card = self.take(raw_card, face_down)
        facts = self.facts
        facts.players_done = not early
        found = len(judge.findings)
        self.check_in_place("dealer_draw", at="D")  # the dealer is in the context from the start
        facts.players_done = True
        self.dealer.add(card)
        if face_down:
            self.dealer.hidden += (card,)
        if early and len(judge.findings) > found:
            # What the players and side bets do after it is judged against a dealer holding a card he
            # should not hold yet: findings there that read it are its consequences (docs/findings.md),
            # the card's own face among them.
            judge.cause, judge.cause_events = judge.findings[found], CONSEQUENT_EVENTS
            judge.cause_reads, judge.cause_kept = CHANGED_BY_EARLY_CARD, KEPT_BY_EARLY_CARD
            judge.cause_whole = WHOLLY_CONSEQUENT
            judge.mark_consequences_since(taken, found, "card")

    def decision_left(self) -> bool:
        """Whether a hand is still left a decision that no player has made: on the layout (not settled by
        even money), two cards or more, under 21, neither doubled nor a split ace (whose one card ends it).
        Asked while no decision is made yet."""
        for hand in self.hands.values():
            if (
                hand.live
                and len(hand.card_list) >= 2
                and hand.total < 21
                and not hand.doubled
                and not hand.split_aces
            ):
                return True
        return False

    def peek(self) -> None:
        """The dealer looks at his cards for a blackjack (hand-log/1.1 `peek`): judged by each text's
        rules, before or after his own drawing has begun (round.players_done)."""
        facts = self.facts
        facts.players_done = self.dealer_started
        try:
            self.check_in_place("peek", at="D")
        finally:
            facts.players_done = True

    def decision(self, action: Decision, index: int, actions: list[Action]) -> None:
        verb, name = action.verb, action.hand
        self.in_initial = False
        self.decided = True
        hand = self.hands.get(name) or self.hand(name, verb)
        box: BlackjackBox = hand.box  # type: ignore[assignment]  # a blackjack hand's box (no `cast`: a call)
        number = box.number
        turn = self.turn_facts
        turn.box = number
        drawing = turn.dealer_drawing = self.current_box == PAST_ALL_BOXES
        current = turn.current = None if drawing else self.current_box
        # `_whose`, its usual case written out (the words of a box in turn, looked up once per judge).
        turn.whose = self.whose_words.get(0 if current is None else current) or _whose(
            self.whose_words, current
        )
        # Within a box, by place on the layout (hand-log/1.1): the place of the hand that made the box's
        # last decision; a split opens a hand and the play goes on from the rightmost hand waiting.
        place = turn.place = None if self.layout is None else self.place_of(name, number)
        turn.hand = name
        turn.current_place = (
            self.current_place
            if self.current_place_box == number and number not in self.place_broken
            else None
        )
        by = action.by
        # A hit or a stand (named by no `by`) has its turn's rules and its own asked in one call, once
        # its facts are set: nothing between reads the turn's facts or changes them.
        both = self.turn_then.get(verb) if by is UNSET else None
        if both is None:
            held = self.held_turn
            if held is not None and not held(self.ctx):
                self.run_rules("turn", name)
        if number > self.current_box:
            self.current_box = number
        if type(action) is not SPLIT:
            self.current_place, self.current_place_box = place, number
        amount = None
        if type(action) is DOUBLE or type(action) is SPLIT:
            amount = amount_of(action.amount, _("{} amount"), verb)
        self.note_decision(verb, hand)
        ctx = self.ctx
        ctx["hand"], ctx["box"] = hand, box
        decided = ctx["action"] = self.action_facts
        decided.verb, decided.hand, decided.amount = verb, name, amount
        decided.by_seated = None if by is UNSET else self.by_seated(by, box, verb)
        if verb == "split":
            self.count_splits(box, index)
        if both is None or not both(ctx):
            self.decision_rules(verb, name, both is not None)
        if type(action) is HIT:
            self.draw(hand, action.card, index, actions)
        elif type(action) is DOUBLE:
            assert amount is not None  # read above for a double and a split
            hand.stake += amount
            hand.doubled = True
            self.draw(hand, action.card, index, actions)
        elif type(action) is SPLIT:
            assert amount is not None
            self.split(hand, amount)
        elif type(action) is SURRENDER:
            hand.surrendered = True

    def decision_rules(self, verb: str, name: str, turn_too: bool) -> None:
        """The rules of decision `verb` on hand `name`, where its generated check did not answer "all
        held"; `turn_too`: the turn's rules first (asked with the decision's, `turn_then`), each event's
        asked alone and run where it did not hold, in the order they would have run one by one."""
        ctx = self.ctx
        if turn_too:
            held = self.held_turn
            if held is not None and not held(ctx):
                self.run_rules("turn", name)
        held = self.all_held.get(verb)
        if held is not None and not held(ctx) and not self.run_rules(verb, name) and verb == "surrender":
            self.refused_surrenders.add(name)

    def count_splits(self, box: BlackjackBox, index: int) -> None:
        """Before a split is judged: the pairs of aces, and of any rank, split so far on every box of the
        box's seated player (his own included)."""
        self.sides.mark_split(box, index)
        splits, pairs = box.ace_splits, len(box.hand_list) - 1
        if box.seated_players:
            for other in self.boxes.values():  # the round's boxes: blackjack's
                if other is not box and not other.seated_players.isdisjoint(box.seated_players):
                    splits += other.ace_splits
                    pairs += len(other.hand_list) - 1
        box.player_ace_splits, box.player_splits = splits, pairs

    @staticmethod
    def by_seated(by: list[str], box: Box[Any], verb: str) -> bool:
        """Whether those a decision names as deciding (hand-log/1.1 `by`) are all seated players of the
        box; a name with no main bet on the box cannot be replayed."""
        for name in by:
            if name not in box.bettor_stakes:
                raise MalformedRound(
                    _("{verb} on box {box} by {name}, who has no main bet on the box").format(
                        verb=verb, box=box.number, name=repr(name)
                    ),
                    INCONSISTENT,
                )
        return all(name in box.seated_players for name in by)

    def draw(self, hand: BlackjackHand, raw_card: str, index: int, actions: list[Action]) -> None:
        card = self.take(raw_card)
        was_busted = hand.busted
        hand.add(card)
        hand.box.drew = True
        self.facts.table_drew = True
        # Only the card that busts the hand asks for its collection; a card dealt to a hand already
        # busted is its own finding (complete-hand-takes-no-card), not a second bust.
        if hand.busted and not was_busted:
            following = next((a for a in actions[index + 1 :] if type(a) not in NOT_A_STEP), None)
            collected = type(following) is LOSE and following.stake == hand.name
            held = self.all_held.get("bust")
            if held is not None:  # the context's hand and box are this hand's (decision)
                bust = self.ctx["bust"] = self.bust_facts
                bust.collected_at_once = collected
                if not held(self.ctx):
                    self.run_rules("bust", hand.name)

    def split(self, hand: BlackjackHand, amount: Decimal) -> None:
        new = hand.split_off(amount)
        self.hands[new.name] = new

    def settle_action(self, action: Settling, index: int) -> None:
        stake = action.stake
        self.record_settlement(action, index)
        hand = self.hands.get(stake)
        if hand is None:
            box_no, _unused, kind = parse_stake(stake)
            if kind == "insurance" or kind.startswith("insurance:"):
                self.insurance_settled(action, box_no)
            self.sides.settled(action, index)
            return
        # A bust collected during play and an even-money payment are not part of the final settlement.
        # A surrender collected right after the round's last decision is still settled during play.
        if ((hand.busted or hand.surrendered) and not self.dealer_started) or hand.even_money:
            return
        if not self.dealer_started and index < self.last_decision:
            # Another stake settled while the players still play (a blackjack paid at the deal): judged
            # for its time, outside the order of the final settlement.
            self.check_settle_time(stake, hand.box.number)
            return
        # Whether he stopped drawing too soon is the dealer's rules' to say; here, only whether he draws
        # again after this settlement.
        dealer_done = index > self.last_dealer_card
        place = None if self.layout is None else self.place_of(stake, hand.box.number)
        self.check_settle_order(stake, hand.box.number, dealer_done, action.verb, place)
        if not hand.surrendered:
            self.final_main += 1  # a main stake settled in the final settlement (side_settle reads it)
            self.final_main_stakes += 1

    def settles_surrender(self) -> bool:
        """Whether a main settle clause of the version reads `hand.surrendered` (asked once per judge)."""
        in_place = self.facts_in_place
        if in_place.settles_surrender is None:
            in_place.settles_surrender = self.judge.ruleset.main_settlement_reads("hand.surrendered")
        return in_place.settles_surrender

    def settles_even_money(self) -> bool:
        """Whether a main settle clause of the version reads `hand.even_money` (asked once per judge): a
        text that offers even money settles it at once; under one that does not, the blackjack stays on
        the layout, to be settled as any other once the dealer's point is known."""
        in_place = self.facts_in_place
        if in_place.settles_even_money is None:
            in_place.settles_even_money = self.judge.ruleset.main_settlement_reads("hand.even_money")
        return in_place.settles_even_money

    def insurance_settled(self, action: Settling, box_no: int) -> None:
        """An insurance paid or collected: when, against the dealer's cards and the final settlement."""
        if "insurance_settle" not in self.listening:
            return
        held = self.check(
            "insurance_settle",
            at=action.stake,
            settle=SettleFacts(
                box=box_no,
                previous_box=self.previous_settled_box,
                final_begun=self.previous_settled_box != 0,
            ),
            action=ActionFacts(verb=action.verb, hand=action.stake, amount=None),
        )
        if not held and len(self.dealer.card_list) < 2:
            # Settled before the dealer's second card, which decides it: what its amount is then judged
            # against (the cards the round ends with) names this finding as its cause (docs/findings.md).
            # Settled late, the card was known: a wrong amount is a mistake of its own.
            findings = self.judge.findings
            if self.insurance_timing is None:
                self.insurance_timing = {}
            self.insurance_timing[action.stake] = next(
                f for f in reversed(findings) if f.stake == action.stake
            )

    # ---- end of the round ----
    def finish(self) -> None:
        self.check_mistakes_used()
        self.check_layout()
        # Which hands the dealer must still draw for is the rulesets' to say: they read these counts.
        live = blackjacks = 0
        for hand in self.hands.values():
            if hand.live:
                live += 1
                if hand.blackjack:
                    blackjacks += 1
        self.facts.live_hands, self.facts.live_blackjacks = live, blackjacks
        if self.dealer.card_list:
            self.check_in_place("dealer_stand", at="D")
        ctx = self.ctx
        ctx["dealer"] = self.dealer
        refused = self.refused_surrenders
        if refused and self.settles_surrender():
            refused = set()
        for name, hand in self.hands.items():
            if name in refused:
                continue
            ctx["hand"], ctx["box"] = hand, hand.box
            self.judge_hand_settlement("main", name, hand.stake)
        for name, amount in self.side_stakes.items():
            box_no, _unused, kind = parse_stake(name)
            if kind == "insurance" or kind.startswith("insurance:"):
                # The hand insured: the box's first, or (hand-log/1.2) the split hand the stake names.
                first = self.hands.get(insured_hand(box_no, kind))
                if first is not None:
                    judge = self.judge
                    found = len(judge.findings)
                    self.judge_settlement(
                        "insurance", name, amount, hand=first, box=first.box, dealer=self.dealer
                    )
                    timing = self.insurance_timing.get(name) if self.insurance_timing is not None else None
                    if timing is not None and len(judge.findings) > found:
                        saved, judge.cause = judge.cause, timing
                        judge.mark_consequence(len(judge.findings) - 1)
                        judge.cause = saved
        if self.side_stakes:  # `sides` has nothing to do in a round with no side stake
            self.sides.finish()
        self.check_every_stake_settled()
        if self.side_stakes:
            self.sides.after_round()
