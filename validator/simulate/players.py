"""Who plays at a simulated table (`simulate --players`):

- `best`: every player plays the strategy `edge` computed for the version and the table's house options
  (the decisions its figures assume), so that a séance's hold converges to `edge`'s figure;
- `random`: each decision drawn among those the rules allow (insurance and even money offered too): the
  simulator's play before players played, kept for logs that exercise every decision;
- `mix`: a table of mixed skill, where the skill is the player's: 60 % of players play the best
  strategy, 30 % play it with the errors casual players make (about one decision in four: standing on a
  stiff hand of 12 to 16 they should hit, hitting instead of doubling, not splitting), 10 % play at
  random. Each player's level is drawn once, from the séance's seed and the player's name (`skill_of`):
  with a pool (`--players-pool N`) the same P7 plays the same way all séance, at each of his stays,
  and in every séance of that seed (the pool's names are shared); over a large pool the shares approach
  60/30/10. Without a pool each round's players are drawn afresh (P1 to P4 name the
  round's first to fourth player, not a person), and so are their levels, for the round. A box's
  decisions are its seated player's: a standing bettor decides nothing under a strategy (no insurance
  is offered, the seated player plays the hand), so his level shows when he sits down.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from validator.errors import ValidatorError
from validator.i18n import _

if TYPE_CHECKING:
    from validator.dsl.model import Ruleset
    from validator.replay.state import Dealer, Hand

# The kinds of players, the registry `simulate --players` reads its choices from (the CLI imports this
# module at start-up: it imports nothing heavy).
KINDS = ("best", "random", "mix")
MIX = (("best", 0.6), ("errors", 0.3), ("random", 0.1))
ERROR_RATE = 0.25  # a casual player's share of decisions made by hunch
DECISIONS = ("stand", "hit", "double", "split", "surrender")


def strategy_for(kind: str, ruleset: Ruleset, house: dict[str, Any], seed: int, *, pool: bool = False) -> Any:
    """The `strategy(hand, dealer, legal)` the simulator asks; None: random play (the simulator's own).
    `pool`: the séance's players come from a pool (`mix`: each player's level is his for the séance)."""
    if kind not in KINDS:
        raise ValidatorError(
            _("--players {kind}: give one of {kinds}").format(kind=kind, kinds=", ".join(KINDS))
        )
    if kind == "random":
        return None
    best = Later(lambda: _best(ruleset, house))
    if kind == "best":
        return best
    # start-up: the CLI reads KINDS from this module; the mathematics load when a player is made
    from validator.maths.game import maths_of

    return Mixed(best, seed, maths_of(ruleset).decisions, by_person=pool)


def skill_of(seed: int, player: str) -> str:
    """The level of `player` (a name, P7) at `mix` séances of `seed`: drawn from MIX by a generator of
    its own, seeded by both, so that it depends on nothing else the séance draws."""
    draw = random.Random(f"skill/{seed}/{player}").random()
    for name, share in MIX:
        if draw < share:
            return name
        draw -= share
    return MIX[-1][0]


def decider(hand: Hand) -> str:
    """Whose decision it is: the seated player of the hand's box (the log's name; the box where the
    bet names none, as the replay calls him)."""
    players = hand.box.seated_players
    return min(players) if players else f"box {hand.box.number}"


def _best(ruleset: Ruleset, house: dict[str, Any]) -> Any:
    # start-up: the CLI reads KINDS from this module; the mathematics load when a player is made
    from validator.maths.game import maths_of
    from validator.maths.probe import Probe

    return maths_of(ruleset).player(Probe(ruleset, house))


class Later:
    """The best strategy, computed at the first decision (after the séance's own checks have passed)."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make
        self.found: Any = None

    def __call__(self, hand: Any, dealer: Dealer, legal: Any) -> str:
        if self.found is None:
            self.found = self.make()
        decision: str = self.found(hand, dealer, legal)
        return decision


class Mixed:
    """Each player's level drawn by `skill_of` (see the module's docstring); decisions by that level."""

    def __init__(self, best: Any, seed: int, choices: tuple[str, ...], *, by_person: bool) -> None:
        self.best = best
        self.seed = seed
        self.rng = random.Random(f"players/{seed}")  # the errors' and the random players' decisions
        self.choices = choices  # the game's decisions (validator.maths.game.GameMaths.decisions)
        self.by_person = by_person
        self.skills: dict[str, str] = {}  # player → level (without a pool: this round's players)
        self.dealer: Dealer | None = None  # the round in play's (a new Dealer each round)
        self.rounds = 0

    def skill(self, hand: Hand, dealer: Dealer) -> str:
        if not self.by_person and dealer is not self.dealer:
            self.dealer = dealer  # a new round: its players drawn afresh
            self.rounds += 1
            self.skills.clear()
        player = decider(hand)
        found = self.skills.get(player)
        if found is None:
            found = self.skills[player] = skill_of(
                self.seed, player if self.by_person else f"{self.rounds}/{player}"
            )
        return found

    def __call__(self, hand: Any, dealer: Dealer, legal: Any) -> str:
        skill = self.skill(hand, dealer)
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
