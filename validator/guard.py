"""The entry point's guard: whatever happens, the command ends with a documented status and no traceback.

- 0, 1, 2: the command's own answer (nothing found, findings, the run could not be made);
- 2 also when the report cannot be written (no space left, an I/O error, a closed standard output), with
  a message; a reader that stops early (`casino-validator check … | head`) ends the run quietly;
- 3: an internal error, a bug of this program whatever the input: one line with the version and how to
  report it, never a traceback (`CASINO_VALIDATOR_DEBUG=1` shows it), and never 1, which a CI job would
  read as findings;
- 130: interrupted (Ctrl-C), 143: stopped by SIGTERM (128 + the signal's number); the command undoes
  what it set up on the way out, and a signal that comes again meanwhile is only counted (`stops`).
  `watch` and `check --follow` end on a signal as they normally do, with their summary and status.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import traceback
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from validator import __version__, stops
from validator.i18n import N_, _
from validator.outputs import OutputClosed

INTERNAL_ERROR = 3
INTERRUPTED = 130
# What writing to a full, broken or closed standard output raises.
_WRITE_ERRNOS = {errno.ENOSPC, errno.EIO, errno.EBADF, errno.EPIPE, errno.EFBIG, errno.EDQUOT, errno.EINVAL}
REPORT_HOW = N_("please report it with this line, the command you ran and, if you can, the file it read")


def internal_error_line(error: BaseException) -> str:
    """One line for an unexpected exception: what it was, where in the program, the version, how to report."""
    where = ""
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        where = f" at {os.path.basename(last.filename)}:{last.lineno}"
    detail = str(error).splitlines()[0][:200] if str(error) else ""
    what = type(error).__name__ + (f": {detail}" if detail else "")
    return "casino-validator: " + _(
        "internal error ({what}) in casino-validator {version}; this is a bug of the program, not of your "
        "files: {how}"
    ).format(what=what + where, version=__version__, how=_(REPORT_HOW))


def _quiet_stdout() -> None:
    """After a failed write, nothing more goes to standard output (not even the interpreter's last flush)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    sys.stdout = _Silent()


class _Silent:
    """Standard output once it has failed: whatever is still written goes nowhere."""

    def write(self, data: Any) -> int:
        return len(data)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


class _Closed(_Silent):
    """Standard output closed by the caller (`>&-`): writing to it is an error like any other."""

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, _("standard output is closed"))

    @property
    def buffer(self) -> _Closed:  # `simulate` writes bytes
        return self


def _pacified() -> bool:
    # Typer (like click) wraps standard output this way, then exits 1, when a write meets a broken pipe.
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _stdout_failed(error: OSError) -> int:
    _quiet_stdout()
    if error.errno == errno.EPIPE:
        return 2
    _echo_err(
        "casino-validator: "
        + _("standard output: cannot write ({error})").format(error=error.strerror or error)
    )
    return 2


def run(app: Callable[..., Any]) -> NoReturn:
    """Run the click/typer application and exit with a documented status."""
    code: Any
    if sys.stdout is None:
        sys.stdout = _Closed()
    if sys.stderr is None:  # closed by the caller (`2>&-`): messages go nowhere, the status still tells
        sys.stderr = _Silent()
    stops.install()
    try:
        code = _ended(app)
    except KeyboardInterrupt:  # a first signal while an ending was being handled: its status stands
        code = stops.status(INTERRUPTED)
    stops.finishing()
    sys.exit(0 if code is None else code)


def _ended(app: Callable[..., Any]) -> Any:
    """The application's exit status, whatever ends it, with standard output flushed."""
    code: Any
    try:
        code = app(standalone_mode=False)
        if code == INTERRUPTED and stops.received():  # typer's answer to a KeyboardInterrupt: silent 130
            stops.finishing()
            _echo_err("Aborted!")
            code = stops.status(INTERRUPTED)
    except SystemExit as exit_:
        # click exits 1 itself on a broken pipe, after wrapping standard output: that is not "findings".
        code = 2 if _pacified() else exit_.code
    except (typer.Abort, KeyboardInterrupt):
        stops.finishing()
        _echo_err("Aborted!")
        code = stops.status(INTERRUPTED)
    except typer.TyperException as usage:  # a usage error (exit 2) or no command given (the help)
        show = getattr(usage, "show", None)
        if show is not None:
            show()
        else:
            _echo_err(usage.format_message())
        code = usage.exit_code
    except OutputClosed:
        _quiet_stdout()
        code = 2
    except OSError as error:
        if error.filename is None and error.errno in _WRITE_ERRNOS:
            code = _stdout_failed(error)
        else:
            code = _internal(error)
    except Exception as error:
        code = _internal(error)
    stops.finishing()
    if not _pacified():
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError as error:
            code = _stdout_failed(error)
        except ValueError:  # standard output closed by the caller
            pass
    return code


def _internal(error: BaseException) -> int:
    if os.environ.get("CASINO_VALIDATOR_DEBUG"):
        traceback.print_exception(error)
    _echo_err(internal_error_line(error))
    return INTERNAL_ERROR


def _echo_err(text: str) -> None:
    with contextlib.suppress(Exception):  # standard error itself is gone: the status still says it
        typer.echo(text, err=True)
