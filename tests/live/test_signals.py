"""Stops are safe: `watch`, `check --follow` and `check` end cleanly on SIGINT and SIGTERM however often
they come (issue 42), through the real command in processes of their own.

The signals come in bursts: one after another, SIGINT and SIGTERM in turn, until the process has ended,
so that some land while the command writes its summary, saves its state or exits. Before issue 42 a
burst left a watch hanging for good (its handler set a `threading.Event` the main thread was waiting on),
killed it by the default action of a second signal (no summary), or printed a traceback. Nothing here
measures time: each process is waited for, up to `WAIT` seconds, far beyond what ending takes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from conftest import ROOT

DISPUTE = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"
WAIT = 60.0
COMMAND = [sys.executable, "-P", "-m", "validator"]


class Running:
    """A command in a process of its own, its standard output and error read by threads as they come."""

    def __init__(self, args: list[str], cwd: Path, stdin: bytes | None = None) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, *args],
            cwd=cwd,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        if stdin is not None:
            assert self.process.stdin is not None
            self.process.stdin.write(stdin)
            self.process.stdin.flush()  # and kept open: the command waits for more
        self.out: list[bytes] = []
        self.err: list[bytes] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: IO[bytes] | None, into: list[bytes]) -> None:
        assert stream is not None
        for line in stream:
            into.append(line)

    def ended(self) -> tuple[int | None, str, str]:
        """The exit status (None: still running after `WAIT` seconds, then killed), output and errors."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=WAIT)
            status: int | None = self.process.returncode
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status = None
        for reader in self._readers:
            reader.join(timeout=WAIT)
        return status, b"".join(self.out).decode(), b"".join(self.err).decode()


def _burst(commands: list[Running]) -> None:
    """SIGINT and SIGTERM in turn to every process still running, until each has ended (or `WAIT`
    seconds have passed: then the test fails on the status, which a hung process does not have)."""
    sent = 0
    until = time.monotonic() + WAIT
    while time.monotonic() < until:
        running = [c.process for c in commands if c.process.poll() is None]
        if not running:
            return
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGINT if sent % 2 else signal.SIGTERM)
        sent += 1
        time.sleep(0.001)


def _wait_for(condition: Callable[[], bool]) -> None:
    until = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < until, "the condition never came"
        time.sleep(0.02)


def test_watches_under_bursts_of_signals_end_with_their_summary_and_status(tmp_path: Path) -> None:
    """Three watches, each sent signals until it ends: each exits 1 (the log's 7 disputed rounds: one
    finding each, samples/README.md), with every finding once, its summary, and its state saved."""
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    watches = [
        Running(["watch", "t.jsonl", "--no-config", "--interval", "0.01", "--state", f"st{n}.json"], tmp_path)
        for n in range(3)
    ]
    for watch in watches:
        _wait_for(lambda watch=watch: bool(watch.out))  # its first finding is out: the watch runs
    _burst(watches)
    for n, watch in enumerate(watches):
        status, out, err = watch.ended()
        assert status == 1, (status, out[-300:], err[-2000:])
        assert "Traceback" not in err
        assert sum(line.startswith("t.jsonl:") for line in out.splitlines()) == 7  # each finding once
        assert "summary" in out and "rounds with findings: 7" in out, out[-800:]
        state = json.loads((tmp_path / f"st{n}.json").read_text())
        [mark] = state["logs"].values()
        assert mark["offset"] == DISPUTE.stat().st_size


def test_check_follow_under_a_burst_of_signals_ends_with_its_summary(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    follow = Running(["check", "t.jsonl", "--follow", "--no-config", "-f", "jsonl"], tmp_path)
    _wait_for(lambda: bool(follow.out))
    _burst([follow])
    status, out, err = follow.ended()
    assert status == 1, (status, err[-2000:])
    assert "Traceback" not in err
    assert len(out.splitlines()) == 7  # every finding once (jsonl: its summary is on standard error)


def test_check_interrupted_by_bursts_of_signals_undoes_its_run(tmp_path: Path) -> None:
    """`check -` reading a pipe that stays open cannot end by itself: a burst of signals ends it, with 143
    (SIGTERM first) or 130 (SIGINT first), "Aborted!" and no traceback, and the dataset it was writing
    holds nothing of the run (no data file, no manifest, no lock)."""
    checks = [
        Running(
            ["check", "-", "--no-config", "-f", "jsonl", "--dataset", f"ds{n}"],
            tmp_path,
            DISPUTE.read_bytes(),
        )
        for n in range(2)
    ]
    for n in range(2):  # the run holds its lock: it is under way (and can only wait for more)
        _wait_for(lambda n=n: any((tmp_path / f"ds{n}" / "runs").glob(".*.lock")))
    _burst(checks)
    for n, check in enumerate(checks):
        status, _out, err = check.ended()
        assert status in (130, 143), (status, err[-2000:])
        assert "Traceback" not in err and "Aborted!" in err
        left = [p for p in (tmp_path / f"ds{n}").rglob("*") if p.is_file()]
        assert left == []
