"""Writing a report or a simulated log to a file named on the command line.

A run that stops part way (exit 2, Ctrl-C) must not leave a half-written report where a CI job or an
auditor will read it as the result: the text goes to a temporary file beside the target, which takes
the target's name only when the run completes. A previous file of that name is left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from validator.errors import ValidatorError
from validator.i18n import _


class OutputError(ValidatorError):
    """The report could not be written (no space left, an I/O error): exit 2 with the file's name."""


class OutputClosed(Exception):
    """The reader of the output went away (`| head`): the run stops quietly, as other Unix tools do.
    Not a ValidatorError, so no command prints it; the entry point's guard turns it into exit 2."""


def write_failure(name: str, error: OSError) -> Exception:
    """The exception a failed write becomes: quiet for a closed pipe, a message for the rest."""
    if error.errno == errno.EPIPE:
        return OutputClosed(name)
    return OutputError(_("{name}: cannot write ({error})").format(name=name, error=error.strerror or error))


class Checked:
    """A stream whose write errors become `OutputError` naming the output (or `OutputClosed`)."""

    def __init__(self, stream: IO[Any], name: str) -> None:
        self._stream = stream
        self._name = name

    def write(self, data: Any) -> int:
        try:
            return self._stream.write(data)
        except OSError as error:
            raise write_failure(self._name, error) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise write_failure(self._name, error) from None

    def close(self) -> None:
        try:
            self._stream.close()
        except OSError as error:
            raise write_failure(self._name, error) from None

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._stream, attribute)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _special(path: Path) -> bool:
    return path.is_absolute() and path.parts[1:2] in (("dev",), ("proc",))


@contextmanager
def _closing(checked: Checked, handle: IO[Any]) -> Iterator[None]:
    """Close the output after the run: a failure to write out the buffer (/dev/full fails only then) is
    the run's error; after another error, the close is quiet so that the first error is the one shown."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(OSError):
            handle.close()
        raise
    checked.close()


@contextmanager
def replacing(path: Path, mode: str = "w") -> Iterator[IO[Any]]:
    """`path` opened for writing (`"w"` text in UTF-8 with \\n line ends, or `"wb"`), complete or not at all.

    A symbolic link's target is the file replaced; a device or a pipe is written directly."""
    encoding, newline = ("utf-8", "\n") if "b" not in mode else (None, None)
    if path.is_dir():
        raise ValidatorError(_("{path}: is a folder; give the name of a file to write").format(path=path))
    # Through a symbolic link, the file it points to is replaced, not the link. Devices, pipes and what
    # /dev and /proc name (/dev/stdout: a link to /proc/self/fd/1) are written directly.
    target = Path(os.path.realpath(path))
    direct = (
        _special(path) or _special(target) or (target.exists() and not stat.S_ISREG(target.stat().st_mode))
    )
    try:
        if direct:
            handle = path.open(mode, encoding=encoding, newline=newline)
        else:
            import tempfile  # only when a file is written (start-up)

            fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            os.chmod(temporary, 0o666 & ~_umask())  # as open() would have made it, not mkstemp's 0600
            handle = os.fdopen(fd, mode, encoding=encoding, newline=newline)
    except OSError as exc:
        raise ValidatorError(
            _("{path}: cannot write ({strerror})").format(path=path, strerror=exc.strerror)
        ) from None
    checked = Checked(handle, str(path))
    if direct:
        with _closing(checked, handle):
            yield checked  # type: ignore[misc]
        return
    try:
        with _closing(checked, handle):
            yield checked  # type: ignore[misc]
        try:
            os.replace(temporary, target)
        except OSError as exc:
            raise ValidatorError(
                _("{path}: cannot write ({strerror})").format(path=path, strerror=exc.strerror)
            ) from None
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
