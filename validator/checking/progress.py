"""A progress display on the terminal (standard error) for runs that last more than a second.

It shows rounds, rounds per second and files; where the input's size is known (the bytes of the log
files named), also how much of it is read and the time left. Its clock is the run's: `started` is when
the command began (with `--jobs`, before the logs are shared out), not when the display appears. A run
on a cluster also knows from its plan how many shares and bytes there are, and counts them as the shares
finish, in whatever order (`PlanProgress`): the bytes done and the time left are then the plan's.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from validator.findings.finding import RoundOutcome
from validator.i18n import _

T = TypeVar("T", bound=RoundOutcome)
U = TypeVar("U")
DELAY = 1.0


@dataclass(slots=True)
class PlanProgress:
    """Shares and bytes of a plan, and how many are done; counted from any thread."""

    shares: int = 0
    bytes: int = 0
    shares_done: int = 0
    bytes_done: int = 0
    # Rounds and files of the shares merged so far (the rounds themselves stay on the workers).
    rounds: int = 0
    files: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def start(self, shares: int, size: int) -> None:
        with self._lock:
            self.shares, self.bytes = shares, size

    def planned(self, shares: int) -> None:
        """More shares planned (the plan is made as the workers index the files)."""
        with self._lock:
            self.shares += shares

    def merged(self, rounds: int, files: int) -> None:
        with self._lock:
            self.rounds += rounds
            self.files += files

    def done(self, size: int, shares: int = 1) -> None:
        with self._lock:
            # A share a lost worker had finished is computed again: count it once.
            self.shares_done = min(self.shares, self.shares_done + shares)
            self.bytes_done = min(self.bytes, self.bytes_done + size)

    def snapshot(self) -> tuple[int, int, int, int]:
        """(shares done, shares, bytes done, bytes)."""
        with self._lock:
            return self.shares_done, self.shares, self.bytes_done, self.bytes

    def counted(self) -> tuple[int, int]:
        """(rounds, files) of the shares merged."""
        with self._lock:
            return self.rounds, self.files


def _size(count: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if count < 1000 or unit == "GB":
            return f"{count:,.0f} {unit}" if unit == "B" else f"{count:,.1f} {unit}"
        count /= 1000
    return f"{count:,.1f} GB"


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


def describe(
    rounds: int,
    files: int,
    elapsed: float,
    done: int | None = None,
    total: int | None = None,
    shares: tuple[int, int] | None = None,
) -> str:
    """`12,000 rounds · 5,400 rounds/s · 2 file(s) · 3.1 MB of 10.0 MB (31 %) · 0:02 elapsed, ETA 0:05`."""
    rate = rounds / max(elapsed, 1e-9)
    parts = [
        _("{rounds} rounds").format(rounds=f"{rounds:,}"),
        _("{rate} rounds/s").format(rate=f"{rate:,.0f}"),
        _("{files} file(s)").format(files=files),
    ]
    if shares is not None:
        parts.append(_("{done}/{shares} shares").format(done=shares[0], shares=shares[1]))
    clock = _("{clock} elapsed").format(clock=_clock(elapsed))
    if total and done is not None:
        done = min(done, total)
        parts.append(
            _("{done} of {total} ({percent} %)").format(
                done=_size(done), total=_size(total), percent=100 * done // total
            )
        )
        if done:
            clock += _(", ETA {clock}").format(clock=_clock(elapsed * (total - done) / done))
    parts.append(clock)
    return " · ".join(parts)


def _start_display() -> tuple[Any, Any]:
    """The one-line display on standard error, started, and its task."""
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn

    display = Progress(
        SpinnerColumn(), TextColumn("{task.description}"), console=Console(stderr=True), transient=True
    )
    display.start()
    return display, display.add_task("")


def with_progress(
    outcomes: Iterable[T],
    *,
    enabled: bool,
    started: float | None = None,
    total: int | None = None,
    position: Callable[[], int] | None = None,
    sizes: dict[str, int] | None = None,
    plan: PlanProgress | None = None,
) -> Iterator[T]:
    """`total`: the input's size in bytes; `position()`: the bytes read so far in this process. Without
    a position (another process reads), a file counts as read once the outcomes move past it, using
    `sizes`. With a cluster's `plan`, everything shown is the plan's: the rounds and files of the shares
    merged, the bytes of the shares finished (the rounds without findings never reach this process, so
    the display is refreshed by a clock, not by the outcomes)."""
    started = time.monotonic() if started is None else started
    if not enabled:
        yield from outcomes
        return
    if plan is not None:
        yield from _with_plan(outcomes, plan, started)
        return
    rounds = 0
    files: list[str] = []
    display: Any = None
    task = None
    try:
        for outcome in outcomes:
            if outcome.round is not None:
                rounds += 1
            if not files or files[-1] != outcome.file:
                files.append(outcome.file)
            if display is None and time.monotonic() - started > DELAY:
                display, task = _start_display()
            if display is not None and task is not None and rounds % 500 == 0:
                done: int | None
                if position is not None:
                    done = position()
                elif sizes is not None:
                    done = sum(sizes.get(f, 0) for f in set(files[:-1]))
                else:
                    done = None
                text = describe(rounds, len(set(files)), time.monotonic() - started, done, total)
                display.update(task, description=text)
            yield outcome
    finally:
        if display is not None:
            display.stop()


REFRESH = 0.2  # seconds between two refreshes of a cluster run's display


def _with_plan(outcomes: Iterable[T], plan: PlanProgress, started: float) -> Iterator[T]:
    stop = threading.Event()

    def show() -> None:
        display: Any = None
        task = None
        try:
            while not stop.wait(REFRESH):
                elapsed = time.monotonic() - started
                if display is None:
                    if elapsed <= DELAY:
                        continue
                    display, task = _start_display()
                shares_done, shares_all, done, size = plan.snapshot()
                rounds, files = plan.counted()
                text = describe(rounds, files, elapsed, done, size or None, (shares_done, shares_all))
                display.update(task, description=text)
        finally:
            if display is not None:
                display.stop()

    shower = threading.Thread(target=show, name="casino-validator-progress", daemon=True)
    shower.start()
    try:
        yield from outcomes
    finally:
        stop.set()
        shower.join()


def input_sizes(paths: Iterable[str]) -> dict[str, int]:
    """Bytes of each regular file among the logs (standard input and pipes have no known size)."""
    sizes: dict[str, int] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode):
            sizes[path] = info.st_size
    return sizes


def with_count(
    items: Iterable[U],
    *,
    total: int,
    counts: Callable[[U], bool],
    enabled: bool,
    started: float | None = None,
    what: str = "rounds",
) -> Iterator[U]:
    """A progress line for a run whose length is known in advance (`simulate --rounds N`): the items
    for which `counts` is true, of `total`, with their rate and the time left."""
    started = time.monotonic() if started is None else started
    if not enabled:
        yield from items
        return
    done = 0
    display: Any = None
    task = None
    try:
        for item in items:
            if counts(item):
                done += 1
                if display is None and time.monotonic() - started > DELAY:
                    display, task = _start_display()
                if display is not None and task is not None and (done % 200 == 0 or done == total):
                    elapsed = time.monotonic() - started
                    rate = done / max(elapsed, 1e-9)
                    left = (total - done) / rate if rate else 0.0
                    display.update(
                        task,
                        description=f"{done:,} of {total:,} {what} ({100 * done // max(total, 1)} %) · "
                        f"{rate:,.0f} {what}/s · {_clock(elapsed)} elapsed, ETA {_clock(left)}",
                    )
            yield item
    finally:
        if display is not None:
            display.stop()
