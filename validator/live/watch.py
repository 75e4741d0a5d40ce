"""`watch`: judge each round as the table writes it.

The logs (files, and folders whose logs are followed as they appear) are looked at every `interval`
seconds, and sooner (`ACTIVE`) after a look that found lines: a log being written is looked at again soon,
so its findings come within a fraction of the interval. Where the system tells of changes (inotify:
`validator.live.notify`), a quiet watch also looks as soon as a followed log, or a folder it follows,
changes: a round written at a casino's pace is judged within milliseconds, not within an interval. Each
whole line written since the last look is replayed by the same `LogReplay` as `check`, so a log's
findings come in the order, and with the words, that a `check` of the finished file gives. After each
look that judged something, `flush` is called (the report reaches its reader); `commit` (the report
flushed and the state saved: the caller's part, a file written and renamed) at most once an `interval`
while lines keep coming, and at the first look that finds none. `stop()`, or a signal under
`stops.gently()` (Ctrl-C, SIGTERM: the command's), ends the outcomes at the next look. The wait between
two looks is a timed `select` on the stops' wake-up pipe (and the notices'), never a lock a signal
handler could need.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from validator import stops
from validator.checking.options import WatchOptions
from validator.errors import ValidatorError
from validator.findings.finding import RoundOutcome, Summary
from validator.i18n import _
from validator.live.follow import Change, FollowedFolder, FollowedLog, Identity
from validator.live.notify import Notices
from validator.live.state import WatchState
from validator.logs.limits import Limits
from validator.replay.session import HouseLookup, LogReplay
from validator.rulebook.registry import Registry

FOLDER_EVERY = 1.0  # seconds between two listings of a followed folder
# Seconds to the next look after one that found lines (at most the interval): a table writing a round
# every 20 ms (a whole casino) has its findings within some 50 ms, not a whole interval, for a look's
# cost (a stat and a read: some 50 µs) where the state file's save (250 µs of CPU, milliseconds of
# disk) stays once an interval.
ACTIVE = 0.1


@dataclass(slots=True)
class _Log:
    """A log being followed and the replay that judges it."""

    name: str  # as given or found, how findings name it
    key: str  # its absolute path: the state file's key
    follow: FollowedLog
    replay: LogReplay


class Watcher:
    def __init__(
        self,
        registry: Registry,
        options: WatchOptions,
        summary: Summary,
        state: WatchState,
        *,
        limits: Limits,
        house: HouseLookup | None = None,
        commit: Callable[[], None] = lambda: None,
        flush: Callable[[], None] = lambda: None,
        say: Callable[[str], None] = lambda message: None,
        notices: bool = True,
    ) -> None:
        """Follow `options.logs` (judged by `options.ruleset`, looked at every `options.interval`
        seconds); `limits`: the reader's, from `options.limits`; `house`: the house file's lookup;
        `notices`: also look when the system tells of a change (where it can), else poll only."""
        self.registry = registry
        self.summary = summary
        self.state = state
        self.limits = limits
        self.ruleset = options.ruleset
        self.house = house
        self.interval = options.interval
        self.commit = commit
        self.flush = flush
        self.say = say
        self.files: list[str] = []
        self.folders: list[FollowedFolder] = []
        for target in options.logs:
            if target == "-":
                raise ValidatorError(
                    _("watch follows files and folders; to judge standard input, use check -")
                )
            if os.path.isdir(target):
                self.folders.append(FollowedFolder(target))
            elif os.path.isfile(target):
                self.files.append(target)
            elif os.path.exists(target):
                raise ValidatorError(
                    _("{path}: not a regular file or a folder; watch follows files").format(path=target)
                )
            else:
                raise ValidatorError(_("{path}: no such file or directory").format(path=target))
        self.logs: dict[str, _Log] = {}
        self.gone: set[str] = set()  # logs removed, followed again if they come back
        self._listed = 0.0
        self._skipped_said: set[str] = set()
        self.notices = Notices.open() if notices else None
        if self.notices is not None:
            for folder in self.folders:
                self.notices.watch(folder.path)

    def stop(self) -> None:
        stops.request()

    # ---- the loop ----

    def outcomes(self) -> Iterator[RoundOutcome]:
        if ruleset := self.ruleset:
            self.registry.resolve(ruleset)  # an unknown ruleset stops the watch before any file is read
        for name in self.files:
            self._start(name)
        self._list_folders()
        self._save()
        self.commit()
        committed = time.monotonic()
        owed = False  # lines judged since the last commit
        while not stops.requested():
            judged = False
            waiting = False
            if time.monotonic() - self._listed >= FOLDER_EVERY:
                judged = self._list_folders()  # a log found: the state says so (a rotated one, where it is)
            for log in list(self.logs.values()):
                records, change, more = log.follow.look()
                waiting = waiting or more
                if records:
                    judged = True
                    yield from log.replay.replay(iter(records))
                if change is not None:
                    judged = True
                    yield from self._changed(log, change)
            if judged:
                self.flush()
                owed = True
            if owed and (not judged or time.monotonic() - committed >= self.interval):
                self._save()
                self.commit()
                committed = time.monotonic()
                owed = False
            if not waiting:
                self._pause(judged)
        for log in self.logs.values():
            yield from log.replay.replay(log.follow.feed.end())
            log.follow.close()
        if self.notices is not None:
            self.notices.close()
        self._save()

    def _pause(self, judged: bool) -> None:
        """Wait for the next look: `ACTIVE` after a look that found lines (a log being written: its next
        lines are taken in a batch), else the interval, or less where a change is notified first."""
        if judged or self.notices is None:
            stops.wait(min(ACTIVE, self.interval) if judged else self.interval)
            return
        deadline = time.monotonic() + self.interval
        while (left := deadline - time.monotonic()) > 0:
            if stops.wait(left, self.notices.fileno()):
                return
            due, fresh = self.notices.pending()
            if fresh:
                self._listed = 0.0  # a log or a folder appeared: the folders are listed at this look
            if due:
                return

    # ---- starting to follow ----

    def _start(self, name: str) -> None:
        """Follow a log; where the state says how far it was judged, judge those lines again silently
        (rebuilding the replay's state) and go on from there. A file is known by its device and inode
        and the digest of its first bytes, not by its path: a file already followed under another name
        (renamed) goes on under this one, and a file judged under another name (rotated while this watch
        ran, or before it) goes on from where it was judged."""
        key = os.path.abspath(name)
        try:
            follow = FollowedLog(name, self.limits)
        except OSError as error:
            raise ValidatorError(
                _("{path}: cannot open ({error})").format(path=name, error=error.strerror)
            ) from None
        for other in list(self.logs.values()):
            if other.follow.identity == follow.identity:
                follow.close()
                if _identity_at(other.name) != follow.identity:  # renamed: followed under its new name
                    del self.logs[other.key]
                    self.state.logs.pop(other.key, None)
                    self.gone.add(other.key)  # a file named on the command line is followed when it is back
                    other.key, other.name, other.follow.path = key, name, name
                    self.logs[key] = other
                self.gone.discard(key)
                return  # else another name of the same file (a link): followed once
        self.summary.files += 1
        replay = LogReplay(self.registry, name, self.summary, pinned=self.ruleset, house=self.house)
        mark = self.state.claim(key, follow.identity, follow.head_digest)
        if mark is not None and mark.offset > 0:
            replay.summary = Summary()  # what was judged before is not counted again
            for records in follow.catch_up(mark.offset):
                for _unused in replay.replay(iter(records)):
                    pass
            replay.summary = self.summary
            now = follow.checkpoint()
            if (now.offset, now.line, now.sha256) != (mark.offset, mark.line, mark.sha256):
                if now.offset < mark.offset:
                    said = _(
                        "{path}: changed since the last watch (it holds {held} bytes of whole lines, the "
                        "state says {size} were judged); judged again from its start"
                    ).format(path=name, held=f"{now.offset:,}", size=f"{mark.offset:,}")
                else:
                    said = _(
                        "{path}: changed since the last watch (its first {size} bytes differ); judged again "
                        "from its start"
                    ).format(path=name, size=f"{mark.offset:,}")
                self.say(said)
                follow.close()
                follow = FollowedLog(name, self.limits)
                replay = LogReplay(self.registry, name, self.summary, pinned=self.ruleset, house=self.house)
        self.logs[key] = _Log(name, key, follow, replay)
        self.gone.discard(key)
        if self.notices is not None:
            self.notices.watch(os.path.dirname(key))
            self.notices.names.add(os.path.basename(key))

    def _list_folders(self) -> bool:
        """Follow the logs that appeared in the folders (and the files named that are back); whether
        one was found."""
        self._listed = time.monotonic()
        found = False
        for folder in self.folders:
            for name in folder.logs():
                key = os.path.abspath(name)
                if key not in self.logs:
                    self._start(name)
                    found = True
            if self.notices is not None:
                for subfolder in folder.subfolders:
                    self.notices.watch(subfolder)
            for name in sorted(folder.skipped - self._skipped_said):
                self._skipped_said.add(name)
                self.say(
                    _(
                        "{path}: a compressed log is not followed (judge it with check once it is written)"
                    ).format(path=name)
                )
        for name in self.files:
            key = os.path.abspath(name)
            if key in self.gone and os.path.isfile(name):
                self._start(name)
                found = True
        return found

    # ---- what happens to a file ----

    def _changed(self, log: _Log, change: Change) -> Iterator[RoundOutcome]:
        self.say(change.describe())
        self.summary.notes.append(change.describe())
        if change.what in ("truncated", "rewritten"):
            log.follow.close()
            del self.logs[log.key]
            self.state.logs.pop(log.key, None)
            self._start(log.name)
            return
        # Rotated, replaced or removed: what the old file holds is judged to its end, and remembered by
        # its device and inode, so that found again under another name it is not judged twice.
        yield from log.replay.replay(iter(log.follow.drain()))
        yield from log.replay.replay(log.follow.feed.end())
        log.follow.close()
        del self.logs[log.key]
        self.state.logs.pop(log.key, None)
        self.state.moved_away(log.follow.checkpoint())
        if change.what == "replaced" and os.path.isfile(log.name):
            self._start(log.name)
        else:
            self.gone.add(log.key)

    def _save(self) -> None:
        for key, log in self.logs.items():
            self.state.logs[key] = log.follow.checkpoint()


def _identity_at(path: str) -> Identity | None:
    try:
        return Identity.of(os.stat(path))
    except OSError:
        return None
