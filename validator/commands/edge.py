"""`casino-validator edge`: the exact expected return of the main stake and of every side bet
(computed by `validator.maths.summary`)."""

from __future__ import annotations

from pathlib import Path

import typer

from validator.commands import common


def run(
    *,
    ruleset: str | None,
    house: Path | None,
    table: str | None,
    fmt: str,
    options: bool,
    strategy: bool,
    readings: list[str],
) -> int:
    from validator.maths.summary import run as figures

    registry = common.registry(readings)
    typer.echo(
        figures(
            registry,
            ruleset=ruleset,
            house=house,
            table=table,
            fmt=fmt,
            with_options=options,
            with_strategy=strategy,
        ),
        nl=False,
    )
    return 0
