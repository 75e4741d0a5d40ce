"""What a game declares of the rules language: its parameters, the events only its rounds give, the facts
only its replay sets, the stakes its settle clauses settle (`GameWords`).

Each game's package holds its declaration (`validator/games/<game>/vocabulary.py`, named by its
`validator.games.game.Game`); `validator.dsl.vocabulary` joins them to the words every game shares. A
ruleset of one game that names another game's word is refused by `rules check`, at its line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from validator.dsl.facts import Facts

# Parameter types: int, bool, ratio, decimal, symbol, list, int_or_none.


@dataclass(frozen=True, slots=True)
class ParamSpec:
    type: str
    doc: str
    symbols: tuple[str, ...] = ()
    # What the game mechanics (Python) do with the parameter, for those it reads through
    # `Ruleset.param`; empty: only rules read it, and a version that sets it must have one that does.
    mechanics: str = ""
    # What the simulator does with it to play a séance by the rules, for those it reads through
    # `Ruleset.param` too. The rules alone apply it: a version that sets it must still have a rule that
    # reads it (unlike `mechanics`, this does not count as reading it).
    simulator: str = ""


@dataclass(frozen=True, slots=True)
class GameWords:
    """The words of the rules language one game adds to those every game shares.

    `facts`: namespace → a `Facts` class declaring the facts of that namespace only this game's replay
    sets (the namespace is one every game has, `hand`, or the game's own, `burn`); `events`: event → the
    namespaces it offers (beside `table`, `param` and `house`); `stakes`: a kind of stake its settle
    clauses settle (`settle war …`) → the namespaces the clause may read; `parameters`: name → its
    `ParamSpec`. Each is in the order the vocabulary page lists it.
    """

    facts: Mapping[str, type[Facts]] = field(default_factory=dict)
    events: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    stakes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    parameters: Mapping[str, ParamSpec] = field(default_factory=dict)
