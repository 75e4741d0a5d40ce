"""How `check` scales on Dask: rounds per second with 1 and 2 workers, the scheduling cost of a share,
what the client spends per round, and the peak memory of the client and of a worker.

    python benchmarks/bench_cluster.py                  # 40k clean fr/blackjack rounds
    python benchmarks/bench_cluster.py --rounds 20000

For each worker count (1, 2, 1, 2, ...: `--repeat` times each, the fastest kept), `dask scheduler` and
single-threaded `dask worker` processes are started on localhost, each in a session of its own, and
warmed (each worker has imported the package and compiled the rulesets); then the log is checked
through the scheduler's address, as `--scheduler` does: the time is the run's, not the cluster's start.
Scaling efficiency = rate with 2 / (2 × rate with 1).

Scheduling overhead per share: the same file cut into one share per shoe, run on one worker, against
the same shares run one after another in this process; the difference over the number of shares.

Client cost per round: unpickling a share's result and writing it as JSON lines, per round: the most
rounds per second one client can report, whatever the cluster's size.

Peak memory: the client's is a fresh `check --scheduler` process's (its maximum resident set); a
worker's is read in the worker after the run.
"""

from __future__ import annotations

import argparse
import io
import os
import pickle
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import simulated_log

from validator.checking import cluster, parallel
from validator.findings.finding import Summary
from validator.formats import make_reporter


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _warm() -> int:
    from validator.rulebook.registry import default_registry

    default_registry()
    return os.getpid()


class _Cluster:
    """`dask scheduler` and N `dask worker` processes on localhost, each in a session of its own.

    Linux's autogroup scheduler shares the CPU between sessions, not processes: workers that all belong
    to this script's session (as a LocalCluster's do) share one session's slice of a busy machine, and a
    second worker adds nothing. Separate sessions are what separate machines would be."""

    def __init__(self, workers: int, folder: Path) -> None:
        import json

        from distributed import Client

        scheduler_file = folder / "scheduler.json"
        dask = [sys.executable, "-m", "dask"]
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
        self.processes = [
            subprocess.Popen(
                [
                    *dask,
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--scheduler-file",
                    str(scheduler_file),
                ],
                **quiet,  # type: ignore[call-overload]
            )
        ]
        try:
            while not scheduler_file.exists() or not scheduler_file.read_text().strip():
                time.sleep(0.05)
            self.scheduler_address = json.loads(scheduler_file.read_text())["address"]
            worker = [*dask, "worker", self.scheduler_address, "--nthreads", "1", "--host", "127.0.0.1"]
            for n in range(workers):
                self.processes.append(
                    subprocess.Popen(
                        [*worker, "--no-dashboard", "--local-directory", str(folder / f"worker-{n}")],
                        **quiet,  # type: ignore[call-overload]
                    )
                )
            self.client = Client(self.scheduler_address, set_as_default=False)
            self.client.wait_for_workers(workers, timeout=60)
            self.client.run(_warm)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if hasattr(self, "client"):
            self.client.close()
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait()


def timed_run(path: Path, workers: int) -> tuple[float, float, float, float]:
    """(seconds, peak MB of the client process, peak MB of the largest worker, CPU seconds of all the
    workers) of checking the file with `check --scheduler` in a fresh process, timed from after its
    start-up (imports, rulesets)."""
    with tempfile.TemporaryDirectory() as folder:
        local = _Cluster(workers, Path(folder))
        try:
            cpu_before = sum(local.client.run(_cpu_seconds).values())
            probe = (
                "import resource, sys, time\n"
                "import distributed, validator.checking.cluster\n"
                "from validator.cli import app\n"
                "from validator.rulebook.registry import default_registry\n"
                "default_registry()\n"  # start-up is not the run: the rulesets are compiled before the clock
                "started = time.perf_counter()\n"
                "try:\n"
                f"    app(['check', {str(path)!r}, '--format', 'json', '--output', {os.devnull!r}, '--quiet',"
                f" '--scheduler', {local.scheduler_address!r}])\n"
                "except SystemExit:\n"
                "    pass\n"
                "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
                "print(time.perf_counter() - started, peak)\n"
            )
            out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
            seconds, client_peak = (float(x) for x in out.stdout.split())
            worker_peak = max(local.client.run(_peak_mb).values())
            cpu = sum(local.client.run(_cpu_seconds).values()) - cpu_before
            return seconds, client_peak, worker_peak, cpu
        finally:
            local.close()


