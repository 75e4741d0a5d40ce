"""How `check` scales on Dask: for one process and for `--jobs N`, the wall time, the CPU per round of the
client process and of the whole run, the client's peak memory, and the speed-up the client's share allows.

    python benchmarks/bench_cluster.py                          # 100k rounds, --jobs 2
    python benchmarks/bench_cluster.py --rounds 400000 --jobs 2,4,8,16

Needs the installed package only: the log is simulated once by `casino-validator simulate` (fr/blackjack,
clean rounds, cached in the temp folder), and a second log 4 times as long (`--times`) is the same séance
dealt again at other tables (the same records under other table ids, as a casino's other tables would
log them). Each run is `casino-validator check LOG --jobs N -f json -o /dev/null -q` in a fresh process
of its own session (one process: without --jobs), timed and measured from inside it:

- wall: from the command's start to its end (start-up, and the local cluster's start, included);
- CPU per round: the CPU seconds of the large log's run less the small log's, over the rounds between
  them: what each more round costs, start-up left out. "client" is the command's whole process as a
  system monitor sees it, read from outside (/proc/PID/stat once it has exited, before it is reaped: the
  user and system time of all its threads, whatever runs in them), beside "in-proc", its own
  `getrusage(RUSAGE_SELF)` when the command returns; "run" is every process of the run's session: the
  client, what it reaped (the local cluster's process, `validator/checking/local_host.py`, with its
  scheduler and nannies, and the workers it reaped), and any of the session still running when the
  client ended (sampled from /proc while it runs, so none is missed); "in run" is the client's CPU
  from its cluster's start to the run's end (its start-up and its cluster's start and stop left out,
  which on a loaded machine vary by more than the client's rounds cost), the same difference of sizes;
- client peak: the maximum resident set of the client process, for each log;
- bound: how far the run can speed up while the client works one round at a time: one process's CPU
  per round over the client's (the client merges every share in turn);
- speed-up and efficiency: one process's wall over the run's, on the large log, and that over N;
- replay and index (cluster runs): the workers' CPU per round inside the share tasks (replaying) and
  inside the index tasks, timed in the workers themselves; "run / repl." is the whole run's CPU over
  the replay's, both from the same run: what the cluster costs beyond the replay, measured under one
  and the same load (the columns against one process compare runs made at different moments).

`--one-worker` adds, for each N, the run of N's plan (the same shares and index tasks) on a single
worker: the software's cost without two busy workers on the machine. `--pair` adds two one-process
checks started at once: what a second busy process on the machine does to one check's CPU per round,
with no cluster at all. `--stop` also times Ctrl-C: from SIGINT to the end of a `--jobs 2` run whose
workers have shares in hand.

Wall times need an otherwise idle machine with N cores at least. The CPU figures do not need idle
cores, but a machine shared with other jobs makes every process's CPU time per round vary with their
load (caches, frequency, switches): compare figures from one run only, and `--repeat` the runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import simulated_log

_PROBE = """
import os, resource, sys, time

def _install():
    # On each worker: the CPU spent inside the tasks, replaying shares and indexing chunks.
    import time
    from validator.checking import parallel
    spent = parallel.__dict__.setdefault("_bench_spent", {"check_task": 0.0, "index_chunk": 0.0})
    def timed(name, function):
        def run(*args):
            started = time.process_time()
            try:
                return function(*args)
            finally:
                spent[name] += time.process_time() - started
        return run
    parallel.check_task = timed("check_task", parallel.check_task)
    parallel.index_chunk = timed("index_chunk", parallel.index_chunk)

def _spent():
    import resource
    from validator.checking import parallel
    used = resource.getrusage(resource.RUSAGE_SELF)
    return {**parallel.__dict__.get("_bench_spent", {}), "process": used.ru_utime + used.ru_stime}

def main():
    started = time.perf_counter()
    workers = {}
    from validator.checking import cluster
    local, leave = cluster._local_cluster, cluster._Session.__exit__
    forced = int(os.environ.get("BENCH_WORKERS", "0"))
    window = []  # the client's CPU once its cluster is up, and once the run is merged
    def cpu():
        used = resource.getrusage(resource.RUSAGE_SELF)
        return used.ru_utime + used.ru_stime
    def instrumented(jobs):
        session = local(forced or jobs if jobs else 0)
        session.client.run(_install)
        window.append(cpu())
        return session
    def exit(self, *exc):
        window.append(cpu())
        if self.client is not None and not workers:
            workers.update(self.client.run(_spent))
        return leave(self, *exc)
    cluster._local_cluster, cluster._Session.__exit__ = instrumented, exit
    from validator.cli import app
    try:
        app(sys.argv[1:])
    except SystemExit:
        pass
    wall = time.perf_counter() - started
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # VmHWM: this process's own peak (ru_maxrss keeps the parent's, inherited through fork and exec).
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    tasks = sum(w.get("check_task", 0.0) for w in workers.values())
    index = sum(w.get("index_chunk", 0.0) for w in workers.values())
    during = window[1] - window[0] if len(window) == 2 else 0.0
    own, reaped = me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime
    print(wall, own, reaped, peak / 1024, tasks, index, during)

