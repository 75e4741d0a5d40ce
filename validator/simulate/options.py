"""What `simulate` was told: one frozen object, built once by the CLI (validator/cli.py) and taken as it
is by `validator/commands/simulate.py` and `validator/simulate/plan.py::prepare`. Each default is written
here, once: the CLI's options show these defaults and `prepare` has none of its own
(tests/test_options.py holds it).

This module imports nothing but the standard library: the CLI reads it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class SimulateOptions:
    """`casino-validator simulate --ruleset ID@DATE …`. None: the value is decided from the house file or
    the version (validator/simulate/plan.py says which, option by option)."""

    ruleset: str
    rounds: int = 100
    seed: int = 1
    table: str = "T-01"
    house: Path | None = None
    start: str | None = None  # ISO 8601 with its offset; None: the version's first evening
    minimum: str | None = None  # an amount as written, checked by plan.amount
    maximum: str | None = None
    seats: int | None = None
    output: Path | None = None
    inject: tuple[str, ...] | None = None  # the rule ids of --inject; None: nothing planted
    rate: float = 0.05
    players: str = "best"  # one of simulate.players.KINDS: the strategy `edge` assumes
    timezone: str | None = None
    # A credible séance by default: a team of dealers relieving each other, a pool of players coming and
    # going, the casino's hours (None: the house file's, else the jurisdiction's usual: simulate.plan).
    # 0 dealers or players: the toy (one dealer; each round's players drawn afresh).
    dealers: int = 4
    pool: int = 40  # --players-pool
    hours: str | None = None
    quiet: bool = False
    readings: tuple[str, ...] = ()
    rules: tuple[Path, ...] = ()
    hand_log: str | None = None  # --hand-log: "1.2" (charges written); None: the version's own format


def inject_ids(text: str | None) -> tuple[str, ...] | None:
    """`--inject RULE[,RULE…]` as the rule ids it names (None: no --inject)."""
    if text is None:
        return None
    return tuple(rule.strip() for rule in text.split(",") if rule.strip())
