"""What `casino-validator edge` costs for each version, against the code of another revision, and what
its one tunable approximation costs.

    python benchmarks/bench_edge.py                  # CPU time of every version's full figures
    python benchmarks/bench_edge.py --against REV    # the same, side by side with revision REV's code
                                                     # (a git revision: its package and rulesets,
                                                     # extracted to a temporary folder), the ratio, and
                                                     # whether every figure printed is the same
    python benchmarks/bench_edge.py --installed --against DIR
                                                     # the package installed in the interpreter that
                                                     # runs this (a compiled build: `pip install .` in a
                                                     # virtualenv, run with its python) against the one
                                                     # in DIR (another install's site-packages)
    python benchmarks/bench_edge.py --against REV --outputs
                                                     # also: whether everything `edge` prints is the
                                                     # same (below)
    python benchmarks/bench_edge.py --tracked 2 4    # also: the classic game at 1 and 6 decks, with 2 and
                                                     # 4 of each hand's cards taken out, against the
                                                     # published figures (slow: a minute or more)

Each version's figures (main game, its distribution, side bets: what `edge --format json` prints) are
computed in a fresh process, three times (each build in turn, so that a busy machine weighs on both
alike), and the median CPU time of the figures (`time.process_time` around them, the process's start
and imports left out) is printed; with --against, beside the other revision's and their ratio, and
whether the two print the same figures (the JSON less its timings). The target (issue 29): within 1.5 s
of CPU per version.

With --outputs, each build runs `edge` as a user does, and what it prints (output, errors and exit
status, less the lines that give its timings) must be the same byte for byte: every version, in text
and JSON, with --options (and so the readings' figures and every option's cost); every table of the
house files under samples/house; and every version under each reading alternative that changes a side
bet's expressions (`--reading ID=ALTERNATIVE`, JSON). Each difference is printed, and the exit status
is 1 when there is one.

With --tracked, the classic game of tests/maths/classic-blackjack.rules (the dealer checks for
blackjack, S17, doubling after splits or not, four hands) at one and six decks: its return with each
number of tracked cards, against Wizard of Odds' Appendix 9 (1ds17r4: +0.001839 and +0.000423;
6ds17r4: -0.004026 and -0.005445), and the CPU each took.
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"
# Run in a fresh process with the package on sys.path[0] (argv[1]): the CPU of the figures, and a digest
# of what `edge --format json` prints of them (its timings left out).
FIGURES = """
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
from validator.house.lint import house_options
from validator.house.load import load_house
from validator.maths.edge import figures, report
from validator.rulebook.registry import default_registry
registry = default_registry()
ruleset = registry.pick(sys.argv[2])
options = None
if any(o.required for o in ruleset.options.values()):
    house = load_house(sys.argv[3])
    for table, entry in house.tables.items():
        if registry.resolve(entry["ruleset"])[0] == ruleset.family:
            options = house_options(house, table, ruleset)
            break
