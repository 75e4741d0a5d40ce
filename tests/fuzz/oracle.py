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

import contextlib
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
HANG = 120.0  # seconds of wall-clock: a case still running then, having used under HANG_CPU seconds
HANG_CPU = 0.5  # of CPU in that time, is stopped and fails as a hang (see `_alarm`)
MAX_LINE = 1 << 20
KNOWN_TYPES = ("table", "limits", "dealer", "shoe", "round", "jackpot")
ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "validator" / "schemas" / "hand-log.schema.json"
HOUSE_LOG = Path(__file__).resolve().parents[2] / "samples" / "logs" / "clean" / "BJ-03-2016-06-10.jsonl"


@dataclass
class Tally:
    """What a run of cases saw, for the long run's report."""

    cases: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    slowest: float = 0.0  # CPU seconds
    slowest_wall: float = 0.0
    rounds_compared: int = 0

    def add(self, code: int, seconds: tuple[float, float], case: bool = True) -> None:
        """A command's status and time; `case`: the first command of a case (a case of several runs
        several commands, each status counted)."""
        self.cases += case
        self.statuses[code] = self.statuses.get(code, 0) + 1
        self.slowest = max(self.slowest, seconds[0])
        self.slowest_wall = max(self.slowest_wall, seconds[1])

    def line(self, what: str) -> str:
        statuses = ", ".join(f"exit {k}: {v}" for k, v in sorted(self.statuses.items()))
        compared = (
            f"; {self.rounds_compared} cases' rounds equal to the independent count"
            if self.rounds_compared
            else ""
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


def expected_zipped(data: bytes) -> int:
    """The rounds of a gzip log, damaged or not: zlib decodes it a byte at a time, which gives every byte
    it can decode before it detects damage (a flipped byte, the stream cut short, a trailer that does not
    match). A whole stream counts as its lines do (`expected_rounds`); a damaged one as the lines it holds
    whole before the damage, and one more: the `hand-log/truncated` finding standing for the rest, the
    line cut there included (docs/hand-log.md). The logs the mutators write are one gzip member each."""
    if not data:
        return 0  # an empty file: no member, no line
    member = zlib.decompressobj(16 + zlib.MAX_WBITS)
    decoded: list[bytes] = []
    whole = False
    for at in range(len(data)):
        try:
            decoded.append(member.decompress(data[at : at + 1]))
        except zlib.error:
            break
        if member.eof:
            whole = at == len(data) - 1  # nothing after the member's trailer
            break
    out = b"".join(decoded)
    if whole:
        return expected_rounds(out)
    return expected_rounds(out[: out.rfind(b"\n") + 1]) + 1


class Hang(BaseException):
    """Raised in the case by the wall-clock alarm (not an Exception: no command may catch it)."""


def _alarm(since: list[float]):
    """Every `HANG` s of wall clock: a case that used under `HANG_CPU` s of CPU in that time is waiting on
    nothing that comes (a hang), and one past `TIMEOUT` s of CPU is working without end: either is
    stopped. A case that works, slowly, on a machine busier than itself (the long run under `nice -n
    19`, load 33 on 2 cores: 3 % of a core) is let go on: it was stopped as a hang, and passed when
    Hypothesis ran it again."""

    def ring(signum: int, frame: object) -> None:
        now = time.process_time()
        if now - since[0] < HANG_CPU or now - since[1] > TIMEOUT:
            raise Hang
        since[0] = now
        signal.setitimer(signal.ITIMER_REAL, HANG)

    return ring


def _timed(*args: str):
    started, cpu = time.perf_counter(), time.process_time()
    previous = signal.signal(signal.SIGALRM, _alarm([cpu, cpu]))
    signal.setitimer(signal.ITIMER_REAL, HANG)
    try:
        ran = invoke(*args)
    except Hang:
        raise AssertionError(
            f"casino-validator {' '.join(args)[:500]} hung: under {HANG_CPU} s of CPU in {HANG:.0f} s, "
            f"or over {TIMEOUT:.0f} s of CPU"
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
    rounds = json.loads(ran.stdout)["summary"]["rounds"]
    assert rounds["read"] == (expected_zipped(data) if zipped else expected_rounds(data)), rounds
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
            if data:  # a file emptied by a damage before has no byte to flip
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


def check_ruleset(path: Path, tally: Tally, also: tuple[Path, ...] = ()) -> None:
    """`rules check` of the file, named with `also` (the versions it may amend: a file beside it is read
    only when named)."""
    ran, seconds = _timed("rules", "check", str(path), *map(str, also))
    tally.add(ran.code, seconds)
    assert ran.code in (0, 2), (ran.code, ran.stderr)
    if ran.code == 2:
        named = tuple(f"{p}:" for p in (path, *also))
        assert all(
            line.startswith((*named, "casino-validator: ", " ")) or _in_a_shipped_file(line)
            for line in ran.stderr.splitlines()
        ), ran.stderr
    else:
        assert any(line.startswith(f"{path}: ok") for line in ran.stdout.splitlines()), ran.stdout


def _in_a_shipped_file(line: str) -> bool:
    """A message at a place of a shipped ruleset: a file checked as a candidate for a shipped version
    is compiled with the shipped versions that amend it or take its checks (`same check as`), and one
    that no longer fits is told where it is (fr/bataille's six-decks, which takes a check of
    fr/blackjack's, when a damaged 2013 wording changes that check)."""
    place, _, message = line.partition(".rules:")
    return bool(message) and f"{place}.rules".endswith(_SHIPPED_NAMES)


_SHIPPED_NAMES = tuple(
    f"/{p.relative_to(ROOT / 'rulesets').as_posix()}" for p in (ROOT / "rulesets").rglob("*.rules")
)


def check_fixtures(folder: Path, tally: Tally) -> None:
    ran, seconds = _timed("rules", "test", str(folder))
    tally.add(ran.code, seconds)
    # 0 every case passes, 1 a case fails, 2 a fixture that cannot be read.
    assert ran.code in (0, 1, 2), (ran.code, ran.stderr)


# ---------------------------------------------------------------- issue 42: the surfaces hardened there


def check_outside_ruleset(
    folder: Path, files: list[bytes], all_readings: bool, log: Path, tally: Tally
) -> None:
    """A ruleset from outside (one version or a chain), `rules check`ed then used to judge a log: each
    command ends with a documented status within `TIMEOUT` (the bounds of docs/rules-language.md refuse
    what would explode, at FILE:LINE:COL), and a log judged by it has its rounds accounted."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for index, data in enumerate(files):
        (folder / f"v{index:02}.rules").write_bytes(data)
    ran, seconds = _timed("rules", "check", str(folder))
    tally.add(ran.code, seconds)
    assert ran.code in (0, 2), (ran.code, ran.stderr)
    if ran.code == 2:
        assert all(line.startswith((f"{folder}/", "casino-validator: ")) for line in ran.stderr.splitlines())
    extra = ("--all-readings",) if all_readings else ()
    judged, seconds = _timed(
        "check", str(log), "--rules", str(folder), "--ruleset", "zz/fuzz", "-f", "json", *extra
    )
    tally.add(judged.code, seconds)
    assert judged.code in (0, 1, 2), (judged.code, judged.stderr)
    if judged.code == 2:
        # Only what `rules check` refused, or --all-readings past its bound of alternatives judged.
        assert ran.code == 2 or "--all-readings:" in judged.stderr, judged.stderr
        return
    summary = json.loads(judged.stdout)["summary"]
    assert summary["rounds"]["read"] == expected_rounds(log.read_bytes()), summary["rounds"]
    tally.rounds_compared += 1


WATCH = ["watch", "tables", "--format", "jsonl", "--no-config", "--output", "found.jsonl"]
WATCH += ["--state", "st.json", "--interval", "0.05"]


def _waited(condition, what: str) -> None:
    until = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < until, f"watch: never came within {HANG:.0f} s: {what}"
        time.sleep(0.05)


def _judged_whole(folder: Path) -> bool:
    """The state says every log of the folder is judged to its end, under its name now."""
    try:
        state = json.loads((folder / "st.json").read_text())
    except (OSError, ValueError):
        return False
    marks = {os.path.basename(key): mark["offset"] for key, mark in state["logs"].items()}
    on_disk = {p.name: p.stat().st_size for p in (folder / "tables").glob("*.jsonl")}
    return marks == on_disk


def _state_id(folder: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(folder / "st.json")
    except OSError:
        return None
    return info.st_ino, info.st_mtime_ns


def _segment(folder: Path, ops: list[tuple[str, int]], play: dict[str, int], tally: Tally) -> None:
    """One watch: started, the operations made while it runs, then stopped as the script says."""
    import subprocess
    import sys

    from mutators import WATCHED

    before = _state_id(folder)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-P", "-m", "validator", *WATCH],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _waited(lambda: _state_id(folder) != before or process.poll() is not None, "its first commit")
        tables = folder / "tables"
        for kind, count in ops[:-1]:
            current = tables / "current.jsonl"
            lines = WATCHED[play["seance"]].read_bytes().splitlines(keepends=True)
            if kind == "append":
                with current.open("ab") as handle:
                    handle.write(b"".join(lines[play["line"] : play["line"] + count]))
                play["line"] = min(len(lines), play["line"] + count)
            elif kind == "rotate" and play["seance"] + 1 < len(WATCHED) and current.stat().st_size:
                os.rename(current, tables / f"old-{play['rotated']}.jsonl")
                current.write_bytes(b"")
                play["rotated"] += 1
                play["seance"] += 1
                play["line"] = 0
        _waited(lambda: _judged_whole(folder) or process.poll() is not None, "every log judged whole")
        assert process.poll() is None, process.communicate()[1].decode()[-2000:]
        end, count = ops[-1]
        if end == "kill":
            process.kill()
            process.wait()
        else:
            sent = 0
            until = time.monotonic() + HANG
            while process.poll() is None and time.monotonic() < until:
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(signal.SIGTERM if sent % 2 else signal.SIGINT)
                sent += 1
                time.sleep(0.002 if sent < count else 0.05)
            assert process.wait(timeout=HANG) in (0, 1), process.returncode
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
        assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    tally.add(process.returncode, (0.0, time.perf_counter() - started), case=play["segments"] == 0)
    play["segments"] += 1


def check_watch_script(folder: Path, script: list[list[tuple[str, int]]], tally: Tally) -> None:
    """A folder watched across restarts while its séances are written, rotated to other `*.jsonl` names
    and the watches stopped by bursts of signals or killed: at the end, the report (`--output`) holds
    every finding `check` gives for the files the folder holds, each exactly once (an empty file, a
    séance not yet written, excepted: docs/watch.md)."""
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "tables").mkdir(parents=True)
    (folder / "tables" / "current.jsonl").write_bytes(b"")
    play = {"seance": 0, "line": 0, "rotated": 0, "segments": 0}
    for ops in [*script, [("signals", 20)]]:  # a last watch sees everything judged
        _segment(folder, ops, play, tally)
    expected: list[tuple[object, ...]] = []
    for path in sorted((folder / "tables").glob("*.jsonl")):
        if path.stat().st_size == 0:
            continue  # a log not yet written: `watch` owes no finding for it (docs/watch.md)
        ran = invoke("check", str(path), "-f", "jsonl", "--no-config")
        assert ran.code in (0, 1), ran.stderr
        expected += [_finding_key(line) for line in ran.stdout.splitlines()]
    got = [_finding_key(line) for line in (folder / "found.jsonl").read_text().splitlines()]
    assert sorted(got) == sorted(expected), (len(got), len(expected))


def _finding_key(line: str) -> tuple[object, ...]:
    finding = json.loads(line)
    return (finding["rule"], finding["round"], finding["line"], finding["stake"], finding["message"])


def check_overlaps(folder: Path, datasets: list[list[tuple[int, bool]]], tally: Tally) -> None:
    """Datasets of overlapping sets of logs (some logs as copies under another name, a dataset named
    twice): `report` over them exits 0, says which overlap, and counts every distinct log's rounds once
    (by the logs' SHA-256), as many as an independent count of their lines."""
    import hashlib

    from mutators import OVERLAPPING

    from validator.audit.query import Filters, connect

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    roots: list[str] = []
    digests: list[set[str]] = []
    made: dict[int, str] = {}
    contents: dict[str, bytes] = {}
    for number, chosen in enumerate(datasets):
        if id(chosen) in made:
            roots.append(made[id(chosen)])
            continue
        paths = []
        mine: set[str] = set()
        for index, copied in chosen:
            source = OVERLAPPING[index]
            path = source
            if copied:
                path = folder / f"copies-{number}" / f"copy-{source.name}"
                path.parent.mkdir(exist_ok=True)
                shutil.copy(source, path)
            data = source.read_bytes()
            digest = hashlib.sha256(data).hexdigest()
            contents[digest] = gzip.decompress(data) if source.suffix == ".gz" else data
            mine.add(digest)
            paths.append(str(path))
        root = str(folder / f"ds{number}")
        ran, seconds = _timed("check", *paths, "--dataset", root, "-q", "--no-config")
        tally.add(ran.code, seconds, case=not made)
        assert ran.code in (0, 1), (ran.code, ran.stderr)
        made[id(chosen)] = root
        roots.append(root)
        digests.append(mine)
    ran, seconds = _timed("report", *roots, "-o", str(folder / "page.html"))
    tally.add(ran.code, seconds, case=False)
    assert ran.code == 0, ran.stderr
    overlapping = any(a & b for i, a in enumerate(digests) for b in digests[i + 1 :])
    assert ("cover" in ran.stderr and "of the same logs" in ran.stderr) == overlapping, ran.stderr
    counted = connect(roots, Filters()).execute("SELECT sum(weight) FROM rounds").fetchone()[0]
    assert counted == sum(expected_rounds(data) for data in contents.values()), counted
    tally.rounds_compared += 1
