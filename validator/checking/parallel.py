"""How `check` shares out the work (the plan), and what one share does (the task an engine runs).

A file splits where the replay's state can be rebuilt without the records before: at a `table` record
(which resets everything), and at a `shoe` record (a new shoe resets the cards; what the table carries
over, its limits, is rebuilt by replaying the table record and the limits records before the share,
silently). The one thing a table carries from round to round is a progressive jackpot's meters, so a
table stops being split at shoes from its first jackpot record, or its first stake of a progressive
side bet, on: a side bet whose paytables pay a meter out, in any ruleset (JP1's, in the French
wordings since 2020); which bets those are is read from the rulesets. Consecutive split points are
grouped into shares of similar size, and no bigger than `MAX_SHARE`, so a share's outcomes are a bounded
amount of data to send back. `validator.checking.cluster` runs the shares on Dask and writes their outcomes in
the plan's order, so the report is the same, byte for byte, as one process gives.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from validator.casino.money import AmountError
from validator.checking.serial import teller
from validator.errors import ValidatorError
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.logs.limits import MAX_LINE, Limits
from validator.logs.reader import (
    BOM,
    STDIN,
    check_record,
    display_name,
    iter_log_paths,
    open_plain,
    read_record_range,
    read_records,
)
from validator.logs.remote import is_local_only, is_url, url_size
from validator.replay.session import HouseLookup, LogReplay, read_table
from validator.rulebook.registry import Registry, default_registry

if TYPE_CHECKING:
    from validator.audit.dataset.writer import DatasetSpec, ShareWriter


@functools.cache
def _progressive_stakes() -> tuple[bytes, ...]:
    """The hand-log/1 stake names of the side bets whose paytables pay a meter out, in any ruleset."""
    names = {bet.stake_name for rs in default_registry().all() for bet in rs.side_bets.values() if bet.prizes}
    return tuple(sorted(name.encode() for name in names))


@functools.cache
def _maybe_stateful() -> re.Pattern[bytes]:
    """A record whose type is one of these, as the line's bytes may spell it, or a round that may hold a
    progressive stake; lines that could not be one of them (most rounds) are not parsed while planning.
    A backslash may spell anything: those are parsed."""
    stakes = b"".join(b"|" + re.escape(name) for name in _progressive_stakes())
    return re.compile(rb':\s*"(?:table|limits|shoe|jackpot)"|\\' + stakes)


# Shares are at least this big (bytes), so that starting a share costs little beside replaying it.
MIN_SHARE = 1 << 20
# At most this big, when the file allows: a share's outcomes come back to the client in one piece.
MAX_SHARE = 32 << 20
SHARES_PER_JOB = 4


T = TypeVar("T")


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
    # state where the share begins (empty when it begins at a table record), then the previous shoe
    # record and the table's last round under it, which the new shoe's cut is judged against.
    preamble: tuple[Line, ...] = ()
    # Standard input, a named pipe, `<(…)`: read once, by the parent, in its turn (a worker would
    # find standard input empty, and a pipe the planner read would be empty too).
    in_parent: bool = False
    # Bytes to read (0 when not known beforehand: standard input, a pipe): what progress counts.
    size: int = 0
    # Where a worker opens the file: its absolute path (a worker's folder is not the client's); `path`,
    # as given, is how the report names it. Empty: at `path` (a URL, standard input).
    location: str = ""

    @property
    def source(self) -> str:
        return self.location or self.path


def located(path: str) -> str:
    """Where another process finds `path`: a local path made absolute; a URL, `-` as they are."""
    return "" if path == STDIN or is_url(path) else os.path.abspath(path)


def plan(paths: list[str], jobs: int) -> list[Share]:
    shares: list[Share] = []
    for path in iter_log_paths(paths):
        if is_url(path):
            # Not split: planning would download the whole file once more. A process-local file system
            # (memory://) is read by the parent, as the workers cannot see it.
            shares.append(Share(path, None, 0, 1, True, in_parent=is_local_only(path), size=url_size(path)))
            continue
        if not _is_regular_file(path):
            shares.append(Share(path, None, 0, 1, True, in_parent=True))
            continue
        if path.endswith(".gz") or jobs <= 1:
            shares.append(Share(path, None, 0, 1, True, size=_size(path), location=located(path)))
            continue
        shares.extend(_split(path, jobs))
    return shares


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _is_regular_file(path: str) -> bool:
    if path == STDIN:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the reader says what is wrong with it, in a worker as in one process


def _record_type(path: str, number: int, line: bytes) -> tuple[str | None, bool]:
    """(`table` or `shoe` when the record resets that part of the replay's state, `limits` when it is a
    limits record, else None; whether it touches a progressive jackpot's meters), exactly as the replay
    will see it."""
    if len(line) > MAX_LINE + 1 or not _maybe_stateful().search(line):
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
        seen = orjson.dumps([data.get("bets"), data.get("actions")])
        return None, any(name in seen for name in _progressive_stakes())
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
    last_shoe: Line | None = None  # the shoe in play, and the last round record under it
    last_round: Line | None = None
    splittable = False
    offset = 0
    with open_plain(path) as handle:
        for number, content in enumerate(handle, start=1):
            line = Line(offset, offset + len(content), number)
            offset = line.end
            kind, jackpot = _record_type(path, number, content)
            if number == 1 or kind == "table":
                points.append((line, ()))
            if kind == "table":
                state, splittable = [line], True
                last_shoe = last_round = None
            elif kind == "shoe":
                if splittable and number > 1:
                    before = (last_shoe, last_round) if last_shoe and last_round else ()
                    points.append((line, (*state, *before)))
                last_shoe, last_round = line, None
            elif kind == "limits" and state:
                state.append(line)
            elif kind is None and b'"round"' in content:
                last_round = line
            if jackpot:
                splittable = False
    target = min(MAX_SHARE, max(MIN_SHARE, offset // (jobs * SHARES_PER_JOB)))
    chosen = points[:1]
    for point in points[1:]:
        if point[0].start - chosen[-1][0].start >= target:
            chosen.append(point)
    where = located(path)
    if len(chosen) <= 1:
        return [Share(path, None, 0, 1, True, size=offset, location=where)]
    ends = [line.start for line, _ in chosen[1:]] + [offset]
    return [
        Share(path, line.start, end, line.number, index == 0, preamble, size=end - line.start, location=where)
        for index, ((line, preamble), end) in enumerate(zip(chosen, ends, strict=True))
    ]


# A round's outcome as it travels from a worker: RoundOutcome's fields, in their order (a test holds it).
# RoundOutcome's fields in order; the last, the suppressed findings, is set by the policy in the client
# (always empty from a worker) but travels like the others so the two stay field for field the same.
Row = tuple[
    str,
    int | None,
    str | None,
    tuple[Finding, ...],
    str,
    Any,
    str | None,
    str | None,
    str | None,
    tuple[Any, ...],
]


@dataclass(frozen=True, slots=True)
class ShareResult:
    """What a share gives back, as data: its outcomes in order, their tally, and the error that stopped
    it part way, if one did (the outcomes before it are reported first, as one process reports them
    before stopping). The outcomes travel as plain tuples: the client unpickles every round of the run,
    and tuples unpickle several times faster than dataclasses."""

    rows: tuple[Row, ...]
    summary: Summary = field(default_factory=Summary)
    stopped: ValidatorError | None = None

    def outcomes(self) -> Iterator[RoundOutcome]:
        for row in self.rows:
            yield RoundOutcome(*row)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class HouseRef:
    """The house-rules file as the user named it, and where a worker reads it."""

    name: str
    location: str

    @classmethod
    def of(cls, house: str) -> HouseRef:
        return cls(house, located(house))


@functools.cache
def _house_lookup(house: HouseRef, readings: tuple[tuple[str, str], ...] = ()) -> HouseLookup:
    """A worker checks several shares: it reads and lints the house file once."""
    from validator.house.apply import house_lookup

    registry = _registry(readings)
    return house_lookup(Path(house.location or house.name), registry, house.name)[0]


def _registry(readings: tuple[tuple[str, str], ...]) -> Registry:
    """The rulesets under the readings the run chose (a worker compiles them once: cached)."""
    return default_registry().with_readings(dict(readings))


def share_outcomes(
    share: Share,
    ruleset: str | None,
    house: HouseRef | None,
    summary: Summary,
    collect: bool = False,
    limits: Limits | None = None,
    readings: tuple[tuple[str, str], ...] = (),
) -> Iterator[RoundOutcome]:
    """The share's outcomes, one at a time, counted in `summary`; with `collect`, carrying the rounds'
    facts for the audit dataset. `limits`: the reader's, as the command set them (a worker is another
    process, which has only the defaults)."""
    lookup = _house_lookup(house, readings) if house is not None else None
    if share.first_of_file:
        summary.files = 1
    replay = LogReplay(
        _registry(readings),
        share.path,
        Summary(),
        pinned=ruleset,
        house=lookup,
        collect=collect,
        teller=teller(collect),
    )
    for line in share.preamble:
        preamble = read_record_range(share.source, line.start, line.end, line.number, share.path, limits)
        for _ in replay.replay(preamble):
            pass  # the table's state is rebuilt; what these records say, their own share reports
    replay.summary = summary
    replay.judges.clear()
    records = (
        read_records(share.source, display_name(share.path), limits)
        if share.start is None
        else read_record_range(share.source, share.start, share.end, share.first_line, share.path, limits)
    )
    yield from replay.replay(records)


def check_share(
    share: Share,
    ruleset: str | None,
    house: HouseRef | None,
    dataset: DatasetSpec | None = None,
    collect: bool = False,
    limits: Limits | None = None,
    readings: tuple[tuple[str, str], ...] = (),
) -> ShareResult:
    """One share, whole: the task a worker runs. With `dataset`, the worker writes the share's rows
    itself (no single writer in the middle). The rounds' facts travel back only with `collect` (the
    client's own report needs them, as `--format html` does)."""
    summary = Summary()
    rows: list[Row] = []
    writer = share_writer(dataset, share)
    try:
        outcomes = share_outcomes(
            share, ruleset, house, summary, collect or dataset is not None, limits, readings
        )
        for o in outcomes:
            if writer is not None:
                writer.add(o)
            facts = o.facts if collect else None
            rows.append(
                (o.file, o.line, o.round, o.findings, o.status, facts, o.entry, o.table, o.at, o.suppressed)
            )
        if writer is not None:
            writer.close()
    except ValidatorError as exc:
        return ShareResult(tuple(rows), summary, exc)
    return ShareResult(tuple(rows), summary)


def with_rules(rules: tuple[tuple[str, str, bytes], ...], task: Callable[..., T], *args: Any) -> T:
    """Run `task` on a worker with the client's rulesets from outside the package (sent as text with the
    task: the worker needs no copy of them at the same path, and judges with exactly what was read)."""
    from validator.rulebook import sources

    sources.install(rules)
    return task(*args)


def share_writer(dataset: DatasetSpec | None, share: Share) -> ShareWriter | None:
    """The writer of a share's own dataset files, named after its log and first line."""
    if dataset is None:
        return None
    from validator.audit.dataset.writer import ShareWriter

    where = hashlib.sha256(share.path.encode()).hexdigest()[:8]
    return ShareWriter(dataset, f"{where}.{share.first_line}")
