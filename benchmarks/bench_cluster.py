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
  them: what each more round costs, start-up left out. "client" is the command's own process; "run" is
  the client and its workers together (`--jobs` workers are the client's children);
- client peak: the maximum resident set of the client process, for each log;
- bound: how far the run can speed up while the client works one round at a time: one process's CPU
  per round over the client's (the client merges every share in turn);
- speed-up and efficiency: one process's wall over the run's, on the large log, and that over N.

`--stop` also times Ctrl-C: from SIGINT to the end of a `--jobs 2` run whose workers have shares in hand.

Wall times need an otherwise idle machine with N cores at least; the CPU figures do not.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import simulated_log

_PROBE = """
import resource, sys, time
started = time.perf_counter()
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
print(wall, me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime, peak / 1024)
"""


@dataclass(frozen=True)
class Run:
    wall: float
    client_cpu: float
    run_cpu: float
    client_peak_mb: float


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


def check(path: Path, jobs: int) -> Run:
    """`check` of the log in a fresh process (its own session, so that its processes compete with the
    rest of the machine as one job), measured from inside it."""
    command = [sys.executable, "-c", _PROBE, "check", str(path), "-f", "json", "-o", os.devnull, "-q"]
    if jobs > 1:
        command += ["--jobs", str(jobs)]
    out = subprocess.run(
        command, capture_output=True, text=True, check=True, cwd=tempfile.gettempdir(), start_new_session=True
    )
    wall, me, children, peak = (float(x) for x in out.stdout.split()[-4:])
    return Run(wall, me, me + children, peak)


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
    parser.add_argument("--stop", action="store_true", help="also time Ctrl-C on a --jobs 2 run (3 tries)")
    args = parser.parse_args()
    counts = [1, *(int(n) for n in args.jobs.split(",") if int(n) > 1)]
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
    runs: dict[int, tuple[Run, Run]] = {}
    for attempt in range(args.repeat):
        for jobs in counts:
            pair = (check(small, jobs), check(large, jobs))
            print(
                f"  run {attempt + 1}, {'one process' if jobs == 1 else f'--jobs {jobs}'}: "
                f"{pair[0].wall:.1f} s, {pair[1].wall:.1f} s; load average {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            if jobs not in runs or pair[1].wall < runs[jobs][1].wall:
                runs[jobs] = pair
    one_small, one_large = runs[1]
    one_cpu = (one_large.run_cpu - one_small.run_cpu) / more
    print()
    print(
        f"{'':>12} {'wall s':>8} {'wall s':>8} {'speed-up':>8} {'effic.':>6} | {'client CPU':>10} "
        f"{'of one':>6} {'bound':>6} | {'run CPU':>8} {'of one':>6} | {'client peak MB':>15}"
    )
    print(
        f"{'':>12} {f'{args.rounds // 1000}k':>8} {f'{args.rounds * args.times // 1000}k':>8} "
        f"{'':>8} {'':>6} | "
        f"{'µs/round':>10} {'':>6} {'':>6} | {'µs/round':>8} {'':>6} | {'small':>7} {'large':>7}"
    )
    for jobs, (a, b) in runs.items():
        client = (b.client_cpu - a.client_cpu) / more
        whole = (b.run_cpu - a.run_cpu) / more
        speed = one_large.wall / b.wall
        bound = one_cpu / client if client > 0 else float("inf")
        name = "one process" if jobs == 1 else f"--jobs {jobs}"
        print(
            f"{name:>12} {a.wall:>8.1f} {b.wall:>8.1f} {speed:>8.2f} {speed / jobs:>6.2f} | "
            f"{client * 1e6:>10.2f} {client / one_cpu:>6.1%} {bound:>6.0f} | "
            f"{whole * 1e6:>8.2f} {whole / one_cpu:>6.2f} | {a.client_peak_mb:>7.0f} {b.client_peak_mb:>7.0f}"
        )
    if args.stop:
        stops = stop_latency(large)
        print("stop after Ctrl-C with --jobs 2: " + ", ".join(f"{s:.2f} s" for s in stops))


if __name__ == "__main__":
    main()
