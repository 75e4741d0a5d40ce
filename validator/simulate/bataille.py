"""Bataille séances: one card each and the dealer's last; on a tie the player goes to war or
surrenders; settlement from the dealer's right."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from validator.replay.state import Box, Dealer, Hand, RoundFacts, facts
from validator.simulate.side_bets import RoundSides, place, standing_alone
from validator.simulate.table import TableSim, amount_json


class BatailleSim(TableSim):
    def records(self, rounds: int) -> Iterator[dict[str, Any]]:
        yield self.table_record()
        yield self.new_shoe("open")
        for _ in range(rounds):
            assert self.shoe is not None
            if self.shoe.cut_out or self.shoe.left < 40:
                yield self.new_shoe("cut_card" if self.shoe.cut_out else "exhausted")
            yield self.remember_round(self.play_round())

    def play_round(self) -> dict[str, Any]:
        assert self.shoe is not None
        self.round_no += 1
        self.plan_round(f"{self.shoe_id}/{self.round_no}")
        at = self.tick(20, 60)
        bets = self.bets()
        side_bets = [*place(self, bets), *standing_alone(self, bets)]
        actions: list[list[Any]] = []
        boxes: dict[int, Box] = {}
        for bet in bets:
            number = int(bet["stake"])
            box = boxes.setdefault(number, Box(number))
            box.stake += Decimal(str(bet["amount"]))
        hands: list[Hand] = []
        for number in sorted(boxes):
            box = boxes[number]
            box.initial_stake = box.stake
            hand = Hand(str(number), box, box.stake, split_counts=False)
            box.hand_list.append(hand)
            hands.append(hand)
        dealer = Dealer()
        round_facts = RoundFacts(boxes=len(hands))

        def draw(target: str) -> str:
            assert self.shoe is not None
            return self.shoe.draw(actions, target)

        for hand in hands:
            card = draw(hand.name)
            actions.append(["deal", hand.name, card])
            hand.add(card)
        card = draw("D")
        actions.append(["deal", "D", card])
        dealer.add(card)
        at_war: list[Hand] = []
        self.war_stakes: dict[str, Decimal] = {}
        for hand in hands:
            hand.box.bataille_tie = hand.rank == dealer.rank
            share = self.params["war.stake_share"].factor
            ctx = {"round": round_facts, "box": hand.box, "hand": hand, "dealer": dealer}
            if self.to_break:
                # simulate --inject: a war or a surrender the rules refuse (off a tie, a war's stake).
                moves = [("war", hand.stake * share), ("war", hand.stake * share * 2), ("surrender", None)]
                candidates = [
                    (verb, hand.name, {**ctx, "action": facts(verb=verb, hand=hand.name, amount=amount)})
                    for verb, amount in moves
                ]
                picked = self.breaking(f"{self.shoe_id}/{self.round_no}", candidates)
                if picked is not None:
                    verb, amount = moves[picked]
                    if verb == "war" and amount is not None:
                        actions.append(["war", hand.name, amount_json(amount)])
                        self.war_stakes[hand.name] = amount
                        hand.went_to_war = True
                        at_war.append(hand)
                    else:
                        actions.append(["surrender", hand.name])
                        hand.surrendered = True
                    continue
            if not hand.box.bataille_tie:
                continue
            war_ctx = {**ctx, "action": facts(verb="war", hand=hand.name, amount=hand.stake * share)}
            if self.strategy is not None:
                asked = war_ctx
                wants_war = self.strategy(hand, dealer, lambda verb, c=asked: self.legal(verb, c)) == "war"
            else:
                wants_war = self.rng.random() < 0.7
            if wants_war and self.legal("war", war_ctx):
                actions.append(["war", hand.name, amount_json(hand.stake * share)])
                self.war_stakes[hand.name] = hand.stake * share
                hand.went_to_war = True
                at_war.append(hand)
            else:
                actions.append(["surrender", hand.name])
                hand.surrendered = True
        if at_war:
            for _ in range(int(self.params.get("war.burn_before", 0))):
                actions.append(["burn", draw(at_war[0].name)])
            for hand in at_war:
                hand.war_card = draw(hand.name)
                actions.append(["deal", hand.name, hand.war_card])
            for _ in range(int(self.params.get("war.burn_between", 0))):
                actions.append(["burn", draw("D")])
            dealer.war_card = draw("D")
            actions.append(["deal", "D", dealer.war_card])
        self.settle(hands, dealer, actions, round_facts)
        if side_bets:
            sides = RoundSides(self, side_bets, actions)
            sides.mark(dealer, len(hands), 0)  # after the main settlement: the one moment of bataille
            sides.settle_all(boxes, dealer, None)
            bets = sorted([*bets, *side_bets], key=lambda b: int(b["stake"].split(":")[0]))
        return {
            "type": "round",
            "round": f"{self.shoe_id}/{self.round_no}",
            "shoe": self.shoe_id,
            "at": at,
            "dealer": "D-201",
            "bets": bets,
            "actions": actions,
        }

    def settle(self, hands: list[Hand], dealer: Dealer, actions: list[list[Any]], round_facts: Any) -> None:
        """Right to left, each main stake and then its war stake, as the ruleset's settle clauses give
        them (the replay's own clauses: one implementation of the money)."""
        for hand in reversed(hands):
            ctx = {"round": round_facts, "box": hand.box, "hand": hand, "dealer": dealer}
            actions.append(self.settlement("main", hand.name, hand.stake, **ctx))
            if hand.went_to_war:
                war = f"{hand.box.number}:war"
                actions.append(self.settlement("war", war, self.war_stakes[hand.name], **ctx))
