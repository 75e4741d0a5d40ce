"""How `check` shares out the work (the plan), and what one share does (the task a worker runs).

A file splits where the replay's state can be rebuilt without the records before: at a `table` record
(which resets everything), and at a `shoe` record (a new shoe resets the cards; what the table carries
over, its limits, is rebuilt by replaying the table record and the limits records before the share,
silently). The one thing a table carries from round to round is a progressive jackpot's meters, so a
table stops being split at shoes from its first jackpot record, or its first stake of a progressive
side bet, on: a side bet whose paytables pay a meter out, in any ruleset (JP1's, in the French
wordings since 2020); which bets those are is read from the rulesets.

Planning reads the whole file, so it is done in pieces by the workers too: a file is cut into chunks of
bytes, and each chunk's index (`index_chunk`: its lines' count, and the few lines the plan needs: table,
limits, shoe and jackpot records, rounds staking a progressive bet, the last round before each) is
small. `FilePlan` reads the indexes in order, as one pass over the file would, and turns the split
points into shares of similar size, no bigger than `MAX_SHARE`; small files are grouped into one task.

A share gives back what the report needs and nothing per clean round (`ShareResult`): the outcomes that
have findings, its summary, and what the report's format keeps of the rounds without findings (JUnit
their test cases, in their place; the HTML report its aggregates). `validator.checking.cluster` runs the
tasks on Dask and merges their results in the plan's order, so the report is the same, byte for byte,
as one process gives.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from validator.audit.dataset.writer import ShareWriter
from validator.casino.money import AmountError
from validator.casino.seance import Balance, SeanceMoney
from validator.checking.serial import teller
from validator.errors import ValidatorError
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.formats import reporter_class
from validator.logs.encoding import HEAD, utf16
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
from validator.rulebook import sources
from validator.rulebook.registry import Registry, default_registry, encoding_files, registry_with

if TYPE_CHECKING:
    from validator.audit.dataset.writer import DatasetSpec, ShareWriter
    from validator.formats.base import QuietRounds


@functools.cache
def _progressive_stakes() -> tuple[bytes, ...]:
    """The hand-log/1 stake names of the side bets whose paytables pay a meter out, in any ruleset."""
    names = {bet.stake_name for rs in default_registry().all() for bet in rs.side_bets.values() if bet.prizes}
    return tuple(sorted(name.encode() for name in names))


# Shares are at least this big (bytes), so that starting a share costs little beside replaying it.
MIN_SHARE = 1 << 20
# At most this big, when the file allows, so that every worker keeps busy to the end of the run.
MAX_SHARE = 32 << 20
SHARES_PER_JOB = 4
# The bytes one index task reads (at least; a chunk is never smaller than a share).
INDEX_CHUNK = 16 << 20


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
    # Where the share ends, a séance ends too (the file's end, or a table record): its last séance's
    # money is reconciled. False: the next share goes on with it (it starts at a shoe record).
    closes: bool = True

    @property
    def source(self) -> str:
        return self.location or self.path


def located(path: str) -> str:
    """Where another process finds `path`: a local path made absolute; a URL, `-` as they are."""
    return "" if path == STDIN or is_url(path) else os.path.abspath(path)


def plan(paths: list[str], jobs: int) -> list[Share]:
    """Every share of the logs, in order: the plan one process makes, indexing each file itself (the
    cluster has its workers index the chunks: `validator.checking.cluster`)."""
    shares: list[Share] = []
    for part in outline(paths, jobs):
        if isinstance(part, Share):
            shares.append(part)
            continue
        planner = FilePlan(part, share_target(part.size, jobs))
        for start, end in part.chunks:
            shares.extend(planner.feed(index_chunk(part.source, part.path, start, end)))
        shares.extend(planner.finish())
    return shares


@dataclass(frozen=True, slots=True)
class SplitFile:
    """A plain file big enough to split: its chunks are indexed (by workers, on a cluster), then planned."""

    path: str
    size: int
    location: str
    chunks: tuple[tuple[int, int], ...]

    @property
    def source(self) -> str:
        return self.location or self.path


def outline(paths: Iterable[str], jobs: int) -> Iterator[Share | SplitFile]:
    """The logs in order: a share for each file read whole, a `SplitFile` for each file to split. Reads
    nothing but the files' sizes."""
    for path in iter_log_paths(paths):
        if is_url(path):
            # Not split: planning would download the whole file once more. A process-local file system
            # (memory://) is read by the parent, as the workers cannot see it.
            yield Share(path, None, 0, 1, True, in_parent=is_local_only(path), size=url_size(path))
            continue
        if not _is_regular_file(path):
            yield Share(path, None, 0, 1, True, in_parent=True)
            continue
        size = _size(path)
        whole = Share(path, None, 0, 1, True, size=size, location=located(path))
        if path.endswith(".gz") or jobs <= 1 or size < 2 * share_target(size, jobs) or _is_utf16(path):
            yield whole
            continue
        step = max(INDEX_CHUNK, share_target(size, jobs))
        chunks = tuple((start, min(size, start + step)) for start in range(0, size, step))
        yield SplitFile(path, size, located(path), chunks)


