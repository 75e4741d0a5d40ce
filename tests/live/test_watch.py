"""`watch`: rounds judged as a table writes them, through the real command in a process of its own.

What every test holds `watch` to is what `check` gives for the finished file: the same findings, in the
same order, with the same words. No test measures speed: a finding is waited for (up to `WAIT` seconds,
far beyond what it takes) and the order and the count are asserted; how fast findings come is measured by
benchmarks/bench_watch.py.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

DISPUTE = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"
WAIT = 30.0  # seconds a test waits for what must come; never reached unless the watch is broken
COMMAND = [sys.executable, "-P", "-m", "validator", "watch"]


class Watch:
    """A `watch` process whose standard output is read line by line as it comes."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, *args, "--interval", "0.05"],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def take(self, count: int) -> list[str]:
        """The next `count` lines written, waiting for each."""
        taken = []
        for _ in range(count):
            try:
                taken.append(self.lines.get(timeout=WAIT))
            except queue.Empty:
                pytest.fail(f"watch wrote {len(taken)} of {count} lines; stderr: {self.stop()[1]}")
        return taken

    def nothing_yet(self, wait: float = 0.5) -> bool:
        """True if nothing is written within `wait` seconds (a wait that can only make the test stricter)."""
        try:
            self.lines.get(timeout=wait)
        except queue.Empty:
            return True
        return False

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        """Send `sig`, wait for the end; the exit status and standard error."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=WAIT)
        assert self.process.stderr is not None
        return self.process.returncode, self.process.stderr.read()

    def rest(self) -> list[str]:
        out = []
        while not self.lines.empty():
            out.append(self.lines.get())
        return out


@contextmanager
def watching(args: list[str], cwd: Path) -> Iterator[Watch]:
    watch = Watch(args, cwd)
    try:
        yield watch
    finally:
        if watch.process.poll() is None:
            watch.process.kill()
            watch.process.wait()


def check_jsonl(log: str, cwd: Path, *extra: str) -> list[str]:
    """What `check` reports for the finished file, one JSON line per finding."""
    done = run_cli("check", log, "--format", "jsonl", "--no-config", *extra, cwd=cwd)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.splitlines(keepends=True)


def by_line(findings: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for text in findings:
        line = json.loads(text)["line"]
        counts[line] = counts.get(line, 0) + 1
    return counts


def test_rounds_appended_one_by_one_give_their_findings_as_they_come(tmp_path: Path) -> None:
    lines = DISPUTE.read_bytes().splitlines(keepends=True)
    (tmp_path / "t.jsonl").write_bytes(b"".join(lines))
    expected = check_jsonl("t.jsonl", tmp_path)
    assert len(expected) == 7  # samples/README.md: one finding per disputed round of BJ-03
    per_line = by_line(expected)
    log = tmp_path / "t.jsonl"
    log.write_bytes(b"")
    got: list[str] = []
    with watching(["t.jsonl", "--format", "jsonl", "--no-config"], tmp_path) as watch:
        for number, line in enumerate(lines, start=1):
            if number == 5:
                # Half a line is never judged: nothing comes until its newline is written.
                with log.open("ab") as handle:
                    handle.write(line[:40])
                assert watch.nothing_yet()
                with log.open("ab") as handle:
                    handle.write(line[40:])
            else:
                with log.open("ab") as handle:
                    handle.write(line)
            got += watch.take(per_line.get(number, 0))
            assert watch.nothing_yet(0.2), f"more findings than check gives after line {number}"
        status, stderr = watch.stop()
    assert got == expected
    assert status == 1, stderr  # findings at the fail level, as check
    assert "Traceback" not in stderr


def test_a_new_log_in_a_watched_folder_is_picked_up(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    (tmp_path / "ref.jsonl").write_bytes(DISPUTE.read_bytes())
    expected = check_jsonl("ref.jsonl", tmp_path)
    with watching(["tables", "--format", "jsonl", "--no-config"], tmp_path) as watch:
        assert watch.nothing_yet()
        (folder / "BJ-03.jsonl").write_bytes(DISPUTE.read_bytes())
        got = watch.take(len(expected))
        status, stderr = watch.stop()
    assert [json.loads(x) | {"file": "ref.jsonl"} for x in got] == [json.loads(x) for x in expected]
    assert json.loads(got[0])["file"] == os.path.join("tables", "BJ-03.jsonl")
    assert status == 1, stderr


def test_an_empty_log_is_a_seance_not_yet_written_not_a_finding(tmp_path: Path) -> None:
    """docs/watch.md, "An empty file": `check` of a finished empty file says `hand-log/empty`; a watch
    says nothing of a file that holds nothing yet, still empty when it stops or rotated empty to another
    name."""
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "current.jsonl").write_bytes(b"")
    assert "hand-log/empty" in "".join(check_jsonl("tables/current.jsonl", tmp_path))
    (tmp_path / "ref.jsonl").write_bytes(DISPUTE.read_bytes())
    expected = check_jsonl("ref.jsonl", tmp_path)
    with watching(["tables", "--format", "jsonl", "--no-config"], tmp_path) as watch:
        assert watch.nothing_yet()
        (folder / "current.jsonl").rename(folder / "2026-11-29.jsonl")
        (folder / "current.jsonl").write_bytes(b"")
        assert watch.nothing_yet()
        # A séance written beside them: its findings, and only its, come (the watch is running).
        (folder / "BJ-03.jsonl").write_bytes(DISPUTE.read_bytes())
        got = watch.take(len(expected))
        assert watch.nothing_yet()
        status, stderr = watch.stop()
        got += watch.rest()
    assert {json.loads(line)["file"] for line in got} == {os.path.join("tables", "BJ-03.jsonl")}
    assert len(got) == len(expected)
    assert status == 1, stderr  # BJ-03's findings, at the fail level


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A séance of 300 rounds with payouts broken at random rounds: findings all along the file."""
    folder = tmp_path_factory.mktemp("planted")
    log = folder / "seance.jsonl"
    done = run_cli(
        "simulate",
        "--ruleset",
        "fr/blackjack@2024-11-01",
        "--rounds",
        "300",
        "--seed",
        "7",
        "--inject",
        "fr/blackjack/blackjack-pays-3-2,fr/blackjack/lower-total-loses",
        "--rate",
        "0.2",
        "-q",
        "-o",
        str(log),
    )
    assert done.returncode == 0, done.stderr
    return log


