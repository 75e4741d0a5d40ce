"""The progress display: on a terminal, for runs longer than a second (rounds, rounds/s, files); nothing
when standard error is not a terminal, nor with --quiet, nor for a short run."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from conftest import ROOT

from validator.checking import progress
from validator.findings.finding import RoundOutcome

HOUSE = ROOT / "samples" / "house" / "trouville.yaml"


def _read_all(fd: int, wait: float = 0.5) -> bytes:
    out = b""
    while True:
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return out
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other end closed
            return out
        if not chunk:
            return out
        out += chunk


def _slow_outcomes(count: int, pause: float) -> Iterator[RoundOutcome]:
    for n in range(count):
        time.sleep(pause)
        yield RoundOutcome(f"log-{n % 2}.jsonl", n + 1, f"r{n}", (), "clean")


def _shown_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
    outcomes: Iterator[RoundOutcome],
    *,
    plan: progress.PlanProgress | None = None,
    wait: float = 0.5,
) -> tuple[list[RoundOutcome], bytes]:
    """The outcomes passed through `with_progress` with standard error on a pseudo-terminal, and what the
    terminal received."""
    master, slave = pty.openpty()
    terminal = os.fdopen(slave, "w")
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    try:
        seen = list(progress.with_progress(outcomes, enabled=True, plan=plan))
        terminal.flush()
        return seen, _read_all(master, wait)
    finally:
        terminal.close()
        os.close(master)


def test_a_long_run_on_a_terminal_shows_rounds_rate_and_files(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "DELAY", 0.05)
    seen, written = _shown_on_a_terminal(monkeypatch, _slow_outcomes(1001, 0.0004))
    shown = written.decode("utf-8", "replace")
    assert len(seen) == 1001  # nothing held back or lost
    assert "1,000 rounds" in shown and "rounds/s" in shown and "2 file(s)" in shown


def test_a_run_on_a_cluster_also_shows_the_plan_done(monkeypatch: pytest.MonkeyPatch) -> None:
    # The shares finish in any order on the workers, and the rounds without findings never reach the
    # client: the display shows the plan's counts, refreshed by a clock even while no outcome comes.
    monkeypatch.setattr(progress, "DELAY", 0.05)
    monkeypatch.setattr(progress, "REFRESH", 0.02)
    plan = progress.PlanProgress()
    plan.start(0, 4_000_000)
    plan.planned(4)

    def outcomes() -> Iterator[RoundOutcome]:
        for n in range(3):
            plan.done(1_000_000)
            plan.merged(1_000, 1 if n == 0 else 0)
            time.sleep(0.3)  # a share without findings: nothing for the reporter meanwhile
        yield RoundOutcome("log-0.jsonl", 1, "r1", (), "findings")

    seen, written = _shown_on_a_terminal(monkeypatch, outcomes(), plan=plan)
    shown = written.decode("utf-8", "replace")
    assert len(seen) == 1
    assert "3,000 rounds" in shown and "1 file(s)" in shown
    assert "3/4 shares · 3.0 MB of 4.0 MB" in shown  # (the terminal's width may cut the rest)


def test_plan_progress_counts_a_recomputed_share_once() -> None:
    plan = progress.PlanProgress()
    assert plan.snapshot() == (0, 0, 0, 0)  # before the plan is known
    plan.start(2, 300)
    plan.done(100)
    plan.done(200)
    plan.done(200)  # a share a lost worker had finished, done again elsewhere
    assert plan.snapshot() == (2, 2, 300, 300)
    assert progress.describe(10, 1, 1.0, 300, 300, (2, 2)).startswith(
        "10 rounds · 10 rounds/s · 1 file(s) · 2/2 shares · 300 B of 300 B (100 %)"
    )


def test_disabled_progress_passes_outcomes_through_untouched(capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = list(_slow_outcomes(5, 0))
    assert list(progress.with_progress(iter(outcomes), enabled=False)) == outcomes
    assert capsys.readouterr().err == ""


def _check_on_a_terminal(*extra: str) -> str:
    """`check` with its standard error on a pseudo-terminal; what the terminal received."""
    master, slave = pty.openpty()
    command = [sys.executable, "-P", "-m", "validator", "check", str(ROOT / "samples" / "logs" / "clean")]
    command += ["--house", str(HOUSE), *extra]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=slave) as process:
        os.close(slave)
        shown = _read_all(master, wait=30)
        process.wait(timeout=60)
    os.close(master)
    return shown.decode("utf-8", "replace")


def test_a_run_shorter_than_the_delay_shows_nothing_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not a timed test: the delay is set beyond any run, so what is asserted is that nothing is drawn
    # before it (a real short run depends on the machine's load).
    monkeypatch.setattr(progress, "DELAY", 3600.0)
    seen, shown = _shown_on_a_terminal(monkeypatch, _slow_outcomes(1001, 0), wait=0.2)
    assert len(seen) == 1001
    assert shown == b""


def test_check_with_quiet_shows_nothing_on_a_terminal() -> None:
    assert "rounds/s" not in _check_on_a_terminal("--quiet")


def test_check_shows_nothing_when_standard_error_is_not_a_terminal(cli) -> None:
    result = cli("check", str(ROOT / "samples" / "logs" / "clean"), "--house", str(HOUSE))
    assert result.returncode == 0
    assert result.stderr == ""
