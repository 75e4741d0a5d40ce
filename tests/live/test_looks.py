"""`Watcher`'s looks, in-process: when the report is flushed and when the state is committed.

A log being written is looked at again soon (`ACTIVE`) and its report flushed after each look that found
lines, but the state file (a file written and renamed: milliseconds of disk) is committed at most once an
interval while lines keep coming, and at the first look that finds none, so that a restart resumes from
every line judged. No speed is measured: only the order of the calls.
"""

from __future__ import annotations

import threading
from pathlib import Path

from conftest import ROOT

from validator.checking.options import WatchOptions
from validator.commands import common
from validator.findings.finding import Summary
from validator.live.state import WatchState
from validator.live.watch import Watcher
from validator.logs.limits import current_limits

DISPUTE = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"


def test_a_look_that_judged_flushes_and_the_first_quiet_look_commits_the_state(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    log.write_bytes(DISPUTE.read_bytes())
    state = WatchState.open(tmp_path / "st.json")
    calls: list[tuple[str, int | None]] = []

    def commit() -> None:
        mark = state.logs.get(str(log.resolve()))
        calls.append(("commit", mark.offset if mark is not None else None))
        if len(calls) > 2:
            watcher.stop()  # the commit after the lines: enough seen (an hour's interval is not waited)

    def flush() -> None:
        calls.append(("flush", None))

    # An interval of an hour: the state is committed after the lines only because a look found none.
    options = WatchOptions(logs=(str(log),), interval=3600.0)
    watcher = Watcher(
        common.registry(), options, Summary(), state, limits=current_limits(), commit=commit, flush=flush
    )
    guard = threading.Timer(30.0, watcher.stop)  # a watch that never commits again fails, never hangs
    guard.start()
    try:
        outcomes = list(watcher.outcomes())
    finally:
        guard.cancel()
        state.close()
    size = log.stat().st_size
    # The start's commit (the log known, which file it is, nothing judged yet: offset 0), one look that
    # judged every line (DISPUTE is under one piece), flushed, then a look that found nothing: the state
    # committed with every byte judged.
    assert calls == [("commit", 0), ("flush", None), ("commit", size)]
    assert sum(len(outcome.findings) for outcome in outcomes) == 7  # as test_watch's check of DISPUTE
