"""The state file of `watch`: where each log was judged up to, so a restart neither misses a round nor
reports one twice.

For each log: the bytes and lines judged (always the end of a line), and the SHA-256 of those bytes, and
which file it is: its device, inode and the SHA-256 of its first bytes. On restart, `watch` reads those
bytes again without reporting them, which rebuilds the replay's state (the table record, its limits, the
shoe, the dealer, the jackpot meters) exactly as a `check` of the whole file would have it, and checks the
digest: a log that changed while no watch ran is judged again from its start, and said. A log is found by
its device and inode whatever its name now (`claim`): a log rotated to another name, while the watch ran
(`moved_away`) or while none did, goes on from where it was judged, never judged twice.

With `--output FILE`, the state also records how long FILE was at the last commit: what a killed watch
wrote after it is cut off on restart, then written again, so the file holds every finding once. FILE is
locked while the watch runs (`lock_output`): a second watch appending to it is refused, as it would cut
off what the first wrote.

The file is small JSON, written whole to a temporary file and renamed over the old one (a kill at any
moment leaves the old state or the new one), and locked while a watch runs, so that two watches cannot
share it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from validator.errors import ValidatorError
from validator.i18n import _
from validator.live.follow import Checkpoint, Identity

FORMAT = "casino-validator-watch/1"
DEFAULT = ".casino-validator-watch.json"
# A state file is a few hundred bytes a log; anything much larger is not one.
MAX_BYTES = 16 << 20
# The logs rotated away (judged to their end, no longer at their path) remembered, newest last.
MOVED_KEPT = 1024


@dataclass(slots=True)
class WatchState:
    """The state file's content, and the lock held on it while the watch runs."""

    path: Path
    logs: dict[str, Checkpoint] = field(default_factory=dict)
    # Logs judged to their end that left their path (rotated, removed): found by device and inode.
    moved: list[Checkpoint] = field(default_factory=list)
    output: str | None = None
    output_size: int | None = None
    _lock: IO[bytes] | None = None

    @staticmethod
    def open(path: Path) -> WatchState:
        """The state at `path` (empty if there is none yet), locked for this watch."""
        state = WatchState(path)
        state._lock = _lock(path)
        try:
            raw = path.read_bytes()[: MAX_BYTES + 1] if path.exists() else b""
        except OSError as error:
            state.close()
            raise ValidatorError(
                _("{path}: cannot read the watch state ({error})").format(path=path, error=error.strerror)
            ) from None
        if raw:
            try:
                state._load(raw)
            except ValidatorError:
                state.close()
                raise
        return state

    def _load(self, raw: bytes) -> None:
        problem = _("{path}: not a watch state file ({format}); give another --state or remove it").format(
            path=self.path, format=FORMAT
        )
        if len(raw) > MAX_BYTES:
            raise ValidatorError(problem)
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            raise ValidatorError(problem) from None
        if (
            not isinstance(data, dict)
            or data.get("format") != FORMAT
            or not isinstance(data.get("logs"), dict)
        ):
            raise ValidatorError(problem)
        try:
            for name, entry in data["logs"].items():
                self.logs[name] = _checkpoint(entry)
            self.moved = [_checkpoint(entry) for entry in data.get("moved", [])]
        except (KeyError, TypeError, ValueError, OverflowError, AttributeError):
            raise ValidatorError(problem) from None
        output = data.get("output")
        if isinstance(output, dict):
            self.output = str(output.get("path"))
            size = output.get("size")
            try:
                self.output_size = None if size is None else _whole(size)
            except ValueError:
                raise ValidatorError(problem) from None

    def save(self) -> None:
        """Write the state whole, atomically."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "logs": {name: _entry(mark) for name, mark in sorted(self.logs.items())},
        }
        if self.moved:
            data["moved"] = [_entry(mark) for mark in self.moved[-MOVED_KEPT:]]
        if self.output is not None:
            data["output"] = {"path": self.output, "size": self.output_size}
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            temporary.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink()
            raise ValidatorError(
                _("{path}: cannot write the watch state ({error})").format(
                    path=self.path, error=error.strerror
                )
            ) from None

    def claim(self, key: str, identity: Identity, head: Callable[[int], str]) -> Checkpoint | None:
        """How far the file now at `key` was judged, if it was: the mark of that file (its device and
        inode, and the digest of its first bytes, `head(length)`, as they are now), under this name or
        another; a mark of another file under this name (rotated away) is kept for that file. Taken out
        of the state (the caller follows the file from there). A mark written before files were known
        by identity is this name's, as before."""
        mine = self.logs.get(key)
        if mine is not None and mine.identity is None:
            del self.logs[key]
            return mine
        if mine is not None and mine.identity != identity:
            del self.logs[key]
            self.moved_away(mine)
        for name, mark in list(self.logs.items()):
            if mark.identity == identity and (not mark.head or head(mark.offset) == mark.head):
                del self.logs[name]
                return mark
        for index in range(len(self.moved) - 1, -1, -1):
            mark = self.moved[index]
            if mark.identity == identity and (not mark.head or head(mark.offset) == mark.head):
                del self.moved[index]
                return mark
        return None

    def moved_away(self, mark: Checkpoint) -> None:
        """A log judged to its end that is no longer at its path: remembered by its identity."""
        if mark.identity is None:
            return
        self.moved = [m for m in self.moved if m.identity != mark.identity][-(MOVED_KEPT - 1) :]
        self.moved.append(mark)

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None


def _checkpoint(entry: Any) -> Checkpoint:
    """A log's mark as the state file writes it; ValueError (or another) for anything else."""
    offset, line = _whole(entry["offset"]), _whole(entry["line"])
    device, inode = entry.get("device"), entry.get("inode")
    return Checkpoint(
        offset,
        line,
        str(entry["sha256"]),
        None if device is None else _whole(device),
        None if inode is None else _whole(inode),
        str(entry.get("head", "")),
    )


def _whole(value: Any) -> int:
    """A count of the state file: a whole number of 0 or more (not a float, Infinity, a text, true)."""
    if type(value) is not int or value < 0:
        raise ValueError(value)
    return value


def _entry(mark: Checkpoint) -> dict[str, Any]:
    entry: dict[str, Any] = {"offset": mark.offset, "line": mark.line, "sha256": mark.sha256}
    if mark.identity is not None:
        entry |= {"device": mark.device, "inode": mark.inode, "head": mark.head}
    return entry


def _lock(path: Path) -> IO[bytes]:
    """An exclusive lock beside the state file, held until the watch ends (released by the system if the
    watch is killed)."""
    lock_path = path.with_name(f"{path.name}.lock")
    try:
        handle = open(lock_path, "ab")  # noqa: SIM115 (held for the whole watch)
    except OSError as error:
        raise ValidatorError(
            _("{path}: cannot open the watch lock ({error})").format(path=lock_path, error=error.strerror)
        ) from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise ValidatorError(
            _("{path}: another watch is using this state file; stop it or give another --state").format(
                path=path
            )
        ) from None
    return handle


def lock_output(handle: IO[str], name: str) -> None:
    """An exclusive lock on the report a watch appends to (`--output`), held while the file is open:
    another watch appending to it would, on its restart, cut off what this one wrote after its own last
    commit. Refused, exit 2."""
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise ValidatorError(
            _(
                "{path}: another watch is writing this report (--output); stop it or give another --output"
            ).format(path=name)
        ) from None
