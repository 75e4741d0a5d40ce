"""Blackjack séances: bets, the deal as the text orders it, players' legal decisions, the dealer's
drawing by the ruleset's parameters, settlement from the dealer's right."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from validator.dsl.facts import ActionFacts, BustFacts, RoundFacts, SettleFacts, TurnFacts
from validator.games.blackjack.hands import BlackjackBox as Box
from validator.games.blackjack.hands import BlackjackDealer as Dealer
from validator.games.blackjack.hands import BlackjackHand as Hand
from validator.games.blackjack.late_insurance import hold_back
from validator.replay.side_bets import side_of
from validator.simulate.bets_against import break_bets
from validator.simulate.interludes import played
from validator.simulate.late_against import collect_late
from validator.simulate.side_bets import JackpotSim, RoundSides, place, progressive
from validator.simulate.table import TableSim, amount_json

# The players' decisions as the log writes them: each tells whose turn it was.
DECISIONS = frozenset(("hit", "stand", "double", "split", "surrender"))


class BlackjackSim(TableSim):
    def records(self, rounds: int) -> Iterator[dict[str, Any]]:
        yield self.table_record()
        yield self.new_shoe("open")
        self.jackpot = JackpotSim(self) if progressive(self) else None
        yield from played(self, rounds, self.play_round, least_left=60, jackpot=self.jackpot)

    # ---- one round ----
    def play_round(self) -> dict[str, Any]:
        """One round, in the steps the text orders: the bets, the deal, the insurances, each box's
        decisions from the dealer's left, the dealer's hand, the settlement; the round's record."""
        assert self.shoe is not None
        self.round_no += 1
        self.plan_round(f"{self.shoe_id}/{self.round_no}")
        at = self.tick()
        bets = self.bets()
        side_bets = place(self, bets)
        bets, side_bets = break_bets(self, bets, side_bets)
        self.begin_round()
        boxes = self.seat(bets)
        order = [boxes[n] for n in sorted(boxes)]
        self.round_facts = self.facts_of(bets, side_bets, order)
        hole = self.deal_round(order, early=bool(self.to_break) and not side_bets)
        sides = RoundSides(self, side_bets, self.actions, {n: b.seated_players for n, b in boxes.items()})
        sides.mark(self.dealer, 0, sum(len(b.hand_list) for b in order))
        sides.mark_wins(boxes, self.dealer)
        self.insure(order)
        self.play_boxes(order)
        if hole and self.dealer.hidden:
            # The dealer turns his hole card over before he completes his hand (hand-log/1.1 reveal).
            self.actions.append(["reveal", "D", self.dealer.hidden[0]])
            self.dealer.hidden = ()
        late = self.dealer_plays(order, boxes) if self.dealer_has_to_play(order, boxes, sides) else {}
        self.settle_round(order, boxes, sides, bets, late)
        return self.round_record(at, bets, side_bets, order, hole)

    def begin_round(self) -> None:
        """What the round keeps while it is played: its actions, the dealer, the insurances taken."""
        self.actions: list[list[Any]] = []
        self.collected: set[str] = set()
        self.left_busted: tuple[str, int] | None = None  # a bust planted: the hand, its next action's index
        self.final_settled = 0  # main stakes and insurances settled in the final settlement
        self.final_main_stakes = 0  # of them, the main stakes alone
        self.dealer = Dealer()
        self.insurance: dict[int, Decimal] = {}

    def seat(self, bets: list[dict[str, Any]]) -> dict[int, Box]:
        """The boxes the main bets are placed on, by number: their stake, who sits, each bettor's stake,
        and the hand each starts with."""
        boxes: dict[int, Box] = {}
        for bet in bets:
            number = int(bet["stake"])
            box = boxes.setdefault(number, Box(number))
            box.stake += Decimal(str(bet["amount"]))
            box.seated = box.seated or bet["seated"]
            bettor = str(bet.get("player") or f"box {number}")
            if bet["seated"]:
                box.seated_players.add(bettor)
            box.bettor_stakes[bettor] = box.bettor_stakes.get(bettor, Decimal(0)) + Decimal(
                str(bet["amount"])
            )
        split_counts = bool(self.ruleset.param("blackjack.split_hand_counts"))
        for box in boxes.values():
            box.initial_stake = box.stake
            box.hand_list.append(Hand(str(box.number), box, box.stake, split_counts=split_counts))
        return boxes

    def facts_of(
        self, bets: list[dict[str, Any]], side_bets: list[dict[str, Any]], order: list[Box]
    ) -> RoundFacts:
        """The round's facts as the replay gives them at its start."""
        staked = (side_of(b["stake"].split(":", 1)[1], self.judge.stake_sides)[0] for b in side_bets)
        return RoundFacts(
            players=len({b["player"] for b in bets if b["seated"]}),
            boxes=len(order),
            free_seats=self.seats + self.seats_off_layout - len(order),
            side_bets=tuple(dict.fromkeys(name for name in staked if name is not None)),
        )

    def deal_round(self, order: list[Box], early: bool) -> bool:
        """The initial deal: a first card to each box and the dealer, the boxes' second cards, and the
        dealer's hole card where the version deals one (returned: does it?). `early`: violations may be
        planted before the deal's end (simulate --inject, where no side stake waits for it)."""
        first_cards = [*((b.hand_list[0].name, b.hand_list[0]) for b in order), ("D", None)]
        for _name, hand in self.deal_order(first_cards):
            if hand is None:
                self.deal_dealer()
            else:
                self.deal(hand)
        if early:
            # An insurance before the second cards (the play would have begun before a side stake waiting
            # for the deal's end is settled).
            self.break_insurance(order, self.insurance)
        for box in order:
            self.deal(box.hand_list[0])
        self.round_facts.second_cards_dealt = True
        hole = bool(self.ruleset.param("dealer.hole_card"))
        if hole:
            self.deal_dealer(face_down=True)  # the hole card, turned over when the players are done
        elif early:
            self.break_dealer_early(order)  # the dealer's second card at the initial deal
        return hole

    def insure(self, order: list[Box]) -> None:
        """The insurances and even money, offered where the dealer shows an ace (random play)."""
        if self.to_break:
            self.break_insurance(order, self.insurance)
        if self.dealer.up_ace and self.strategy is None:
            self.offer_insurance(order, self.insurance)

    def play_boxes(self, order: list[Box]) -> None:
        """Each box's hands in turn, from the dealer's left; a split hand gets its second card when its
        turn comes."""
        for box in order:
            index = 0
            while index < len(box.hand_list):
                hand = box.hand_list[index]
                if len(hand.card_list) == 1:
                    self.deal_split_card(hand)
                self.play_hand(hand)
                if self.to_break:
                    self.break_complete(hand)
                index += 1
        if self.to_break:
            self.break_turn(order)

    def dealer_has_to_play(self, order: list[Box], boxes: dict[int, Box], sides: RoundSides) -> bool:
        """Does anything wait for the dealer's hand: a hand still live, an insurance, a side stake?"""
        live = [h for b in order for h in b.hand_list if not (h.busted or h.surrendered or h.even_money)]
        return bool(live or self.insurance or sides.waits_for_dealer(boxes, self.dealer))

    def dealer_plays(self, order: list[Box], boxes: dict[int, Box]) -> dict[int, Decimal]:
        """The dealer draws by the rules; the insurances are settled at his second card where the version
        settles them there. Returns an insurance kept back past it (simulate --inject)."""
        insurance = self.insurance
        at_second_card = bool(self.ruleset.param("insurance.settled_at_second_card"))
        late: dict[int, Decimal] = {}  # an insurance kept back past the dealer's second card
        while True:
            must = self.dealer_must_draw()
            if self.to_break and self.break_dealer(must, order):
                must = not must  # a card drawn where the rules stand, or none where they draw
            if not must:
                return late
            self.deal_dealer()
            if self.to_break and self.dealer.cards == 2:
                # An insurance taken once the dealer's second card, which decides it, is out.
                self.break_insurance(order, insurance)
            if late:
                self.settle_insurance(late, boxes)
            if insurance and at_second_card and self.dealer.cards == 2:
                late = hold_back(self, insurance, order)
                self.settle_insurance(insurance, boxes)

    def settle_round(
        self,
        order: list[Box],
        boxes: dict[int, Box],
        sides: RoundSides,
        bets: list[dict[str, Any]],
        late: dict[int, Decimal],
    ) -> None:
        """The final settlement of the main stakes and insurances, then of the side stakes (and the
        progressive jackpot's meters)."""
        dealer = self.dealer
        sides.mark(
            dealer,
            self.final_settled,
            self.unsettled(order, {**self.insurance, **late}),
            (self.final_main_stakes, self.unsettled(order, {})),
        )
        self.settle(order, self.insurance, boxes, late)
        sides.mark(dealer, self.final_settled, 0, (self.final_main_stakes, 0))
        self.unplant_a_bust_collected_next()
        jackpot = getattr(self, "jackpot", None)
        meters = jackpot.meters if jackpot is not None else None
        collect_late(self, sides, bets)
        won = sides.settle_all(boxes, dealer, meters)
        if jackpot is not None:
            jackpot.after_round((sides.stakes[s] for s in sides.of(progressive(self))), *won)

    def round_record(
        self,
        at: str,
        bets: list[dict[str, Any]],
        side_bets: list[dict[str, Any]],
        order: list[Box],
        hole: bool,
    ) -> dict[str, Any]:
        """The round's record: its bets (main and side, by box) and actions, and where split hands lie."""
        if side_bets:
            bets = sorted([*bets, *side_bets], key=lambda b: int(b["stake"].split(":")[0]))
        record: dict[str, Any] = {
            "type": "round",
            "round": f"{self.shoe_id}/{self.round_no}",
            "shoe": self.shoe_id,
            "at": at,
            "dealer": self.dealer_id,
            "bets": bets,
            "actions": self.actions,
        }
        if hole:
            # hand-log/1.1 (the séance of a game with a hole card): where split hands lie. Each new hand
            # is put at the left of the box's others, where it is played and dealt to last.
            layout = {str(b.number): [h.name for h in b.hand_list] for b in order if len(b.hand_list) > 1}
            if layout:
                record["layout"] = layout
        return record

    @staticmethod
    def insurer_stake(hand: Hand) -> Decimal | None:
        """Whose stake an insurance on the hand's box is half of, as the replay reads hand-log/1: the
        box's when one player bets on it, else not known (replay.blackjack)."""
        box = hand.box
        return box.initial_stake if len(box.bettor_stakes) <= 1 else None

    def deal(self, hand: Hand) -> None:
        assert self.shoe is not None
        card = self.shoe.draw(self.actions, hand.name)
        self.actions.append(["deal", hand.name, card])
        hand.add(card)

    def deal_dealer(self, face_down: bool = False) -> None:
        """A card to the dealer; `face_down`: his hole card (hand-log/1.1 deal_down)."""
        assert self.shoe is not None
        card = self.shoe.draw(self.actions, "D")
        self.actions.append(["deal_down" if face_down else "deal", "D", card])
        self.dealer.add(card)
        if face_down:
            self.dealer.hidden = (card,)

    def ctx(
        self, hand: Hand, verb: str, amount: Decimal | None = None, by_seated: bool | None = None
    ) -> dict[str, Any]:
        action = ActionFacts(
            verb=verb,
            hand=hand.name,
            amount=amount,
            insurer_stake=self.insurer_stake(hand),
            by_seated=by_seated,
        )
        return {
            "round": self.round_facts,
            "box": hand.box,
            "hand": hand,
            "dealer": self.dealer,
            "action": action,
        }

    def offer_insurance(self, order: list[Box], insurance: dict[int, Decimal]) -> None:
        share = self.ruleset.param("insurance.share")
        for box in order:
            hand = box.hand_list[0]
            if box.number in insurance or hand.even_money:
                continue  # a violation planted on this box already (break_insurance)
            if (
                hand.blackjack
                and self.ruleset.param("even_money.offered")
                and self.rng.random() < 0.5
                and self.legal("even_money", self.ctx(hand, "even_money"))
            ):
                self.take_even_money(hand)
                continue
            if self.ruleset.param("insurance.offered") and share is not None and self.rng.random() < 0.25:
                amount = hand.stake * share.factor
                if self.legal("insurance", self.ctx(hand, "insurance", amount)):
                    self.actions.append(["insurance", str(box.number), amount_json(amount)])
                    insurance[box.number] = amount

    def play_hand(self, hand: Hand) -> None:
        if self.strategy is not None:
            self.play_by_strategy(hand)
            return
        while not (hand.busted or hand.blackjack or hand.doubled or hand.surrendered or hand.even_money):
            if self.to_break:
                broken = self.break_decision(hand)
                if broken in ("surrender", "double"):
                    return
                if broken is not None:
                    continue
            if hand.split_aces and len(hand.card_list) >= 2 and self.ruleset.param("split.aces_one_card"):
                return
            total = hand.total
            if (
                hand.cards == 2
                and total in (15, 16)
                and self.rng.random() < 0.4
                and self.legal("surrender", self.ctx(hand, "surrender"))
            ):
                self.surrender(hand)
                return
            if (
                hand.pair
                and self.rng.random() < 0.6
                and self.legal("split", self.ctx(hand, "split", hand.initial_stake))
            ):
                self.split(hand)
                continue
            if (
                hand.cards == 2
                and total in (9, 10, 11)
                and self.rng.random() < 0.7
                and self.legal("double", self.ctx(hand, "double", hand.stake))
            ):
                self.double(hand)
                return
            wants = total < 17 or (hand.soft and total < 18 and self.rng.random() < 0.5)
            if total < 21 and wants and self.legal("hit", self.ctx(hand, "hit")):
                self.hit(hand)
                continue
            self.stand(hand)
            return

    # ---- violations planted by a decision (simulate --inject) ----
    def break_decision(self, hand: Hand) -> str | None:
        """Take a decision on `hand` that exactly one of this round's rules to break refuses, if there is
        one: a surrender, a split, a double or a card. Returns the decision taken."""
        half = hand.stake / 2
        moves: list[tuple[str, Decimal | None]] = [("surrender", None)]
        if len(hand.card_list) == 2:
            moves += [("split", hand.initial_stake), ("split", hand.initial_stake / 2)]
        moves += [("double", hand.stake), ("double", half), ("hit", None)]
        candidates = [(verb, hand.name, self.ctx(hand, verb, amount)) for verb, amount in moves]
        # A card a standing bettor behind the seated player asked for (hand-log/1.1 `by`).
        standing = [name for name in hand.box.bettor_stakes if name not in hand.box.seated_players]
        if standing and hand.total < 21:
            moves.append(("hit by", None))
            candidates.append(("hit", hand.name, self.ctx(hand, "hit", by_seated=False)))
        box = hand.box.number
        first = hand.box.hand_list[0]  # an insurance is the box's: its first hand's
        insured = self.insured_amount(first)
        if box not in self.insurance and len(hand.card_list) > 2:
            # An insurance taken once the play has begun.
            candidates.append(("insurance", f"{box}:insurance", self.ctx(first, "insurance", insured)))
        broken = self.breaking(self.round_id, candidates)
        if broken is None:
            return None
        if broken < len(moves) and moves[broken][0] == "hit by":
            self.hit(hand, by=standing[:1])
            return "hit"
        if broken == len(moves):
            self.actions.append(["insurance", str(box), amount_json(insured)])
            self.insurance[box] = insured
            return "insurance"
        verb, amount = moves[broken]
        if verb == "surrender":
            self.surrender(hand)
        elif verb == "split":
            self.split(hand, amount)
        elif verb == "double":
            self.double(hand, amount)
        else:
            self.hit(hand)
        return verb

    def break_complete(self, hand: Hand) -> None:
        """A hand whose play is over (a black jack, a double, a bust, 21 after a split ace's card): a card
        or a double that exactly one of this round's rules to break refuses, if there is one."""
        if hand.surrendered or hand.even_money:
            return
        moves: list[tuple[str, Decimal | None]] = [("hit", None), ("double", hand.stake)]
        if hand.blackjack:
            moves.append(("even_money", None))  # even money once the insurances are closed
        candidates = [(verb, hand.name, self.ctx(hand, verb, amount)) for verb, amount in moves]
        broken = self.breaking(self.round_id, candidates)
        if broken is None:
            return
        verb, amount = moves[broken]
        if verb == "hit":
            self.hit(hand)
        elif verb == "double":
            self.double(hand, amount)
        else:
            self.take_even_money(hand)

    def insured_amount(self, hand: Hand) -> Decimal:
        """The insurance a planted violation takes on `hand`: the share of its stake the version sets,
        else half of it."""
        share = self.ruleset.param("insurance.share")
        return hand.stake * share.factor if share is not None else hand.stake / 2

    def break_insurance(self, order: list[Box], insurance: dict[int, Decimal]) -> None:
        """Before the insurances are offered (or before the second cards): an insurance or even money that
        exactly one of this round's rules to break refuses, if there is one (an insurance against no ace,
        of the whole stake, before the second cards, …)."""
        for box in order:
            hand = box.hand_list[0]
            if box.number in insurance or hand.even_money:
                continue
            half = self.insured_amount(hand)
            amounts = [hand.stake, half, hand.stake]
            candidates = [
                ("even_money", hand.name, self.ctx(hand, "even_money")),
                ("insurance", f"{box.number}:insurance", self.ctx(hand, "insurance", half)),
                ("insurance", f"{box.number}:insurance", self.ctx(hand, "insurance", hand.stake)),
            ]
            broken = self.breaking(self.round_id, candidates)
            if broken is None:
                continue
            if broken == 0:
                self.take_even_money(hand)
            else:
                self.actions.append(["insurance", str(box.number), amount_json(amounts[broken])])
                insurance[box.number] = amounts[broken]
            return

    def break_turn(self, order: list[Box]) -> None:
        """Once every box has played: a stand logged on a hand of a box before the last one that took a
        decision (a box acting out of its turn), if exactly one of this round's rules to break refuses
        it and the stand itself is one the rules allow."""
        boxes = [int(a[1].split("/")[0]) for a in self.actions if a[0] in DECISIONS]
        current = max(boxes, default=order[0].number)
        candidates: list[tuple[str, str | None, dict[str, Any]]] = []
        hands: list[Hand] = []
        for box in order:
            for hand in box.hand_list:
                if box.number >= current or not hand.live or hand.blackjack:
                    continue
                ctx = self.ctx(hand, "stand")
                if not self.legal("stand", ctx):
                    continue
                whose = f"box {current}'s"
                ctx["turn"] = TurnFacts(box=box.number, current=current, dealer_drawing=False, whose=whose)
                candidates.append(("turn", hand.name, ctx))
                hands.append(hand)
        whats = [f"{hand.name} stands in box {current}'s turn" for hand in hands]
        picked = self.breaking(self.round_id, candidates, whats, first_only=True)
        if picked is not None:
            self.actions.append(["stand", hands[picked].name])

    def break_dealer(self, must: bool, order: list[Box]) -> bool:
        """The dealer's drawing against the rules: where they have him draw, he stands (with two cards
        at least, so that what waits for his second card is settled as it would be); where they have
        him stand (short of a black jack), he draws one more card; if exactly one of this round's rules
        to break refuses it.
        Then the dealer draws on by the rules."""
        if must:
            if self.dealer.cards < 2:
                return False
            hands = [h for b in order for h in b.hand_list if h.live]
            standing = copy.copy(self.round_facts)
            standing.live_hands = len(hands)
            standing.live_blackjacks = sum(1 for h in hands if h.blackjack)
            candidates = [("dealer_stand", "D", {"round": standing, "dealer": self.dealer})]
        elif self.dealer.blackjack:
            return False  # what was settled on his black jack (an insurance at his second card) stays so
        else:
            candidates = [("dealer_draw", "D", {"round": self.round_facts, "dealer": self.dealer})]
        return self.breaking(self.round_id, candidates, first_only=True) is not None

    def play_by_strategy(self, hand: Hand) -> None:
        """Each decision asked of `self.strategy(hand, dealer, legal)`, among those the rules allow."""
        assert self.strategy is not None
        amounts = {"split": hand.initial_stake, "double": None}

        def legal(verb: str) -> bool:
            amount = hand.stake if verb == "double" else amounts.get(verb)
            return self.legal(verb, self.ctx(hand, verb, amount))

        while not (hand.busted or hand.blackjack or hand.doubled or hand.surrendered or hand.even_money):
            decision = self.strategy(hand, self.dealer, legal)
            if hand.split_aces and len(hand.card_list) >= 2 and decision != "split" and not legal("hit"):
                return
            if decision == "surrender":
                self.surrender(hand)
                return
            if decision == "split":
                self.split(hand)
                continue
            if decision == "double":
                self.double(hand)
                return
            if decision == "hit":
                self.hit(hand)
                continue
            self.stand(hand)
            return

    def take_even_money(self, hand: Hand) -> None:
        """The player takes even money on his black jack: paid at once, as the settle clauses give it,
        where the version offers it. Where it does not (no main settle clause reads `hand.even_money`: the
        French texts), the even money is the one step broken, and the blackjack waits for the dealer's
        point like any other hand."""
        self.actions.append(["even_money", str(hand.box.number)])
        if self.ruleset.main_settlement_reads("hand.even_money"):
            hand.even_money = True
            self.actions.append(self.settle_stake("main", hand.name, hand.stake, hand))

    def surrender(self, hand: Hand) -> None:
        self.actions.append(["surrender", hand.name])
        hand.surrendered = True
        self.actions.append(self.settle_stake("main", hand.name, hand.stake, hand))

    def double(self, hand: Hand, amount: Decimal | None = None) -> None:
        assert self.shoe is not None
        amount = hand.stake if amount is None else amount
        card = self.shoe.draw(self.actions, hand.name)
        self.actions.append(["double", hand.name, amount_json(amount), card])
        hand.stake += amount
        hand.doubled = True
        hand.add(card)
        hand.box.drew = True
        self.round_facts.table_drew = True
        self.after_card(hand)

    def hit(self, hand: Hand, by: list[str] | None = None) -> None:
        """A card the player asks for; `by`: the bettors named as asking (hand-log/1.1)."""
        assert self.shoe is not None
        card = self.shoe.draw(self.actions, hand.name)
        self.actions.append(["hit", hand.name, card, by] if by else ["hit", hand.name, card])
        hand.add(card)
        hand.box.drew = True
        self.round_facts.table_drew = True
        self.after_card(hand)

    def stand(self, hand: Hand) -> None:
        # A stand is logged only where it is a decision: not at 21 where drawing is forbidden.
        if hand.total < 21 or self.legal("hit", self.ctx(hand, "hit")):
            self.actions.append(["stand", hand.name])

    def after_card(self, hand: Hand) -> None:
        if hand.busted and self.ruleset.param("bust.collected_at_once") and hand.name not in self.collected:
            if self.to_break and self.break_bust(hand):
                return
            self.actions.append(self.settle_stake("main", hand.name, hand.stake, hand))
            self.collected.add(hand.name)

    def break_bust(self, hand: Hand) -> bool:
        """A busted hand left on the layout, to be collected in the final settlement, where exactly one
        of this round's rules to break refuses it."""
        ctx = {**self.ctx(hand, "hit"), "bust": BustFacts(collected_at_once=False)}
        what = f"{hand.name} busted and left on the layout"
        if self.breaking(self.round_id, [("bust", hand.name, ctx)], [what]) is None:
            return False
        self.left_busted = (hand.name, len(self.actions))
        return True

    def unplant_a_bust_collected_next(self) -> None:
        """A busted hand left on the layout whose collection came next all the same (no other hand or
        dealer's card in between): it was collected at once after all, and nothing is planted."""
        if self.left_busted is None or self.violations is None:
            return
        name, index = self.left_busted
        following = self.actions[index] if index < len(self.actions) else None
        if following is not None and following[:2] == ["lose", name]:
            self.violations.played.pop(self.round_id, None)

    def split(self, hand: Hand, amount: Decimal | None = None) -> None:
        amount = hand.initial_stake if amount is None else amount
        self.actions.append(["split", hand.name, amount_json(amount)])
        hand.split_off(amount)
        self.deal_split_card(hand)

    def deal_split_card(self, hand: Hand) -> None:
        """A split hand's second card: a card drawn at the table, as a hit is (the replay's mechanics);
        with simulate --inject, logged as a hit where exactly one rule to break refuses that."""
        if self.to_break and self.breaking(self.round_id, [("hit", hand.name, self.ctx(hand, "hit"))]) == 0:
            assert self.shoe is not None
            card = self.shoe.draw(self.actions, hand.name)
            self.actions.append(["hit", hand.name, card])
            hand.add(card)
        else:
            self.deal(hand)
        hand.box.drew = True
        self.round_facts.table_drew = True

    def break_dealer_early(self, order: list[Box]) -> None:
        """simulate --inject: the dealer deals himself his second card at the initial deal, before the
        players play (where one of them has a decision to make), if exactly one rule to break refuses it."""
        if all(box.hand_list[0].blackjack for box in order):
            return
        facts = self.round_facts
        facts.players_done = False
        picked = self.breaking(
            self.round_id, [("dealer_draw", "D", {"round": facts, "dealer": self.dealer})], first_only=True
        )
        facts.players_done = True
        if picked is not None:
            self.deal_dealer()

    def dealer_must_draw(self) -> bool:
        dealer = self.dealer
        if dealer.cards < 2 and not self.ruleset.param("dealer.hole_card"):
            return True
        total, soft = dealer.total, dealer.soft
        stands_on = int(self.ruleset.param("dealer.stands_on", 17))
        if total != stands_on:
            return total < stands_on
        if bool(self.ruleset.param("dealer.hits_17_with_an_ace")) and any(
            c[0] == "A" for c in dealer.card_list
        ):
            return True
        return bool(self.ruleset.param("dealer.hits_soft_17")) and soft

    def settle_insurance(self, insurance: dict[int, Decimal], boxes: dict[int, Box]) -> None:
        """Every insurance, right to left, as the ruleset's `settle insurance` clauses give it; settled
        ones leave `insurance`."""
        for number in sorted(insurance, reverse=True):
            hand = boxes[number].hand_list[0]
            self.actions.append(
                self.settle_stake("insurance", f"{number}:insurance", insurance[number], hand)
            )
            self.final_settled += 1
        insurance.clear()

    def unsettled(self, order: list[Box], insurance: dict[int, Decimal]) -> int:
        """Main stakes and insurances not settled yet (surrenders, even money and busts collected at once
        are)."""
        open_hands = [h for b in order for h in b.hand_list if self.settled_last(h)]
        return len(open_hands) + len(insurance)

    def settled_last(self, hand: Hand) -> bool:
        """Is the hand settled in the final settlement (not surrendered, paid even money or collected
        at its bust)?"""
        return not (hand.surrendered or hand.even_money or hand.name in self.collected)

    def settle_stake(self, kind: str, name: str, amount: Decimal, hand: Hand) -> list[Any]:
        return self.settlement(
            kind, name, amount, round=self.round_facts, box=hand.box, hand=hand, dealer=self.dealer
        )

    def settle(
        self,
        order: list[Box],
        insurance: dict[int, Decimal],
        boxes: dict[int, Box],
        late: dict[int, Decimal] | None = None,
    ) -> None:
        """The final settlement; `late`: an insurance kept back (simulate --inject), collected after the
        first hand settled, where the dealer drew no third card to collect it after."""
        self.settle_insurance(insurance, boxes)
        # From the dealer's right, each stake in turn, unless the rules order them otherwise (a round with
        # the hyper black jack: the losing stakes first, 6°): the first of these two orders whose every
        # step the `settle` rules accept.
        pending = [hand for box in reversed(order) for hand in box.hand_list if self.settled_last(hand)]
        settlements = {hand.name: self.settle_stake("main", hand.name, hand.stake, hand) for hand in pending}
        losers_first = [h for h in pending if settlements[h.name][0] == "lose"]
        losers_first += [h for h in pending if settlements[h.name][0] != "lose"]
        chosen = next((o for o in (pending, losers_first) if self.all_in_order(o, settlements)), pending)
        for hand in chosen:
            self.actions.append(settlements[hand.name])
            self.final_settled += 1
            self.final_main_stakes += 1
            if late:
                self.settle_insurance(late, boxes)

    def all_in_order(self, hands: list[Hand], settlements: dict[str, list[Any]]) -> bool:
        """Would the rules on the settlement's order accept `hands` settled in this order?"""
        previous: tuple[int, str | None] = (0, None)
        for hand in hands:
            verb = settlements[hand.name][0]
            if not self.in_order(hand, verb, previous):
                return False
            previous = (hand.box.number, verb)
        return True

    def in_order(self, hand: Hand, verb: str, previous: tuple[int, str | None]) -> bool:
        """Would the rules on the settlement's order accept `hand` settled (`verb`) next, after `previous`
        (its box and verb; box 0 before the first)?"""
        settle = SettleFacts(
            box=hand.box.number, previous_box=previous[0], verb=verb, previous_verb=previous[1]
        )
        return self.legal("settle", {"round": self.round_facts, "settle": settle, "dealer": self.dealer})
