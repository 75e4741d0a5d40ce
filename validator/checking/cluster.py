"""`check --jobs N` and `check --scheduler ADDRESS`: the plan's shares run as Dask tasks.

`--jobs N` starts a local cluster of N single-threaded worker processes (the replay is pure Python: threads
would share one interpreter lock); `--scheduler ADDRESS`, or `DASK_SCHEDULER_ADDRESS`, sends the tasks to
a cluster already running, whose workers have this package and can read the logs and the house file at
the same absolute paths (a relative path is made absolute in this process's folder; the report names the
files as they were given). Each share of the plan (`validator.checking.parallel`) is one task that returns its
outcomes as data. The client keeps at most a window of shares submitted ahead of the one being written;
the others wait on the workers, so the client holds one share's outcomes at a time and writes them in
the plan's order: the report is the same, byte for byte, as one process's.

Dask recomputes the shares of a worker that dies; Ctrl-C (or a reader that stops reading) cancels the
shares not yet written and shuts the local cluster down, its scratch folder with it. Standard input,
pipes and process-local URLs (memory://) are read by this process, in their turn.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import tempfile
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from validator.checking.parallel import (
    HouseRef,
    Share,
    check_share,
    plan,
    share_outcomes,
    share_writer,
    with_rules,
)
from validator.checking.progress import PlanProgress
from validator.errors import ValidatorError
from validator.findings.finding import RoundOutcome, Summary
from validator.logs.limits import Limits, current_limits
from validator.rulebook import sources

if TYPE_CHECKING:
    from validator.audit.dataset.writer import DatasetSpec

# Shares submitted ahead of the one being written, per worker thread: enough to keep every worker busy
# while the client writes, few enough that waiting results stay small.
AHEAD_PER_WORKER = 2
# How long a cluster named by --scheduler may take to answer, and to have a worker.
CONNECT_TIMEOUT = 30
CLOSE_TIMEOUT = 5


def check_on_cluster(
    paths: list[str],
    summary: Summary,
    *,
    jobs: int = 0,
    scheduler: str | None = None,
    ruleset: str | None = None,
    house: str | None = None,
    progress: PlanProgress | None = None,
    dataset: DatasetSpec | None = None,
    collect: bool = False,
    readings: tuple[tuple[str, str], ...] = (),
) -> Iterator[RoundOutcome]:
    """Every round of every log, in order, as outcomes; `summary` is filled as they go. With a scheduler
    address, on that cluster (`jobs`, if given, sets how finely the plan splits); else on a local cluster
    of `jobs` processes. With `dataset`, each share's rows are written by whoever checks it; with
    `collect`, outcomes carry their rounds' facts (see parallel.check_share)."""
    with ExitStack() as stack:
        if scheduler is None:
            workers = max(1, jobs)
            shares = plan(paths, workers)
            client = stack.enter_context(_local_cluster(workers, shares))
        else:
            client = stack.enter_context(_connected(scheduler))
            workers = sum(client.nthreads().values())
            shares = plan(paths, jobs or workers)
        if progress is not None:
            progress.start(len(shares), sum(share.size for share in shares))
        where = HouseRef.of(house) if house is not None else None
        window = max(1, workers) * AHEAD_PER_WORKER
        task = _Task(ruleset, where, dataset, collect, current_limits(), readings, sources.payload())
        yield from _in_order(client, shares, window, summary, task, progress)


@dataclass(frozen=True, slots=True)
class _Task:
    """What every share of a run is checked with."""

    ruleset: str | None
    house: HouseRef | None
    dataset: DatasetSpec | None
    collect: bool
    limits: Limits  # the reader's, as the command set them: workers are other processes
    readings: tuple[tuple[str, str], ...] = ()  # the readings the run chose (reading, alternative)
    # The rulesets from outside the package, as text: a worker judges with what the client read.
    rules: tuple[tuple[str, str, bytes], ...] = ()


class _Session:
    """A client, and the local cluster and scratch folder to remove after it. The cluster's own log
    (connections closed, workers lost and restarted) is not this program's output: it is silenced
    while the session lasts."""

    def __init__(self) -> None:
        self.client: Any = None
        self.cluster: Any = None
        self.scratch: str | None = None
        self.pids: list[int] = []  # the local workers' processes, stopped at once when interrupted
        self._logger = logging.getLogger("distributed")
        self._level = self._logger.level
        self._logger.setLevel(logging.CRITICAL)

    def __enter__(self) -> Any:
        return self.client

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        try:
            if kind is not None and self.cluster is not None:
                # Interrupted, or stopped by an error: the local workers' shares are of no use any more,
                # and a worker asked to close would first finish the share it is running.
                for nanny in self.cluster.workers.values():
                    nanny.close_gracefully(reason="casino-validator stopped")  # no restart after the kill
                for pid in self.pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(TimeoutError, OSError):
                if self.client is not None:
                    self.client.close(timeout=CLOSE_TIMEOUT)
                if self.cluster is not None:
                    self.cluster.close(timeout=CLOSE_TIMEOUT)
        finally:
            if self.scratch is not None:
                shutil.rmtree(self.scratch, ignore_errors=True)
            self._logger.setLevel(self._level)


