"""`casino-validator explain`: one round step by step, and why each finding was made."""

from __future__ import annotations

from pathlib import Path

import typer

from validator.checking.explain import explain
from validator.commands import common


def run(log: str, *, round_id: str, ruleset: str | None, house: Path | None, readings: list[str]) -> int:
    """1 when the round has a finding, 0 when it is clean."""
    registry = common.registry(readings)
    lookup = None
    if house is not None:
        from validator.house.apply import house_lookup

        lookup, _unused = house_lookup(house, registry)
    told = explain(registry, log, round_id, ruleset=ruleset, house=lookup)
    for line in told.lines:
        typer.echo(line)
    return told.exit_status
