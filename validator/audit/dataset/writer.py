"""Writing the audit dataset: rows from round outcomes, files per writer, a run's commit.

`ShareWriter` turns the outcomes one process replays (a whole file, or one share of it under `--jobs`)
into rows, and writes them to files of its own, named after the log's digest, the run and the share:
any number of writers, in any number of processes or machines, write side by side. `DatasetRun.commit`
ends a run: its `runs` row, and the removal of the files earlier runs wrote for the same logs.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import secrets
import stat
import time
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from validator import __version__
from validator.audit.dataset import manifest
from validator.audit.dataset.manifest import data_files, lock_path, run_of
from validator.casino.ledger import Decision, RoundFacts
from validator.casino.money import fmt
from validator.casino.seance import Balance, summary_key
from validator.errors import ValidatorError
from validator.findings.finding import RoundOutcome, Summary
from validator.findings.fingerprint import fingerprint
from validator.i18n import _
from validator.logs.reader import STDIN_NAME, iter_log_paths
from validator.logs.remote import is_url
from validator.rulebook.registry import default_registry, encoding_files

# Memory is bounded by the rows held, whatever the months and casinos a log spans: a writer holds at
# most BATCH_ROWS rows (all partitions together) before writing them to its open files, and keeps at
# most OPEN_FILES files open. A file is closed (and named) after FILE_BATCHES batches' rows.
BATCH_ROWS = 4096
BATCH_ENV = "CASINO_VALIDATOR_DATASET_BATCH"  # tests: rows reach the disk after a few rounds
OPEN_FILES = 16
FILE_BATCHES = 25
DEFAULT_GAMING_DAY_START = 6 * 60  # 06:00 (docs/house-rules.md, `gaming_day_start`)
VIDEO_DAYS = (
    7  # art. 21: the tables' video kept at least a week (docs/house-rules.md, `video_retention_days`)
)
_SCALE = Decimal(10) ** -10
KEY_CHARS = 64  # a casino's folder name: far under any file system's 255 bytes
_URLISH = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:/")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def batch_rows() -> int:
    """BATCH_ROWS, or the environment's CASINO_VALIDATOR_DATASET_BATCH (at least 1)."""
    try:
        return max(1, int(os.environ.get(BATCH_ENV, BATCH_ROWS)))
    except ValueError:
        return BATCH_ROWS


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{secrets.token_hex(4)}"


def box_squares(boxes: tuple[Decimal, ...]) -> float | None:
    """The sum of each box's stake squared (None: no box named an amount)."""
    return float(sum(b * b for b in boxes)) if boxes else None


# What makes two decisions the same decision, as the hold's theoretical figure prices it: the columns of
# a `decisions` row the rollup sums decisions by and the report asks a version's cost of.
DECISION_KEY = ("verb", "cards", "dealer_cards", "split", "split_aces", "hands")


def decision_row(decision: Decision) -> dict[str, Any]:
    """A decision as the `decisions` column holds it."""
    return {
        "hand": decision.hand,
        "verb": decision.verb,
        "cards": "".join(decision.cards),
        "dealer_cards": "".join(decision.dealer),
        "stake": money(decision.stake),
        "split": decision.split,
        "split_aces": decision.split_aces,
        "hands": decision.hands,
    }


def file_digest(path: str) -> str:
    """SHA-256 of the log's bytes (as stored: a `.gz` file's compressed bytes), computed once per version
    of the file in a process. Standard input, read once, has no digest known before it is read: each
    run's is its own, so it never replaces anything."""
    if path in ("-", STDIN_NAME):
        return _stdin_digest()
    try:
        status = os.stat(path)
    except OSError:
        return hashlib.sha256(f"unreadable:{path}".encode()).hexdigest()
    if not stat.S_ISREG(status.st_mode):
        # A named pipe (or a device) is read once, by the reader: its bytes cannot be hashed before.
        return _stream_digest(path)
    return _digest(os.path.realpath(path), status.st_mtime_ns, status.st_size)