def _local_cluster(jobs: int, shares: list[Share]) -> _Session:
    import dask
    from distributed import Client, LocalCluster

    session = _Session()
    try:
        session.scratch = tempfile.mkdtemp(prefix="casino-validator-dask-")
        with dask.config.set({"temporary-directory": session.scratch}):
            session.cluster = LocalCluster(
                n_workers=jobs if any(not share.in_parent for share in shares) else 0,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                # The scheduler serves HTTP (metrics) even without a dashboard: on a free port.
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                worker_dashboard_address=None,
                local_directory=session.scratch,
                silence_logs=logging.CRITICAL,
            )
        session.client = Client(session.cluster, set_as_default=False)
        session.pids = list(session.client.run(os.getpid).values())
    except BaseException:
        session.__exit__(BaseException)
        raise
    return session


def _connected(address: str) -> _Session:
    from distributed import Client

    session = _Session()
    try:
        session.client = Client(address, set_as_default=False, timeout=CONNECT_TIMEOUT)
        session.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        session.__exit__(type(error))
        if session.client is None:
            raise ValidatorError(f"--scheduler {address}: cannot reach the scheduler ({error})") from None
        raise ValidatorError(
            f"--scheduler {address}: no worker joined the cluster within {CONNECT_TIMEOUT} s"
        ) from None
    except BaseException:
        session.__exit__(BaseException)
        raise
    return session


def _in_order(
    client: Any,
    shares: list[Share],
    window: int,
    summary: Summary,
    task: _Task,
    progress: PlanProgress | None,
) -> Iterator[RoundOutcome]:
    run = uuid.uuid4().hex[:12]
    pending: deque[tuple[Share, Any]] = deque()
    upcoming = iter(enumerate(shares))

    def submit_ahead() -> None:
        while len(pending) < window:
            try:
                index, share = next(upcoming)
            except StopIteration:
                return
            if share.in_parent:
                pending.append((share, None))
                continue
            future = client.submit(
                with_rules,
                task.rules,
                check_share,
                share,
                task.ruleset,
                task.house,
                task.dataset,
                task.collect,
                task.limits,
                task.readings,
                key=f"casino-validator-{run}-{index}",
                priority=len(shares) - index,  # the plan's order, first come first
                pure=False,
            )
            if progress is not None:
                future.add_done_callback(_counted(progress, share.size))
            pending.append((share, future))

    try:
        submit_ahead()
        while pending:
            share, future = pending.popleft()
            part = Summary()
            if future is None:
                # Read by this process (standard input, a pipe): streamed here, its rows written here.
                writer = share_writer(task.dataset, share)
                collect = task.collect or task.dataset is not None
                outcomes = share_outcomes(
                    share, task.ruleset, task.house, part, collect, task.limits, task.readings
                )
                for outcome in outcomes:
                    if writer is not None:
                        writer.add(outcome)
                    yield outcome
                if writer is not None:
                    writer.close()
                if progress is not None:
                    progress.done(share.size)
            else:
                result = _result(future, share)
                future.release()
                submit_ahead()
                yield from result.outcomes()
                if result.stopped is not None:
                    raise result.stopped
                part = result.summary
            summary.merge(part)
            submit_ahead()
    finally:
        # Stopped early (an error, Ctrl-C, a reader that stopped reading): nothing more is computed.
        waiting = [future for _, future in pending if future is not None]
        if waiting:
            with contextlib.suppress(Exception):  # a scheduler already gone has nothing left to cancel
                client.cancel(waiting, force=True)


def _counted(progress: PlanProgress, size: int) -> Any:
    def count(future: Any) -> None:
        if future.status == "finished":
            progress.done(size)

    return count


def _result(future: Any, share: Share) -> Any:
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    try:
        return future.result()
    except (KilledWorker, FutureCancelledError) as error:
        where = share.path if share.start is None else f"{share.path}:{share.first_line}"
        raise ValidatorError(f"{where}: the cluster could not check this part of the log ({error})") from None
