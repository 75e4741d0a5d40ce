"""The state file of `watch`: where each log was judged up to, so a restart neither misses a round nor
reports one twice.

For each log: the bytes and lines judged (always the end of a line), and the SHA-256 of those bytes. On
restart, `watch` reads those bytes again without reporting them, which rebuilds the replay's state (the
table record, its limits, the shoe, the dealer, the jackpot meters) exactly as a `check` of the whole file
would have it, and checks the digest: a log that changed while no watch ran is judged again from its start,
and said. With `--output FILE`, the state also records how long FILE was at the last commit: what a killed
watch wrote after it is cut off on restart, then written again, so the file holds every finding once.

The file is small JSON, written whole to a temporary file and renamed over the old one (a kill at any
moment leaves the old state or the new one), and locked while a watch runs, so that two watches cannot
share it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from validator.errors import ValidatorError
from validator.i18n import _
from validator.live.follow import Checkpoint

FORMAT = "casino-validator-watch/1"
DEFAULT = ".casino-validator-watch.json"
# A state file is a few hundred bytes a log; anything much larger is not one.
MAX_BYTES = 16 << 20


@dataclass(slots=True)
class WatchState:
    """The state file's content, and the lock held on it while the watch runs."""

    path: Path
    logs: dict[str, Checkpoint] = field(default_factory=dict)
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
        for name, entry in data["logs"].items():
            try:
                self.logs[name] = Checkpoint(int(entry["offset"]), int(entry["line"]), str(entry["sha256"]))
            except (KeyError, TypeError, ValueError):
                raise ValidatorError(problem) from None
        output = data.get("output")
        if isinstance(output, dict):
            self.output = str(output.get("path"))
            size = output.get("size")
            self.output_size = size if isinstance(size, int) else None

    def save(self) -> None:
        """Write the state whole, atomically."""
        data: dict[str, Any] = {
            "format": FORMAT,
            "logs": {
                name: {"offset": mark.offset, "line": mark.line, "sha256": mark.sha256}
                for name, mark in sorted(self.logs.items())
            },
        }
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

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None


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