if __name__ == "__main__":
    main()
"""


TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Run:
    wall: float
    client_cpu: float  # the client's whole process, read from /proc as it exits (all its threads)
    run_cpu: float  # every process of the run's session
    client_peak_mb: float
    tasks_cpu: float = 0.0  # the workers' CPU inside the share tasks (replaying)
    index_cpu: float = 0.0  # and inside the index tasks
    inside_cpu: float = 0.0  # the client's getrusage(RUSAGE_SELF) when the command returned
    during_cpu: float = 0.0  # the client's CPU from its cluster up to the run merged (no start, no stop)


def _stat(pid: int) -> tuple[int, float, float] | None:
    """A process's session, its own CPU seconds (user + system, all threads) and its reaped children's."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the name: state, ppid, pgrp, session, …, utime (12th), stime, cutime, cstime.
    own = (int(fields[11]) + int(fields[12])) / TICKS
    return int(fields[3]), own, (int(fields[13]) + int(fields[14])) / TICKS


class Monitor:
    """The CPU of a run's processes as a system monitor sees it: every process of the client's session
    (the client started in a session of its own), sampled from /proc every `every` seconds; a process's
    last figure is kept once it is gone."""

    def __init__(self, session: int, every: float = 0.5) -> None:
        self.session = session
        self.every = every
        self.last: dict[int, float] = {}
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def sample(self) -> None:
        for entry in os.listdir("/proc"):
            if entry.isdigit() and (stat := _stat(int(entry))) is not None and stat[0] == self.session:
                self.last[int(entry)] = stat[1]

    def _run(self) -> None:
        while not self._done.wait(self.every):
            self.sample()

    def stop(self) -> None:
        self._done.set()
        self._thread.join()


def dealt_again(path: Path, times: int) -> Path:
    """The séance of `path` dealt again at `times` tables: `times` × the rounds, made in seconds."""
    target = path.with_name(f"{path.stem}-x{times}.jsonl")
    if not target.exists():
        temporary = target.with_suffix(".part")
        with temporary.open("wb") as out:
            for n in range(1, times + 1):
                with path.open("rb") as source:
                    while chunk := source.read(64 << 20):
                        out.write(chunk.replace(b'"BENCH-1', f'"BENCH-{n}'.encode()))
        temporary.rename(target)
    return target


def started(path: Path, jobs: int, workers: int = 0) -> subprocess.Popen[str]:
    """`check` of the log in a fresh process of its own session (so that its processes compete with the
    rest of the machine as one job), measured from inside it; `workers`: the local cluster's size when
    not `jobs` (the plan is made for `jobs` all the same)."""
    command = [sys.executable, "-c", _PROBE, "check", str(path), "-f", "json", "-o", os.devnull, "-q"]
    if jobs > 1:
        command += ["--jobs", str(jobs)]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tempfile.gettempdir(),
        start_new_session=True,
        env={**os.environ, "BENCH_WORKERS": str(workers)},
    )


def measured(process: subprocess.Popen[str]) -> Run:
    """The run's figures: its own (wall, peak, the workers' task times) and, from outside, its CPU: the
    client's process read once it has exited but before it is reaped (a zombie keeps its counters: its
    threads' time, and its reaped children's), and the session's processes it did not reap, sampled."""
    monitor = Monitor(process.pid)
    texts: dict[str, str] = {}
    readers = [
        threading.Thread(target=lambda name=name, stream=stream: texts.__setitem__(name, stream.read()))
        for name, stream in (("out", process.stdout), ("err", process.stderr))
    ]
    for reader in readers:
        reader.start()
    os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)  # exited, not yet reaped
    monitor.sample()
    ended = _stat(process.pid)
    monitor.stop()
    process.wait()
    for reader in readers:
        reader.join()
    if process.returncode != 0 or ended is None:
        raise SystemExit(f"check failed ({process.returncode}): {texts.get('err', '').strip()[-2000:]}")
    _, client, reaped = ended
    time.sleep(0.5)  # anything of the session still running (an orphan) has its last figure taken
    monitor.sample()
    orphans = sum(cpu for pid, cpu in monitor.last.items() if pid != process.pid and _alive(pid))
    wall, me, _children, peak, tasks, index, during = (float(x) for x in texts["out"].split()[-7:])
    return Run(wall, client, client + reaped + orphans, peak, tasks, index, me, during)


def _alive(pid: int) -> bool:
    """Whether a process sampled is still there (not reaped by the client: its CPU is not in the
    client's children's)."""
    return Path(f"/proc/{pid}").exists()


def check(path: Path, jobs: int, workers: int = 0) -> Run:
    return measured(started(path, jobs, workers))


def pair(path: Path) -> Run:
    """Two one-process checks of the log at once: their mean, as one run."""
    runs = [measured(process) for process in [started(path, 1), started(path, 1)]]
    return Run(*(sum(getattr(r, name) for r in runs) / 2 for name in Run.__dataclass_fields__))


