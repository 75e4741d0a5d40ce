"""`check --jobs N`: files, and parts of a plain file, checked in parallel processes.

A file splits where the replay's state can be rebuilt without the records before: at a `table` record
(which resets everything), and at a `shoe` record (a new shoe resets the cards; what the table carries
over, its limits, is rebuilt by replaying the table record and the limits records before the share,
silently). The one thing a table carries from round to round is the JP1 jackpot meters, so a table
stops being split at shoes from its first jackpot record or JP1 stake on. Consecutive split points are
grouped into shares of similar size. Each worker writes its outcomes to a temporary file; the parent
streams them back in the original order, so the report is the same, byte for byte, as one process
gives, and memory stays flat.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import re
import stat
import tempfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from validator.check import teller
from validator.errors import ValidatorError
from validator.findings import RoundOutcome, Summary
from validator.logs.reader import (
    BOM,
    MAX_LINE,
    STDIN,
    check_record,
    iter_log_paths,
    read_record_range,
    read_records,
)
from validator.money import AmountError
from validator.registry import default_registry
from validator.replay.session import HouseLookup, LogReplay, read_table

if TYPE_CHECKING:
    from validator.dataset.writer import DatasetSpec, ShareWriter

# A record whose type is one of these, as the line's bytes may spell it; lines that could not be one of
# them (most rounds) are not parsed while planning. A backslash may spell anything: those are parsed.
_MAYBE_STATEFUL = re.compile(rb':\s*"(?:table|limits|shoe|jackpot)"|\\|jp1')
# Shares are at least this big (bytes), so that starting a share costs little beside replaying it.
MIN_SHARE = 1 << 20
SHARES_PER_JOB = 4


@dataclass(frozen=True, slots=True)
class Line:
    start: int
    end: int
    number: int


@dataclass(frozen=True, slots=True)
class Share:
    path: str
    start: int | None  # None: the whole file (gzip, stdin, or a file that does not split)
    end: int
    first_line: int
    first_of_file: bool
    # Replayed silently before the share: the table record and limits records that set the table's
    # state where the share begins (empty when it begins at a table record).
    preamble: tuple[Line, ...] = ()
    # Standard input, a named pipe, `<(…)`: read once, by the parent, in its turn (a worker would
    # find standard input empty, and a pipe the planner read would be empty too).
    in_parent: bool = False


def plan(paths: list[str], jobs: int) -> list[Share]:
    shares: list[Share] = []
    for path in iter_log_paths(paths):
        if not _is_regular_file(path):
            shares.append(Share(path, None, 0, 1, True, in_parent=True))
            continue
        if path.endswith(".gz") or jobs <= 1:
            shares.append(Share(path, None, 0, 1, True))
            continue
        shares.extend(_split(path, jobs))
    return shares


def _is_regular_file(path: str) -> bool:
    if path == STDIN:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the reader says what is wrong with it, in a worker as in one process


def _record_type(path: str, number: int, line: bytes) -> tuple[str | None, bool]:
    """(`table` or `shoe` when the record resets that part of the replay's state, `limits` when it is a
    limits record, else None; whether it touches the JP1 meters), exactly as the replay will see it."""
    if len(line) > MAX_LINE + 1 or not _MAYBE_STATEFUL.search(line):
        return None, False
    if number == 1 and line.startswith(BOM):
        line = line[len(BOM) :]
    try:
        data: Any = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None, False
    if not isinstance(data, dict):
        return None, False
    kind = data.get("type")
    if kind == "round":
        jackpot = b"jp1" in orjson.dumps([data.get("bets"), data.get("actions")])
        return None, jackpot
    if kind not in ("table", "limits", "shoe", "jackpot"):
        return None, False
    if kind in ("table", "shoe"):
        # Only a record the replay accepts resets anything; a broken one leaves the state as it was.
        if check_record(data, path, number) is not None:
            return None, False
        if kind == "table":
            try:
                read_table(data, number)
            except AmountError:
                return None, False
    return kind, kind == "jackpot"


def _split(path: str, jobs: int) -> list[Share]:
    """Shares of a plain file, cut at table records and, where the table allows, at shoe records."""
    points: list[tuple[Line, tuple[Line, ...]]] = []  # (where a share may start, its preamble)
    state: list[Line] = []  # the table record in force and the limits records since
    splittable = False
    offset = 0
    with open(path, "rb") as handle:
        for number, content in enumerate(handle, start=1):
            line = Line(offset, offset + len(content), number)
            offset = line.end
            kind, jackpot = _record_type(path, number, content)
            if number == 1 or kind == "table":
                points.append((line, ()))
            if kind == "table":
                state, splittable = [line], True
            elif kind == "shoe" and splittable and number > 1:
                points.append((line, tuple(state)))
            elif kind == "limits" and state:
                state.append(line)
            if jackpot:
                splittable = False
    target = max(MIN_SHARE, offset // (jobs * SHARES_PER_JOB))
    chosen = points[:1]
    for point in points[1:]:
        if point[0].start - chosen[-1][0].start >= target:
            chosen.append(point)
    if len(chosen) <= 1:
        return [Share(path, None, 0, 1, True)]
    ends = [line.start for line, _ in chosen[1:]] + [offset]
    return [
        Share(path, line.start, end, line.number, index == 0, preamble)
        for index, ((line, preamble), end) in enumerate(zip(chosen, ends, strict=True))
    ]


@functools.cache
def _house_lookup(house: str) -> HouseLookup:
    """A worker checks several shares: it reads and lints the house file once."""
    from validator.house.apply import house_lookup

    return house_lookup(Path(house), default_registry())[0]


def _outcomes(
    share: Share, ruleset: str | None, lookup: HouseLookup | None, summary: Summary, collect: bool = False
) -> Iterator[RoundOutcome]:
    """The share's outcomes, counted in `summary`; with `collect`, carrying the rounds' facts."""
    if share.first_of_file:
        summary.files = 1
    replay = LogReplay(
        default_registry(),
        share.path,
        Summary(),
        pinned=ruleset,
        house=lookup,
        collect=collect,
        teller=teller(collect),
    )
    for line in share.preamble:
        for _ in replay.replay(read_record_range(share.path, line.start, line.end, line.number)):
            pass  # the table's state is rebuilt; what these records say, their own share reports
    replay.summary = summary
    replay.judges.clear()
    records = (
        read_records(share.path)
        if share.start is None
        else read_record_range(share.path, share.start, share.end, share.first_line)
    )
    yield from replay.replay(records)


def _work(
    share: Share,
    ruleset: str | None,
    house: str | None,
    dataset: DatasetSpec | None = None,
    collect: bool = False,
) -> tuple[str, Summary, ValidatorError | None]:
    """The share's outcomes spooled to a file; and the error that stopped it part way, if one did: the
    outcomes before it are reported first, as one process reports them before stopping. With `dataset`,
    the worker writes the share's rows itself (no single writer in the middle)."""
    summary = Summary()
    writer = _share_writer(dataset, share)
    fd, spool = tempfile.mkstemp(prefix="casino-validator-", suffix=".pickle")
    stopped = None
    try:
        with os.fdopen(fd, "wb") as out:
            try:
                lookup = _house_lookup(house) if house is not None else None
                for outcome in _outcomes(share, ruleset, lookup, summary, collect or dataset is not None):
                    if writer is not None:
                        writer.add(outcome)
                    pickle.dump(outcome, out, protocol=pickle.HIGHEST_PROTOCOL)
                if writer is not None:
                    writer.close()
            except ValidatorError as exc:
                stopped = exc
    except BaseException:
        os.unlink(spool)
        raise
    return spool, summary, stopped


