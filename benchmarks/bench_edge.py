"""What `casino-validator edge` costs for each version, and what its one tunable approximation costs.

    python benchmarks/bench_edge.py                  # CPU time of every version's full figures
    python benchmarks/bench_edge.py --tracked 2 4    # also: the classic game at 1 and 6 decks, with 2 and
                                                     # 4 of each hand's cards taken out, against the
                                                     # published figures (slow: a minute or more)

Each version's figures (main game, its distribution, side bets) are computed in a fresh process, three
times, and the median CPU time (user + system, which a shared machine disturbs less than wall time) is
printed beside an interpreter that only imports the package, so that a busy machine shows in both. The
target (issue 29): within 1.5 s of CPU per version.

With --tracked, the classic game of tests/maths/classic-blackjack.rules (the dealer checks for
blackjack, S17, doubling after splits or not, four hands) at one and six decks: its return with each
number of tracked cards, against Wizard of Odds' Appendix 9 (1ds17r4: +0.001839 and +0.000423;
6ds17r4: -0.004026 and -0.005445), and the CPU each took.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"
FIGURES = """
import sys, time
from validator.house.lint import house_options
from validator.house.load import load_house
from validator.maths.edge import figures, report
from validator.registry import default_registry
registry = default_registry()
ruleset = registry.pick(sys.argv[1])
options = None
if any(o.required for o in ruleset.options.values()):
    house = load_house(sys.argv[2])
    for table, entry in house.tables.items():
        if registry.resolve(entry["ruleset"])[0] == ruleset.family:
            options = house_options(house, table, ruleset)
            break
start = time.process_time()
report(figures(ruleset, options), None)
print(time.process_time() - start)
"""
PUBLISHED = {(1, True): 0.1839, (1, False): 0.0423, (6, True): -0.4026, (6, False): -0.5445}


def _cpu(args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def versions() -> None:
    from validator.registry import default_registry

    print("| version | edge CPU (s, median of 3) | of it, the figures alone | import only |")
    print("|---|---:|---:|---:|")
    for ruleset in default_registry().all():
        runs, inner = [], []
        for _ in range(3):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run(
                [sys.executable, "-c", FIGURES, ruleset.version, str(HOUSE)],
                check=True,
                capture_output=True,
                text=True,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            runs.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
            inner.append(float(out.stdout.strip()))
        bare = statistics.median(
            _cpu([sys.executable, "-c", "import validator.maths.edge"]) for _ in range(3)
        )
        print(
            f"| {ruleset.version} | {statistics.median(runs):.2f} | {statistics.median(inner):.2f} "
            f"| {bare:.2f} |",
            flush=True,
        )


def tracked(depths: list[int]) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "maths"))
    import tempfile

    from validator.registry import load_file

    from validator.games.blackjack.maths import main_game
    from validator.maths.probe import Probe

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
    args = parser.parse_args()
    versions()
    if args.tracked:
        tracked(args.tracked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