def stop_latency(path: Path, tries: int = 3) -> list[float]:
    """Seconds from Ctrl-C (SIGINT to the process group, as a terminal sends it) to the end of a
    `check --jobs 2` whose two workers have shares in hand; one figure per try."""
    import signal
    import time

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
    parser.add_argument("--rounds", type=int, default=100_000, help="rounds of the small log")
    parser.add_argument("--times", type=int, default=4, help="the large log is this many times the small")
    parser.add_argument("--jobs", default="2", help="worker counts to run, e.g. 2,4,8,16")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, the fastest kept")
    parser.add_argument(
        "--one-worker", action="store_true", help="also each --jobs N's plan run on a single worker"
    )
    parser.add_argument(
        "--pair", action="store_true", help="also two one-process checks at once (what the machine adds)"
    )
    parser.add_argument("--stop", action="store_true", help="also time Ctrl-C on a --jobs 2 run (3 tries)")
    args = parser.parse_args()
    counts = [int(n) for n in args.jobs.split(",") if int(n) > 1]
    # (name, --jobs, workers): how each configuration is run.
    configs: list[tuple[str, int, int]] = [("one process", 1, 0)]
    if args.pair:
        configs.append(("two at once", 1, 0))
    for jobs in counts:
        configs.append((f"--jobs {jobs}", jobs, 0))
        if args.one_worker:
            configs.append((f"--jobs {jobs}, 1 w.", jobs, 1))
    from validator.compiled import describe

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}, load average {os.getloadavg()[0]:.1f}; "
        f"build: {describe()}"
    )
    small = simulated_log(args.rounds)
    large = dealt_again(small, args.times)
    more = args.rounds * (args.times - 1)
    print(
        f"logs: {args.rounds:,} rounds ({small.stat().st_size / 1e6:,.0f} MB) "
        f"and {args.rounds * args.times:,}"
    )
    runs: dict[str, tuple[Run, Run]] = {}
    for attempt in range(args.repeat):
        for name, jobs, workers in configs:
            if name == "two at once":
                both = (pair(small), pair(large))
            else:
                both = (check(small, jobs, workers), check(large, jobs, workers))
            print(
                f"  run {attempt + 1}, {name}: {both[0].wall:.1f} s, {both[1].wall:.1f} s; "
                f"load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            if name not in runs or both[1].wall < runs[name][1].wall:
                runs[name] = both
    one_small, one_large = runs["one process"]
    one_cpu = (one_large.run_cpu - one_small.run_cpu) / more
    print()
    print(
        f"{'':>16} {'wall s':>7} {'wall s':>7} {'speed':>6} {'effic.':>6} | {'client CPU':>10} "
        f"{'of one':>6} {'in-proc':>7} {'in run':>6} {'bound':>5} | {'run CPU':>8} {'of one':>6} | "
        f"{'replay':>8} {'of one':>6} {'index':>6} {'run':>6} | {'client MB':>9}"
    )
    print(
        f"{'':>16} {f'{args.rounds // 1000}k':>7} {f'{args.rounds * args.times // 1000}k':>7} "
        f"{'up':>6} {'':>6} | {'µs/round':>10} {'':>6} {'of one':>7} {'of one':>6} {'':>5} | "
        f"{'µs/round':>8} {'':>6} | "
        f"{'µs/round':>8} {'':>6} {'of one':>6} {'/repl.':>6} | {'small':>4} {'large':>4}"
    )
    for name, jobs, workers in configs:
        a, b = runs[name]
        client = (b.client_cpu - a.client_cpu) / more
        inside = (b.inside_cpu - a.inside_cpu) / more
        during = (b.during_cpu - a.during_cpu) / more
        whole = (b.run_cpu - a.run_cpu) / more
        speed = one_large.wall / b.wall
        bound = one_cpu / client if client > 0 else float("inf")
        used = workers or jobs
        if jobs > 1:
            replay = (b.tasks_cpu - a.tasks_cpu) / more
            index = (b.index_cpu - a.index_cpu) / more
            workers_figures = (
                f"{replay * 1e6:>8.2f} {replay / one_cpu:>6.2f} {index / one_cpu:>6.1%} "
                f"{whole / replay if replay > 0 else float('inf'):>6.2f}"
            )
        else:
            workers_figures = f"{'':>8} {'':>6} {'':>6} {'':>6}"
        # Two checks at once do twice the work: their wall is no speed-up of one check.
        speeds = f"{'':>6} {'':>6}" if name == "two at once" else f"{speed:>6.2f} {speed / used:>6.2f}"
        print(
            f"{name:>16} {a.wall:>7.1f} {b.wall:>7.1f} {speeds} | "
            f"{client * 1e6:>10.2f} {client / one_cpu:>6.1%} {inside / one_cpu:>7.1%} "
            f"{during / one_cpu:>6.1%} {bound:>5.0f} | "
            f"{whole * 1e6:>8.2f} {whole / one_cpu:>6.2f} | {workers_figures} | "
            f"{a.client_peak_mb:>4.0f} {b.client_peak_mb:>5.0f}"
        )
    if args.stop:
        stops = stop_latency(large)
        print("stop after Ctrl-C with --jobs 2: " + ", ".join(f"{s:.2f} s" for s in stops))


if __name__ == "__main__":
    main()