start = time.process_time()
data = report(figures(ruleset, options), None)
cpu = time.process_time() - start
data.pop("seconds"); data.pop("cpu_seconds")
print(cpu, hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest())
"""
PUBLISHED = {(1, True): 0.1839, (1, False): 0.0423, (6, True): -0.4026, (6, False): -0.5445}


def _figures(package: Path, version: str) -> tuple[float, str]:
    out = subprocess.run(
        [sys.executable, "-c", FIGURES, str(package), version, str(HOUSE)],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(package)},
    )
    cpu, digest = out.stdout.split()
    return float(cpu), digest


def _extract(revision: str, into: Path) -> Path:
    """The package, grammar and rulesets of `revision`, extracted into `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "validator", "grammar", "rulesets"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


# Run `edge` as the command line does, with the package in argv[1]; the rest of argv is its arguments.
CLI = """
import sys
sys.path.insert(0, sys.argv[1])
sys.argv = ["casino-validator", *sys.argv[2:]]
from validator.cli import main
main()
"""


def _other(against: str, tmp: Path) -> Path:
    """The package to compare with: a folder holding one (an install's site-packages), or a revision's
    sources extracted into `tmp`."""
    folder = Path(against)
    if (folder / "validator" / "__init__.py").is_file():
        return folder
    return _extract(against, tmp)


def versions(against: str | None, package: Path, outputs: bool) -> int:
    from validator.rulebook.registry import default_registry

    load = os.getloadavg()[0]
    print(
        f"machine: {os.cpu_count()} cores, load {load:.1f}; median of 3 fresh processes, CPU of the figures"
    )
    print(f"this build: {_build(package)}")
    with tempfile.TemporaryDirectory() as tmp:
        other = _other(against, Path(tmp)) if against is not None else None
        if other is None:
            print("| version | figures CPU (s) |")
            print("|---|---:|")
        else:
            print(f"{against}: {_build(other)}")
            print(f"| version | this build (s) | {against} (s) | ratio | same figures |")
            print("|---|---:|---:|---:|---|")
        for ruleset in default_registry().all():
            mine: list[float] = []
            theirs: list[float] = []
            digests: set[str] = set()
            for _ in range(3):
                cpu, digest = _figures(package, ruleset.version)
                mine.append(cpu)
                digests.add(f"this:{digest}")
                if other is not None:
                    cpu, digest = _figures(other, ruleset.version)
                    theirs.append(cpu)
                    digests.add(f"other:{digest}")
            here = statistics.median(mine)
            if other is None:
                print(f"| {ruleset.version} | {here:.2f} |", flush=True)
                continue
            there = statistics.median(theirs)
            same = len({d.split(":")[1] for d in digests}) == 1
            print(
                f"| {ruleset.version} | {here:.2f} | {there:.2f} | {here / there:.2f} | "
                f"{'yes' if same else 'NO'} |",
                flush=True,
            )
        if outputs and other is not None:
            return _same_outputs(package, other)
    return 0


def _build(package: Path) -> str:
    """How `casino-validator --version` names the build in `package`."""
    return _cli(package, ["--version"]).splitlines()[0]


def _cli(package: Path, arguments: list[str]) -> str:
    """What `casino-validator ARGUMENTS` prints with the package in `package` (output, then errors, then
    the exit status), less the lines that give its timings."""
    out = subprocess.run(
        [sys.executable, "-c", CLI, str(package), *arguments],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(package)},
    )
    kept = [
        line
        for line in (out.stdout + out.stderr).splitlines()
        if '"seconds"' not in line and '"cpu_seconds"' not in line and "s of processor time)" not in line
    ]
    return "\n".join([*kept, f"exit {out.returncode}"])


def _edge_runs() -> list[list[str]]:
    """The `edge` command lines --outputs compares."""
    from validator.house.load import load_house
    from validator.maths.edge import _bet_signature
    from validator.rulebook.registry import default_registry, under_readings

    runs: list[list[str]] = []
    registry = default_registry()
    for ruleset in registry.all():
        for fmt in ("text", "json"):
            runs.append(["edge", "--ruleset", ruleset.version, "--format", fmt, "--options"])
        for name, reading in ruleset.readings.items():
            for alternative in reading.names:
                changed = under_readings(ruleset, {name: alternative})
                if changed is ruleset or all(
                    _bet_signature(changed, bet) == _bet_signature(ruleset, bet) for bet in ruleset.side_bets
                ):
                    continue
                runs.append(
                    ["edge", "--ruleset", ruleset.version, "--reading", f"{name}={alternative}", "-f", "json"]
                )
    for house in sorted((ROOT / "samples" / "house").glob("*.yaml")):
        for table in load_house(house).tables:
            for fmt in ("text", "json"):
                runs.append(["edge", "--house", str(house), "--table", table, "--format", fmt, "--options"])
    return runs


def _same_outputs(package: Path, other: Path) -> int:
    differ = 0
    runs = _edge_runs()
    for arguments in runs:
        mine, theirs = _cli(package, arguments), _cli(other, arguments)
        if mine != theirs:
            differ += 1
            print(f"DIFFERENT: casino-validator {' '.join(arguments)}")
            for line in difflib.unified_diff(
                theirs.splitlines(), mine.splitlines(), "other", "this", lineterm=""
            ):
                print(f"    {line}")
    print(f"what edge prints: {len(runs) - differ} of {len(runs)} command lines the same", flush=True)
    return 1 if differ else 0


def tracked(depths: list[int]) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "maths"))
    import tempfile

    from validator.games.blackjack.maths import main_game
    from validator.maths.probe import Probe
    from validator.rulebook.registry import load_file

    text = (ROOT / "tests" / "maths" / "classic-blackjack.rules").read_text(encoding="utf-8")
    text = text.replace("dealer.peeks = false", "dealer.peeks = true")
    print(
        "| decks | double after split | tracked cards | return (%) | published (%) | difference | CPU (s) |"
    )
    print("|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for decks in (1, 6):
            path = Path(tmp) / f"classic-{decks}.rules"
            path.write_text(text.replace("shoe.decks = 6", f"shoe.decks = {decks}"), encoding="utf-8")
            ruleset = load_file(path)
            for das in (True, False):
                house = {**ruleset.house_defaults(), "double_after_split": das, "max_split_hands": 4}
                for depth in depths:
                    start = time.process_time()
                    ev = main_game(Probe(ruleset, house), tracked=depth).ev * 100
                    cpu = time.process_time() - start
                    published = PUBLISHED[(decks, das)]
                    print(
                        f"| {decks} | {'yes' if das else 'no'} | {depth} | {ev:+.5f} | {published:+.4f} "
                        f"| {ev - published:+.5f} | {cpu:.1f} |",
                        flush=True,
                    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tracked", type=int, nargs="*", help="numbers of tracked cards to compare")
    parser.add_argument(
        "--against",
        metavar="REV|DIR",
        help="a git revision whose code to compare with, or a folder holding another build's package",
    )
    parser.add_argument(
        "--installed",
        action="store_true",
        help="measure the package installed in this interpreter (a compiled build), not this tree's sources",
    )
    parser.add_argument("--outputs", action="store_true", help="also compare everything `edge` prints")
    args = parser.parse_args()
    package = ROOT
    if args.installed:
        import validator

        package = Path(validator.__file__).resolve().parents[1]
    status = versions(args.against, package, args.outputs)
    if args.tracked:
        tracked(args.tracked)
    return status


if __name__ == "__main__":
    sys.exit(main())
