"""The exact figure against the simulator: séances played by `simulate` with the strategy the
computation used, their main stakes' return per unit of initial stake, and its 99 % interval.

Each round gives one observation: the net result of its boxes' main stakes (splits and doubles
included) over their initial stakes. Rounds are independent but for the shoe they share (a cut-card
shoe of several rounds), which the interval ignores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from validator.dsl.model import Ruleset
from validator.maths.edge import house_for
from validator.maths.game import maths_of
from validator.maths.probe import Probe
from validator.simulate.run import Seance, simulate

Z99 = 2.5758293035489  # two-sided 99 % quantile of the normal law
WAR_STAKE = "war"  # hand-log/1's war stake ("3:war"): a main stake's continuation, counted with it


@dataclass(frozen=True, slots=True)
class SimCheck:
    exact: float
    mean: float
    half_width: float  # of the 99 % interval
    rounds: int

    @property
    def inside(self) -> bool:
        return abs(self.mean - self.exact) <= self.half_width


def round_return(record: dict[str, Any]) -> float | None:
    """Net over initial stake of a round's main stakes (None: no main stake)."""
    stakes: dict[str, Decimal] = {}
    initial = Decimal(0)
    for bet in record["bets"]:
        name = str(bet["stake"])
        if ":" in name:
            continue  # side bets and insurance are other stakes
        amount = Decimal(str(bet["amount"]))
        stakes[name] = stakes.get(name, Decimal(0)) + amount
        initial += amount
    if not initial:
        return None
    net = Decimal(0)
    for action in record["actions"]:
        verb, target = action[0], action[1] if len(action) > 1 else None
        if not isinstance(target, str) or (":" in target and target.split(":", 1)[1] != WAR_STAKE):
            continue
        if verb == "war":
            stakes[f"{target}:{WAR_STAKE}"] = Decimal(str(action[2]))
        elif verb in ("split", "double"):
            amount = Decimal(str(action[2]))
            if verb == "split":
                box = target.split("/")[0]
                count = sum(1 for name in stakes if name.split("/")[0] == box)
                stakes[f"{box}/{count + 1}"] = amount
            else:
                stakes[target] = stakes.get(target, Decimal(0)) + amount
        elif verb == "pay":
            net += Decimal(str(action[2]))
        elif verb == "lose":
            net -= Decimal(str(action[2])) if len(action) > 2 else stakes.get(target, Decimal(0))
    return float(net / initial)


def check(ruleset: Ruleset, house: dict[str, Any] | None, rounds: int, seed: int = 1) -> SimCheck:
    values = house_for(ruleset, house)
    exact, strategy = maths_of(ruleset).played(Probe(ruleset, values))
    start = datetime.fromisoformat(
        f"{(ruleset.valid_from.isoformat() if ruleset.valid_from else '2025-01-01')}T20:00:00+01:00"
    )
    seance = Seance(
        seed=seed,
        rounds=rounds,
        table_id="EDGE",
        start=start,
        minimum=Decimal(10),
        maximum=Decimal(1000),
        strategy=strategy,
    )
    records = simulate(ruleset, values, seance)
    return SimCheck(exact, *mean_return(records))


def mean_return(records: Iterable[dict[str, Any]]) -> tuple[float, float, int]:
    """The mean main-stake return per round of the records' rounds, the 99 % half-width of that mean
    (the rounds taken as independent), and the rounds counted."""
    n = 0
    total = total_sq = 0.0
    for record in records:
        if record.get("type") != "round":
            continue
        value = round_return(record)
        if value is None:
            continue
        n += 1
        total += value
        total_sq += value * value
    mean = total / n
    variance = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    return mean, Z99 * math.sqrt(variance / n), n
