"""Replaying a round of high card: one card to each box from the dealer's left, the dealer's last; each
main stake settled once, in the order the ruleset gives, as its settle clauses give it."""

from __future__ import annotations

from typing import cast

from highcard.hands import HANDS, HighCardDealer, HighCardHand, HighCardHands
from validator.logs.decode import UNSET, Action, Burn, CutCard, Deal, Discard, Lose, Pay, Push
from validator.logs.rules.replayable import WRONG_GAME
from validator.replay.round_base import MalformedRound, RoundReplay, parse_stake
from validator.replay.state import Box


class HighCardRound(RoundReplay[Box[HighCardHand], HighCardHand, HighCardDealer]):
    def game_hands(self) -> HighCardHands:
        return HANDS

    def replay(self) -> None:
        self.read_bets()
        if self.record.void is not UNSET:
            self.replay_void()
            return
        self.dealer = self.kit.dealer()
        self.ctx["dealer"] = self.dealer
        self.owe([*self.hands, "D"])
        for index, action in enumerate(self.record.actions):
            self.step(action, index)
        self.finish()

    def step(self, action: Action, index: int) -> None:
        if type(action) is Deal:
            if not self.owed:
                raise MalformedRound(f"{action.hand} dealt a second card: high card deals one", WRONG_GAME)
            self.deal_owed(action.hand, action.card)
        elif type(action) is Pay or type(action) is Lose or type(action) is Push:
            settled = cast(Pay | Lose | Push, action)
            self.record_settlement(settled, index)
            box, _split, kind = parse_stake(settled.stake)
            if kind == "main":
                self.check_settle_order(settled.stake, box, verb=settled.verb)
        elif type(action) is Burn or type(action) is Discard:
            self.take(action.card)
        elif type(action) is CutCard:
            self.saw_cut_card(action)
        else:
            raise MalformedRound(f"{action.verb!r} is not an action of high card", WRONG_GAME)

    def finish(self) -> None:
        for name, hand in self.hands.items():
            self.judge_settlement("main", name, hand.stake, hand=hand, box=hand.box, dealer=self.dealer)
        self.check_every_stake_settled()
