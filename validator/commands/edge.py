"""`casino-validator edge`: the exact expected return of the main stake and of every side bet
(computed by `validator.maths.summary`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from validator.commands import common

if TYPE_CHECKING:
    from validator.commands.options import EdgeOptions


def run(options: EdgeOptions) -> int:
    from validator.maths.summary import run as figures

    registry = common.registry(options.readings)
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
