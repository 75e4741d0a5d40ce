"""What a dataset holds: the committed runs' manifests, which of their files count, and the runs that
never committed.

A run writes its files under its own id, then commits by renaming its `runs/<run>.parquet` into place
(one `os.replace`): that row is its manifest, listing every file it wrote with the file's log and rows.
A file no manifest lists counts for nothing. Checking a log again replaces its rows by ownership, not by
deletion: each log (by the first 16 hex digits of its SHA-256) belongs to the committed run that covered
it last (the latest commit time, then the run id), and only the owner's files of that log count. So two
runs on one dataset at once never lose nor double a round, whatever the order they end in, and a run
killed at any point changes nothing; files that no longer count are removed by the commits that follow.

A running run holds an exclusive `fcntl` lock on `runs/.<run>.lock`: files of a run with no manifest
and no lock held are a run that stopped before its commit (killed), said by `report` and removed by the
next `check --dataset`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError
from validator.i18n import _

TABLES = ("rounds", "findings", "seances")


@dataclass(frozen=True, slots=True)
class Listed:
    """One file of a manifest: its path relative to the dataset, its table, its log and its rows."""

    path: str
    table: str
    log: str
    rows: int


@dataclass(slots=True)
class Manifest:
    run_id: str
    committed: int  # nanoseconds since the epoch, when the run committed
    logs: set[str]  # the 16-digit log keys the run covered (read, whether it wrote rows or not)
    files: list[Listed]
    row: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class State:
    """A dataset as its manifests say: the committed runs, each log's owner, and the uncommitted runs."""

    root: Path
    manifests: list[Manifest]
    owner: dict[str, str]  # log key → run id
    uncommitted: dict[str, list[Path]]  # run id → its files (no manifest)

    def counted(self) -> list[tuple[Path, Listed]]:
        """The files whose rows count: each log's owner's."""
        out = []
        for manifest in self.manifests:
            for listed in manifest.files:
                if self.owner.get(listed.log) == manifest.run_id:
                    out.append((self.root / listed.path, listed))
        return out

    def superseded(self) -> list[Path]:
        """Files of committed runs whose logs another run now owns."""
        return [
            self.root / listed.path
            for manifest in self.manifests
            for listed in manifest.files
            if self.owner.get(listed.log) != manifest.run_id
        ]


def counted_once(states: list[State]) -> tuple[list[list[tuple[Path, Listed]]], list[str]]:
    """The files that count in each dataset of a report over several: each log (by its SHA-256) counted
    once, from the run that committed it last over every dataset (then the greater run id, then the
    dataset named first), as within one dataset; with a note for each two datasets that cover the same
    logs."""
    best: dict[str, tuple[int, str, int]] = {}  # log → (committed, run id, -dataset) of its owner
    for index, state in enumerate(states):
        committed = {m.run_id: m.committed for m in state.manifests}
        for log, run in state.owner.items():
            order = (committed[run], run, -index)
            if log not in best or order > best[log]:
                best[log] = order
    out = [
        [(path, listed) for path, listed in state.counted() if best[listed.log][2] == -index]
        for index, state in enumerate(states)
    ]
    notes: list[str] = []
    for index, state in enumerate(states):
        for other in states[index + 1 :]:
            shared = set(state.owner) & set(other.owner)
            if shared:
                notes.append(
                    _(
                        "{first} and {second} cover {n} of the same logs (by their SHA-256): each log's "
                        "rounds are counted once, from the run that checked it last"
                    ).format(first=state.root, second=other.root, n=len(shared))
                )
    return out, notes


def run_of(name: str) -> str | None:
    """The run id in a data file's name (`<log>-<run>-<share>-<part>.parquet`, or `.<that>.tmp` while it
    is written), or None."""
    if name.startswith(".") and name.endswith(".tmp"):
        name = name[1:-4]
    parts = name.split("-")
    if len(parts) < 5 or not name.endswith(".parquet"):
        return None
    return f"{parts[1]}-{parts[2]}"


def lock_path(root: Path, run_id: str) -> Path:
    return root / "runs" / f".{run_id}.lock"


