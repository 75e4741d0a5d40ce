"""Following a log as it grows: whole lines only, a file truncated or replaced noticed and said.

A `FollowedLog` reads what a table has written since the last look, keeps back a last line that has no
newline yet (it is never judged until completed), and hands the whole lines to a `RecordFeed`, so the
records, line numbers and findings are those `check` gives for the finished file. A line longer than the
line limit is dropped as it comes (memory stays bounded) and reported as `check` reports it.

A `FollowedFolder` lists a folder now and then for logs that appear in it (a new séance, a rotated file).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from validator.errors import ValidatorError
from validator.i18n import _
from validator.logs.limits import Limits
from validator.logs.reader import LOG_SUFFIXES, Record, RecordFeed

# At most this much is read from one log at a look, so that a long file being caught up on is judged,
# written and committed in pieces rather than held whole.
PIECE = 1 << 20
FOLLOWED_SUFFIX = ".jsonl"


@dataclass(frozen=True, slots=True)
class Identity:
    """Which file a path named when it was opened: a rotated or replaced log is another file."""

    device: int
    inode: int

    @staticmethod
    def of(stat: os.stat_result) -> Identity:
        return Identity(stat.st_dev, stat.st_ino)


@dataclass(frozen=True, slots=True)
class Change:
    """Something that happened to a followed file, said once on standard error and in the summary."""

    path: str
    what: str  # "truncated", "replaced", "removed"

    def describe(self) -> str:
        if self.what == "truncated":
            said = _("{path}: the file became shorter than what was judged; judged again from its start")
        elif self.what == "replaced":
            said = _("{path}: a new file took this name (rotated or replaced); the old one was judged whole")
        else:
            said = _("{path}: the file was removed; the lines written before were judged")
        return said.format(path=self.path)


class FollowedLog:
    """One log file followed from its start. `offset` is the bytes judged (always the end of a line) and
    `line` the lines judged; `checkpoint()` is what a restart needs to resume exactly there."""

    def __init__(self, path: str, limits: Limits) -> None:
        self.path = path
        self.limits = limits
        self.offset = 0
        self.feed = RecordFeed(path, limits)
        self.digest = hashlib.sha256()  # of the bytes read and not kept back: [0, offset) and a dropped line
        self._partial = b""  # the start of a line not yet ended by a newline
        self._dropping = 0  # bytes of an over-long line dropped so far (0: none being dropped)
        self._before_drop: Checkpoint | None = None
        self._handle = open(path, "rb")  # noqa: SIM115 (kept open: a rotated file is read to its end)
        self.identity = Identity.of(os.fstat(self._handle.fileno()))
        self._read_to = 0  # bytes read from the file (judged, kept back, or being dropped)

    @property
    def line(self) -> int:
        return self.feed.line

    def close(self) -> None:
        self._handle.close()

    def checkpoint(self) -> Checkpoint:
        """Where the judging stands: the end of the last whole line judged, and the digest up to it."""
        if self._dropping and self._before_drop is not None:
            return self._before_drop
        return Checkpoint(self.offset, self.line, self.digest.hexdigest())

    def catch_up(self, length: int) -> Iterator[list[Record]]:
        """The records of the first `length` bytes (a restart judges them again, silently, so that the
        replay's state (the table, its limits, the shoe, the meters) is exactly what it was)."""
        while self._read_to < length:
            data = self._handle.read(min(PIECE, length - self._read_to))
            if not data:
                return
            self._read_to += len(data)
            yield self._records(data)

    def look(self) -> tuple[list[Record], Change | None, bool]:
        """The records of the lines completed since the last look; a change of the file at this path; and
        whether more is waiting to be read (a piece was read whole)."""
        change = self._change()
        if change is not None and change.what == "truncated":
            return [], change, False
        data = self._handle.read(PIECE)
        more = len(data) == PIECE
        self._read_to += len(data)
        return self._records(data), change, more

    def _change(self) -> Change | None:
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return Change(self.path, "removed")
        except OSError:
            return None
        if Identity.of(now) != self.identity:
            return Change(self.path, "replaced")
        if now.st_size < self._read_to:
            return Change(self.path, "truncated")
        return None

    def _records(self, data: bytes) -> list[Record]:
        records: list[Record] = []
        while data:
            if self._dropping:
                end = data.find(b"\n")
                if end < 0:
                    self._dropping += len(data)
                    self.digest.update(data)
                    return records
                self.digest.update(data[: end + 1])
                length = self._dropping + end
                self.offset += length + 1
                self._dropping = 0
                self._before_drop = None
                records.extend(self.feed.too_long(length))
                data = data[end + 1 :]
                continue
            end = data.rfind(b"\n")
            if end < 0:
                self._keep(data)
                return records
            whole = self._partial + data[: end + 1]
            self._partial = b""
            self.digest.update(whole)
            self.offset += len(whole)
            records.extend(self.feed.feed(whole))
            self._keep(data[end + 1 :])
            return records
        return records

    def _keep(self, rest: bytes) -> None:
        """Keep back the start of a line without its newline; past the line limit, drop it as it comes
        (it is reported as too long once its newline arrives)."""
        partial = self._partial + rest
        if len(partial) <= self.limits.max_line:
            self._partial = partial
            return
        self._before_drop = self.checkpoint()
        self._partial = b""
        self._dropping = len(partial)
        self.digest.update(partial)

    def drain(self) -> list[Record]:
        """What is left to read of this (rotated or removed) file, to its end."""
        records: list[Record] = []
        while True:
            data = self._handle.read(PIECE)
            if not data:
                return records
            self._read_to += len(data)
            records.extend(self._records(data))


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """How far a log was judged: bytes (the end of a line), lines, and the SHA-256 of those bytes."""

    offset: int
    line: int
    sha256: str


class FollowedFolder:
    """A folder whose logs (`*.jsonl`, at any depth) are followed as they appear."""

    def __init__(self, path: str) -> None:
        if not os.path.isdir(path):
            raise ValidatorError(_("{path}: not a folder").format(path=path))
        self.path = path
        self.skipped: set[str] = set()  # files seen that are not followed (compressed), said once

    def logs(self) -> list[str]:
        """Every plain log in the folder now, sorted; compressed ones are noted in `skipped`."""
        found: list[str] = []
        try:
            for entry in sorted(Path(self.path).rglob("*")):
                name = entry.name
                if not name.endswith(LOG_SUFFIXES) or not entry.is_file():
                    continue
                if name.endswith(FOLLOWED_SUFFIX):
                    found.append(str(entry))
                else:
                    self.skipped.add(str(entry))
        except OSError:
            return found
        return found
