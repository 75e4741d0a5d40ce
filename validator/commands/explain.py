"""`casino-validator explain`: one round step by step, and why each finding was made."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from validator.checking.explain import explain
from validator.commands import common

if TYPE_CHECKING:
    from validator.commands.options import ExplainOptions


def run(options: ExplainOptions) -> int:
    """1 when the round has a finding, 0 when it is clean."""
    registry = common.registry(options.readings)
    lookup = None
    if options.house is not None:
        from validator.house.apply import house_lookup

        lookup, _unused = house_lookup(options.house, registry)
    told = explain(registry, options.log, options.round_id, ruleset=options.ruleset, house=lookup)
    for line in told.lines:
        typer.echo(line)
    return told.exit_status
