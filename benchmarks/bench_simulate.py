"""Long `casino-validator simulate` séances of every version: what they cost (CPU, wall time, peak
memory of the command) and whether the hold their players keep lies within the 99 % band of `edge`'s
figure (issue 29: 200,000 rounds with the default players inside; `--players random` not).

    python benchmarks/bench_simulate.py                          # 200,000 rounds, best players
    python benchmarks/bench_simulate.py --rounds 20000 --players best random --only fr/bataille@2013-05-12

Each séance is the real command, run in a fresh process (seed 1, the version's first evening, its
default limits; a version whose house options have required choices without a default, fr/usage-
blackjack's payout, is played at the Trouville house file's table of its family). Its CPU time and peak
memory are the process's own (`os.wait4`). The hold is the mean, over rounds, of the main stakes' net
result per unit of initial stake (`validator.simulate.simcheck.round_return`), and the band is
± 2.576 standard errors of that mean around `edge`'s exact return (rounds sharing a shoe are counted
as independent, as simcheck does). The log is written to a temporary file and deleted.
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

from validator.house.load import load_house
from validator.maths.edge import figures
from validator.rulebook.registry import default_registry
from validator.simulate.simcheck import mean_return

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"


def house_table(version) -> str | None:  # type: ignore[no-untyped-def]
    """The Trouville table of the version's family, where the version leaves a choice to the house."""
    if not any(o.required for o in version.options.values()):
        return None
    registry = default_registry()
    for table, entry in load_house(HOUSE).tables.items():
        if isinstance(entry, dict) and registry.resolve(entry["ruleset"])[0] == version.family:
            return table
    return None


def play(version, players: str, rounds: int, log: Path) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Run the command; its CPU seconds, wall seconds and peak memory (MB)."""
    args = ["casino-validator", "simulate", "--ruleset", version.version, "--rounds", str(rounds)]
    args += ["--seed", "1", "--players", players, "-q", "-o", str(log)]
    table = house_table(version)
    if table is not None:
        args += ["--house", str(HOUSE), "--table", table]
    start = time.perf_counter()
    process = subprocess.Popen(args, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(args)}: exit {status}: {process.stderr.read().decode()}")  # type: ignore[union-attr]
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def hold(log: Path) -> tuple[float, float, int]:
    """The mean main-stake return per round, the 99 % half-width of that mean, the rounds counted."""
    with log.open("rb") as lines:
        return mean_return(orjson.loads(line) for line in lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--players", nargs="+", default=["best"], choices=["best", "random", "mix"])
    parser.add_argument("--only", action="append", help="a version (ID@DATE); repeat for more")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load {load:.1f}; {args.rounds} rounds")
    head = "| version | players | rounds | CPU (s) | wall (s) | peak MB | hold (%) | edge (%) "
    print(head + "| 99 % half-width | inside |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    registry = default_registry()
    house = load_house(HOUSE)
    for version in registry.all():
        if args.only and version.version not in args.only:
            continue
        table = house_table(version)
        options = None
        if table is not None:
            from validator.house.lint import house_options

            options = house_options(house, table, version)
        exact = figures(version, options).main
        for players in args.players:
            with tempfile.TemporaryDirectory() as tmp:
                log = Path(tmp) / "seance.jsonl"
                cpu, wall, peak = play(version, players, args.rounds, log)
                mean, half, n = hold(log)
            inside = "yes" if abs(mean - exact) <= half else "no"
            print(
                f"| {version.version} | {players} | {n} | {cpu:.1f} | {wall:.1f} | {peak:.0f} "
                f"| {mean * 100:+.4f} | {exact * 100:+.4f} | {half * 100:.4f} | {inside} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
