"""How `casino-validator lint` grows with the number of tables in a house-rules file.

    python benchmarks/bench_lint.py [--tables 1000 2000 5000 10000]

Writes one house-rules/1 file per size (every table a clean `fr/blackjack` entry with options and a
side bet, so that every check runs), lints each in a fresh process (`python -m validator lint`, the
command a user runs, start-up included) and prints the time, the time per table and whether time grows
linearly. Measured by hand and quoted in benchmarks/RESULTS.md; never a timed test.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ENTRY = """  BJ-{number:05d}:
    game: blackjack
    ruleset: fr/blackjack
    minimum: 10
    maximum: 1000
    seats: 7
    options:
      surrender: true
      max_split_hands: 3
    side_bets:
      lucky_ladies: {{paytable: A, minimum: 1, maximum: 50, seated_only: true}}
"""


def house_file(folder: Path, tables: int) -> Path:
    path = folder / f"house-{tables}.yaml"
    with path.open("w", encoding="utf-8") as out:
        out.write("format: house-rules/1\ncasino: Benchmark\ntables:\n")
        for number in range(tables):
            out.write(ENTRY.format(number=number))
    return path


def lint_seconds(path: Path) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one `lint` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "validator", "lint", str(path), "--date", "2025-03-14", "-f", "jsonl"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"lint {path} exited {result.returncode}: {result.stderr or result.stdout[:500]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1000, 2000, 5000, 10000])
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    # On a shared machine the wall clock counts the other tenants too; CPU time is this run's own.
    print(f"{'tables':>8} {'lint s':>8} {'CPU s':>8} {'CPU ms/table':>13}")
    rows: list[tuple[int, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        for tables in sorted(args.tables):
            seconds, cpu = lint_seconds(house_file(Path(folder), tables))
            rows.append((tables, cpu))
            print(f"{tables:>8} {seconds:>8.2f} {cpu:>8.2f} {1000 * cpu / tables:>13.3f}", flush=True)
    if len(rows) >= 2:
        (small, t_small), (large, t_large) = rows[0], rows[-1]
        growth = t_large / t_small
        # Linear: time grows like the tables (start-up, about a second, makes small sizes look dearer).
        verdict = "linear" if growth <= 1.5 * large / small else "NOT linear"
        print(f"{large / small:.0f}x the tables, {growth:.1f}x the CPU time: {verdict}")


if __name__ == "__main__":
    main()
