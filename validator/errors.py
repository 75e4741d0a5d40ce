"""Errors that stop a run (exit 2). Findings are not errors: they are results."""

from __future__ import annotations

from validator.i18n import _


class ValidatorError(Exception):
    """A run that cannot be made: the message is shown as is, and the exit status is 2."""

    exit_code = 2


class UnknownRuleset(ValidatorError):
    """A ruleset family the registry does not hold (`--ruleset`, or a table record's `ruleset`)."""


class RulesetError(ValidatorError):
    """A ruleset that does not parse or does not make sense, located at FILE:LINE:COL."""

    def __init__(self, file: str, line: int, column: int, message: str, context: str = "") -> None:
        self.file = file
        self.line = line
        self.column = column
        self.detail = message
        self.context = context
        text = f"{file}:{line}:{column}: {message}"
        if context:
            text += "\n" + context
        super().__init__(text)


class RulesetErrors(ValidatorError):
    """Several semantic errors in one or more ruleset files, reported together."""

    def __init__(self, errors: list[RulesetError]) -> None:
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))


MAX_LINE = 2000  # characters of one line of a message: a name of 300,000 characters is not shown whole


def bounded(message: str, limit: int = MAX_LINE) -> str:
    """The message with each line cut to `limit` characters, saying how many were left out."""
    lines = []
    for line in message.split("\n"):
        if len(line) > limit:
            line = line[:limit] + _("… ({count} more characters)").format(count=f"{len(line) - limit:,}")
        lines.append(line)
    return "\n".join(lines)
