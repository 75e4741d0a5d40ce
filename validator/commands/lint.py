"""`casino-validator lint`: house-rules files checked against what the regulation lets a casino choose."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from validator.checking.serial import rule_catalogue
from validator.commands import common
from validator.errors import ValidatorError
from validator.findings.finding import Summary
from validator.i18n import _

if TYPE_CHECKING:
    from validator.commands.options import LintOptions


def run(options: LintOptions) -> int:
    """Exit status 2 when a file cannot be read (the others are still linted), else the findings'."""
    from validator.house.lint import lint_files

    # A file named twice (or by two paths) is linted once, as `check` reads a log named twice once.
    unique: dict[str, Path] = {}
    for file in options.files:
        unique.setdefault(os.path.realpath(file), file)
    files = list(unique.values())
    unreadable: list[str] = []

    def cannot_read(message: str) -> None:
        unreadable.append(message)
        common.error(message)

    when, output, choices = options.date, options.output, options.policy
    try:
        day = date.fromisoformat(when) if when else date.today()
    except ValueError:
        raise ValidatorError(_("--date {when!r}: give a day as YYYY-MM-DD").format(when=when)) from None
    registry = common.registry(choices.readings, choices.config, choices.no_config)
    root = common.project_root(options.sarif_root)
    policy = common.policy(registry, root, choices, files)
    with common.output(output) as out:
        reporter = common.reporter(options.format, out, output, root)
        summary = Summary(house=", ".join(str(f) for f in files), subject="house")
        for outcome in policy.apply(lint_files(registry, files, day, summary, cannot_read), summary):
            reporter.round(outcome)
        policy.finish(summary)
        reporter.finish(summary, rule_catalogue(registry, summary.rulesets, builtin=("house/",)))
    return 2 if unreadable else policy.exit_status(summary)
