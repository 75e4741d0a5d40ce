"""Replaying a round of bataille (casino war): one card each, the dealer's last; a tie goes to war
or is surrendered; settlement from the dealer's right."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar, cast

from validator.dsl.facts import ActionFacts
from validator.games.bataille.hands import HANDS, BatailleBox, BatailleDealer, BatailleHand, BatailleHands
from validator.games.bataille.vocabulary import BurnFacts
from validator.i18n import _
from validator.logs.decode import (
    Action,
    Burn,
    CutCard,
    Deal,
    Discard,
    Lose,
    Mistake,
    Pay,
    Push,
    Reshuffle,
    Surrender,
    War,
)
from validator.logs.rules.replayable import WRONG_GAME
from validator.replay.round_base import MalformedRound, RoundReplay, amount_of, parse_stake, show_action

# Told apart by class, never by `isinstance` (slow for a msgspec struct that does not match).
SETTLEMENTS = frozenset((Pay, Lose, Push))


class BatailleRound(RoundReplay[BatailleBox, BatailleHand, BatailleDealer]):
    # A war's stake is the main stake raised: `edge`'s figure of the main stake includes it.
    main_game: ClassVar[frozenset[str]] = frozenset(("main", "war"))

    def game_hands(self) -> BatailleHands:
        return HANDS

    def replay(self) -> None:
        if not self.open_round():
            return
        # Receivers still owed their card of the initial deal, in the order the text deals them.
        self.owe([*self.hands, "D"])
        self.initial_done = False
        self.burns = 0
        self.war_cards_dealt = False
        # Whether the box settled last went to war (settle.previous_went_to_war).
        self.previous_war = False
        # The dealer's last card (his war card when a box goes to war): a settlement after it comes once
        # every point is known (settle.dealer_done).
        self.last_dealer_card = -1
        for index in range(len(self.record.actions) - 1, -1, -1):
            action = self.record.actions[index]
            if type(action) is Deal and action.hand == "D":
                self.last_dealer_card = index
                break
        for index, action in enumerate(self.record.actions):
            self.step(action, index)
            if self.story is not None:
                self.narrate(show_action(action))
        self.finish()
        if self.story is not None:  # the words are looked up only when `explain` tells the round
            self.narrate(_("end of the round"))

    def step(self, action: Action, index: int) -> None:
        if type(action) is Deal:
            self.deal(action.hand, action.card)
        elif type(action) in SETTLEMENTS:
            self.settle_action(cast(Pay | Lose | Push, action), index)
        elif type(action) is Burn:
            self.take(action.card)
            self.burns += 1
        elif type(action) is Discard:
            self.take(action.card)
        elif type(action) is Mistake:  # hand-log/1.1
            self.mistake(action)
        elif type(action) is Reshuffle:
            self.reshuffle(action)
        elif type(action) is War or type(action) is Surrender:
            verb = action.verb
            # A war names its box, a surrender its hand: the box's first hand either way.
            amount = None
            named: str = ""
            if type(action) is War:
                named = action.box
                amount = amount_of(action.amount, _("war amount"))
            elif type(action) is Surrender:
                named = action.hand
            hand = self.hand(str(parse_stake(named)[0]), verb)
            self.note_decision(verb, hand)
            self.check(
                verb,
                at=hand.name,
                hand=hand,
                box=hand.box,
                action=ActionFacts(verb=verb, hand=hand.name, amount=amount),
            )
            if amount is not None:  # a war
                hand.went_to_war = True
                name = f"{hand.box.number}:war"
                self.side_stakes[name] = self.side_stakes.get(name, Decimal(0)) + amount
            else:
                hand.surrendered = True
        elif type(action) is CutCard:
            self.saw_cut_card(action)
        elif self.money_action(action):  # hand-log/1.2: charge, unsettled, a late bet
            pass
        else:
            raise MalformedRound(
                _("{verb} is not an action of bataille").format(verb=repr(action.verb)), WRONG_GAME
            )

    def deal(self, target: str, raw_card: str) -> None:
        if not self.initial_done:
            self.deal_owed(target, raw_card)
            self.initial_done = not self.owed
            if self.initial_done:
                for hand in self.hands.values():
                    tie = hand.rank is not None and hand.rank == self.dealer.rank
                    cast(BatailleBox, hand.box).bataille_tie = tie
            return
        # The war: burns, one card to each player at war, a burn, the dealer's card.
        if target == "D":
            self.check(
                "war_burn",
                at="D",
                burn=BurnFacts(
                    count=self.burns, expected=_count(self.judge.ruleset.param("war.burn_between"))
                ),
            )
            self.dealer.war_card = self.take(raw_card)
            return
        hand = self.hand(target, "deal")
        params = self.judge.ruleset
        if not self.war_cards_dealt:
            self.war_cards_dealt = True
            self.check(
                "war_burn",
                at=target,
                burn=BurnFacts(count=self.burns, expected=_count(params.param("war.burn_before"))),
            )
        elif params.param("war.burn_among_players") is not None:
            # The next player's war card: the burns since the previous player's are judged too.
            among = _count(params.param("war.burn_among_players"))
            self.check("war_burn", at=target, burn=BurnFacts(count=self.burns, expected=among))
        expected = target if hand.went_to_war and hand.war_card is None else _("a hand at war")
        card = self.take(raw_card)
        self.check_deal(target, expected)
        hand.war_card = card
        self.burns = 0

    def settle_action(self, action: Pay | Lose | Push, index: int) -> None:
        stake = action.stake
        self.record_settlement(action, index)
        box_no, _unused, kind = parse_stake(stake)
        hand = self.hands.get(str(box_no))
        if kind != "main":
            self.sides.settled(action, index)
            return
        if hand is None or hand.surrendered:
            return
        settle = self.settle_facts
        settle.went_to_war = hand.went_to_war
        settle.previous_went_to_war = self.previous_war and not self.order_broken
        # Whether the dealer draws again after this settlement is for the order of the wars and the
        # settlement to say (the reading bataille-wars); before his first card, no point is known.
        dealer_done = bool(self.dealer.card_list) and index > self.last_dealer_card
        if self.check_settle_order(stake, box_no, dealer_done, action.verb):
            self.previous_war = hand.went_to_war

    def finish(self) -> None:
        self.check_mistakes_used()
        for name, hand in self.hands.items():
            self.judge_settlement("main", name, hand.stake, hand=hand, box=hand.box, dealer=self.dealer)
        for name, amount in self.side_stakes.items():
            box_no, _unused, kind = parse_stake(name)
            at_war = self.hands.get(str(box_no))
            if kind == "war" and at_war is not None:
                self.judge_settlement("war", name, amount, hand=at_war, box=at_war.box, dealer=self.dealer)
        if self.side_stakes:  # `sides` has nothing to do in a round with no side stake
            self.sides.finish()
        self.check_every_stake_settled()


def _count(value: Any) -> int | None:
    """A count the rules set (the DSL writes numbers as decimals) as `burn.expected` declares it."""
    return None if value is None else int(value)