@functools.cache
def _stdin_digest() -> str:
    return hashlib.sha256(f"stdin:{secrets.token_hex(16)}".encode()).hexdigest()


@functools.cache
def _stream_digest(path: str) -> str:
    """A stream's: its own to this run, as standard input's (it never replaces anything)."""
    return hashlib.sha256(f"stream:{path}:{secrets.token_hex(16)}".encode()).hexdigest()


@functools.lru_cache(maxsize=1024)
def _digest(path: str, mtime: int, size: int) -> str:
    sha = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                sha.update(chunk)
    except OSError:
        return hashlib.sha256(f"unreadable:{path}".encode()).hexdigest()
    return sha.hexdigest()


def casino_key(casino: str | None) -> str:
    """A folder name for a casino: ASCII letters, digits, `._-`, at most KEY_CHARS of them (a longer name
    is cut and ends with a digest of the whole name, so two long names stay apart); the name itself is a
    column."""
    if not casino:
        return "none"
    ascii_name = unicodedata.normalize("NFKD", casino).encode("ascii", "ignore").decode()
    key = _UNSAFE.sub("-", ascii_name).strip("-").lower() or "none"
    if len(key) > KEY_CHARS:
        digest = hashlib.sha256(casino.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        key = f"{key[: KEY_CHARS - 13].rstrip('-')}-{digest}"
    return key


def money(value: Decimal | None) -> Decimal | None:
    """An amount as the DECIMAL(38, 10) columns hold it (exact for every amount hand-log/1 allows)."""
    return None if value is None else value.quantize(_SCALE)


@dataclass(frozen=True, slots=True)
class DatasetSpec:
    """What each writer needs to know of the run; picklable, for worker processes."""

    root: str
    run_id: str
    house_file: str | None = None
    house_digest: str | None = None
    gaming_day_start: int = 360  # minutes after midnight, on the table's clock (the house file's, or 06:00)
    video_days: int = 7  # how long a table's video is kept at least (art. 21; the house file's, if longer)


@dataclass(slots=True)
class _When:
    at_utc: datetime | None = None
    offset: int | None = None
    local: datetime | None = None
    day: date | None = None
    month: str = "none"


def when_of(at: str | None, gaming_day_start: int) -> _When:
    """The round's time; its gaming day is the local date `gaming_day_start` minutes earlier, and the
    month (the partition) the gaming day's."""
    if not at:
        return _When()
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return _When()
    offset = moment.utcoffset()
    local = moment.replace(tzinfo=None)
    try:
        day: date | None = (local - timedelta(minutes=gaming_day_start)).date()
    except OverflowError:  # 0001-01-01T03:00: its gaming day began before the first day Python holds
        day = None
    at_utc = None
    if offset is not None:
        try:
            at_utc = moment.astimezone(UTC)
        except OverflowError:  # 9999-12-31T23:00-05:00 is in the year 10000 in UTC, past what Python holds
            at_utc = None
    return _When(
        at_utc=at_utc,
        offset=int(offset.total_seconds() // 60) if offset is not None else None,
        local=local,
        day=day,
        month=f"{day.year:04d}-{day.month:02d}" if day is not None else "none",
    )


@dataclass(slots=True)
class _Part:
    """One file being written: rows go in as row groups, the file takes its name when closed."""

    path: Path
    temporary: Path
    table: str
    log: str
    handle: Any = None
    writer: Any = None
    rows: int = 0


@dataclass(slots=True)
class ShareWriter:
    """The rows of one writer; `share` tells its files apart from the other writers' of the same log."""

    spec: DatasetSpec
    share: str = "0"
    _rows: dict[tuple[str, str, str, str], list[dict[str, Any]]] = field(default_factory=dict)
    _open: dict[tuple[str, str, str, str], _Part] = field(default_factory=dict)
    _buffered: int = 0
    _batch: int = field(default_factory=batch_rows)
    _parts: int = 0
    _where: tuple[str | None, _When] = (None, _When())
    _digests: set[str] = field(default_factory=set)
    _file: tuple[str | None, str] = (None, "")

    def add(self, outcome: RoundOutcome) -> None:
        if outcome.file != self._file[0]:
            self._file = (outcome.file, file_digest(outcome.file))
            self._digests.add(self._file[1])
        digest = self._file[1]
        facts: RoundFacts | None = outcome.facts
        if facts is not None:
            self._where = (facts.casino, when_of(facts.at, self.spec.gaming_day_start))
        casino, when = self._where
        found = outcome.seance if isinstance(outcome.seance, Balance) else None
        if found is not None:  # a séance's money: its findings where and when the séance opened
            casino, when = found.seance.casino, when_of(found.seance.opened, self.spec.gaming_day_start)
        key = (digest, casino_key(casino), when.month)
        round_key = f"{digest[:16]}:{outcome.line}" if outcome.status != "none" else None
        players: dict[str, str | None] = {}
        if facts is not None:
            for stake in facts.stakes:
                players[stake.stake] = stake.player
                players.setdefault(stake.stake.split(":")[0].split("/")[0], stake.player)
        # The footage of a finding: its round's (a séance's from its opening, for its money).
        filmed = found.seance.opened if found is not None else (facts.at if facts is not None else outcome.at)
        kept_until = self._kept_until(filmed)
        if found is not None:
            self._seance_row(found, digest, kept_until)
        over = under = Decimal(0)
        by_kind = dict.fromkeys(("procedure", "payout", "format", "house", "money"), 0)
        errors = 0
        for finding in outcome.findings:
            by_kind[finding.kind] = by_kind.get(finding.kind, 0) + 1
            errors += finding.severity == "error"
            if finding.discrepancy is not None:
                if finding.discrepancy > 0:
                    over += finding.discrepancy
                else:
                    under -= finding.discrepancy
            named = finding.stake
            player = None
            if named is not None:
                player = players.get(named) or players.get(named.split(":")[0].split("/")[0])
            self._append(
                "findings",
                key,
                {
                    "run_id": self.spec.run_id,
                    "log_digest": digest,
                    "round_key": round_key,
                    "fingerprint": fingerprint(finding),
                    "kind": finding.kind,
                    "rule": finding.rule,
                    "ref": finding.ref,
                    "severity": finding.severity,
                    "file": finding.file,
                    "line": finding.line,
                    "round": finding.round,
                    "stake": finding.stake,
                    "path": finding.path,
                    "message": finding.message,
                    "expected": _json(finding.expected),
                    "actual": _json(finding.actual),
                    "discrepancy": money(finding.discrepancy),
                    "casino": casino,
                    "table_id": facts.table if facts else (found.seance.table if found else None),
                    "dealer": facts.dealer if facts else None,
                    "player": player,
                    "local_time": when.local,
                    "gaming_day": when.day,
                    "rests_on": _json(finding.as_dict()["rests_on"])
                    if finding.rests_on is not None
                    else None,
                    "caused_by": finding.caused_by,
                    "video_kept_until": kept_until,
                },
            )
        if outcome.status == "none":
            return
        row = self._round_row(outcome, facts, digest, round_key, when)
        row.update(
            overpaid=money(over),
            underpaid=money(under),
            findings=len(outcome.findings),
            findings_procedure=by_kind["procedure"],
            findings_payout=by_kind["payout"],
            findings_format=by_kind["format"],
            findings_house=by_kind["house"],
            errors=errors,
        )
        self._append("rounds", key, row)

    def _kept_until(self, at: str | None) -> datetime | None:
        """Until when the video of what happened at `at` is kept at least (`DatasetSpec.video_days`)."""
        moment = when_of(at, self.spec.gaming_day_start).at_utc
        if moment is None:
            return None
        try:
            return moment + timedelta(days=self.spec.video_days)
        except OverflowError:
            return None

    def _seance_row(self, found: Balance, digest: str, kept_until: datetime | None) -> None:
        """The registre de contrôle's line of a séance whose money was looked at (art. 69)."""
        if summary_key(found) is None:
            return  # a log of an earlier format, which says nothing of the money
        seance = found.seance
        when = when_of(seance.opened, self.spec.gaming_day_start)
        self._append(
            "seances",
            (digest, casino_key(seance.casino), when.month),
            {
                "run_id": self.spec.run_id,
                "log_digest": digest,
                "file": seance.file,
                "line": seance.line,
                "casino": seance.casino,
                "table_id": seance.table,
                "opened": seance.opened,
                "opened_utc": when.at_utc,
                "local_time": when.local,
                "gaming_day": when.day,
                "status": found.status,
                "reason": found.reason,
                "style": found.style,
                "opening": money(found.opening),
                "brought": money(found.brought),
                "taken": money(found.taken),
                "drop": money(found.drop),
                "closing": money(found.closing),
                "carnet_result": money(found.carnet_result),
                "rounds_result": money(found.rounds_result),
                "difference": money(found.difference),
                "rounds": seance.rounds,
                "closing_line": found.closing_line,
                "video_kept_until": kept_until,
            },
        )

    def _round_row(
        self, outcome: RoundOutcome, facts: RoundFacts | None, digest: str, round_key: str | None, when: _When
    ) -> dict[str, Any]:
        stakes = facts.stakes if facts is not None else ()
        main = sum((s.wagered for s in stakes if s.main_game), Decimal(0))
        side = sum((s.wagered for s in stakes if not s.main_game), Decimal(0))
        judged = [s.rules_net for s in stakes if s.rules_net is not None]
        kept_main = sum((s.collected - s.paid for s in stakes if s.main_game), Decimal(0))
        replayed = bool(stakes) or outcome.status != "unreadable"
        return {
            "run_id": self.spec.run_id,
            "log_digest": digest,
            "round_key": round_key,
            "file": outcome.file,
            "line": outcome.line,
            "casino": facts.casino if facts else None,
            "table_id": facts.table if facts else None,
            "shoe": facts.shoe if facts else None,
            "round": outcome.round,
            "at": facts.at if facts else None,
            "at_utc": when.at_utc if facts else None,
            "utc_offset_minutes": when.offset if facts else None,
            "local_time": when.local if facts else None,
            "gaming_day": when.day if facts else None,
            "dealer": facts.dealer if facts else None,
            "ruleset": facts.ruleset if facts else None,
            "house_file": self.spec.house_file,
            "house_digest": self.spec.house_digest,
            "boxes": facts.boxes if facts else None,
            "players": list(facts.players) if facts else [],
            "staked_main": money(facts.staked_main) if facts and replayed else None,
            "staked_box_sq": box_squares(facts.staked_boxes) if facts and replayed else None,
            "wagered_main": money(main) if replayed else None,
            "wagered_side": money(side) if replayed else None,
            "wagered": money(main + side) if replayed else None,
            "kept_main": money(kept_main) if replayed else None,
            "paid": money(sum((s.paid for s in stakes), Decimal(0))) if replayed else None,
            "collected": money(sum((s.collected for s in stakes), Decimal(0))) if replayed else None,
            "rules_net": money(sum(judged, Decimal(0))) if judged else None,
            "status": outcome.status,
            "clean": outcome.status == "clean",
            "unreadable": outcome.status == "unreadable",
            "stakes": [
                {
                    "stake": s.stake,
                    "bet": s.bet,
                    "player": s.player,
                    "wagered": money(s.wagered),
                    "paid": money(s.paid),
                    "collected": money(s.collected),
                    "rules_net": money(s.rules_net),
                    "main_game": s.main_game,
                }
                for s in stakes
            ],
            "trace": facts.trace if facts else None,
            "decisions": [decision_row(d) for d in facts.decisions] if facts else [],
            "cards": facts.cards if facts else None,
        }

    def _append(self, table: str, key: tuple[str, str, str], row: dict[str, Any]) -> None:
        full_key = (table, *key)
        self._rows.setdefault(full_key, []).append(row)
        self._buffered += 1
        if self._buffered >= self._batch:
            self._write_buffers()

    def _write_buffers(self) -> None:
        """Every partition's rows written to its open file; files past FILE_ROWS closed (made whole)."""
        for full_key in list(self._rows):
            self._write(full_key, self._rows.pop(full_key))
        self._buffered = 0

    def _write(self, full_key: tuple[str, str, str, str], rows: list[dict[str, Any]]) -> None:
        import pyarrow as pa

        part = self._open.pop(full_key, None)
        if part is None:
            while len(self._open) >= OPEN_FILES:  # the least recently written file is closed first
                self._finish(self._open.pop(next(iter(self._open))))
            part = self._start(full_key)
        self._open[full_key] = part  # most recently written last
        try:
            part.writer.write_table(pa.Table.from_pylist(rows, schema=part.writer.schema))
        except OSError as exc:
            self._fail(part, exc)
        part.rows += len(rows)
        if part.rows >= self._batch * FILE_BATCHES:
            self._finish(self._open.pop(full_key))

    def _start(self, full_key: tuple[str, str, str, str]) -> _Part:
        import pyarrow.parquet as pq

        from validator.audit.dataset import schema

        table, digest, casino, month = full_key
        folder = Path(self.spec.root) / table / f"casino_key={casino}" / f"month={month}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValidatorError(
                _("{folder}: cannot write the dataset ({strerror})").format(
                    folder=folder, strerror=exc.strerror
                )
            ) from None
        self._parts += 1
        name = f"{digest[:16]}-{self.spec.run_id}-{self.share}-{self._parts}.parquet"
        part = _Part(folder / name, folder / f".{name}.tmp", table, digest[:16])
        try:
            # An open file, not a name: pyarrow would read "run:1/…" or "s3:…" as a URL.
            part.handle = open(part.temporary, "wb")  # noqa: SIM115 (closed by _finish)
            arrow_schema = {"rounds": schema.ROUNDS, "seances": schema.SEANCES}.get(table, schema.FINDINGS)
            part.writer = pq.ParquetWriter(part.handle, arrow_schema, compression="zstd")
        except OSError as exc:
            self._fail(part, exc)
        return part

    def _finish(self, part: _Part) -> None:
        """The file closed, then given its name: a reader never sees it part written."""
        try:
            part.writer.close()
            part.handle.close()
            os.replace(part.temporary, part.path)
        except OSError as exc:
            self._fail(part, exc)

    def _fail(self, part: _Part, exc: OSError) -> None:
        with contextlib.suppress(Exception):
            if part.handle is not None:
                part.handle.close()
        part.temporary.unlink(missing_ok=True)
        raise ValidatorError(
            _("{folder}: cannot write the dataset ({value})").format(
                folder=part.path.parent, value=exc.strerror or exc
            )
        ) from None

    def close(self) -> set[str]:
        """Write what is left and close every file; the digests of the logs written."""
        self._write_buffers()
        while self._open:
            self._finish(self._open.pop(next(iter(self._open))))
        return self._digests

    def discard(self) -> None:
        """A writer stopped part way: its files still open removed (what it closed, `abort` removes)."""
        for part in self._open.values():
            with contextlib.suppress(Exception):
                part.handle.close()
            part.temporary.unlink(missing_ok=True)
        self._open.clear()
        self._rows.clear()

    def write_all(self, outcomes: Iterable[RoundOutcome]) -> Iterator[RoundOutcome]:
        """The outcomes passed on, each written as it goes by; the files closed at the end."""
        for outcome in outcomes:
            self.add(outcome)
            yield outcome
        self.close()


def _json(value: Any) -> str | None:
    if value is None:
        return None
    return json.dumps(
        value, ensure_ascii=False, default=lambda v: fmt(v) if isinstance(v, Decimal) else str(v)
    )


def gaming_day_start(house: str | None) -> int:
    """Minutes after midnight at which the casino's gaming day starts: the house file's
    `gaming_day_start` ("HH:MM"), else 06:00. The file has been read (and linted) by then."""
    if house is None:
        return DEFAULT_GAMING_DAY_START
    from validator.house.load import load_house

    try:
        value = load_house(Path(house)).data.get("gaming_day_start")
    except (ValidatorError, OSError, AttributeError):
        return DEFAULT_GAMING_DAY_START
    return parse_clock(value) if isinstance(value, str) else DEFAULT_GAMING_DAY_START


def video_days(house: str | None) -> int:
    """How many days a table's video is kept at least: the house file's `video_retention_days`, else a
    week (the arrêté du 14 mai 2007, art. 21, as summarised in shared/sources/table-money.md); a house
    file's shorter figure is a lint error, and the week applies."""
    if house is None:
        return VIDEO_DAYS
    from validator.house.load import load_house

    try:
        value = load_house(Path(house)).data.get("video_retention_days")
    except (ValidatorError, OSError, AttributeError):
        return VIDEO_DAYS
    return (
        value if isinstance(value, int) and not isinstance(value, bool) and value > VIDEO_DAYS else VIDEO_DAYS
    )


def parse_clock(value: str) -> int:
    """`"06:00"` → 360; a value that is not HH:MM is the default (the linter reports it)."""
    match = re.fullmatch(r"([01][0-9]|2[0-3]):([0-5][0-9])", value)
    if match is None:
        return DEFAULT_GAMING_DAY_START
    return int(match[1]) * 60 + int(match[2])


def house_digest(path: str | None) -> str | None:
    if path is None:
        return None
    return file_digest(path)


@dataclass(slots=True)
class DatasetRun:
    """One `check --dataset` run: its writers' common spec, its lock, and the commit at its end
    (`validator.audit.dataset.manifest` says what a commit means to readers)."""

    spec: DatasetSpec
    paths: Iterable[str]  # the logs as named, or as `check` found them once (logs.reader.FoundLogs)
    options: dict[str, Any]
    started: datetime = field(default_factory=lambda: datetime.now(UTC))
    notes: list[str] = field(default_factory=list)  # what the start found and did (stale runs removed)
    _lock: int | None = None

    @classmethod
    def start(cls, root: str, paths: Iterable[str], options: dict[str, Any], house: str | None) -> DatasetRun:
        # `s3://b/x` reaches here as the Path `s3:/b/x`: a scheme and a slash are a URL either way.
        if is_url(root) or _URLISH.match(root):
            raise ValidatorError(
                _("--dataset {root}: a dataset is a local folder, not a URL").format(root=root)
            )
        spec = DatasetSpec(
            root, new_run_id(), house, house_digest(house), gaming_day_start(house), video_days(house)
        )
        try:
            (Path(root) / "runs").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ValidatorError(
                _("--dataset {root}: cannot make the folder ({strerror})").format(
                    root=root, strerror=exc.strerror
                )
            ) from None
        if not os.access(root, os.W_OK):
            raise ValidatorError(_("--dataset {root}: the folder cannot be written").format(root=root))
        run = cls(spec, paths, options)
        try:
            run._cleaned_up_to_start()
        except BaseException:
            run.abort()  # stopped while starting (a signal, a full disk): nothing of this run is left
            raise
        return run

    def _cleaned_up_to_start(self) -> None:
        """The run's lock taken; the files of the runs that stopped before their commit removed."""
        root = self.spec.root
        try:
            self._lock = manifest.hold_lock(Path(root), self.spec.run_id)
        except OSError as exc:
            raise ValidatorError(
                _("--dataset {root}: cannot write the dataset ({strerror})").format(
                    root=root, strerror=exc.strerror
                )
            ) from None
        try:
            state = manifest.read_state(Path(root))
        except ValidatorError:
            return  # a damaged run of someone else's is report's to say; this run can still be made
        for stale, files in sorted(manifest.stale_runs(Path(root), state).items()):
            for path in files:
                path.unlink(missing_ok=True)
            manifest.lock_path(Path(root), stale).unlink(missing_ok=True)
            self.notes.append(
                _(
                    "--dataset {root}: run {stale} stopped before its commit; its {n} files, "
                    "never counted, are removed"
                ).format(root=root, stale=stale, n=len(files))
            )
        # The lock of a run stopped before it wrote anything (killed while starting): nothing to say.
        committed = {m.run_id for m in state.manifests}
        for lock in (Path(root) / "runs").glob(".*.lock"):
            other = lock.name[1 : -len(".lock")]
            unknown = other != self.spec.run_id and other not in committed and other not in state.uncommitted
            if unknown and not manifest.is_running(Path(root), other):
                lock.unlink(missing_ok=True)

    def writer(self, share: str = "0") -> ShareWriter:
        return ShareWriter(self.spec, share)

    def _mine(self, *, unfinished: bool = False) -> list[Path]:
        found = data_files(Path(self.spec.root), unfinished=unfinished)
        return [p for p in found if run_of(p.name) == self.spec.run_id]

    def commit(self, summary: Summary) -> None:
        """The run's `runs` row, its manifest, put in place in one rename; then the files it supersedes
        removed (they stopped counting at the rename)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        from validator.audit.dataset import manifest, schema

        root = Path(self.spec.root)
        logs = [{"file": p, "digest": file_digest(p)} for p in iter_log_paths(self.paths)]
        files = []
        for path in self._mine():
            try:
                with path.open("rb") as handle:
                    rows = pq.read_metadata(handle).num_rows
            except OSError as exc:
                raise ValidatorError(
                    _("{path}: cannot read the file just written ({error})").format(
                        path=path, error=exc.strerror
                    )
                ) from None
            table = path.relative_to(root).parts[0]
            files.append(
                {
                    "path": path.relative_to(root).as_posix(),
                    "table": table,
                    "log": path.name[:16],
                    "rows": rows,
                }
            )
        row = {
            "run_id": self.spec.run_id,
            "started": self.started,
            "finished": datetime.now(UTC),
            "tool_version": __version__,
            "options": json.dumps(self.options, ensure_ascii=False, sort_keys=True),
            "logs": logs,
            "house_file": self.spec.house_file,
            "house_digest": self.spec.house_digest,
            "ruleset_files": judged_with(summary),
            "rounds": summary.rounds_read,
            "findings": summary.findings,
            "summary": json.dumps(summary.as_dict(), ensure_ascii=False),
            "committed": time.time_ns(),
            "files": files,
        }
        folder = root / "runs"
        target = folder / f"{self.spec.run_id}.parquet"
        temporary = folder / f".{self.spec.run_id}.tmp"
        try:
            with temporary.open("wb") as handle:
                pq.write_table(pa.Table.from_pylist([row], schema=schema.RUNS), handle)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, target)
        except OSError as exc:
            temporary.unlink(missing_ok=True)
            raise ValidatorError(
                _("{path}: cannot write the run's record ({error})").format(
                    path=target, error=exc.strerror or exc
                )
            ) from None
        self._release()
        with contextlib.suppress(ValidatorError, OSError):  # another run's damage is not this run's failure
            for path in manifest.read_state(root).superseded():
                path.unlink(missing_ok=True)

    def abort(self) -> None:
        """A run that could not be made leaves nothing behind (its lock included, even one made while a
        signal stopped it from holding it)."""
        for path in self._mine(unfinished=True):
            path.unlink(missing_ok=True)
        self._release()
        lock_path(Path(self.spec.root), self.spec.run_id).unlink(missing_ok=True)

    def _release(self) -> None:
        if self._lock is not None:
            lock_path(Path(self.spec.root), self.spec.run_id).unlink(missing_ok=True)
            os.close(self._lock)
            self._lock = None


def judged_with(summary: Summary) -> list[dict[str, str]]:
    """The run's `ruleset_files`: the files this process read for the versions that judged its rounds,
    and those every worker read (`Summary.judged_by`): each file once per digest, so that a worker that
    read other bytes than this process would show as a second line for the same file."""
    mine = encoding_files(default_registry(), summary.rulesets)
    seen = {(e["file"], e["version"], e["sha256"]) for e in mine}
    theirs = [
        {"file": file, "version": version, "sha256": sha}
        for file, version, sha in sorted(summary.judged_by - seen)
    ]
    return sorted([*mine, *theirs], key=lambda e: (e["file"], e["sha256"]))
