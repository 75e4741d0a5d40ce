"""How fast `check` is, against parsing the same file with orjson alone, in the same run.

    python benchmarks/bench_check.py            # 50k, 100k and 200k clean fr/blackjack rounds
    python benchmarks/bench_check.py --rounds 20000 30000
    python benchmarks/bench_check.py --pure     # a compiled install run as plain Python

For each size: simulates the log once (cached in the temp folder), takes the CPU time of orjson parsing
every line, then of reading alone: msgspec decoding and type-checking every line
(validator/logs/decode.py), and the reader giving every record (validator/logs/reader.py); then runs a
full `check` of the file in a fresh process (as a user runs it, report to /dev/null), once with one
process and once with `--jobs N` (default: the machine's cores), and reads the peak memory of the largest
process. The one-process ratio is issue 43's measure: the CPU time of the whole process (start-up,
imports and loading the rulesets included, as the kernel counts it for the child) over orjson's
parse-only CPU time, which a busy machine disturbs less than wall time; rounds/s are per CPU second.
The `--jobs` ratio is its wall time over orjson's CPU time (what a user waits). Prints the build that
runs (`--version`'s words) and whether the time grows linearly with the number of rounds.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

RULESET = "fr/blackjack@2016-06-10"
SEED = 2026


def _simulator_digest() -> str:
    import hashlib

    import validator.games
    import validator.simulate

    digest = hashlib.sha256()
    games = Path(validator.games.__file__).parent
    sources = [*Path(validator.simulate.__file__).parent.glob("*.py"), *games.glob("*/simulator.py")]
    for source in sorted(sources):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


def simulated_log(rounds: int) -> Path:
    # Kept between runs, named by what makes it: a changed simulator makes another log.
    path = Path(tempfile.gettempdir()) / f"casino-validator-bench-{rounds}-{SEED}-{_simulator_digest()}.jsonl"
    if not path.exists():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "validator",
                "simulate",
                "--ruleset",
                RULESET,
                "--rounds",
                str(rounds),
                "--seed",
                str(SEED),
                "--table",
                "BENCH-1",
                "--output",
                str(path),
            ],
            check=True,
        )
    return path


def orjson_parse(path: Path) -> float:
    started = time.process_time()
    with path.open("rb") as handle:
        for line in handle:
            orjson.loads(line)
    return time.process_time() - started


def msgspec_decode(path: Path) -> float:
    from validator.logs.decode import decode

    started = time.process_time()
    with path.open("rb") as handle:
        for line in handle:
            decode(line)
    return time.process_time() - started


def reader_records(path: Path) -> float:
    from validator.logs.reader import read_records

    started = time.process_time()
    for _ in read_records(str(path)):
        pass
    return time.process_time() - started


def check_in_fresh_process(path: Path, jobs: int) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds of the whole process, peak MB of the largest process) of
    `casino-validator check --jobs N` on the file: the wall time and peak measured inside its own process
    (its workers' peaks read as its children's), the CPU time as the kernel counts it for the child
    (user and system, from its start: the interpreter, the imports and the rulesets included)."""
    probe = (
        "import resource, sys, time\n"
        "started = time.perf_counter()\n"
        "from validator.cli import app\n"
        "try:\n"
        f"    app(['check', {str(path)!r}, '--format', 'json', '--output', {os.devnull!r}, '--quiet',"
        f" '--jobs', '{jobs}'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "elapsed = time.perf_counter() - started\n"
        "peak = max(resource.getrusage(who).ru_maxrss for who in"
        " (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))\n"
        "print(elapsed, peak / 1024)\n"
    )
    # Run from a neutral folder: `python -c` puts its working folder first on the path, and from the
    # repository root that is the source tree, not the installed build the header names.
    child = subprocess.Popen(
        [sys.executable, "-c", probe], stdout=subprocess.PIPE, text=True, cwd=tempfile.gettempdir()
    )
    assert child.stdout is not None
    out = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, child.args)
    seconds, peak = out.split()
    return float(seconds), usage.ru_utime + usage.ru_stime, float(peak)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, nargs="*", default=[50_000, 100_000, 200_000])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="the parallel run's --jobs")
    parser.add_argument(
        "--pure",
        action="store_true",
        help="set CASINO_VALIDATOR_PURE=1: a compiled install runs as plain Python",
    )
    args = parser.parse_args()
    if args.pure:
        os.environ["CASINO_VALIDATOR_PURE"] = "1"  # before the package is imported, here and in the probes
    from validator.compiled import describe

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}; build: {describe()}"
    )
    print(
        f"{'rounds':>8} {'orjson s':>9} {'msgspec s':>9} {'ratio':>6} {'reader s':>8} {'ratio':>6} "
        f"| {'check s':>8} {'CPU s':>7} {'ratio':>6} {'rounds/s':>9} {'peak MB':>8} "
        f"| {f'-j{args.jobs} s':>8} {'ratio':>6} {'rounds/s':>9} {'peak MB':>8}"
    )
    rows = []
    for rounds in args.rounds:
        path = simulated_log(rounds)
        parse = min(orjson_parse(path) for _ in range(3))
        decoded = min(msgspec_decode(path) for _ in range(3))
        read = min(reader_records(path) for _ in range(3))
        reading = f"{decoded:>9.2f} {decoded / parse:>6.1f} {read:>8.2f} {read / parse:>6.1f}"
        cells = [f"{rounds:>8} {parse:>9.2f} {reading}"]
        seconds, cpu, peak = check_in_fresh_process(path, 1)
        rows.append((rounds, cpu))
        cells.append(f"{seconds:>8.2f} {cpu:>7.2f} {cpu / parse:>6.1f} {rounds / cpu:>9.0f} {peak:>8.0f}")
        seconds, _cpu, peak = check_in_fresh_process(path, args.jobs)
        cells.append(f"{seconds:>8.2f} {seconds / parse:>6.1f} {rounds / seconds:>9.0f} {peak:>8.0f}")
        print(" | ".join(cells))
    if len(rows) > 1:
        per_round = [s / r * 1e6 for r, s in rows]
        spread = max(per_round) / min(per_round)
        print(
            f"CPU per round (one process): {', '.join(f'{p:.0f} µs' for p in per_round)} "
            f"({'linear' if spread < 1.25 else 'NOT linear'}: spread {spread:.2f})"
        )


if __name__ == "__main__":
    main()