def hold_lock(root: Path, run_id: str) -> int:
    """The run's lock, held until the descriptor is closed (or the process dies)."""
    fd = os.open(lock_path(root, run_id), os.O_WRONLY | os.O_CREAT, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def is_running(root: Path, run_id: str) -> bool:
    try:
        fd = os.open(lock_path(root, run_id), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError as error:
        return error.errno in (errno.EWOULDBLOCK, errno.EAGAIN)
    finally:
        os.close(fd)
    return False


def regular(path: Path) -> bool:
    """A plain file (not a folder, a pipe, a device, a loop of links)."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _manifest(path: Path) -> Manifest | None:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        rows = table.to_pylist()
    except Exception as error:  # pyarrow's own errors: a file that is not Parquet, truncated, of another type
        raise ValidatorError(
            _("{path}: not a run of this dataset ({why})").format(path=path, why=_first_line(error))
        ) from None
    if len(rows) != 1 or not isinstance(rows[0].get("files"), list):
        raise ValidatorError(
            _("{path}: not a run of this dataset (no manifest of its files)").format(path=path)
        )
    row = rows[0]
    try:
        files = [Listed(str(f["path"]), str(f["table"]), str(f["log"]), int(f["rows"])) for f in row["files"]]
        committed = int(row["committed"])
        logs = {str(entry["digest"])[:16] for entry in row.get("logs") or ()}
    except (KeyError, TypeError, ValueError):
        raise ValidatorError(
            _("{path}: not a run of this dataset (its manifest is damaged)").format(path=path)
        ) from None
    for listed in files:
        if listed.table not in TABLES or Path(listed.path).is_absolute() or ".." in Path(listed.path).parts:
            raise ValidatorError(
                _("{path}: not a run of this dataset (it lists {listed})").format(
                    path=path, listed=repr(listed.path)
                )
            )
    twice = sorted({listed.path for listed in files if sum(f.path == listed.path for f in files) > 1})
    if twice:
        raise ValidatorError(
            _("{path}: not a run of this dataset (its manifest lists {listed} twice: it is damaged)").format(
                path=path, listed=repr(twice[0])
            )
        )
    logs |= {listed.log for listed in files}
    return Manifest(str(row["run_id"]), committed, logs, files, row)


def check_rounds(path: Path, manifest: Manifest) -> None:
    """A run's manifest lists the files of every round it read: their rows of rounds add up to the rounds
    its record says it read (a manifest that lists none, or too few, is damaged; exit 2). Not for a
    dataset that sums rounds without findings (`rollup/`, `check --format html`'s), whose rows do not."""
    try:
        rounds = int(manifest.row.get("rounds") or 0)
    except (TypeError, ValueError):
        rounds = -1
    rows = sum(listed.rows for listed in manifest.files if listed.table == "rounds")
    if rows != rounds:
        raise ValidatorError(
            _(
                "{path}: not a run of this dataset (its manifest lists {rows} rows of rounds, its record "
                "says it read {rounds}: it is damaged)"
            ).format(path=path, rows=rows, rounds=rounds)
        )


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__


def data_files(root: Path, *, unfinished: bool = False) -> list[Path]:
    """Every data file under rounds/ and findings/, whether any manifest lists it or not; with
    `unfinished`, also the files still being written (`.<name>.tmp`)."""
    found: list[Path] = []
    for table in TABLES:
        folder = root / table
        with contextlib.suppress(OSError):
            found.extend(p for p in folder.glob("*/*/*.parquet") if not p.name.startswith("."))
            if unfinished:
                found.extend(folder.glob("*/*/.*.parquet.tmp"))
    return found


def read_state(root: Path) -> State:
    manifests: list[Manifest] = []
    runs = root / "runs"
    names = sorted(runs.glob("*.parquet")) if runs.is_dir() else []
    for path in names:
        if path.name.startswith("."):
            continue
        if not regular(path):
            raise ValidatorError(_("{path}: not a run of this dataset (not a plain file)").format(path=path))
        manifest = _manifest(path)
        if manifest is not None:
            if not (root / "rollup").exists():
                check_rounds(path, manifest)
            manifests.append(manifest)
    owner: dict[str, str] = {}
    best: dict[str, tuple[int, str]] = {}
    for manifest in manifests:
        order = (manifest.committed, manifest.run_id)
        for log in manifest.logs:
            if log not in best or order > best[log]:
                best[log] = order
                owner[log] = manifest.run_id
    committed = {m.run_id for m in manifests}
    uncommitted: dict[str, list[Path]] = {}
    for path in data_files(root, unfinished=True):
        run_id = run_of(path.name)
        if run_id is not None and run_id not in committed:
            uncommitted.setdefault(run_id, []).append(path)
    return State(root, manifests, owner, uncommitted)


def stale_runs(root: Path, state: State) -> dict[str, list[Path]]:
    """The uncommitted runs that no process is running any more: stopped before their commit."""
    stale = {run: files for run, files in state.uncommitted.items() if not is_running(root, run)}
    if stale:  # a run may have committed between the listing and the lock's test: it is not stale
        done = {p.stem for p in (root / "runs").glob("*.parquet")}
        stale = {run: files for run, files in stale.items() if run not in done}
    return stale
