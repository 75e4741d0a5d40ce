"""Running one damaged input through the command, in this process, and judging what it did.

- no exception escapes a command (the real command would exit 3, "internal error");
- the exit status is one the command documents for that input (0, 1, 2; `rules check` 0 or 2);
- nothing reaches standard error but `casino-validator: …` messages and `FILE:LINE:COL` errors;
- a case takes under `TIMEOUT` seconds of CPU (the wall clock of a machine shared with other work counts
  their time too; the slowest wall-clock time is reported beside it);
- for a log that could be replayed (0 or 1), the rounds read equal an independent count of the lines
  that are rounds by the rule of docs/decisions.md (see `expected_rounds`).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import time
import zlib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import orjson
from inprocess import invoke
from jsonschema import Draft202012Validator

TIMEOUT = 20.0  # seconds: a case that takes longer is a failure (a hang, or work not bounded)
HANG = 120.0  # seconds of wall-clock: a case still running then is stopped, and fails as a hang
MAX_LINE = 1 << 20
KNOWN_TYPES = ("table", "limits", "dealer", "shoe", "round", "jackpot")
SCHEMA = Path(__file__).resolve().parents[2] / "validator" / "schemas" / "hand-log.schema.json"
HOUSE_LOG = Path(__file__).resolve().parents[2] / "samples" / "logs" / "clean" / "BJ-03-2016-06-10.jsonl"


@dataclass
class Tally:
    """What a run of cases saw, for the long run's report."""

    cases: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    slowest: float = 0.0  # CPU seconds
    slowest_wall: float = 0.0
    rounds_compared: int = 0

    def add(self, code: int, seconds: tuple[float, float]) -> None:
        self.cases += 1
        self.statuses[code] = self.statuses.get(code, 0) + 1
        self.slowest = max(self.slowest, seconds[0])
        self.slowest_wall = max(self.slowest_wall, seconds[1])

    def line(self, what: str) -> str:
        statuses = ", ".join(f"exit {k}: {v}" for k, v in sorted(self.statuses.items()))
        compared = (
            f"; {self.rounds_compared} logs' rounds equal to the independent count" if what == "logs" else ""
        )
        return (
            f"{what}: {self.cases} cases ({statuses}); 0 tracebacks; slowest {self.slowest:.2f} s of CPU "
            f"(limit {TIMEOUT:.0f} s; {self.slowest_wall:.2f} s wall-clock){compared}"
        )


@cache
def _schema() -> Draft202012Validator:
    return Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))


def _latin1_record(line: bytes) -> dict[str, object] | None:
    """A line that is not UTF-8 is read as Latin-1, and stands for the record it then is when that
    record is valid by the format's JSON Schema (hand-log/invalid-utf8 in docs/hand-log.md); else None."""
    try:
        line.decode("utf-8")
        return None  # UTF-8, and not JSON
    except UnicodeDecodeError:
        pass
    try:
        record = orjson.loads(line.decode("latin-1").encode("utf-8"))
    except orjson.JSONDecodeError:
        return None
    return record if isinstance(record, dict) and _schema().is_valid(record) else None


def expected_rounds(data: bytes) -> int:
    """The rounds a log holds, counted from its bytes without the program: every line (split at \\n)
    that is not blank counts when it cannot be read as a JSON object (in UTF-8; or, where it is not
    UTF-8, as a valid record in Latin-1), or when its `type` is missing or "round", or when its type is
    none of hand-log/1's and it carries a round id (text)."""
    count = 0
    for number, line in enumerate(data.split(b"\n")):
        if number == 0 and line.startswith(b"\xef\xbb\xbf"):
            line = line[3:]
        if len(line) > MAX_LINE:
            count += 1
            continue
        if not line.strip(b" \t\r\n\x0b\x0c"):
            # Python's bytes.isspace: the reader skips lines of ASCII whitespace only.
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            record = _latin1_record(line)
            if record is None:
                count += 1
                continue
        if not isinstance(record, dict) or "type" not in record or record["type"] == "round":
            count += 1
        elif not (isinstance(record["type"], str) and record["type"] in KNOWN_TYPES):
            count += isinstance(record.get("round"), str)
    return count


