"""How long `casino-validator` takes to start, against the interpreter starting and doing nothing.

    python benchmarks/bench_startup.py             # 15 runs of each, medians
    python benchmarks/bench_startup.py --runs 30

Each command runs in a fresh process (`python -m validator …`, as the installed entry point runs it),
side by side with `python -c pass` in the same loop, so a busy machine slows both alike. Printed: the
median and best wall time of each, the figure minus the interpreter's, the ratio to it, and the median
CPU time (user + system) and its ratio, which a machine shared with other work disturbs less. The
commands: `--help`, and `check` of a one-round log with the parsed-rulesets cache warm (one untimed run
fills it), report to /dev/null. The targets (issue 16): `--help` under 0.12 s, that `check` under 0.25 s.

The modules run from their bytecode, as an installed package's do (pip compiles them): written once, by
the untimed run, under a folder of the temp directory (PYTHONPYCACHEPREFIX), whatever
PYTHONDONTWRITEBYTECODE says. `--source` times them compiled from source on every run instead.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ONE_ROUND = [
    '{"type": "table", "format": "hand-log/1", "table": "BJ-03", "casino": "Casino", "game": "blackjack", '
    '"ruleset": "fr/blackjack", "at": "2025-03-14T21:00:00+01:00", "seats": 7, "minimum": 10, '
    '"maximum": 1000, "new_cards": true}',
    '{"type": "shoe", "shoe": "BJ-03/2025-03-14/1", "at": "2025-03-14T21:00:00+01:00", "reason": "open", '
    '"decks": 6, "backs": [3, 3], "shuffle": "manual", "cut_by": "1", "cut_card_behind": 84, '
    '"burn": ["4D", "QS", "JH", "3H", "2D"]}',
    '{"type": "round", "round": "BJ-03/2025-03-14/1/1", "shoe": "BJ-03/2025-03-14/1", '
    '"at": "2025-03-14T21:01:00+01:00", "dealer": "D-101", "bets": [{"stake": "1", "amount": 20, '
    '"player": "P1", "seated": true}], "actions": [["deal", "1", "TC"], ["deal", "D", "AH"], '
    '["deal", "1", "QC"], ["stand", "1"], ["deal", "D", "6S"], ["deal", "D", "2D"], ["pay", "1", 20]]}',
]
TARGETS = {"--help": 0.12, "check (1 round)": 0.25}


def _wall(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall time, and CPU time (user + system) of the process: on a busy machine the first waits for the
    cores, the second does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--source", action="store_true", help="no bytecode: compile every module each run")
    parser.add_argument(
        "--tree", type=Path, help="the casino-validator tree to time (default: this one), for before/after"
    )
    options = parser.parse_args()
    runs = options.runs
    root = options.tree or Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if options.source:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "casino-validator-bench-pycache")
    log = Path(tempfile.gettempdir()) / "casino-validator-bench-startup.jsonl"
    log.write_text("\n".join(ONE_ROUND) + "\n", encoding="utf-8")
    python = [sys.executable]
    commands = {
        "python -c pass": [*python, "-c", "pass"],
        "--help": [*python, "-m", "validator", "--help"],
        "check (1 round)": [*python, "-m", "validator", "check", str(log), "-q", "-o", os.devnull],
    }
    for argv in commands.values():  # fills the parsed-rulesets cache, and writes the bytecode
        _wall(argv, env, root)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            wall, used = _wall(argv, env, root)
            times[name].append(wall)
            cpu[name].append(used)
    modules = "compiled from source each run" if options.source else "from bytecode"
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{runs} runs, modules {modules}"
    )
    print(
        f"{'command':<18} {'median s':>9} {'best s':>8} {'- python':>9} {'x python':>9} {'target':>8}"
        f" | {'cpu s':>6} {'x python':>9}"
    )
    floor = statistics.median(times["python -c pass"])
    cpu_floor = statistics.median(cpu["python -c pass"]) or 1e-9
    for name, measured in times.items():
        median = statistics.median(measured)
        used = statistics.median(cpu[name])
        target = TARGETS.get(name)
        verdict = "" if target is None else f"{'<' if median < target else '>='} {target:.2f}"
        print(
            f"{name:<18} {median:>9.3f} {min(measured):>8.3f} {median - floor:>9.3f} "
            f"{median / floor:>9.1f} {verdict:>8} | {used:>6.3f} {used / cpu_floor:>9.1f}"
        )


if __name__ == "__main__":
    main()
