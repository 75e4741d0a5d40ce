"""`check --jobs N`: files, and tables within a plain file, checked in parallel processes.

A `table` record resets everything a replay carries (table, shoe, limits), so a file splits at its
table records into shares that replay independently. Each worker writes its outcomes to a temporary
file; the parent streams them back in the original order, so the report is the same, byte for byte,
as one process gives, and memory stays flat.
"""

from __future__ import annotations

import os
import pickle
import re
import tempfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from validator.findings import RoundOutcome, Summary
from validator.logs.reader import STDIN, iter_log_paths, read_record_range, read_records

_TABLE_RECORD = re.compile(rb'"type"\s*:\s*"table"')


@dataclass(frozen=True, slots=True)
class Share:
    path: str
    start: int | None  # None: the whole file (gzip, stdin, or a file with one table)
    end: int
    first_line: int
    first_of_file: bool


def plan(paths: list[str], jobs: int) -> list[Share]:
    shares: list[Share] = []
    for path in iter_log_paths(paths):
        if path == STDIN or path.endswith(".gz") or jobs <= 1:
            shares.append(Share(path, None, 0, 1, True))
            continue
        shares.extend(_split(path))
    return shares


def _split(path: str) -> list[Share]:
    """Byte ranges that start at table records."""
    starts: list[tuple[int, int]] = []
    offset = 0
    with open(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            if number == 1 or _TABLE_RECORD.search(line[:200]):
                starts.append((offset, number))
            offset += len(line)
    if len(starts) <= 1:
        return [Share(path, None, 0, 1, True)]
    bounds = [*starts, (offset, 0)]
    return [Share(path, start, bounds[i + 1][0], line, i == 0) for i, (start, line) in enumerate(starts)]


def _work(share: Share, ruleset: str | None, house: str | None) -> tuple[str, Summary]:
    from validator.registry import default_registry
    from validator.replay.session import LogReplay

    registry = default_registry()
    lookup = None
    if house is not None:
        from validator.house.apply import house_lookup

        lookup, _ = house_lookup(Path(house), registry)
    summary = Summary()
    if share.first_of_file:
        summary.files = 1
    replay = LogReplay(registry, share.path, summary, pinned=ruleset, house=lookup)
    records = (
        read_records(share.path)
        if share.start is None
        else read_record_range(share.path, share.start, share.end, share.first_line)
    )
    fd, spool = tempfile.mkstemp(prefix="casino-validator-", suffix=".pickle")
    with os.fdopen(fd, "wb") as out:
        for outcome in replay.replay(records):
            pickle.dump(outcome, out, protocol=pickle.HIGHEST_PROTOCOL)
    return spool, summary


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
) -> Iterator[RoundOutcome]:
    shares = plan(paths, jobs)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(_work, share, ruleset, house) for share in shares]
        try:
            for future in futures:
                spool, part = future.result()
                yield from _replay_spool(spool)
                summary.merge(part)
        finally:
            for future in futures:
                if future.done() and not future.exception():
                    leftover = future.result()[0]
                    if os.path.exists(leftover):
                        os.unlink(leftover)
