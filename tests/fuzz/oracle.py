"""Running one damaged input through the command, in this process, and judging what it did.

- no exception escapes a command (the real command would exit 3, "internal error");
- the exit status is one the command documents for that input (0, 1, 2; `rules check` 0 or 2);
- nothing reaches standard error but `casino-validator: …` messages and `FILE:LINE:COL` errors;
- a case takes under `TIMEOUT` seconds of CPU (the wall clock of a machine shared with other work counts
  their time too; the slowest wall-clock time is reported beside it);
- for a log that could be replayed (0 or 1), the rounds read equal an independent count of the lines
  that are rounds by the README's rule (see `expected_rounds`).
"""

from __future__ import annotations

import gzip
import json
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import orjson
from inprocess import invoke

TIMEOUT = 20.0  # seconds: a case that takes longer is a failure (a hang, or work not bounded)
MAX_LINE = 1 << 20
KNOWN_TYPES = ("table", "limits", "dealer", "shoe", "round", "jackpot")
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


def expected_rounds(data: bytes) -> int:
    """The rounds a log holds, counted from its bytes without the program: every line (split at \\n)
    that is not blank counts when it cannot be read as a JSON object, or when its `type` is missing or
    "round", or when its type is none of hand-log/1's and it carries a round id (text)."""
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
            count += 1
            continue
        if not isinstance(record, dict) or "type" not in record or record["type"] == "round":
            count += 1
        elif not (isinstance(record["type"], str) and record["type"] in KNOWN_TYPES):
            count += isinstance(record.get("round"), str)
    return count


def _timed(*args: str):
    started, cpu = time.perf_counter(), time.process_time()
    ran = invoke(*args)
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
