"""Who plays at a simulated table (`simulate --players`):

- `best`: every player plays the strategy `edge` computed for the version and the table's house options
  (the decisions its figures assume), so that a séance's hold converges to `edge`'s figure;
- `random`: each decision drawn among those the rules allow (insurance and even money offered too): the
  simulator's play before players played, kept for logs that exercise every decision;
- `mix`: a table of mixed skill, each box's player drawn for the round: 60 % play the best strategy,
  30 % play it with the errors casual players make (about one decision in four: standing on a stiff
  hand of 12 to 16 they should hit, hitting instead of doubling, not splitting), 10 % play at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.i18n import _
from validator.replay.state import Dealer, Hand

KINDS = ("best", "random", "mix")
MIX = (("best", 0.6), ("errors", 0.3), ("random", 0.1))
ERROR_RATE = 0.25  # a casual player's share of decisions made by hunch
DECISIONS = ("stand", "hit", "double", "split", "surrender")


def strategy_for(kind: str, ruleset: Ruleset, house: dict[str, Any], seed: int) -> Any:
    """The `strategy(hand, dealer, legal)` the simulator asks; None: random play (the simulator's own)."""
    if kind not in KINDS:
        raise ValidatorError(
            _("--players {kind}: give one of {kinds}").format(kind=kind, kinds=", ".join(KINDS))
        )
    if kind == "random":
        return None
    best = Later(lambda: _best(ruleset, house))
    if kind == "best":
        return best
    from validator.maths.game import maths_of

    return Mixed(best, random.Random(f"players/{seed}"), maths_of(ruleset).decisions)


def _best(ruleset: Ruleset, house: dict[str, Any]) -> Any:
    from validator.maths.game import maths_of
    from validator.maths.probe import Probe

    return maths_of(ruleset).player(Probe(ruleset, house))


class Later:
    """The best strategy, computed at the first decision (after the séance's own checks have passed)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.found: Any = None

    def __call__(self, hand: Hand, dealer: Dealer, legal: Any) -> str:
        if self.found is None:
            self.found = self.make()
        decision: str = self.found(hand, dealer, legal)
        return decision


class Mixed:
    """Each box's player for the round drawn from MIX; decisions by that player's skill."""

    def __init__(self, best: Any, rng: random.Random, choices: tuple[str, ...]) -> None:
        self.best = best
        self.rng = rng
        self.choices = choices  # the game's decisions (validator.maths.game.GameMaths.decisions)
        self.skills: dict[int, str] = {}  # id of the box object (one per round and box) → skill

    def skill(self, hand: Hand) -> str:
        key = id(hand.box)
        found = self.skills.get(key)
        if found is None:
            if len(self.skills) > 64:
                self.skills.clear()  # boxes of past rounds
            draw = self.rng.random()
            found = MIX[-1][0]
            for name, share in MIX:
                if draw < share:
                    found = name
                    break
                draw -= share
            self.skills[key] = found
        return found

    def __call__(self, hand: Hand, dealer: Dealer, legal: Any) -> str:
        skill = self.skill(hand)
        if skill == "random":
            return self.rng.choice([d for d in self.choices if d == "stand" or legal(d)] or ["stand"])
        decision: str = self.best(hand, dealer, legal)
        if skill == "errors" and decision in DECISIONS and self.rng.random() < ERROR_RATE:
            total = hand.total
            if decision == "hit" and 12 <= total <= 16 and not hand.soft:
                return "stand"
            if decision == "double":
                return "hit"
            if decision == "split":
                return "hit" if total < 12 else "stand"
        return decision
