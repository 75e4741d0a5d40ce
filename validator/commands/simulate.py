"""`casino-validator simulate`: séances played by a ruleset version, written as hand-log/1; with
`--inject`, violations planted at random rounds and listed beside the log."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from validator.casino.seance import RECONCILIATION
from validator.checking.progress import with_count
from validator.commands import common
from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.i18n import _, ngettext
from validator.simulate.carnet import Carnet
from validator.simulate.charges import as_version
from validator.simulate.options import SimulateOptions
from validator.simulate.run import write
from validator.simulate.violations import Violations


def house_of(house: Path | None, registry: Any) -> Any:
    """What the carnet's replay reads the house file by, as `check --house` does (None: no house file)."""
    if house is None:
        return None
    from validator.house.apply import house_lookup

    return house_lookup(house, registry)[0]


def run(options: SimulateOptions, *, started: float) -> int:
    """Play the séance and write it (with --inject, the planted violations beside it); `started`: when
    the command started (the progress line's clock)."""
    from validator.simulate.plan import prepare

    # money/reconciliation is planted in the carnet (validator.simulate.carnet), the others in the rounds.
    money = RECONCILIATION in (options.inject or ())
    rule_ids = [rule for rule in options.inject or () if rule != RECONCILIATION]
    rate, seed, output = options.rate, options.seed, options.output
    # The plan the séance is played with, and the house options it is played with (for the planter).
    planned: list[tuple[Violations, dict[str, Any]]] = []

    def violations_for(version: Ruleset, played: dict[str, Any]) -> Violations:
        planned.append((Violations(version, rule_ids, rate, seed), played))
        return planned[-1][0]

    registry = common.registry(options.readings)
    chosen, records = prepare(registry, options, violations_for if options.inject is not None else None)
    planted: list[Any] = []
    carnet = Carnet(
        registry, house_of(options.house, registry), seed=seed, plant=money, rate=rate, planted=planted
    )
    records = with_count(
        records,
        total=options.rounds,
        counts=lambda record: record.get("type") == "round",
        enabled=sys.stderr.isatty() and not options.quiet,
        started=started,
    )
    if options.inject is None:
        write(as_version(carnet.records(records), options.hand_log), output, sys.stdout.buffer)
        return 0
    # start-up: what plants violations loads only for --inject
    from validator.simulate.inject import inject as plant
    from validator.simulate.inject import truth_path, write_truth

    if output is None:
        raise ValidatorError(_("--inject needs --output: the planted violations are written beside the log"))
    plan, played = planned[-1]  # prepare asked for the plan before playing the table record
    written = carnet.records(plant(records, chosen, rule_ids, rate, seed, planted, played, plan))
    write(as_version(written, options.hand_log), output, sys.stdout.buffer)
    write_truth(truth_path(output), chosen, planted)
    said = ngettext(
        "{output}: {count} violation planted, listed in {truth}",
        "{output}: {count} violations planted, listed in {truth}",
        len(planted),
    )
    typer.echo(said.format(output=output, count=len(planted), truth=truth_path(output)), err=True)
    counts = {rule: 0 for rule in options.inject or ()}
    for item in planted:
        counts[item.rule] = counts.get(item.rule, 0) + 1
    for rule, count in counts.items():
        typer.echo("  " + _("{rule}: {count} planted").format(rule=rule, count=count), err=True)
        if not count:
            # A rule not planted yet is tried at every round and record between rounds (Violations.order):
            # none planted is none that could be, whatever the rate.
            said = _(
                "warning: {rule}: no violation planted: tried at each of the {rounds} rounds and the records "
                "between them, none gave it an occasion to be broken (play more rounds, or a séance that "
                "offers what the rule is about)"
            )
            typer.echo(said.format(rule=rule, rounds=options.rounds), err=True)
    return 0
