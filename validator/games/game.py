"""What a game package declares of itself, once (in its `__init__`): its name and where its parts are. The
generic layers derive their registries from these declarations (`validator.games.GAMES`): the rules
language joins the game's words to the shared ones and scopes them (`vocabulary`), the replay runs its
engine on its hands (`engine`, `hands`), `simulate` its simulator and what `--inject` needs of it
(`simulator`, `inject`), `edge` its mathematics (`maths`).

The parts are named, not imported: each lies in a layer above this one (the vocabulary in the rules
language's, the hands and the engine in the replay's, the simulator and the mathematics above it), and
each layer loads the part it runs (`Game.load`), so that declaring a game imports nothing but this module.

A game outside this package registers through the entry point group `casino_validator.games`
(`validator.games`, docs/architecture.md "A new game").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Game:
    name: str  # as a ruleset's `game` header and a hand-log/1 table record write it
    package: str  # the game's package (its `__name__`): the parts below are modules of it
    # "module:name" of each part, a module of `package`:
    vocabulary: str  # its words of the rules language, a validator.dsl.words.GameWords
    hands: str  # its hands (the evaluator of its cards), a validator.replay.state.Hands
    engine: str  # the replay engine, a validator.replay.round_base.RoundReplay
    simulator: str  # the simulator, a validator.simulate.table.TableSim
    inject: str  # what `simulate --inject` needs of it, a validator.simulate.settled.GameInjection
    # The events of the steps its simulator can take against the rules while it plays (a decision of a
    # player, the dealer's drawing): what `simulate --inject` can break as it plays a round.
    decisions: frozenset[str]
    maths: str | None = None  # the mathematics of `edge`, a validator.maths.game.GameMaths; None: none

    def load(self, part: str) -> Any:
        """The object one of the fields above names (`self.engine`, …), its module imported now."""
        module, _, name = part.partition(":")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)
