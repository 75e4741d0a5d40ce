"""`casino-validator edge`: the exact expected return of the main stake and of every side bet
(computed by `validator.maths.summary`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from validator.commands import common

if TYPE_CHECKING:
    from validator.commands.options import EdgeOptions


def run(options: EdgeOptions) -> int:
    # Imported when `edge` runs: the mathematics (numpy) and the rulesets, not at every command's start.
    from validator.maths.summary import run as figures
    from validator.rulebook.registry import Registry, shipped_version

    # One shipped version asked, under the readings it states: that version alone is compiled (its
    # figures read nothing of the others). Readings chosen are checked against every version, and a
    # house file is linted against them: those take the whole registry.
    alone = None
    if options.house is None and options.ruleset is not None and not common.chosen_readings(options.readings):
        alone = shipped_version(options.ruleset)
    registry = Registry([alone]) if alone is not None else common.registry(options.readings)
    typer.echo(
        figures(
            registry,
            ruleset=options.ruleset,
            house=options.house,
            table=options.table,
            fmt=options.format,
            with_options=options.options,
            with_strategy=options.strategy,
        ),
        nl=False,
    )
    return 0