def test_kill_9_then_restart_gives_every_finding_exactly_once(tmp_path: Path, planted: Path) -> None:
    lines = planted.read_bytes().splitlines(keepends=True)
    log = tmp_path / "seance.jsonl"
    log.write_bytes(b"".join(lines))
    expected = check_jsonl("seance.jsonl", tmp_path)
    assert len(expected) > 20
    log.write_bytes(b"")
    args = [
        "seance.jsonl",
        "--format",
        "jsonl",
        "--no-config",
        "--output",
        "found.jsonl",
        "--state",
        "st.json",
    ]
    found = tmp_path / "found.jsonl"
    cuts = [0, 37, 90, 91, 200, len(lines)]
    for index, (start, end) in enumerate(itertools.pairwise(cuts)):
        with watching(args, tmp_path) as watch:
            with log.open("ab") as handle:
                handle.write(b"".join(lines[start:end]))
            # Wait until this watch has judged what was written (its state says so), then kill it hard,
            # once in the middle of a write of the report (`kill -9` at any moment must lose nothing).
            deadline = time.monotonic() + WAIT
            want = sum(len(x) for x in lines[:end])
            while time.monotonic() < deadline:
                state = tmp_path / "st.json"
                if state.exists():
                    marks = json.loads(state.read_text())["logs"]
                    if any(mark["offset"] == want for mark in marks.values()):
                        break
                time.sleep(0.05)
            else:
                pytest.fail(f"the watch did not reach byte {want}: {watch.stop()[1]}")
            if index % 2:
                # A killed watch whose report went further than its state: cut back on restart.
                with found.open("a") as handle:
                    handle.write('{"half": "a line written after the last commit"')
            watch.process.send_signal(signal.SIGKILL)
            watch.process.wait()
    assert found.read_text().splitlines(keepends=True) == expected


