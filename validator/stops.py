"""Stopping on SIGINT (Ctrl-C) and SIGTERM, however often and whenever they come.

Every command runs with these handlers (`install`, by the entry point's guard; `installed()` for a block,
in a test's process): the first signal stops it as Ctrl-C always did (a `KeyboardInterrupt` where the
main thread is, so that what the command set up is undone on the way out: a dataset's run removed, a
local cluster shut down, `--output` left as it was), and every signal after it is only counted, so that
nothing interrupts that way out. The exit status is then 128 + the first signal's number (130 for
Ctrl-C, 143 for SIGTERM).

A command whose normal end is a signal (`watch`, `check --follow`) asks for it `gently()`: a signal then
raises nothing; it only sets `requested()` and wakes `wait()`, and the command ends at its next look, with
its summary. The handler touches no lock (it sets a flag and writes a byte to a pipe of its own, whose
read end `wait` selects on): a handler that set a `threading.Event` the main thread was waiting on could
deadlock, as the signal runs in the main thread, possibly inside that Event's own lock.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
from collections.abc import Iterator
from types import FrameType
from typing import Any

SIGNALS: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)


class _Stops:
    """What the handler knows: the first signal, how many came, whether one raises, the wake-up pipe."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.count = 0
        self.gentle = 0  # nesting of `gently()`
        self.requested = False  # a gentle stop was asked for (by a signal or by `request`)
        self.pipe: tuple[int, int] | None = None

    def handler(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1
        if self.first is not None:
            self.wake()
            return  # already stopping: nothing interrupts the way out
        self.first = signum
        if self.gentle:
            self.requested = True
            self.wake()
            return
        raise KeyboardInterrupt

    def wake(self) -> None:
        if self.pipe is not None:
            with contextlib.suppress(OSError):  # a full pipe is awake already
                os.write(self.pipe[1], b"\0")


_STATE = _Stops()


def install() -> None:
    """The handlers of SIGINT and SIGTERM, for the rest of the process (the entry point's guard: a
    signal during the way out, or after it, is counted, never raised). Nothing outside the main thread."""
    reset()
    with contextlib.suppress(ValueError):
        for sig in SIGNALS:
            signal.signal(sig, _STATE.handler)


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """The same handlers for the time of a block (a command run in a test's process), the previous ones
    back after it; already installed (by `install`), they are left as they are."""
    previous: dict[int, Any] = {}
    with contextlib.suppress(ValueError):  # not the main thread: the caller's handlers stay
        for sig in SIGNALS:
            old = signal.getsignal(sig)
            if old != _STATE.handler:
                previous[sig] = signal.signal(sig, _STATE.handler)
    if previous:
        reset()
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def finishing() -> None:
    """The command has ended (the entry point's guard, just before the process exits): its status is
    decided, and a signal from now on is ignored. Ignored by the system, not by a handler: the interpreter
    puts the default action back on the signals it handles as it shuts down, which a signal coming then
    would take (the process killed by it, its status lost)."""
    if _STATE.first is None:
        _STATE.first = 0
    with contextlib.suppress(ValueError):  # not the main thread
        # A signal caught by the interpreter whose handler has not run yet would meet SIG_IGN when it
        # runs, and CPython prints it as "Signal 2 ignored due to race condition", with a traceback.
        # So: the signals held back, any already caught handled (counted: `first` is set), then ignored;
        # held back meanwhile, one that comes is dropped by the system with the others ignored.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
        try:
            for sig in SIGNALS:
                signal.signal(sig, _STATE.handler)  # runs the handler of any signal already caught
            for sig in SIGNALS:
                signal.signal(sig, signal.SIG_IGN)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)


def reset() -> None:
    """A new command in this process (the test suite runs many): no signal received yet."""
    _STATE.first = None
    _STATE.count = 0
    _STATE.requested = False
    _drain()


def received() -> int | None:
    """The first signal received since `reset`, or None."""
    return _STATE.first or None


def status(default: int = 130) -> int:
    """The exit status of a command stopped by a signal: 128 + its number (130 for Ctrl-C)."""
    return 128 + _STATE.first if _STATE.first else default


@contextlib.contextmanager
def gently() -> Iterator[None]:
    """While inside: a signal raises nothing, it sets `requested()` and wakes `wait()`. A stop asked
    for in here keeps later signals from raising too, to the end of the command."""
    _pipe()
    _STATE.gentle += 1
    try:
        yield
    finally:
        _STATE.gentle -= 1
        if not _STATE.gentle:
            _STATE.requested = False  # the stop asked for is done (`first` still keeps signals quiet)


def request() -> None:
    """Ask for the gentle stop as a signal does (`Watcher.stop`, from any thread)."""
    _STATE.requested = True
    _STATE.wake()


def requested() -> bool:
    return _STATE.requested


def wait(timeout: float, also: int | None = None) -> bool:
    """Wait up to `timeout` seconds, or less if a stop is asked for, or `also` (a file descriptor: the
    watch's change notices) becomes readable; whether a stop was asked for."""
    if _STATE.requested:
        return True
    with contextlib.suppress(InterruptedError):
        select.select([_pipe()] if also is None else [_pipe(), also], [], [], timeout)
    _drain()
    return _STATE.requested


def _pipe() -> int:
    """The wake-up pipe's read end (made once per process, both ends never blocking)."""
    if _STATE.pipe is None:
        read, write = os.pipe()
        os.set_blocking(read, False)
        os.set_blocking(write, False)
        _STATE.pipe = (read, write)
    return _STATE.pipe[0]


def _drain() -> None:
    if _STATE.pipe is None:
        return
    with contextlib.suppress(OSError):  # BlockingIOError: nothing left to read
        while os.read(_STATE.pipe[0], 512):
            pass
