"""Choosing the game's simulator and writing its records: what `casino-validator simulate` calls."""

from __future__ import annotations

import gzip
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.i18n import _
from validator.outputs import replacing
from validator.simulate.hours import Hours
from validator.simulate.pool import DealerTeam, Roster, dealer_names
from validator.simulate.table import LAST_BOX, TableSim, write_records
from validator.simulate.violations import Violations

# Each game's simulator, as its package declares it (validator/games/<game>/__init__.py).
SIMULATORS: dict[str, type[TableSim]] = {name: game.load(game.simulator) for name, game in GAMES.items()}


@dataclass(frozen=True, slots=True)
class Seance:
    """A séance as it is played: what validator/simulate/plan.py::prepare decides from `simulate`'s
    options (validator/simulate/options.py), or a test or `edge`'s check (simulate.simcheck) gives.

    With `until`, a record dated after that local day raises SeanceOverrun instead of being written
    (`simulate` checks the séance fits before playing it). `strategy`: the players' (simulate.players;
    None: random legal play). `zone`: the table's time zone (each record at its offset on that date;
    None: the start's offset throughout). `casino`: the table record's casino (None: a demonstration
    name). `dealers`: the team dealing in turn, `pool`: the pool of players (simulate.pool; None: one
    dealer, or a new one every few rounds where the version has rules on it, and each round's players
    drawn afresh). `hours`: the casino's, kept by the séance (`start` within them), shoes named by the
    gaming day starting `day_start` minutes after midnight (simulate.hours)."""

    seed: int
    rounds: int
    table_id: str
    start: datetime
    minimum: Decimal
    maximum: Decimal
    seats: int = LAST_BOX
    until: date | None = None
    strategy: Any = None
    zone: tzinfo | None = None
    casino: str | None = None
    dealers: int | None = None
    pool: int | None = None
    hours: Hours | None = None
    day_start: int = 6 * 60


def simulate(
    ruleset: Ruleset, house: dict[str, Any], seance: Seance, violations: Violations | None = None
) -> Iterator[dict[str, Any]]:
    """The séance's records, played lazily, by the version `ruleset` with the house options `house`.
    `violations`: the plan of violations to plant while playing (simulate --inject)."""
    missing = [
        name for name, option in ruleset.options.items() if option.required and house.get(name) is None
    ]
    if missing:
        # The text leaves these to the casino and gives no default: there is no game to play without them.
        raise ValidatorError(
            _(
                "{version} leaves {missing} to the house rules and has no "
                "default: give --house with a table that declares it"
            ).format(version=ruleset.version, missing=", ".join(missing))
        )
    sim = SIMULATORS[ruleset.game](
        ruleset,
        house,
        seed=seance.seed,
        table_id=seance.table_id,
        start=seance.start,
        minimum=seance.minimum,
        maximum=seance.maximum,
        seats=seance.seats,
        until=seance.until,
    )
    sim.strategy = seance.strategy
    sim.violations = violations
    if seance.zone is not None:
        sim.zone = seance.zone
        sim.clock = seance.start.astimezone(seance.zone)
    if seance.casino is not None:
        sim.casino = seance.casino
    if seance.dealers is not None:
        team = DealerTeam(
            dealer_names(seance.dealers, sim.FIRST_DEALER), random.Random(f"dealers/{seance.seed}")
        )
        sim.team = team
        sim.dealer_id = team.dealing
    if seance.pool is not None:
        sim.roster = Roster(seance.pool, random.Random(f"pool/{seance.seed}"))
    if seance.hours is not None:
        opened = seance.hours.opening_of(sim.clock)
        assert opened is not None  # simulate.plan opens the séance within the hours
        sim.hours, sim.closes_at, sim.day_start = (
            seance.hours,
            seance.hours.closing_after(opened),
            seance.day_start,
        )
    records: Iterator[dict[str, Any]] = sim.records(seance.rounds)  # type: ignore[attr-defined]
    return records


def write(records: Iterator[dict[str, Any]], path: Path | None, stdout: BinaryIO) -> int:
    if path is None:
        return write_records(records, stdout)
    with replacing(path, "wb") as raw:
        if path.suffix != ".gz":
            return write_records(records, raw)
        # mtime=0 and no name keep a gzipped log byte-identical for the same seed.
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
            return write_records(records, out)