def test_a_command_per_finding_and_commands_that_fail_or_hang_do_not_stop_the_watch(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    expected = [json.loads(x) for x in check_jsonl("t.jsonl", tmp_path)]
    keep = f"{sys.executable} -c \"import sys; open('alerts.jsonl', 'a').write(sys.stdin.read())\""
    with watching(["t.jsonl", "--no-config", "--on-finding", keep], tmp_path) as watch:
        watch.take(1)  # the first finding's line: the watch is judging
        deadline = time.monotonic() + WAIT
        alerts = tmp_path / "alerts.jsonl"
        while time.monotonic() < deadline and (
            not alerts.exists() or len(alerts.read_text().splitlines()) < len(expected)
        ):
            time.sleep(0.05)
        status, stderr = watch.stop()
    received = [json.loads(x) for x in alerts.read_text().splitlines()]
    assert [{k: v for k, v in x.items() if k not in ("table", "at")} for x in received] == expected
    assert {x["table"] for x in received} == {"BJ-03"}
    assert status == 1, stderr
    # A command that fails, and one that hangs: the watch goes on, counts them and says so.
    (tmp_path / "t2.jsonl").write_bytes(b"")
    for command, timeout, said in (
        ("false", "10", "--on-finding: 7 commands failed"),
        ("sleep 60", "0.3", "commands killed past the timeout"),
    ):
        args = ["t2.jsonl", "--no-config", "--on-finding", command, "--on-finding-timeout", timeout]
        args += ["--state", f"{command.split()[0]}.json"]
        with watching(args, tmp_path) as watch:
            (tmp_path / "t2.jsonl").write_bytes(DISPUTE.read_bytes())
            text = "".join(watch.take(14))  # seven findings, each with its expected/actual line
            assert text.count(": error fr/blackjack/") == 7
            status, stderr = watch.stop()
        summary = "".join(watch.rest())
        assert status == 1
        assert said in summary, summary + stderr
        assert "Traceback" not in stderr
        assert "Traceback" not in stderr
        (tmp_path / "t2.jsonl").write_bytes(b"")


def test_a_truncated_log_is_said_and_judged_again(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    log.write_bytes(DISPUTE.read_bytes())
    with watching(["t.jsonl", "--format", "jsonl", "--no-config"], tmp_path) as watch:
        first = watch.take(7)
        # The table's software starts the file again: its first four lines, two disputed rounds.
        log.write_bytes(b"".join(DISPUTE.read_bytes().splitlines(keepends=True)[:4]))
        again = watch.take(2)
        _, stderr = watch.stop()
    assert again == first[:2]
    assert "became shorter than what was judged; judged again from its start" in stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["t.jsonl", "--format", "json"], "watch writes each finding as it comes"),
        (["missing.jsonl"], "missing.jsonl: no such file or directory"),
        (["-"], "to judge standard input, use check -"),
        (["t.jsonl", "--ruleset", "xx/none"], "unknown ruleset"),
    ],
)
def test_what_cannot_be_watched_is_exit_2_with_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    done = run_cli("watch", *args, "--no-config", cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_state_file_that_is_not_one_or_is_in_use_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    (tmp_path / "bad.json").write_text('{"format": "something else"}')
    done = run_cli("watch", "t.jsonl", "--state", "bad.json", "--no-config", cwd=tmp_path)
    assert done.returncode == 2
    assert "bad.json: not a watch state file" in done.stderr
    with watching(["t.jsonl", "--no-config", "--state", "st.json"], tmp_path) as watch:
        watch.take(1)
        second = run_cli("watch", "t.jsonl", "--state", "st.json", "--no-config", cwd=tmp_path)
        watch.stop()
    assert second.returncode == 2
    assert "another watch is using this state file" in second.stderr


def test_check_follow_is_watch_and_refuses_what_only_closed_files_allow(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    done = run_cli("check", "t.jsonl", "--follow", "--jobs", "2", cwd=tmp_path)
    assert done.returncode == 2
    assert "--follow judges rounds as they come: --jobs cannot go with it" in done.stderr
    command = [sys.executable, "-P", "-m", "validator", "check", "t.jsonl", "--follow", "-f", "jsonl"]
    process = subprocess.Popen(
        command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    first = process.stdout.readline()
    process.send_signal(signal.SIGINT)
    rest = process.stdout.read()  # through the same reader as the first line (it may hold more)
    process.wait(timeout=WAIT)
    assert process.stderr is not None
    stderr = process.stderr.read()
    assert json.loads(first)["rule"] == "fr/blackjack/dealer-stands-17"
    assert len((first + rest).splitlines()) == 7
    assert process.returncode == 1, stderr
