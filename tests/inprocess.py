"""The command run in this process (typer's CliRunner on `validator.cli.app`): ten to a hundred times
faster than a subprocess, for tests that run it many times. An exception that escapes a command fails
the test: in the real command the entry point's guard would have turned it into exit 3."""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from typer.testing import CliRunner

from validator.cli import app

_RUNNER = CliRunner()


@dataclass(frozen=True)
class Ran:
    code: int
    stdout: str
    stderr: str


class Crashed(AssertionError):
    """A command let an exception escape (the real command: exit 3, "internal error")."""


def invoke(*args: str, stdin: bytes | str | None = None) -> Ran:
    result = _RUNNER.invoke(app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(result.exception))
        raise Crashed(f"casino-validator {' '.join(args)} raised:\n{trace}")
    return Ran(result.exit_code, result.stdout, result.stderr)
