"""High card séances: bets, one card to each box and then the dealer, settlement from the dealer's right
as the ruleset's settle clauses give it."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from highcard.hands import HANDS
from validator.dsl.facts import RoundFacts
from validator.simulate.table import TableSim


class HighCardSim(TableSim):
    FIRST_DEALER = 901

    def records(self, rounds: int) -> Iterator[dict[str, Any]]:
        yield self.table_record()
        yield self.new_shoe("open")
        for _unused in range(rounds):
            assert self.shoe is not None
            if self.reshuffles(20):
                yield self.new_shoe("cut_card" if self.shoe.cut_out else "exhausted")
            yield self.remember_round(self.play_round())

    def play_round(self) -> dict[str, Any]:
        assert self.shoe is not None
        self.round_no += 1
        self.plan_round(f"{self.shoe_id}/{self.round_no}")
        at = self.tick(20, 60)
        bets = self.bets()
        boxes = {}
        for bet in bets:
            number = int(bet["stake"])
            box = boxes.setdefault(number, HANDS.box(number))
            box.stake += Decimal(str(bet["amount"]))
        hands = []
        for number in sorted(boxes):
            box = boxes[number]
            box.initial_stake = box.stake
            hand = HANDS.hand(str(number), box, box.stake)
            box.hand_list.append(hand)
            hands.append(hand)
        dealer = HANDS.dealer()
        actions: list[list[Any]] = []
        for name, receiver in self.deal_order([*((h.name, h) for h in hands), ("D", dealer)]):
            card = self.shoe.draw(actions, name)
            actions.append(["deal", name, card])
            receiver.add(card)
        round_facts = RoundFacts(boxes=len(hands))
        for hand in reversed(hands):
            ctx = {"round": round_facts, "box": hand.box, "hand": hand, "dealer": dealer}
            actions.append(self.settlement("main", hand.name, hand.stake, **ctx))
        return {
            "type": "round",
            "round": f"{self.shoe_id}/{self.round_no}",
            "shoe": self.shoe_id,
            "at": at,
            "dealer": self.dealer_id,
            "bets": bets,
            "actions": actions,
        }
