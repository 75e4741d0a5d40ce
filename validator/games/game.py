"""What a game package declares of itself, once (in its `__init__`): its name, the words of the rules
language only its rounds give, and where its parts are. The generic layers derive their registries from
these declarations (`validator.games.GAMES`): the rules language checks a ruleset's `game` header and scopes
its vocabulary, the replay runs the game's engine, `simulate` its simulator, `edge` its mathematics.

The parts are named, not imported: each lies in a layer above this one (the replay engine above the rules
language, the simulator and the mathematics above the replay), and each layer loads the part it runs
(`Game.load`), so that declaring a game imports nothing but this module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Game:
    name: str  # as a ruleset's `game` header and a hand-log/1 table record write it
    package: str  # the game's package (its `__name__`): the parts below are modules of it
    engine: str  # "module:name": the replay engine, a validator.replay.round_base.RoundReplay
    simulator: str  # "module:name": the simulator, a validator.simulate.table.TableSim
    maths: str  # "module:name": the mathematics of `edge`, a validator.maths.game.GameMaths
    # Events of the rules language that only this game's rounds give (`on war`), and facts
    # ("namespace.field") that only its engine sets: a ruleset of another game may not use them.
    events: frozenset[str]
    facts: frozenset[str]
    # The events of the steps its simulator can take against the rules while it plays (a decision of a
    # player, the dealer's drawing): what `simulate --inject` can break as it plays a round.
    decisions: frozenset[str]
    # A second card dealt to a hand (or the dealer) is its war card, not a card added to the hand.
    second_card_is_war_card: bool = False

    def load(self, part: str) -> Any:
        """The object one of the fields above names (`self.engine`, …), its module imported now."""
        module, _, name = part.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)