def share_target(size: int, jobs: int) -> int:
    """The bytes a share of a file of `size` bytes aims at: `SHARES_PER_JOB` shares a worker, within
    `MIN_SHARE` and `MAX_SHARE`."""
    return min(MAX_SHARE, max(MIN_SHARE, size // (max(1, jobs) * SHARES_PER_JOB)))


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _is_utf16(path: str) -> bool:
    """A log saved as UTF-16 is read whole, as UTF-8 (validator/logs/encoding.py): its bytes are not
    UTF-8 lines a share could start at."""
    try:
        with open(path, "rb") as raw:
            return utf16(raw.read(HEAD)) is not None
    except OSError:
        return False  # the reader says what is wrong with it


def _is_regular_file(path: str) -> bool:
    if path == STDIN:
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return True  # the reader says what is wrong with it, in a worker as in one process


def _record_type(path: str, number: int, line: bytes, first: bool) -> tuple[str | None, bool]:
    """(`table` or `shoe` when the record resets that part of the replay's state, `limits` when it is a
    limits record, else None; whether it touches a progressive jackpot's meters), exactly as the replay
    will see it. `first`: the line is the file's first (which may start with a byte-order mark)."""
    if len(line) > MAX_LINE + 1:
        return None, False
    if first and line.startswith(BOM):
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


@dataclass(frozen=True, slots=True)
class Event:
    """A line of a chunk that the plan needs: a record that changes what a share must rebuild (`kind`:
    table, shoe, limits, jackpot; None for a round staking a progressive bet), and the last round line
    before it since the chunk's previous event, if any. Line numbers count from the chunk's first line."""

    line: Line
    kind: str | None
    jackpot: bool
    is_round: bool
    round_before: Line | None


@dataclass(frozen=True, slots=True)
class ChunkIndex:
    """What the plan needs of the lines that start in one chunk of a file's bytes."""

    start: int  # the chunk's first line starts here
    end: int  # and its last line ends here
    lines: int
    events: tuple[Event, ...] = ()
    last_round: Line | None = None  # the last round line after the last event


_ROUND = b'"round"'


def index_chunk(source: str, name: str, start: int, end: int) -> ChunkIndex | None:
    """The index of the lines of file `source` that start in bytes [start, end); None when the file
    cannot be read (the share that reads it whole says why, in its turn, as one process would)."""
    try:
        handle = open_plain(source, name)
    except ValidatorError:
        return None
    try:
        with handle:
            if start > 0:
                handle.seek(start - 1)
                if handle.read(1) != b"\n":
                    handle.readline()  # the end of a line the chunk before holds
            first = handle.tell()
            if first >= end:
                return ChunkIndex(first, first, 0)
            data = handle.read(end - first)
            if data and not data.endswith(b"\n"):
                data += handle.readline()
    except OSError:
        return None
    return _index(data, first, name)


def _index(data: bytes, offset: int, name: str) -> ChunkIndex:
    """The events of `data`, the whole lines of a chunk that begins at byte `offset` of the file."""
    events: list[Event] = []
    counted = 0  # lines before byte `counted` are counted in `number`
    number = 0
    after = 0  # the end of the previous event's line
    for at in _candidates(data):
        if at < after:
            continue  # a line already read
        begin = data.rfind(b"\n", 0, at) + 1
        stop = data.find(b"\n", at)
        stop = len(data) if stop < 0 else stop + 1
        number += data.count(b"\n", counted, begin)
        counted = begin
        content = data[begin:stop]
        kind, jackpot = _record_type(name, number + 1, content, offset == 0 and begin == 0)
        if kind is None and not jackpot:
            continue
        before = _last_round(data, after, begin, number + 1, offset)
        line = Line(offset + begin, offset + stop, number + 1)
        events.append(Event(line, kind, jackpot, kind is None and _ROUND in content, before))
        after = stop
    newlines = number + data.count(b"\n", counted)
    lines = newlines + 1 if data and not data.endswith(b"\n") else newlines
    last = _last_round(data, after, len(data), newlines + 1, offset)
    return ChunkIndex(offset, offset + len(data), lines, tuple(events), last)


# A `"type"` key whose value is not written "round" (JSON's spaces allowed around the colon).
_NOT_A_ROUND = re.compile(rb'"type"(?!\s*:\s*"round")')


def _candidates(data: bytes) -> list[int]:
    """Where in `data` a line may hold a record the plan needs, in order: a `"type"` whose value is not
    written `"round"` (a record's kind is its `type`; a nested object's `"type"`, or one written as a
    value, is a candidate too, which parsing turns down), a backslash (which may spell anything, a key
    as well as a value), a progressive stake's name. Most lines are rounds and are never parsed. One
    pass of a regular expression finds the types: its literal prefix is searched in C and the lookahead
    checked there, so that only the few lines that are not rounds reach Python (searching each record
    type's name as a value took four passes over the bytes, and one Python step for every round's
    `"shoe"` key: the index cost twice as much)."""
    found = [match.start() for match in _NOT_A_ROUND.finditer(data)]
    for literal in (b"\\", *_progressive_stakes()):
        at = data.find(literal)
        while at >= 0:
            found.append(at)
            at = data.find(literal, at + len(literal))
    found.sort()
    return found


def _last_round(data: bytes, low: int, high: int, number: int, offset: int) -> Line | None:
    """The last line in data[low:high] (whole lines, none of them an event) that holds a round; `number`
    is the number of the line that starts at `high`."""
    at = data.rfind(_ROUND, low, high)
    if at < 0:
        return None
    begin = data.rfind(b"\n", low, at) + 1 or low
    stop = data.find(b"\n", at, high)
    stop = high if stop < 0 else stop + 1
    return Line(offset + begin, offset + stop, number - data.count(b"\n", begin, high))


class FilePlan:
    """The shares of one file, made from its chunks' indexes read in order, as `_split` made them from one
    pass over the file: a share starts at a split point (the first line, a table record, a shoe record of
    a table not yet on a progressive jackpot) at least `target` bytes after the previous share's start."""

    def __init__(self, file: SplitFile, target: int) -> None:
        self.file = file
        self.target = target
        self.lines = 0  # lines of the chunks read so far
        self.end = 0
        self.state: list[Line] = []  # the table record in force and the limits records since
        self.last_shoe: Line | None = None  # the shoe in play, and the last round record under it
        self.last_round: Line | None = None
        self.splittable = False
        self.chosen: list[tuple[Line, tuple[Line, ...]]] = [(Line(0, 0, 1), ())]
        self.unreadable = False
        self.shares = 0

    def feed(self, index: ChunkIndex | None) -> list[Share]:
        """The shares this chunk's index completes (a share is complete once the next one's start is
        chosen; the first waits for a second, as a file with one share is read whole)."""
        if index is None:
            self.unreadable = True  # the rest of the file is one share, whose reader says why
        if self.unreadable or index is None:
            return []
        for event in index.events:
            self._event(event)
        if index.last_round is not None:
            self.last_round = self._moved(index.last_round)
        self.lines += index.lines
        self.end = max(self.end, index.end)
        done = [self._share(i) for i in range(self.shares, len(self.chosen) - 1)]
        self.shares = len(self.chosen) - 1
        return done

    def _event(self, event: Event) -> None:
        line = self._moved(event.line)
        if event.round_before is not None:
            self.last_round = self._moved(event.round_before)
        kind = event.kind
        if kind == "table":
            if line.number > 1:
                self._point(line, ())
            self.state, self.splittable = [line], True
            self.last_shoe = self.last_round = None
        elif kind == "shoe":
            if self.splittable and line.number > 1:
                pair = (self.last_shoe, self.last_round) if self.last_shoe and self.last_round else ()
                self._point(line, (*self.state, *pair))
            self.last_shoe, self.last_round = line, None
        elif kind == "limits" and self.state:
            self.state.append(line)
        elif kind is None and event.is_round:
            self.last_round = line
        if event.jackpot:
            self.splittable = False

    def finish(self) -> list[Share]:
        """The file's last share (or the whole file, when it did not split)."""
        file = self.file
        if len(self.chosen) == 1:
            return [Share(file.path, None, 0, 1, True, size=file.size, location=file.location)]
        if self.unreadable:
            self.end = file.size
        return [self._share(len(self.chosen) - 1)]

    def _moved(self, line: Line) -> Line:
        return Line(line.start, line.end, line.number + self.lines)

    def _point(self, line: Line, preamble: tuple[Line, ...]) -> None:
        if line.start - self.chosen[-1][0].start >= self.target:
            self.chosen.append((line, preamble))

    def _share(self, index: int) -> Share:
        line, preamble = self.chosen[index]
        last = index + 1 >= len(self.chosen)
        end = self.end if last else self.chosen[index + 1][0].start
        file = self.file
        return Share(
            file.path,
            line.start,
            end,
            line.number,
            index == 0,
            preamble,
            size=end - line.start,
            location=file.location,
            # The next share starts at a table record (no preamble) or the file ends: a séance ends here.
            closes=last or not self.chosen[index + 1][1],
        )


def tasks(shares: Iterable[Share], target: int) -> Iterator[tuple[Share, ...]]:
    """The shares grouped into tasks, in order: a task is one share, or consecutive whole small files of
    `target` bytes at most together (a task costs the cluster the same, however little it holds). A
    share read by the parent is a task of its own."""
    group: list[Share] = []
    held = 0
    for share in shares:
        small = share.start is None and not share.in_parent and share.size < target
        if group and (not small or held + share.size > target):
            yield tuple(group)
            group, held = [], 0
        if small:
            group.append(share)
            held += share.size
        else:
            yield (share,)
    if group:
        yield tuple(group)


# A round's outcome as it travels from a worker: RoundOutcome's fields, in their order (a test holds it).
# RoundOutcome's fields in order; the suppressed findings are set by the policy in the client (always
# empty from a worker) but travel like the others so the two stay field for field the same; the last, the
# stakes' titles, is the judge's mapping (one per version, pickled once per share).
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
    Any,
    Any,
]


@dataclass(frozen=True, slots=True)
class Quiet:
    """Rounds without findings between two outcomes a share sends back: how many, and what the report's
    format keeps of them, in their place (`Reporter.quiet`); None when it keeps nothing but their count."""

    rounds: int
    part: Any = None


@dataclass(frozen=True, slots=True)
class ShareResult:
    """What a share gives back, as data: its outcomes that have findings (as plain tuples, which unpickle
    fast), with what the format keeps of the rounds between them; its tally; the format's total of its
    rounds without findings (`Reporter.merge`); and the error that stopped it part way, if one did (the
    outcomes before it are reported first, as one process reports them before stopping)."""

    items: tuple[Row | Quiet, ...]
    summary: Summary = field(default_factory=Summary)
    total: Any = None
    stopped: ValidatorError | None = None

    def outcomes(self) -> Iterator[RoundOutcome | Quiet]:
        for item in self.items:
            yield item if isinstance(item, Quiet) else RoundOutcome(*item)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class HouseRef:
    """The house-rules file as the user named it, and where a worker reads it."""

    name: str
    location: str

    @classmethod
    def of(cls, house: str) -> HouseRef:
        return cls(house, located(house))


def _house_lookup(house: HouseRef, readings: tuple[tuple[str, str], ...] = ()) -> HouseLookup:
    """A worker checks several shares: it reads and lints the house file once (for each set of
    rulesets and readings it is judged with)."""
    return _house_under(house, readings, sources.extra())


@functools.cache
def _house_under(
    house: HouseRef, readings: tuple[tuple[str, str], ...], extra: tuple[Path, ...]
) -> HouseLookup:
    from validator.house.apply import house_lookup

    registry = _compiled(extra, readings)
    return house_lookup(Path(house.location or house.name), registry, house.name)[0]


def _registry(readings: tuple[tuple[str, str], ...]) -> Registry:
    """The rulesets (with those from outside that the task installed, `with_rules`) under the readings
    the run chose. A worker compiles them once, not once a share: a worker that a scheduler keeps
    between runs compiles each run's set once."""
    return _compiled(sources.extra(), readings)


@functools.cache
def _compiled(extra: tuple[Path, ...], readings: tuple[tuple[str, str], ...]) -> Registry:
    return registry_with(extra).with_readings(dict(readings))


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
        for _unused in replay.replay(preamble):
            pass  # the table's state is rebuilt; what these records say, their own share reports
    replay.summary = summary
    replay.judges.clear()
    if share.preamble:
        replay.continues()  # a share that starts at a shoe record: inside a séance another share began
    records = (
        read_records(share.source, display_name(share.path), limits)
        if share.start is None
        else read_record_range(share.source, share.start, share.end, share.first_line, share.path, limits)
    )
    yield from replay.replay(records)
    yield from replay.finish(share.closes)  # its last séance: reconciled, or its part to the client


@dataclass(frozen=True, slots=True)
class Task:
    """What every share of a run is checked with."""

    ruleset: str | None
    house: HouseRef | None
    dataset: DatasetSpec | None = None
    collect: bool = False  # outcomes carry their rounds' facts (the client's report needs them: html)
    limits: Limits | None = None  # the reader's, as the command set them: workers are other processes
    format: str | None = None  # the report's format: what it keeps of the rounds without findings
    readings: tuple[tuple[str, str], ...] = ()  # --reading: (reading, alternative), as the client chose
    # The rulesets from outside the package, as text: a worker judges with what the client read
    # (`with_rules`).
    rules: tuple[tuple[str, str, bytes], ...] = ()


def check_task(shares: tuple[Share, ...], task: Task) -> tuple[ShareResult, ...]:
    """The task a worker runs: its shares in order, until one stops (the shares after it are not read,
    as one process stops there)."""
    results: list[ShareResult] = []
    for share in shares:
        result = check_share(share, task)
        results.append(result)
        if result.stopped is not None:
            break
    return tuple(results)


def check_share(share: Share, task: Task) -> ShareResult:
    """One share, whole, reduced to what the report needs. With a dataset, the worker writes the share's
    rows itself (no single writer in the middle). Rounds without findings are counted, given to the
    format's `QuietRounds` if it keeps anything of them, and not sent back."""
    summary = Summary()
    items: list[Row | Quiet] = []
    writer = share_writer(task.dataset, share)
    quiet = quiet_rounds(task.format)
    if quiet is not None and share.location:
        quiet.reads(share.path, share.location)
    rounds = 0
    collect = task.collect or task.dataset is not None
    try:
        outcomes = share_outcomes(
            share, task.ruleset, task.house, summary, collect, task.limits, task.readings
        )
        for o in outcomes:
            if writer is not None:
                writer.add(o)
            # A séance's part is sent back even without findings: the client adds the parts up; and a
            # séance reconciled here, when the format keeps something of what has no finding (the HTML
            # report's registre de contrôle has a row for every séance, reconciled clean or not).
            if not o.findings and o.status != "unreadable" and not _sent_back(o.seance, quiet):
                if o.status == "clean":
                    rounds += 1
                    if quiet is not None:
                        quiet.add(o)
                continue  # a record without findings (a table, a shoe): no report writes anything of it
            if rounds:
                items.append(Quiet(rounds, quiet.take() if quiet is not None else None))
                rounds = 0
            facts = o.facts if task.collect else None
            part = o.seance if isinstance(o.seance, (SeanceMoney, Balance)) else None
            items.append(
                (
                    o.file,
                    o.line,
                    o.round,
                    o.findings,
                    o.status,
                    facts,
                    o.entry,
                    o.table,
                    o.at,
                    o.suppressed,
                    part,
                    o.titles,
                )
            )
        if writer is not None:
            writer.close()
    except ValidatorError as exc:
        return ShareResult(tuple(_ended(items, rounds, quiet)), summary, _total(quiet), exc)
    summary.judged_by |= judged_by(_registry(task.readings), summary.rulesets)
    return ShareResult(tuple(_ended(items, rounds, quiet)), summary, _total(quiet))


def _sent_back(seance: object, quiet: QuietRounds | None) -> bool:
    """Whether an outcome without findings goes back to the client for its séance's money: a part of a
    séance always, a séance reconciled whole on the worker when the format keeps rounds without
    findings (`quiet`)."""
    return isinstance(seance, SeanceMoney) or (quiet is not None and isinstance(seance, Balance))


def judged_by(registry: Registry, versions: Iterable[str]) -> set[tuple[str, str, str]]:
    """The ruleset files this process judged `versions` with, and the digests of the bytes it read."""
    return {(e["file"], e["version"], e["sha256"]) for e in encoding_files(registry, versions)}


def _ended(items: list[Row | Quiet], rounds: int, quiet: QuietRounds | None) -> list[Row | Quiet]:
    if rounds:
        items.append(Quiet(rounds, quiet.take() if quiet is not None else None))
    return items


def _total(quiet: QuietRounds | None) -> Any:
    return quiet.total() if quiet is not None else None


def quiet_rounds(fmt: str | None) -> QuietRounds | None:
    """What the report format `fmt` keeps of the rounds without findings, on the worker that replays
    them; None when it keeps nothing but their number."""
    if fmt is None:
        return None
    return reporter_class(fmt).quiet_rounds()


def with_rules(rules: tuple[tuple[str, str, bytes], ...], task: Callable[..., T], *args: Any) -> T:
    """Run `task` on a worker with the client's rulesets from outside the package (sent as text with the
    task: the worker needs no copy of them at the same path, and judges with exactly what was read)."""
    sources.install(rules)
    return task(*args)


def share_writer(dataset: DatasetSpec | None, share: Share) -> ShareWriter | None:
    """The writer of a share's own dataset files, named after its log and first line."""
    if dataset is None:
        return None
    where = hashlib.sha256(share.path.encode()).hexdigest()[:8]
    return ShareWriter(dataset, f"{where}.{share.first_line}")
