"""`Watcher`'s looks, in-process: when the report is flushed and when the state is committed.

A log being written is looked at again soon (`ACTIVE`) and its report flushed after each look that found
lines, but the state file (a file written and renamed: milliseconds of disk) is committed at most once an
interval while lines keep coming, and at the first look that finds none, so that a restart resumes from
every line judged. No speed is measured: only the order of the calls.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import ROOT

from validator import stops
from validator.checking.options import WatchOptions
from validator.commands import common
from validator.findings.finding import RoundOutcome, Summary
from validator.live.notify import Notices
from validator.live.state import WatchState
from validator.live.watch import Watcher
from validator.logs.limits import current_limits

DISPUTE = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"


def _watched(watcher: Watcher, state: WatchState) -> list[RoundOutcome]:
    """The watch's outcomes until it stops, as the command runs it (a stop asked for ends the watch), with
    a guard: a watch that never commits again fails its test after 30 s, never hangs it."""
    guard = threading.Timer(30.0, watcher.stop)
    guard.start()
    try:
        with stops.gently():
            return list(watcher.outcomes())
    finally:
        guard.cancel()
        state.close()


@pytest.mark.parametrize("notices", [True, False], ids=["notified", "polling"])
def test_a_look_that_judged_flushes_and_the_first_quiet_look_commits_the_state(
    tmp_path: Path, notices: bool
) -> None:
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
        common.registry(),
        options,
        Summary(),
        state,
        limits=current_limits(),
        commit=commit,
        flush=flush,
        notices=notices,
    )
    assert (watcher.notices is not None) == notices  # Linux, and the live extra installed with test
    outcomes = _watched(watcher, state)
    size = log.stat().st_size
    # The start's commit (the log known, which file it is, nothing judged yet: offset 0), one look that
    # judged every line (DISPUTE is under one piece), flushed, then a look that found nothing: the state
    # committed with every byte judged.
    assert calls == [("commit", 0), ("flush", None), ("commit", size)]
    assert sum(len(outcome.findings) for outcome in outcomes) == 7  # as test_watch's check of DISPUTE


def test_a_quiet_watch_is_woken_by_a_write_to_its_log_not_by_its_interval(tmp_path: Path) -> None:
    """With an interval of an hour, only the system's notice of the write can make the watch look before
    the guard stops it: the lines written once it waits are judged (DISPUTE's 7 findings), and its second
    commit holds every byte. A write to another file of the folder (the watch's own report, a note) is
    no notice of a log (`Notices.pending`, below)."""
    log = tmp_path / "t.jsonl"
    log.write_bytes(b"")
    state = WatchState.open(tmp_path / "st.json")
    offsets: list[int | None] = []
    options = WatchOptions(logs=(str(log),), interval=3600.0)

    def commit() -> None:
        mark = state.logs.get(str(log.resolve()))
        offsets.append(mark.offset if mark is not None else None)
        if len(offsets) == 1:  # started and waiting: the table writes its lines
            threading.Thread(target=log.write_bytes, args=(DISPUTE.read_bytes(),)).start()
        else:
            watcher.stop()

    watcher = Watcher(common.registry(), options, Summary(), state, limits=current_limits(), commit=commit)
    outcomes = _watched(watcher, state)
    assert offsets == [0, DISPUTE.stat().st_size]
    assert sum(len(outcome.findings) for outcome in outcomes) == 7


def test_notices_count_changes_of_logs_and_new_entries_only(tmp_path: Path) -> None:
    notices = Notices.open()
    assert notices is not None
    try:
        notices.watch(str(tmp_path))
        notices.names.add("table.log")  # a log followed by name, whatever its suffix
        assert notices.pending() == (False, False)
        (tmp_path / "report.txt").write_text("a finding\n")  # the watch's own report: not a log
        (tmp_path / ".st.json.tmp").write_text("{}")
        assert notices.pending() == (False, False)
        (tmp_path / "t.jsonl").write_bytes(b"{}\n")  # a log created: due, and the folders to list
        assert notices.pending() == (True, True)
        with (tmp_path / "t.jsonl").open("ab") as handle:
            handle.write(b"{}\n")  # written: due
        assert notices.pending() == (True, False)
        (tmp_path / "table.log").write_bytes(b"")
        assert notices.pending() == (True, True)
        (tmp_path / "sub").mkdir()  # a folder: listed, and watched at the listing
        assert notices.pending() == (True, True)
        (tmp_path / "t.jsonl").rename(tmp_path / "t.jsonl.1")  # rotated away: due
        assert notices.pending() == (True, False)
    finally:
        notices.close()
