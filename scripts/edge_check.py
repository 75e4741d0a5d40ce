"""Every version of every ruleset: the time `edge` takes for its figures, and its exact main-stake return
against séances simulated with the strategy the computation used (a million rounds each by default).

    python scripts/edge_check.py [--rounds N] [--seed S] [--house samples/house/trouville.yaml] [--only V]

A version whose house options have required choices without a default (fr/usage-blackjack's
blackjack payout) takes them from the first table of the house file declared under its family.
Prints one line per version: seconds, exact return, simulated mean, 99 % half-width, inside or not.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from validator.house.lint import house_options
from validator.house.load import load_house
from validator.maths.edge import figures
from validator.rulebook.registry import default_registry
from validator.simulate.simcheck import check


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--house", type=Path, default=Path("samples/house/trouville.yaml"))
    parser.add_argument("--only", action="append", help="a version (ID@DATE, or ID); repeat for more")
    parser.add_argument("--no-simulation", action="store_true", help="time the figures only")
    args = parser.parse_args()
    registry = default_registry()
    house = load_house(args.house)
    failures = 0
    head = "| version | figures (s) | cpu (s) | exact return | simulated mean | 99 % half-width | rounds |"
    print(head + " inside |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for ruleset in registry.all():
        if args.only and ruleset.version not in args.only:
            continue
        options = None
        if any(o.required for o in ruleset.options.values()):
            for table, entry in house.tables.items():
                if isinstance(entry, dict) and registry.resolve(entry["ruleset"])[0] == ruleset.family:
                    options = house_options(house, table, ruleset)
                    break
        start, cpu = time.perf_counter(), time.process_time()
        figures(ruleset, options)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        if args.no_simulation:
            print(f"| {ruleset.version} | {seconds:.2f} | {cpu:.2f} | | | | | |", flush=True)
            continue
        result = check(ruleset, options, args.rounds, args.seed)
        failures += not result.inside
        print(
            f"| {ruleset.version} | {seconds:.2f} | {cpu:.2f} | {result.exact * 100:+.4f} % "
            f"| {result.mean * 100:+.4f} % | {result.half_width * 100:.4f} % | {result.rounds} "
            f"| {'yes' if result.inside else 'NO'} |",
            flush=True,
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
