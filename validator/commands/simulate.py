"""`casino-validator simulate`: séances played by a ruleset version, written as hand-log/1; with
`--inject`, violations planted at random rounds and listed beside the log."""

from __future__ import annotations

import sys
from typing import Any

import typer

from validator.checking.progress import with_count
from validator.commands import common
from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.i18n import _, ngettext
from validator.simulate.charges import as_version
from validator.simulate.options import SimulateOptions
from validator.simulate.run import write
from validator.simulate.violations import Violations


def run(options: SimulateOptions, *, started: float) -> int:
    """Play the séance and write it (with --inject, the planted violations beside it); `started`: when
    the command started (the progress line's clock)."""
    from validator.simulate.plan import prepare

    rule_ids = list(options.inject or ())
    rate, seed, output = options.rate, options.seed, options.output
    # The plan the séance is played with, and the house options it is played with (for the planter).
    planned: list[tuple[Violations, dict[str, Any]]] = []

    def violations_for(version: Ruleset, played: dict[str, Any]) -> Violations:
        planned.append((Violations(version, rule_ids, rate, seed), played))
        return planned[-1][0]

    chosen, records = prepare(
        common.registry(options.readings),
        options,
        violations_for if options.inject is not None else None,
    )
    records = with_count(
        records,
        total=options.rounds,
        counts=lambda record: record.get("type") == "round",
        enabled=sys.stderr.isatty() and not options.quiet,
        started=started,
    )
    if options.inject is None:
        write(as_version(records, options.hand_log), output, sys.stdout.buffer)
        return 0
    # start-up: what plants violations loads only for --inject
    from validator.simulate.inject import inject as plant
    from validator.simulate.inject import truth_path, write_truth

    if output is None:
        raise ValidatorError(_("--inject needs --output: the planted violations are written beside the log"))
    planted: list[Any] = []
    plan, played = planned[-1]  # prepare asked for the plan before playing the table record
    planting = plant(records, chosen, rule_ids, rate, seed, planted, played, plan)
    write(as_version(planting, options.hand_log), output, sys.stdout.buffer)
    write_truth(truth_path(output), chosen, planted)
    said = ngettext(
        "{output}: {count} violation planted, listed in {truth}",
        "{output}: {count} violations planted, listed in {truth}",
        len(planted),
    )
    typer.echo(said.format(output=output, count=len(planted), truth=truth_path(output)), err=True)
    counts = {rule: 0 for rule in rule_ids}
    for item in planted:
        counts[item.rule] = counts.get(item.rule, 0) + 1
    for rule, count in counts.items():
        typer.echo("  " + _("{rule}: {count} planted").format(rule=rule, count=count), err=True)
        if not count:
            said = _(
                "warning: {rule}: no violation planted (no occasion in this séance: more rounds or a "
                "higher --rate)"
            )
            typer.echo(said.format(rule=rule), err=True)
    return 0
