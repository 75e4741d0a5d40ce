"""Bataille séances: one card each and the dealer's last; on a tie the player goes to war or
surrenders; settlement from the dealer's right."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from validator.dsl.facts import ActionFacts, RoundFacts
from validator.games.bataille.hands import BatailleBox as Box
from validator.games.bataille.hands import BatailleDealer as Dealer
from validator.games.bataille.hands import BatailleHand as Hand
from validator.games.bataille.vocabulary import BurnFacts
from validator.simulate.bets_against import break_bets
from validator.simulate.interludes import played
from validator.simulate.late_against import collect_late
from validator.simulate.side_bets import RoundSides, place, standing_alone
from validator.simulate.table import TableSim, amount_json


class BatailleSim(TableSim):
    FIRST_DEALER = 201  # bataille's dealers: D-201 onwards

    def records(self, rounds: int) -> Iterator[dict[str, Any]]:
        yield self.table_record()
        yield self.new_shoe("open")
        yield from played(self, rounds, self.play_round, least_left=40)

    def play_round(self) -> dict[str, Any]:
        """One round: the bets, one card to each box and the dealer's last, each tie's war or surrender,
        the war's cards, the settlement from the dealer's right, the side stakes; the round's record."""
        assert self.shoe is not None
        self.round_no += 1
        self.plan_round(f"{self.shoe_id}/{self.round_no}")
        at = self.tick(20, 60)
        bets = self.bets()
        side_bets = [*place(self, bets), *standing_alone(self, bets)]
        bets, side_bets = break_bets(self, bets, side_bets)
        actions: list[list[Any]] = []
        boxes = self.seat(bets)
        hands = [boxes[number].hand_list[0] for number in sorted(boxes)]
        dealer = Dealer()
        round_facts = RoundFacts(boxes=len(hands))
        for name, receiver in self.deal_order([*((h.name, h) for h in hands), ("D", dealer)]):
            card = self.draw(actions, name)
            actions.append(["deal", name, card])
            receiver.add(card)
        self.war_stakes: dict[str, Decimal] = {}
        at_war = [
            b.hand_list[0]
            for _n, b in sorted(boxes.items())
            if self.goes_to_war(b, dealer, round_facts, actions)
        ]
        if at_war:
            self.play_war(at_war, dealer, actions)
        self.settle(hands, dealer, actions, round_facts)
        if side_bets or self.to_break:
            sides = RoundSides(self, side_bets, actions, {n: b.seated_players for n, b in boxes.items()})
            sides.mark(dealer, len(hands), 0)  # after the main settlement: the one moment of bataille
            collect_late(self, sides, bets)
            sides.settle_all(boxes, dealer, None)
            bets = sorted([*bets, *side_bets], key=lambda b: int(b["stake"].split(":")[0]))
        return {
            "type": "round",
            "round": f"{self.shoe_id}/{self.round_no}",
            "shoe": self.shoe_id,
            "at": at,
            "dealer": self.dealer_id,
            "bets": bets,
            "actions": actions,
        }

    def seat(self, bets: list[dict[str, Any]]) -> dict[int, Box]:
        """The boxes the main bets are placed on, by number: their stake, who sits, and each one's hand."""
        boxes: dict[int, Box] = {}
        for bet in bets:
            number = int(bet["stake"])
            box = boxes.setdefault(number, Box(number))
            box.stake += Decimal(str(bet["amount"]))
            if bet["seated"]:  # whose decision a tie's is (simulate.players: a player's own level)
                box.seated_players.add(str(bet.get("player") or f"box {number}"))
        for number in sorted(boxes):
            box = boxes[number]
            box.initial_stake = box.stake
            box.hand_list.append(Hand(str(number), box, box.stake))
        return boxes

    def draw(self, actions: list[list[Any]], target: str) -> str:
        """The next card of the shoe, for `target` (a box's hand or "D")."""
        assert self.shoe is not None
        return self.shoe.draw(actions, target)

    def goes_to_war(
        self, box: Box, dealer: Dealer, round_facts: RoundFacts, actions: list[list[Any]]
    ) -> bool:
        """The box's hand's decision on a tie with the dealer's card: to war (True) or a surrender; with
        simulate --inject, a war or a surrender the rules refuse where one can be planted."""
        hand = box.hand_list[0]
        box.bataille_tie = hand.rank == dealer.rank
        share = self.ruleset.param("war.stake_share").factor
        ctx = {"round": round_facts, "box": box, "hand": hand, "dealer": dealer}
        if self.to_break:
            planted = self.break_tie(hand, ctx, share, actions)
            if planted is not None:
                return planted
        if not box.bataille_tie:
            return False
        war_ctx = {**ctx, "action": ActionFacts(verb="war", hand=hand.name, amount=hand.stake * share)}
        if self.strategy is not None:
            asked = war_ctx
            wants_war = self.strategy(hand, dealer, lambda verb, c=asked: self.legal(verb, c)) == "war"
        else:
            wants_war = self.rng.random() < 0.7
        if wants_war and self.legal("war", war_ctx):
            self.war(hand, hand.stake * share, actions)
            return True
        self.surrender(hand, actions)
        return False

    def break_tie(
        self, hand: Hand, ctx: dict[str, Any], share: Decimal, actions: list[list[Any]]
    ) -> bool | None:
        """simulate --inject: a war or a surrender the rules refuse (off a tie, a war's stake), if exactly
        one of this round's rules to break refuses it: went to war (True), surrendered (False), or
        nothing planted (None)."""
        moves = [("war", hand.stake * share), ("war", hand.stake * share * 2), ("surrender", None)]
        candidates = [
            (verb, hand.name, {**ctx, "action": ActionFacts(verb=verb, hand=hand.name, amount=amount)})
            for verb, amount in moves
        ]
        picked = self.breaking(self.round_id, candidates)
        if picked is None:
            return None
        verb, amount = moves[picked]
        if verb == "war" and amount is not None:
            self.war(hand, amount, actions)
            return True
        self.surrender(hand, actions)
        return False

    def war(self, hand: Hand, amount: Decimal, actions: list[list[Any]]) -> None:
        actions.append(["war", hand.name, amount_json(amount)])
        self.war_stakes[hand.name] = amount
        hand.went_to_war = True

    def surrender(self, hand: Hand, actions: list[list[Any]]) -> None:
        actions.append(["surrender", hand.name])
        hand.surrendered = True

    def play_war(self, at_war: list[Hand], dealer: Dealer, actions: list[list[Any]]) -> None:
        """The war: the cards burned, a card to each hand at war, the burns between, the dealer's card."""
        before, between = self.war_burns(at_war[0].name)
        for _unused in range(before):
            actions.append(["burn", self.draw(actions, at_war[0].name)])
        for hand in at_war:
            hand.war_card = self.draw(actions, hand.name)
            actions.append(["deal", hand.name, hand.war_card])
        for _unused in range(between):
            actions.append(["burn", self.draw(actions, "D")])
        dealer.war_card = self.draw(actions, "D")
        actions.append(["deal", "D", dealer.war_card])

    def war_burns(self, first: str) -> tuple[int, int]:
        """The cards burned before the first war card and before the dealer's: the text's, or, where
        this round plants it (simulate --inject), one more or one less at one of the two that exactly
        one of the rules to break refuses."""
        expected = (self.ruleset.param("war.burn_before"), self.ruleset.param("war.burn_between"))
        burns = [int(expected[0] or 0), int(expected[1] or 0)]
        if not self.to_break:
            return burns[0], burns[1]
        targets = (first, "D")
        moves = [(at, burns[at] + step) for at in (0, 1) for step in (1, -1) if burns[at] + step >= 0]
        candidates = [
            ("war_burn", targets[at], {"burn": BurnFacts(count=count, expected=_count(expected[at]))})
            for at, count in moves
        ]
        whats = [f"{count} cards burned before {targets[at]}'s war card" for at, count in moves]
        picked = self.breaking(self.round_id, candidates, whats)
        if picked is not None:
            at, count = moves[picked]
            burns[at] = count
        return burns[0], burns[1]

    def settle(self, hands: list[Hand], dealer: Dealer, actions: list[list[Any]], round_facts: Any) -> None:
        """Right to left, each main stake and then its war stake, as the ruleset's settle clauses give
        them (the replay's own clauses: one implementation of the money)."""
        for hand in reversed(hands):
            ctx = {"round": round_facts, "box": hand.box, "hand": hand, "dealer": dealer}
            actions.append(self.settlement("main", hand.name, hand.stake, **ctx))
            if hand.went_to_war:
                war = f"{hand.box.number}:war"
                actions.append(self.settlement("war", war, self.war_stakes[hand.name], **ctx))


def _count(value: Any) -> int | None:
    """A count the rules set (the DSL writes numbers as decimals), as `burn.expected` declares it."""
    return None if value is None else int(value)
