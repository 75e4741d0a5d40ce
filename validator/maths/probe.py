"""What a version's rules allow and pay, asked of the rules themselves.

The mathematics never names an option: it builds the situation a decision would be taken in (a hand of
real cards, the dealer's card, the box), and asks the version's rules on that event (`double`, `split`,
`surrender`, `hit`) whether they would hold, with the table's house options, exactly as the simulator
asks before each simulated decision. What a hand is paid is the first `settle main` clause that holds
for it, evaluated as the replay evaluates it. A new option, parameter or clause changes the figures
with no Python edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from validator.dsl.facts import ActionFacts, RoundFacts, StakeFacts
from validator.dsl.model import PaytableOutcome, Ruleset
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.i18n import _
from validator.replay.judge import Judge
from validator.replay.state import Hands, TableState

MAIN = "main"


class Probe:
    """One version and one table's house options: legal decisions and settlements."""

    def __init__(self, ruleset: Ruleset, house: Mapping[str, Any]) -> None:
        self.ruleset = ruleset
        self.house = dict(house)
        self.judge = Judge(ruleset, self.house, "<edge>")
        self.judge.explained = False  # asked only whether the rules allow a decision
        self.table = TableState("edge", ruleset.game, 7, Decimal(1), Decimal(1000), True, ruleset.family, 0)
        game = GAMES[ruleset.game]
        # The game's hands as the version plays them: what the situations are made of.
        self.hands: Hands[Any, Any, Any] = game.load(game.hands).under(ruleset)

    def param(self, name: str, default: Any = None) -> Any:
        return self.ruleset.param(name, default)

    # ---- situations ----
    def hand(
        self,
        cards: Sequence[str],
        *,
        split: bool = False,
        split_aces: bool = False,
        doubled: bool = False,
        surrendered: bool = False,
        stake: Decimal = Decimal(1),
        box_hands: int = 1,
        ace_splits: int = 0,
    ) -> Any:
        """The game's hand of these cards on box 1 (`split`, `split_aces`, `doubled`, `ace_splits`: facts of
        a game that splits and doubles, set where given)."""
        box = self.hands.box(1)
        box.stake = box.initial_stake = Decimal(1)
        box.seated = True
        box.player_boxes = 1
        if ace_splits:
            box.ace_splits = ace_splits
            box.player_ace_splits = ace_splits  # the figures are a player's on one box
        hand = self.hands.hand("1", box, stake)
        for card in cards:
            hand.add(card)
        for fact, value in (("split", split), ("split_aces", split_aces), ("doubled", doubled)):
            if value:
                setattr(hand, fact, value)
        hand.surrendered = surrendered
        box.hand_list.append(hand)
        while len(box.hand_list) < box_hands:
            box.hand_list.append(self.hands.hand(f"1/{len(box.hand_list) + 1}", box, Decimal(1)))
        return hand

    def dealer(self, cards: Sequence[str]) -> Any:
        dealer = self.hands.dealer()
        for card in cards:
            dealer.add(card)
        return dealer

    # ---- decisions ----
    def legal(self, event: str, hand: Any, dealer: Any, amount: Decimal | None = None) -> bool:
        """Would the version's rules on `event` hold for this decision?"""
        ctx = {
            "house": self.house,
            "table": self.table,
            "round": RoundFacts(players=1, boxes=1, free_seats=6),
            "box": hand.box,
            "hand": hand,
            "dealer": dealer,
            "action": ActionFacts(
                verb=event, hand=hand.name, amount=amount, by_seated=None
            ),  # 1.1 `by`: not said
        }
        self.judge.findings = []
        return self.judge.check(event, ctx, line=0, round_id=None)

    # ---- settlements ----
    def settle(self, hand: Any, dealer: Any, stake_kind: str = MAIN) -> Decimal | None:
        """The player's net result on `hand.stake` by the first settle clause that holds: + paid,
        - collected, 0 returned. None: no clause settles it."""
        ctx = {
            "house": self.house,
            "table": self.table,
            "box": hand.box,
            "hand": hand,
            "dealer": dealer,
            "stake": StakeFacts(name=hand.name, amount=hand.stake, settlements=1),
        }
        self.judge.unjudged.clear()
        decided = self.judge.expected_settlement(stake_kind, ctx)
        if decided is None:
            if self.judge.unjudged:
                raise ValidatorError(
                    _("{version}: a {kind} stake cannot be settled: {why}").format(
                        version=self.ruleset.version,
                        kind=stake_kind,
                        why="; ".join(sorted(self.judge.unjudged)),
                    )
                )
            return None
        _rule, settle, amount = decided
        if isinstance(amount, PaytableOutcome):
            return amount.winnings if amount.winnings is not None else -hand.stake
        if settle.verb == "pay":
            return amount if amount is not None else hand.stake
        if settle.verb == "lose":
            return -(amount if amount is not None else hand.stake)
        return Decimal(0)
