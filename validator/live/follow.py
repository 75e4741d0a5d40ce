"""Following a log as it grows: whole lines only, a file truncated or replaced noticed and said.

A `FollowedLog` reads what a table has written since the last look, keeps back a last line that has no
newline yet (it is never judged until completed), and hands the whole lines to a `RecordFeed`, so the
records, line numbers and findings are those `check` gives for the finished file. A line longer than the
line limit is dropped as it comes (memory stays bounded) and reported as `check` reports it.

A file is known by more than its path: its device and inode (a file renamed is the same file; a new file
under an old name is another), and the bytes already judged, of which its first and last 4 KiB are
compared at every look (a file truncated then written longer again between two looks has other bytes
there: it is judged again from its start, and said) and the SHA-256 of them all kept (`Checkpoint`).

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
# The bytes at the start and at the end of what was judged that each look compares with the file.
WINDOW = 4096


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
    what: str  # "truncated", "rewritten", "replaced", "removed"

    def describe(self) -> str:
        if self.what == "truncated":
            said = _("{path}: the file became shorter than what was judged; judged again from its start")
        elif self.what == "rewritten":
            said = _(
                "{path}: the bytes already judged changed (the file was written again from its start); "
                "judged again from its start"
            )
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
        self._head = b""  # the first WINDOW bytes judged
        self._tail = b""  # the last WINDOW bytes judged (while no over-long line is being dropped)

    @property
    def line(self) -> int:
        return self.feed.line

    def close(self) -> None:
        self._handle.close()

    def checkpoint(self) -> Checkpoint:
        """Where the judging stands: the end of the last whole line judged, the digest up to it, and which
        file it is (its device, inode and the digest of its first bytes)."""
        if self._dropping and self._before_drop is not None:
            return self._before_drop
        head = hashlib.sha256(self._head[: self.offset]).hexdigest()
        return Checkpoint(
            self.offset, self.line, self.digest.hexdigest(), self.identity.device, self.identity.inode, head
        )

    def head_digest(self, length: int) -> str:
        """The SHA-256 of the file's first `length` bytes (at most WINDOW), as they are now."""
        try:
            data = os.pread(self._handle.fileno(), min(length, WINDOW), 0)
        except OSError:
            return ""
        return hashlib.sha256(data).hexdigest()

    def _digested(self, data: bytes) -> None:
        self.digest.update(data)
        if len(self._head) < WINDOW:
            self._head += data[: WINDOW - len(self._head)]
        self._tail = (self._tail + data)[-WINDOW:] if len(data) < WINDOW else data[-WINDOW:]

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
        if change is not None and change.what in ("truncated", "rewritten"):
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
        if self._rewritten():
            return Change(self.path, "rewritten")
        return None

    def _rewritten(self) -> bool:
        """Whether the first or the last bytes judged are no longer what the file holds there: a file
        truncated and written longer again since the last look (its size alone does not tell)."""
        if self._dropping or not self.offset:
            return False
        fd = self._handle.fileno()
        try:
            head = os.pread(fd, len(self._head[: self.offset]), 0)
            tail = self._tail[-self.offset :]
            end = os.pread(fd, len(tail), self.offset - len(tail))
        except OSError:
            return False
        return head != self._head[: self.offset] or end != tail

    def _records(self, data: bytes) -> list[Record]:
        records: list[Record] = []
        while data:
            if self._dropping:
                end = data.find(b"\n")
                if end < 0:
                    self._dropping += len(data)
                    self._digested(data)
                    return records
                self._digested(data[: end + 1])
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
            self._digested(whole)
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
        self._digested(partial)

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
    """How far a log was judged: bytes (the end of a line), lines, and the SHA-256 of those bytes; and
    which file it was: its device and inode, and the SHA-256 of its first min(offset, WINDOW) bytes (None,
    "": a state written before they were kept)."""

    offset: int
    line: int
    sha256: str
    device: int | None = None
    inode: int | None = None
    head: str = ""

    @property
    def identity(self) -> Identity | None:
        return (
            Identity(self.device, self.inode) if self.device is not None and self.inode is not None else None
        )


class FollowedFolder:
    """A folder whose logs (`*.jsonl`, at any depth) are followed as they appear."""

    def __init__(self, path: str) -> None:
        if not os.path.isdir(path):
            raise ValidatorError(_("{path}: not a folder").format(path=path))
        self.path = path
        self.skipped: set[str] = set()  # files seen that are not followed (compressed), said once
        self.subfolders: list[str] = []  # the folders inside it at the last listing

    def logs(self) -> list[str]:
        """Every plain log in the folder now, sorted; compressed ones are noted in `skipped`, the
        folders inside it in `subfolders`."""
        found: list[str] = []
        self.subfolders = []
        try:
            for entry in sorted(Path(self.path).rglob("*")):
                name = entry.name
                if not name.endswith(LOG_SUFFIXES) or not entry.is_file():
                    if entry.is_dir():
                        self.subfolders.append(str(entry))
                    continue
                if name.endswith(FOLLOWED_SUFFIX):
                    found.append(str(entry))
                else:
                    self.skipped.add(str(entry))
        except OSError:
            return found
        return found
