"""Woken when a followed log changes: Linux's inotify, through `inotify_simple` (the `live` extra).

`watch` looks at its logs every `--interval` seconds; where the system tells it of changes, it also looks
as soon as a log it follows, or one that appears in a folder it follows, is written, created, moved or
removed: at a casino's pace (a line every half second) a round is judged within milliseconds of its
line rather than within an interval, and a quiet watch is woken by nothing but its interval. The folders
are watched, not the files (a file's watch would follow it when it is renamed away; a folder's sees
whatever takes the name). The looks themselves do not change: a notice only ends the wait sooner, so
every poll is still made on time (a log on a network share, whose remote writes raise no notice, is
followed as without it) and nothing is judged from a notice alone.

Without the package, on a system without inotify, or past the system's limit of watches, `open()` gives
None or a folder is not watched: the watch polls, as it always could.
"""

from __future__ import annotations

import os
from typing import Any

from validator.logs.reader import LOG_SUFFIXES

# What the kernel says of a watched folder's entries that a look may need to see: a log written or
# truncated, created or moved in or out, removed; and of the folder itself, moved or removed.
_WANTED = ("MODIFY", "CREATE", "DELETE", "MOVED_FROM", "MOVED_TO", "DELETE_SELF", "MOVE_SELF")
# Events that are about the folder or the queue, whatever their name: a look is due.
_ALWAYS = ("ISDIR", "Q_OVERFLOW", "DELETE_SELF", "MOVE_SELF", "IGNORED")


class Notices:
    """An inotify instance watching folders; `pending()` says whether a followed log may have changed
    since it was last asked (events about other files, such as the watch's own report or state file
    written in the same folder, do not count)."""

    def __init__(self, inotify: Any, flags: Any) -> None:
        self._inotify = inotify
        self._mask = 0
        for name in _WANTED:
            self._mask |= int(getattr(flags, name))
        self._always = 0
        for name in _ALWAYS:
            self._always |= int(getattr(flags, name))
        self._new = int(flags.CREATE) | int(flags.MOVED_TO) | int(flags.Q_OVERFLOW)
        self._ignored = int(flags.IGNORED)
        self._folders: dict[int, str] = {}  # watch descriptor → folder
        self.names: set[str] = set()  # the base names of the logs followed by name (any suffix)

    @staticmethod
    def open() -> Notices | None:
        """Notices, or None where they cannot be had (no `inotify_simple`, not Linux, no inotify)."""
        try:
            # The live extra, optional: without it, the watch polls.
            from inotify_simple import INotify, flags
        except ImportError:
            return None
        try:
            inotify = INotify(nonblocking=True)
        except OSError:  # no inotify in this kernel, or the limit of instances reached
            return None
        return Notices(inotify, flags)

    def fileno(self) -> int:
        return int(self._inotify.fileno())

    def watch(self, folder: str) -> None:
        """Be told of changes in `folder` (not of its subfolders: each is watched on its own). A folder
        that cannot be watched (the system's limit of watches reached, no permission) is polled."""
        folder = os.path.abspath(folder)
        if folder in self._folders.values():
            return
        try:
            self._folders[int(self._inotify.add_watch(folder, self._mask))] = folder
        except OSError:
            return

    def pending(self) -> tuple[bool, bool]:
        """Whether a change that concerns a log came since the last call, and whether an entry appeared
        (a log or a folder created or moved in: the folders are to be listed again). The events are read
        and forgotten: the look that follows sees what they announced."""
        try:
            events = self._inotify.read(timeout=0)
        except OSError:
            return True, True  # the queue cannot be read: look and list, as a poll would
        due = fresh = False
        for event in events:
            if event.mask & self._ignored:  # the folder is gone: watched again if it comes back
                self._folders.pop(event.wd, None)
            if event.mask & self._always or event.name.endswith(LOG_SUFFIXES) or event.name in self.names:
                due = True
                fresh = fresh or bool(event.mask & self._new)
        return due, fresh

    def close(self) -> None:
        self._inotify.close()
