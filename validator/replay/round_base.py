"""What the blackjack and bataille engines share: reading bets and stakes, taking cards out of the
shoe, recording and judging settlements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from decimal import Decimal
from typing import Any

from validator.dsl.model import PaytableOutcome
from validator.money import fmt
from validator.replay.cards import normalize
from validator.replay.judge import Judge
from validator.replay.side_bets import RoundSideBets, side_of
from validator.replay.stakes import MalformedRound, Settlement, amount_of, parse_stake
from validator.replay.state import Box, Dealer, Hand, RoundFacts, Shoe, TableState, facts

__all__ = ["MalformedRound", "RoundReplay", "Settlement", "amount_of", "parse_stake"]


class RoundReplay(ABC):
    """State and helpers of one round; subclasses walk the actions of their game."""

    # Set by each game's replay(): the dealer's cards, and the receivers still owed a card of the
    # initial deal, in the order the text deals them.
    dealer: Dealer
    owed: list[str]

    @abstractmethod
    def replay(self) -> None:
        """Walk the round's actions in order: deal, decisions, the dealer's draw, settlements."""

    def __init__(
        self, judge: Judge, table: TableState, shoe: Shoe, record: dict[str, Any], line: int
    ) -> None:
        self.judge = judge
        self.table = table
        self.shoe = shoe
        self.record = record
        self.line = line
        self.round_id: str = record["round"]
        self.boxes: dict[int, Box] = {}
        self.hands: dict[str, Hand] = {}
        self.side_stakes: dict[str, Decimal] = {}
        self.settlements: dict[str, list[Settlement]] = {}
        self.facts = RoundFacts(
            same_shoe=record.get("shoe") == shoe.id,
            reshuffle_due=shoe.cut_card_out,
            cards_left=shoe.left,
        )
        # Facts of the frequent events, changed in place at each event rather than made anew: a
        # finding reads them (message, expected, actual) when it is written, before they change.
        self.card_facts = facts(code=None, in_shoe=True)
        self.deal_facts = facts(hand=None, expected=None)
        self.turn_facts = facts(box=0, current=0, dealer_drawing=False, whose="")
        self.settle_facts = facts(box=0, previous_box=0)
        self.stake_facts = facts(name=None, amount=None, settlements=0, case=None, verb=None, paid=None)
        self.action_facts = facts(verb=None, hand=None, amount=None)
        self.in_place = {
            "card": self.card_facts,
            "deal": self.deal_facts,
            "turn": self.turn_facts,
            "settle": self.settle_facts,
        }
        self.ctx: dict[str, Any] = judge.context(table=table, round=self.facts, **self.in_place)
        self.listening = judge.ruleset.checks_by_event
        self.all_held = judge.all_held()
        self.cut_card_seen = False
        self.previous_settled_box = 0
        # Set by each game's replay(); empty and False until it starts dealing.
        self.owed = []
        self.dealer_started = False
        self.sides = RoundSideBets(self)
        # `explain` sets a story: each step with the rules it ran and the state after it.
        self.story: list[tuple[str, list[tuple[str, str, bool]], str]] | None = None
        self._told = 0
        # The audit dataset sets this: stake → the settlement the rules give, (verb, amount).
        self.rules_give: dict[str, tuple[str, Decimal]] | None = None

    # ---- explain ----
    def narrate(self, what: str) -> None:
        if self.story is None or self.judge.trace is None:
            return
        ran = self.judge.trace[self._told :]
        self._told = len(self.judge.trace)
        self.story.append((what, list(ran), self.describe()))

    def describe_bets(self) -> str:
        parts = [f"box {n} {fmt(b.stake)}" for n, b in sorted(self.boxes.items()) if b.stake]
        parts += [f"{name} {fmt(amount)}" for name, amount in self.side_stakes.items()]
        return ", ".join(parts) or "none"

    def describe(self) -> str:
        parts = []
        for hand in self.hands.values():
            if hand.card_list:
                parts.append(f"{hand.name}: {' '.join(hand.card_list)} = {_total(hand)}")
        dealer = self.ctx.get("dealer")
        if dealer is not None and dealer.card_list:
            parts.append(f"D: {' '.join(dealer.card_list)} = {_total(dealer)}")
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
            for name in namespaces.keys() & self.in_place.keys():
                self.ctx[name] = self.in_place[name]

    def check_in_place(self, event: str, at: str | None = None) -> bool:
        """`check` for the hot paths, which have already set the event's facts in the context."""
        all_held = self.all_held.get(event)
        if all_held is None or all_held(self.ctx):
            return True
        return self.judge.run(self.listening[event], event, self.ctx, self.line, self.round_id, at)

    def deal_owed(self, target: str, raw_card: str) -> None:
        """A card of the initial deal. It is due to the first receiver still owed one; a card out of
        turn is one finding, and the receiver it skipped is still owed its card."""
        expected = self.owed[0]
        if target in self.owed:
            self.owed.remove(target)
            self.facts.second_cards_dealt = all(receiver == "D" for receiver in self.owed)
        card = self.take(raw_card)
        self.check_deal(target, expected)
        if target == "D":
            self.dealer.add(card)
        elif target in self.hands:
            self.hands[target].add(card)

    def check_deal(self, target: str, expected: str) -> None:
        """A card dealt to `target` when the text deals it to `expected`."""
        deal = self.deal_facts
        deal.hand, deal.expected = target, expected
        self.check_in_place("deal", at=target)

    def check_settle_order(self, stake: str, box: int) -> None:
        """A stake of box `box` settled in the final settlement, after the box settled before it."""
        settle = self.settle_facts
        settle.box, settle.previous_box = box, self.previous_settled_box
        self.check_in_place("settle", at=stake)
        self.previous_settled_box = box

    # ---- bets ----
    def read_bets(self, split_counts: bool) -> None:
        players_boxes: dict[str, set[int]] = {}
        entries = []
        placed = self.record.get("bets", [])
        for n, bet in enumerate(placed):
            box_no, split, kind = parse_stake(bet["stake"])
            if split is not None:
                raise MalformedRound(
                    f"bets[{n}]: a bet is placed on a box, not on split hand {bet['stake']!r}"
                )
            amount = amount_of(bet["amount"], f"bets[{n}].amount")
            seated = bet.get("seated", True)
            player = bet.get("player") or f"box {box_no}"
            box = self.boxes.get(box_no)
            if box is None:
                box = self.boxes[box_no] = Box(box_no)
            if kind == "main":
                box.stake += amount
                if seated:
                    box.seated = True
                    box.seated_players.add(player)
                    players_boxes.setdefault(player, set()).add(box_no)
                else:
                    box.standing = True
            else:
                name = f"{box_no}:{kind}"
                self.side_stakes[name] = self.side_stakes.get(name, Decimal(0)) + amount
            entries.append((bet, box_no, kind, amount, seated))
        for box in self.boxes.values():
            box.initial_stake = box.stake
            box.player_boxes = max((len(players_boxes[p]) for p in box.seated_players), default=0)
        self.facts.players = len(players_boxes)
        self.facts.boxes = sum(1 for b in self.boxes.values() if b.stake > 0)
        self.facts.free_seats = self.table.seats - sum(1 for b in self.boxes.values() if b.seated)
        self.check("round")
        for bet, box_no, kind, amount, seated in entries:
            box = self.boxes[box_no]
            info = facts(
                amount=amount,
                seated=seated,
                main=kind == "main",
                box_has_main=box.stake > 0,
                box_seated=box.seated,
                box_exists=1 <= box_no <= self.table.seats,
                **self.sides.bet_facts(kind, box_no, bet, placed),
            )
            self.check("bet", at=bet["stake"], bet=info)
            if kind != "main":
                self.check("side_bet", at=bet["stake"], bet=info)
        for number in sorted(self.boxes):
            box = self.boxes[number]
            if box.stake > 0:
                hand = Hand(str(number), box, box.stake, split_counts=split_counts)
                box.hand_list.append(hand)
                self.hands[hand.name] = hand
                self.ctx["box"] = box
                self.check_in_place("box", at=hand.name)

    # ---- cards ----
    def take(self, raw: str) -> str:
        card = normalize(raw)
        card_facts = self.card_facts
        card_facts.code = card
        card_facts.in_shoe = self.shoe.take(card)
        self.check_in_place("card")
        return card

    def hand(self, name: str, verb: str) -> Hand:
        hand = self.hands.get(name)
        if hand is None:
            raise MalformedRound(
                f"{verb} on hand {name!r}, which was never opened in this round", "hand-log/unknown-hand"
            )
        return hand

    # ---- settlements ----
    def record_settlement(self, action: list[Any], index: int) -> Settlement:
        verb, stake = action[0], action[1]
        parse_stake(stake)
        amount = amount_of(action[2], f"{verb} {stake}") if len(action) > 2 else None
        settlement = Settlement(verb, amount, index)
        self.settlements.setdefault(stake, []).append(settlement)
        return settlement

    def all_stakes(self) -> dict[str, Decimal]:
        stakes = {name: hand.stake for name, hand in self.hands.items()}
        stakes.update(self.side_stakes)
        return stakes

    def judge_settlement(self, stake_kind: str, name: str, amount: Decimal, **namespaces: Any) -> None:
        """Compare the log's first settlement of a stake with what the ruleset gives it."""
        done = self.settlements.get(name)
        if not done:
            return  # the stake-settled-once rule reports it; no second finding for one mistake
        case = side_of(name.split(":", 1)[1])[1] if ":" in name else None
        first = done[0]
        stake = facts(
            name=name,
            amount=amount,
            settlements=len(done),
            case=case,
            verb=first.verb,
            paid=first.amount if first.verb == "pay" else None,
        )
        self.ctx.update(namespaces, stake=stake)
        decided = self.judge.expected_settlement(stake_kind, self.ctx)
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
        actual_s = done[0]
        actual = _outcome(actual_s.verb, actual_s.amount, amount)
        if self.rules_give is not None:
            self.rules_give[name] = expected
        if self.story is not None:
            mark = "ok" if expected == actual else "WRONG"
            self.story.append(
                (
                    f"settle {name}: the rules give {expected[0]} {fmt(expected[1])} ({rule.id}); "
                    f"the log shows {actual[0]} {fmt(actual[1])}: {mark}",
                    [],
                    "",
                )
            )
        if expected == actual:
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
        stakes = self.all_stakes()
        for name in self.settlements:
            if name not in stakes:
                raise MalformedRound(
                    f"stake {name!r} is settled but was never bet in this round", "hand-log/unknown-stake"
                )
        stake = self.ctx["stake"] = self.stake_facts
        stake.case = None
        for name, amount in stakes.items():
            stake.name, stake.amount = name, amount
            stake.settlements = len(self.settlements.get(name, ()))
            self.check_in_place("stake_end", at=name)


def show_action(action: list[Any]) -> str:
    return " ".join(str(item) for item in action)


def _total(hand: Any) -> str:
    total = hand.total
    if hand.cards == 2 and total == 21:
        return "21 (two cards)"
    if total > 21:
        return f"{total} (bust)"
    return f"{total} (soft)" if hand.soft else str(total)


def _outcome(verb: str, amount: Decimal | None, stake: Decimal) -> tuple[str, Decimal]:
    if verb == "pay":
        return "pay", amount if amount is not None else Decimal(0)
    if verb == "lose":
        return "lose", amount if amount is not None else stake
    return "push", stake


def _net(outcome: tuple[str, Decimal]) -> Decimal:
    verb, amount = outcome
    return amount if verb == "pay" else (-amount if verb == "lose" else Decimal(0))