class Hang(BaseException):
    """Raised in the case by the wall-clock alarm (not an Exception: no command may catch it)."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def _timed(*args: str):
    started, cpu = time.perf_counter(), time.process_time()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG)
    try:
        ran = invoke(*args)
    except Hang:
        raise AssertionError(
            f"casino-validator {' '.join(args)[:500]} hung: no end within {HANG:.0f} s"
        ) from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    seconds = (time.process_time() - cpu, time.perf_counter() - started)
    assert seconds[0] < TIMEOUT, f"{' '.join(args)} took {seconds[0]:.1f} s of CPU"
    assert "Traceback" not in ran.stderr, ran.stderr
    # Every message is the program's own: `casino-validator: …` or `FILE:LINE:COL: …` (rules check).
    assert not ran.stderr or ran.stderr.startswith(("casino-validator: ", "/")), ran.stderr
    return ran, seconds


def check_log(path: Path, data: bytes, zipped: bool, tally: Tally) -> None:
    ran, seconds = _timed("check", str(path), "-f", "json", "-q")
    tally.add(ran.code, seconds)
    assert ran.code in (0, 1, 2), (ran.code, ran.stderr)
    if ran.code == 2:
        assert ran.stderr.startswith("casino-validator: "), ran.stderr
        return
    summary = json.loads(ran.stdout)["summary"]
    if zipped:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error):
            return  # a damaged stream: the reader counts what it could read, and one line more
    assert summary["rounds"]["read"] == expected_rounds(data), summary["rounds"]
    rounds = summary["rounds"]
    assert rounds["read"] == rounds["clean"] + rounds["with_findings"] + rounds["unreadable"]
    tally.rounds_compared += 1


def check_house(path: Path, tally: Tally, with_log: bool) -> None:
    ran, seconds = _timed("lint", str(path), "--date", "2025-03-14", "-f", "jsonl")
    tally.add(ran.code, seconds)
    assert ran.code in (0, 1, 2), (ran.code, ran.stderr)
    if ran.code == 2:
        assert ran.stderr.startswith("casino-validator: "), ran.stderr
    if with_log:
        ran, seconds = _timed("check", str(HOUSE_LOG), "--house", str(path), "-f", "jsonl", "-q")
        assert ran.code in (0, 1, 2), (ran.code, ran.stderr)


def _documented(ran, codes: tuple[int, ...] = (0, 1, 2)) -> None:
    assert ran.code in codes, (ran.code, ran.stderr)
    if ran.code == 2:
        assert ran.stderr.startswith("casino-validator: "), ran.stderr
        assert len(ran.stderr.strip().splitlines()) <= 3, ran.stderr  # one line (house: with its errors)
    assert all(len(line) < 2200 for line in ran.stderr.splitlines())


def check_config(path: Path, log: Path, tally: Tally) -> None:
    ran, seconds = _timed("check", str(log), "-q", "-f", "jsonl", "--config", str(path))
    tally.add(ran.code, seconds)
    _documented(ran)


def check_baseline(path: Path, log: Path, tally: Tally) -> None:
    ran, seconds = _timed("check", str(log), "-q", "-f", "jsonl", "--baseline", str(path))
    tally.add(ran.code, seconds)
    _documented(ran)


def damage_dataset(root: Path, damages: list[tuple[str, int, int]]) -> None:
    """The damages of mutators.dataset_damages, applied to the dataset's files (in a sorted list)."""
    for kind, which, where in damages:
        files = sorted(p for p in root.rglob("*.parquet") if p.is_file() and not p.is_symlink())
        if not files:
            return
        path = files[which % len(files)]
        if kind == "garbage":
            path.write_bytes(b"garbage\n")
        elif kind == "empty":
            path.write_bytes(b"")
        elif kind == "truncate":
            data = path.read_bytes()
            path.write_bytes(data[: where % max(1, len(data))])
        elif kind == "flip":
            data = bytearray(path.read_bytes())
            data[where % len(data)] ^= 0xFF
            path.write_bytes(bytes(data))
        elif kind == "remove":
            path.unlink()
        elif kind == "folder":
            path.unlink()
            path.mkdir()
        elif kind == "fifo":
            path.unlink()
            os.mkfifo(path)
        elif kind == "loop":
            path.unlink()
            path.symlink_to(path.name)
        elif kind == "stray":
            (path.parent / f"stray-{where}.parquet").write_bytes(b"PAR1garbagePAR1")
        else:  # a second copy of a file under another name: a manifest does not list it
            shutil.copy(path, path.with_name(f"copy-{where}-{path.name}"))


def check_report(root: Path, tally: Tally) -> None:
    ran, seconds = _timed("report", str(root), "-o", str(root.parent / "report.html"))
    tally.add(ran.code, seconds)
    _documented(ran, (0, 2))


def check_url(url: str, tally: Tally) -> None:
    ran, seconds = _timed("check", url, "-q", "-f", "json")
    tally.add(ran.code, seconds)
    _documented(ran)


def check_address(address: str, log: Path, tally: Tally) -> None:
    ran, seconds = _timed("check", str(log), "-q", "--scheduler", address, "--scheduler-timeout", "2")
    tally.add(ran.code, seconds)
    _documented(ran)


def check_ruleset(path: Path, tally: Tally) -> None:
    ran, seconds = _timed("rules", "check", str(path))
    tally.add(ran.code, seconds)
    assert ran.code in (0, 2), (ran.code, ran.stderr)
    if ran.code == 2:
        assert ran.stderr.startswith((f"{path}:", "casino-validator: ")), ran.stderr
    else:
        assert ran.stdout.startswith(f"{path}: ok"), ran.stdout


def check_fixtures(folder: Path, tally: Tally) -> None:
    ran, seconds = _timed("rules", "test", str(folder))
    tally.add(ran.code, seconds)
    # 0 every case passes, 1 a case fails, 2 a fixture that cannot be read.
    assert ran.code in (0, 1, 2), (ran.code, ran.stderr)
