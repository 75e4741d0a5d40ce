"""A progress display on the terminal (standard error) for runs that last more than a second."""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

from validator.findings import RoundOutcome

T = TypeVar("T", bound=RoundOutcome)
DELAY = 1.0


def with_progress(outcomes: Iterable[T], *, enabled: bool) -> Iterator[T]:
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
                display.update(
                    task, description=f"{rounds:,} rounds · {rate:,.0f} rounds/s · {len(files)} file(s)"
                )
            yield outcome
    finally:
        if display is not None:
            display.stop()
