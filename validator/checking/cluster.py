"""`check --jobs N` and `check --scheduler ADDRESS`: the plan's tasks run on Dask.

`--jobs N` starts a local cluster of N single-threaded worker processes (the replay is pure Python: threads
would share one interpreter lock); `--scheduler ADDRESS`, or `DASK_SCHEDULER_ADDRESS`, sends the tasks to
a cluster already running, whose workers have this package and can read the logs and the house file at
the same absolute paths (a relative path is made absolute in this process's folder; the report names the
files as they were given).

The client reads nothing of the logs but their sizes: the workers index the chunks of the files to split
(`parallel.index_chunk`, first in priority), the client plans the shares from the indexes as they come,
in order, and submits each task as soon as it is planned. A task (a share, or a few small files) returns
only what the report needs (`parallel.ShareResult`): the outcomes with findings, its summary, and what
the format keeps of the rest. The client keeps a window of tasks submitted ahead of the one being
merged, merges their results in the plan's order and writes the report: the same, byte for byte, as one
process's, for a cost per round close to nothing.

Dask recomputes the tasks of a worker that dies; Ctrl-C (or a reader that stops reading) cancels the
tasks not yet merged and shuts the local cluster down, its scratch folder with it. Standard input,
pipes and process-local URLs (memory://) are read by this process, in their turn.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.audit.dataset.writer import ShareWriter
from validator.casino.seance import Balance, SeanceMoney, balance
from validator.checking import local_host
from validator.checking.parallel import (
    FilePlan,
    HouseRef,
    Quiet,
    Share,
    ShareResult,
    SplitFile,
    Task,
    check_task,
    index_chunk,
    outline,
    share_outcomes,
    share_target,
    share_writer,
    tasks,
    with_rules,
)
from validator.checking.progress import PlanProgress
from validator.checking.scheduler_address import probe
from validator.errors import ValidatorError
from validator.findings.finding import RoundOutcome, Summary
from validator.i18n import _
from validator.logs.limits import current_limits
from validator.replay.session import settled
from validator.rulebook import sources

if TYPE_CHECKING:
    from validator.audit.dataset.writer import DatasetSpec
    from validator.checking.options import CheckOptions
    from validator.formats.base import Reporter

# Tasks submitted ahead of the one being merged, per worker thread: enough to keep every worker busy
# while the client merges, few enough that a run stopped early leaves little to cancel.
AHEAD_PER_WORKER = 3
CLOSE_TIMEOUT = local_host.CLOSE_TIMEOUT


def check_on_cluster(
    paths: Iterable[str],
    summary: Summary,
    options: CheckOptions,
    *,
    readings: tuple[tuple[str, str], ...] = (),
    progress: PlanProgress | None = None,
    dataset: DatasetSpec | None = None,
    report: Reporter | None = None,
) -> Iterator[RoundOutcome]:
    """The outcomes with findings of every log (`paths`: the logs found, in order), in order; `summary`
    is filled as they go. `options`: what `check` was told. With a scheduler address
    (`options.scheduler`: --scheduler, or $DASK_SCHEDULER_ADDRESS as validator/commands/check.py reads
    it), on that cluster, waiting for it up to `options.scheduler_timeout` (`options.jobs`, if given, sets
    how finely the plan splits); else on a local cluster of `options.jobs` processes. `readings`: the
    readings applied, as the registry chose them. With `dataset`, each share's rows are written by
    whoever checks it; with `--format html`, outcomes carry their rounds' facts. `report`: the reporter,
    given in their place what its format keeps of the rounds without findings (`Reporter.quiet`,
    `Reporter.merge`)."""
    jobs, scheduler = options.jobs, options.scheduler
    with ExitStack() as stack:
        if scheduler is None:
            workers = max(1, jobs)
            parts = list(outline(paths, workers))
            remote = any(not (isinstance(part, Share) and part.in_parent) for part in parts)
            client = stack.enter_context(_local_cluster(workers if remote else 0))
        else:
            client = stack.enter_context(_connected(scheduler, options.scheduler_timeout))
            workers = sum(client.nthreads().values())
            parts = list(outline(paths, jobs or workers))
        size = sum(part.size for part in parts)
        if progress is not None:
            progress.start(0, size)
        where = HouseRef.of(str(options.house)) if options.house is not None else None
        fmt = report.name if report is not None else None
        collect = options.format == "html"
        task = Task(
            options.ruleset, where, dataset, collect, current_limits(), fmt, readings, sources.payload()
        )
        run = _Run(client, task, uuid.uuid4().hex[:12], progress, report)
        planned = run.planned(parts, jobs or workers, share_target(size, jobs or workers))
        yield from run.in_order(planned, max(1, workers) * AHEAD_PER_WORKER, summary)
        run.close()


class _Session:
    """A client, and the local cluster's process and scratch folder to remove after it. The cluster's
    own log (connections closed, workers lost and restarted) is not this program's output: it is
    silenced while the session lasts."""

    def __init__(self) -> None:
        self.client: Any = None
        self.host: subprocess.Popen[bytes] | None = None  # the local cluster's process (local_host)
        self.scratch: str | None = None
        self.pids: list[int] = []  # the local workers' processes, stopped at once when interrupted
        self._logger = logging.getLogger("distributed")
        self._level = self._logger.level
        self._logger.setLevel(logging.CRITICAL)

    def __enter__(self) -> Any:
        return self.client

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        try:
            if kind is not None:
                # Interrupted, or stopped by an error: the local workers' shares are of no use any more,
                # and a worker asked to close would first finish the share it is running.
                for pid in self.pids:
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(TimeoutError, OSError):
                if self.client is not None:
                    self.client.close(timeout=CLOSE_TIMEOUT)
            if self.host is not None:
                _ended(self.host)
        finally:
            if self.scratch is not None:
                shutil.rmtree(self.scratch, ignore_errors=True)
            self._logger.setLevel(self._level)


def _ended(host: subprocess.Popen[bytes]) -> None:
    """The local cluster's process ended: its input closed (it closes the cluster, its nannies with
    their workers, and exits), killed if it has not within the time a close may take."""
    with contextlib.suppress(OSError):
        if host.stdin is not None:
            host.stdin.close()
    try:
        host.wait(timeout=2 * CLOSE_TIMEOUT)
    except subprocess.TimeoutExpired:
        host.kill()
        host.wait()
    if host.stdout is not None:
        host.stdout.close()


# The local cluster's scheduler and nannies run in a process of their own (`local_host`): what they do
# on a clock and for each task is not this process's CPU, which a system monitor shows as the command's.
_HOST = (  # i18n: not shown (Python code, run by the local cluster's process)
    "import sys; sys.path.insert(0, sys.argv[1]); from validator.checking.local_host import main; "
    "sys.exit(main(sys.argv[2:]))"
)


def _local_cluster(jobs: int) -> _Session:
    """A local cluster of `jobs` workers and a client of it; none where `jobs` is 0 (every share is read
    by this process: standard input, pipes, memory:// URLs)."""
    session = _Session()
    if not jobs:
        return session
    from distributed import Client

    try:
        session.scratch = tempfile.mkdtemp(prefix="casino-validator-dask-")
        # This very package (where it was found: an install, a checkout), not one the folder may hold.
        root = str(Path(local_host.__file__).resolve().parents[2])
        session.host = subprocess.Popen(
            [sys.executable, "-P", "-c", _HOST, root, str(jobs), session.scratch],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert session.host.stdout is not None
        address = session.host.stdout.readline().decode().strip()
        if not address:
            raise ValidatorError(
                _(
                    "--jobs {jobs}: the local cluster did not start (its process ended with status {status})"
                ).format(jobs=jobs, status=session.host.wait())
            )
        session.client = Client(address, set_as_default=False)  # type: ignore[no-untyped-call]
        session.pids = list(session.client.run(os.getpid).values())
    except BaseException:
        session.__exit__(BaseException)
        raise
    return session


def _connected(address: str, timeout: float) -> _Session:
    probe(address, timeout)  # answered as a scheduler answers, within the timeout, or exit 2
    from distributed import Client

    session = _Session()
    try:
        session.client = Client(address, set_as_default=False, timeout=timeout)  # type: ignore[no-untyped-call]
        session.client.wait_for_workers(1, timeout=timeout)
    except Exception as error:
        session.__exit__(type(error))
        if session.client is None:
            detail = str(error).strip().splitlines()[0][:300] if str(error).strip() else type(error).__name__
            raise ValidatorError(
                _("--scheduler {address}: cannot reach the scheduler ({error})").format(
                    address=address, error=detail
                )
            ) from None
        raise ValidatorError(
            _("--scheduler {address}: no worker joined the cluster within {timeout:g} s").format(
                address=address, timeout=timeout
            )
        ) from None
    except BaseException:
        session.__exit__(BaseException)
        raise
    return session


class _Run:
    """One run's tasks on a client: submitted in the plan's order, merged in it."""

    def __init__(
        self, client: Any, task: Task, run: str, progress: PlanProgress | None, report: Reporter | None
    ) -> None:
        self.client = client
        self.task = task
        self.run = run
        self.progress = progress
        self.report = report
        self.submitted = 0
        self.indexes: list[Any] = []
        # The séances whose parts several shares replayed, added up until their last part comes; and
        # the writer of their registre rows and findings (the workers saw none of them whole).
        self.parts: dict[tuple[str, int], SeanceMoney] = {}
        self.writer: ShareWriter | None = None

    def planned(self, parts: list[Share | SplitFile], jobs: int, target: int) -> Iterator[tuple[Share, ...]]:
        """The tasks of the plan, in order, as the workers' indexes of the files to split come in. Every
        chunk is submitted to be indexed first, ahead of any share."""
        indexes: dict[int, list[Any]] = {}
        for number, part in enumerate(parts):
            if isinstance(part, SplitFile):
                indexes[number] = [
                    self.client.submit(
                        with_rules,
                        self.task.rules,  # the progressive stakes an index looks for are any ruleset's
                        index_chunk,
                        part.source,
                        part.path,
                        start,
                        end,
                        key=f"casino-validator-{self.run}-index-{number}-{chunk}",
                        priority=1_000_000_000 - len(self.indexes) - chunk,
                        pure=False,
                    )
                    for chunk, (start, end) in enumerate(part.chunks)
                ]
                self.indexes.extend(indexes[number])
        return tasks(self._shares(parts, indexes, jobs), target)

    def _shares(
        self, parts: list[Share | SplitFile], indexes: dict[int, list[Any]], jobs: int
    ) -> Iterator[Share]:
        for number, part in enumerate(parts):
            if isinstance(part, Share):
                yield part
                continue
            planner = FilePlan(part, share_target(part.size, jobs))
            for future in indexes.pop(number):
                index = _result(future, part.path)
                future.release()
                yield from planner.feed(index)
            yield from planner.finish()

    def submit(self, shares: tuple[Share, ...]) -> Any:
        if shares[0].in_parent:
            return None
        self.submitted += 1
        future = self.client.submit(
            with_rules,
            self.task.rules,
            check_task,
            shares,
            self.task,
            key=f"casino-validator-{self.run}-{self.submitted}",
            priority=-self.submitted,  # the plan's order, first come first
            pure=False,
        )
        if self.progress is not None:
            future.add_done_callback(
                _counted(self.progress, sum(share.size for share in shares), len(shares))
            )
        return future

    def in_order(
        self, planned: Iterator[tuple[Share, ...]], window: int, summary: Summary
    ) -> Iterator[RoundOutcome]:
        pending: deque[tuple[tuple[Share, ...], Any]] = deque()

        def submit_ahead() -> None:
            while len(pending) < window:
                shares = next(planned, None)
                if shares is None:
                    return
                if self.progress is not None:
                    self.progress.planned(len(shares))
                pending.append((shares, self.submit(shares)))

        try:
            submit_ahead()
            while pending:
                shares, future = pending.popleft()
                if future is None:
                    yield from self._in_parent(shares[0], summary)
                else:
                    results = _result(future, _named(shares[0]))
                    future.release()
                    submit_ahead()
                    for result in results:
                        yield from self._merged(result, summary)
                submit_ahead()
        finally:
            # Stopped early (an error, Ctrl-C, a reader that stopped reading): nothing more is computed.
            waiting = [future for _, future in pending if future is not None] + self.indexes
            if waiting:
                with contextlib.suppress(Exception):  # a scheduler already gone has nothing left to cancel
                    self.client.cancel(waiting, force=True)

    def _merged(self, result: ShareResult, summary: Summary) -> Iterator[RoundOutcome]:
        for item in result.outcomes():
            if isinstance(item, Quiet):
                if self.report is not None:
                    self.report.quiet(item.rounds, item.part)
            elif isinstance(item.seance, SeanceMoney):
                yield from self._pieced(item.seance, summary)
            else:
                yield item
        if self.report is not None and result.total is not None:
            self.report.merge(result.total)
        if self.progress is not None:
            self.progress.merged(result.summary.rounds_read, result.summary.files)
        if result.stopped is not None:
            raise result.stopped
        summary.merge(result.summary)

    def _in_parent(self, share: Share, summary: Summary) -> Iterator[RoundOutcome]:
        """A share read by this process (standard input, a pipe): streamed here, its rows written here,
        its rounds given to the reporter as they come."""
        task = self.task
        part = Summary()
        writer = share_writer(task.dataset, share)
        collect = task.collect or task.dataset is not None
        outcomes = share_outcomes(share, task.ruleset, task.house, part, collect, task.limits, task.readings)
        for outcome in outcomes:
            if isinstance(outcome.seance, SeanceMoney):
                yield from self._pieced(outcome.seance, summary)
                continue
            if writer is not None:
                writer.add(outcome)
            if outcome.findings or outcome.status == "unreadable" or self._kept(outcome):
                yield outcome
            elif outcome.status == "clean" and self.report is not None:
                self.report.round(outcome)
        if writer is not None:
            writer.close()
        if self.progress is not None:
            self.progress.done(share.size)
            self.progress.merged(part.rounds_read, part.files)
        summary.merge(part)

    def _pieced(self, part: SeanceMoney, summary: Summary) -> Iterator[RoundOutcome]:
        """A share's part of a séance, added to the parts before it; once the séance's last part is
        in, the séance reconciled as one process reconciles it: its finding, if any, in its place."""
        whole = self.parts.pop(part.key, None)
        if whole is None:
            whole = part
        else:
            whole.merge(part)
        if not whole.closed:
            self.parts[part.key] = whole
            return
        outcome = settled(summary, balance(whole))
        if self.task.dataset is not None:
            if self.writer is None:
                self.writer = ShareWriter(self.task.dataset, f"seances-{self.run}")
            self.writer.add(outcome)
        if outcome.findings or self._kept(outcome):
            yield outcome

    def _kept(self, outcome: RoundOutcome) -> bool:
        """A séance reconciled without a finding, for a format that keeps what has no finding (the HTML
        report's registre de contrôle): given to the report as one process gives it."""
        report = self.report
        return (
            isinstance(outcome.seance, Balance) and report is not None and report.quiet_rounds() is not None
        )

    def close(self) -> None:
        """The run merged whole: the séances reconciled here written."""
        if self.writer is not None:
            self.writer.close()


def _named(share: Share) -> str:
    return share.path if share.start is None else f"{share.path}:{share.first_line}"


def _counted(progress: PlanProgress, size: int, shares: int) -> Any:
    def count(future: Any) -> None:
        if future.status == "finished":
            progress.done(size, shares)

    return count


def _result(future: Any, where: str) -> Any:
    from distributed import KilledWorker
    from distributed.client import FutureCancelledError

    try:
        return future.result()
    except (KilledWorker, FutureCancelledError) as error:
        raise ValidatorError(
            _("{where}: the cluster could not check this part of the log ({error})").format(
                where=where, error=error
            )
        ) from None
