"""simulate --inject: a player on another number of boxes than the house allows, decided by the judge
with the facts the replay gives the round and each box, where exactly one of the round's rules to break
refuses it: a player alone at the table on fewer boxes than the house asks of a lone player (its
`round` rules), or a player on one box more than the most its `box` rules allow him (beside the round's
other players). The second is found at each of the player's boxes, one finding per box: the violation
planted names them all (`PlayedViolation.also`). Not planting, the simulator asks the same rules how
many boxes a player takes (TableSim.bets)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any, Protocol

from validator.replay.state import Box, RoundFacts
from validator.simulate.violations import Violations


class TableSim(Protocol):
    """What of the table's simulator (simulate.table, which calls this module) is asked here."""

    to_break: list[str]
    seats: int
    seats_off_layout: int
    minimum: Decimal
    round_id: str
    violations: Violations | None

    def legal(self, event: str, ctx: dict[str, Any]) -> bool: ...

    def breaking(
        self,
        round_id: str,
        candidates: Sequence[tuple[str, str | None, Mapping[str, Any]]],
        whats: list[str] | None = None,
        first_only: bool = False,
    ) -> int | None: ...


def player_box(minimum: Decimal, player_boxes: int) -> Box[Any]:
    """Box 1 of a seated player on `player_boxes` boxes, staking the table's minimum."""
    box: Box[Any] = Box(1)
    box.stake = box.initial_stake = minimum
    box.seated = True
    box.seated_players = {"P1"}
    box.player_boxes = box.bettor_boxes = player_boxes
    box.bettor_stakes = {"P1": minimum}
    return box


def _round(sim: TableSim, players: int, boxes: int) -> RoundFacts:
    return RoundFacts(
        players=players, bettors=players, boxes=boxes, free_seats=sim.seats + sim.seats_off_layout - boxes
    )


def boxes_against(sim: TableSim, players: int, want: int, lone_min: int) -> tuple[int, bool]:
    """How many boxes the round's first player takes, of `players` seated players, where he wanted
    `want` (at least `lone_min` alone): another number where this round plants it (the round's first
    rule to break, as the other bets). Second: whether his boxes are to be named in the violation
    (`name_boxes`), a finding at each."""
    if not sim.to_break:
        return want, False
    candidates: list[tuple[str, str | None, dict[str, Any]]] = []
    wants: list[int] = []
    whats: list[str] = []
    # Each number of boxes changes the facts of the round and of each box: a candidate is weighed at
    # one event, and kept only where the other accepts it, so that it breaks one rule there only.
    if players == 1 and lone_min > 1:
        fewer = lone_min - 1
        ctx = {"round": _round(sim, 1, fewer), "box": player_box(sim.minimum, fewer)}
        if sim.legal("box", ctx):
            candidates.append(("round", None, ctx))
            wants.append(fewer)
            whats.append(f"a player alone at the table on {fewer} box{'es' if fewer > 1 else ''}")
    room = sim.seats - (players - 1)  # the other players keep a box each
    for count in range(1, room + 1):
        ctx = {"round": _round(sim, players, count + players - 1), "box": player_box(sim.minimum, count)}
        if not sim.legal("box", ctx):
            if sim.legal("round", ctx):
                candidates.append(("box", None, ctx))
                wants.append(count)
                whats.append(f"a player on {count} boxes, one more than the rules allow him")
            break
    picked = sim.breaking(sim.round_id, candidates, whats, first_only=True)
    if picked is None:
        return want, False
    return wants[picked], candidates[picked][0] == "box"


def name_boxes(sim: TableSim, bets: list[dict[str, Any]], player: str) -> None:
    """The violation planted on `player`'s boxes: found at the first of them, and also at the others."""
    assert sim.violations is not None
    boxes = sorted(int(b["stake"]) for b in bets if b["player"] == player)
    played = sim.violations.played[sim.round_id]
    also = tuple(str(box) for box in boxes[1:])
    sim.violations.played[sim.round_id] = replace(played, stake=str(boxes[0]), also=also)
