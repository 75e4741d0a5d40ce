"""`casino-validator lint`: house-rules files checked against what the regulation lets a casino choose."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from validator.checking.serial import rule_catalogue
from validator.commands import common
from validator.errors import ValidatorError
from validator.findings.finding import Summary
from validator.i18n import _


def run(
    files: list[Path],
    *,
    fmt: str,
    output: Path | None,
    when: str | None,
    sarif_root: Path | None,
    choices: common.PolicyChoices,
) -> int:
    """Exit status 2 when a file cannot be read (the others are still linted), else the findings'."""
    from validator.house.lint import lint_files

    # A file named twice (or by two paths) is linted once, as `check` reads a log named twice once.
    unique: dict[str, Path] = {}
    for file in files:
        unique.setdefault(os.path.realpath(file), file)
    files = list(unique.values())
    unreadable: list[str] = []

    def cannot_read(message: str) -> None:
        unreadable.append(message)
        common.error(message)

    try:
        day = date.fromisoformat(when) if when else date.today()
    except ValueError:
        raise ValidatorError(_("--date {when!r}: give a day as YYYY-MM-DD").format(when=when)) from None
    registry = common.registry(choices.readings, choices.config, choices.no_config)
    root = common.project_root(sarif_root)
    policy = common.policy(registry, root, choices, files)
    with common.output(output) as out:
        reporter = common.reporter(fmt, out, output, root)
        summary = Summary(house=", ".join(str(f) for f in files), subject="house")
        for outcome in policy.apply(lint_files(registry, files, day, summary, cannot_read), summary):
            reporter.round(outcome)
        policy.finish(summary)
        reporter.finish(summary, rule_catalogue(registry, summary.rulesets, builtin=("house/",)))
    return 2 if unreadable else policy.exit_status(summary)
