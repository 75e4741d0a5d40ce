"""A progress display on the terminal (standard error) for runs that last more than a second.

One process counts rounds as they are reported; a run on a cluster also knows from its plan how many
shares and bytes there are, and says how many are done (`PlanProgress`, counted as the shares finish,
in whatever order), in the same line.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

from validator.findings import RoundOutcome

T = TypeVar("T", bound=RoundOutcome)
DELAY = 1.0


@dataclass(slots=True)
class PlanProgress:
    """Shares and bytes of a plan, and how many are done; counted from any thread."""

    shares: int = 0
    bytes: int = 0
    shares_done: int = 0
    bytes_done: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def start(self, shares: int, size: int) -> None:
        with self._lock:
            self.shares, self.bytes = shares, size

    def done(self, size: int) -> None:
        with self._lock:
            # A share a lost worker had finished is computed again: count it once.
            self.shares_done = min(self.shares, self.shares_done + 1)
            self.bytes_done = min(self.bytes, self.bytes_done + size)

    def describe(self) -> str:
        with self._lock:
            shares, done, size, read = self.shares, self.shares_done, self.bytes, self.bytes_done
        if not shares:
            return ""
        part = f" · {read / size:.0%} of {_megabytes(size)}" if size else ""
        return f" · {done}/{shares} shares{part}"


def _megabytes(size: int) -> str:
    return f"{size / 1e6:,.1f} MB"


def with_progress(outcomes: Iterable[T], *, enabled: bool, plan: PlanProgress | None = None) -> Iterator[T]:
    if not enabled:
        yield from outcomes
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    started = time.monotonic()
    rounds = 0
    files: set[str] = set()
    display: Progress | None = None
    task = None
    try:
        for outcome in outcomes:
            if outcome.round is not None:
                rounds += 1
            files.add(outcome.file)
            if display is None and time.monotonic() - started > DELAY:
                display = Progress(
                    SpinnerColumn(),
                    TextColumn("{task.description}"),
                    TimeElapsedColumn(),
                    console=Console(stderr=True),
                    transient=True,
                )
                display.start()
                task = display.add_task("")
            if display is not None and task is not None and rounds % 500 == 0:
                rate = rounds / max(time.monotonic() - started, 1e-9)
                shares = plan.describe() if plan is not None else ""
                display.update(
                    task,
                    description=f"{rounds:,} rounds · {rate:,.0f} rounds/s · {len(files)} file(s){shares}",
                )
            yield outcome
    finally:
        if display is not None:
            display.stop()