def overhead_per_share(path: Path) -> tuple[int, float]:
    """(shares, seconds per share) that running a share on a worker costs beyond computing it."""
    parallel.MIN_SHARE = 1
    parallel.SHARES_PER_JOB = 1_000_000
    shares = parallel.plan([str(path)], 2)
    parallel.check_share(shares[0], None, None)  # this process warmed as the worker is
    started = time.perf_counter()
    for share in shares:
        parallel.check_share(share, None, None)
    alone = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        local = _Cluster(1, Path(folder))
        try:
            started = time.perf_counter()
            run = cluster.check_on_cluster([str(path)], Summary(), jobs=2, scheduler=local.scheduler_address)
            for _ in run:
                pass
            on_cluster = time.perf_counter() - started
        finally:
            local.close()
    # The plan is made again inside the run: take it off, as it is not per share.
    started = time.perf_counter()
    parallel.plan([str(path)], 2)
    planning = time.perf_counter() - started
    return len(shares), (on_cluster - planning - alone) / len(shares)


def client_cost_per_round(path: Path) -> float:
    share = parallel.plan([str(path)], 1)[0]
    result = parallel.check_share(share, None, None)
    data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    started = time.perf_counter()
    back = pickle.loads(data)
    reporter = make_reporter("jsonl", io.StringIO())
    for outcome in back.outcomes():
        reporter.round(outcome)
    return (time.perf_counter() - started) / max(1, len(back.rows))


def stop_latency(path: Path, tries: int = 3) -> list[float]:
    """Seconds from Ctrl-C (SIGINT to the process group, as a terminal sends it) to the end of a
    `check --jobs 2` whose two workers have shares in hand; one figure per try."""
    import signal
    import tempfile

    figures = []
    for _ in range(tries):
        with tempfile.TemporaryDirectory() as scratch:
            command = [sys.executable, "-m", "validator", "check", str(path), "--jobs", "2", "-q"]
            process = subprocess.Popen(
                command,
                env={**os.environ, "TMPDIR": scratch},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            deadline = time.monotonic() + 60
            workers = "casino-validator-dask-*/dask-scratch-space/worker-*/"
            while len(list(Path(scratch).glob(workers))) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(1.0)
            os.killpg(process.pid, signal.SIGINT)
            interrupted = time.monotonic()
            process.wait(timeout=60)
            figures.append(time.monotonic() - interrupted)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=40_000)
    parser.add_argument("--overhead-rounds", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each worker count, alternated")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}, load average {os.getloadavg()[0]:.1f}"
    )
    path = simulated_log(args.rounds)
    best: dict[int, tuple[float, float, float, float]] = {}
    for attempt in range(args.repeat):
        for workers in (1, 2):  # alternated: a machine whose load drifts slows both alike
            run = timed_run(path, workers)
            print(
                f"  run {attempt + 1}, {workers} worker(s): {run[0]:.2f} s, workers' CPU {run[3]:.2f} s, "
                f"load average {os.getloadavg()[0]:.1f}"
            )
            if workers not in best or run[0] < best[workers][0]:
                best[workers] = run
    rates = {}
    for workers, (seconds, client_peak, worker_peak, cpu) in sorted(best.items()):
        rates[workers] = args.rounds / seconds
        print(
            f"{workers} worker(s): {args.rounds} rounds in {seconds:.2f} s, {rates[workers]:,.0f} rounds/s, "
            f"workers' CPU {cpu:.2f} s, peak memory client {client_peak:.0f} MB, worker {worker_peak:.0f} MB "
            f"(fastest of {args.repeat})"
        )
    print(f"scaling efficiency: {rates[2] / (2 * rates[1]):.2f}")
    # What the load cannot blur: the work two workers do for the same log, against one's.
    print(f"CPU efficiency (workers' CPU with 1 / with 2): {best[1][3] / best[2][3]:.2f}")
    shares, per_share = overhead_per_share(simulated_log(args.overhead_rounds))
    print(f"scheduling overhead: {per_share * 1000:.1f} ms per share ({shares} shares of one shoe)")
    per_round = client_cost_per_round(simulated_log(args.overhead_rounds))
    print(f"client cost: {per_round * 1e6:.1f} µs per round (at most {1 / per_round:,.0f} rounds/s reported)")
    stops = stop_latency(simulated_log(args.rounds))
    print("stop after Ctrl-C with --jobs 2: " + ", ".join(f"{s:.2f} s" for s in stops))


if __name__ == "__main__":
    main()