def _share_writer(dataset: DatasetSpec | None, share: Share) -> ShareWriter | None:
    if dataset is None:
        return None
    from validator.dataset.writer import ShareWriter

    where = hashlib.sha256(share.path.encode()).hexdigest()[:8]
    return ShareWriter(dataset, f"{where}.{share.first_line}")


def _replay_spool(spool: str) -> Iterator[RoundOutcome]:
    try:
        with open(spool, "rb") as handle:
            while True:
                try:
                    yield pickle.load(handle)
                except EOFError:
                    return
    finally:
        os.unlink(spool)


def check_parallel(
    paths: list[str],
    jobs: int,
    summary: Summary,
    *,
    ruleset: str | None = None,
    house: str | None = None,
    dataset: DatasetSpec | None = None,
    collect: bool = False,
) -> Iterator[RoundOutcome]:
    shares = plan(paths, jobs)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [
            None if share.in_parent else pool.submit(_work, share, ruleset, house, dataset, collect)
            for share in shares
        ]
        try:
            for share, future in zip(shares, futures, strict=True):
                part = Summary()
                if future is None:
                    lookup = _house_lookup(house) if house is not None else None
                    writer = _share_writer(dataset, share)
                    for outcome in _outcomes(share, ruleset, lookup, part, collect or dataset is not None):
                        if writer is not None:
                            writer.add(outcome)
                        yield outcome
                    if writer is not None:
                        writer.close()
                else:
                    spool, part, stopped = future.result()
                    yield from _replay_spool(spool)
                    if stopped is not None:
                        raise stopped
                summary.merge(part)
        finally:
            # Stopped early (an error, Ctrl-C, a reader that stopped reading): the shares still running
            # finish before their spools can be removed; those not started never start.
            pool.shutdown(wait=True, cancel_futures=True)
            for future in futures:
                if future is not None and not future.cancelled() and not future.exception():
                    leftover = future.result()[0]
                    if os.path.exists(leftover):
                        os.unlink(leftover)
