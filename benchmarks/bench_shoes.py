"""The shoe tests' false-alarm rate (`validator.audit.shoes`), measured on random shoes.

    python benchmarks/bench_shoes.py                  # 100 000 shoes
    python benchmarks/bench_shoes.py --shoes 10000

Each shoe: six decks shuffled as the simulator shuffles them (Python's `random.shuffle`, a uniform
permutation), dealt to a cut card 60 to 100 cards from the back (the arrêté's and the simulator's range of
`cut_card_behind`). Prints, for the order test, the share of random shoes whose p-value is below each
level (a calibrated test gives the level itself), the share flagged in a report of 1 000 shoes (below
ALPHA ÷ 1 000), and the reused-order test's false alarms over every pair of shoes.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from validator.audit.shoes import ALPHA, order_test, reused
from validator.casino.cards import all_cards


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shoes", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    deck = all_cards() * 6
    levels = (0.05, 0.01, 1e-3, 1e-4, ALPHA / 1000)
    below = dict.fromkeys(levels, 0)
    shoes = []
    start = time.process_time()
    for number in range(options.shoes):
        shoe = list(deck)
        rng.shuffle(shoe)
        dealt = shoe[: len(shoe) - rng.randint(60, 100)]
        p = order_test(dealt).p
        for level in levels:
            below[level] += p < level
        if number < 20_000:
            shoes.append(((str(number),), dealt))
    print(f"{options.shoes} random shoes, {time.process_time() - start:.1f} s CPU")
    for level in levels:
        print(f"  p < {level:g}: {below[level]} ({below[level] / options.shoes:.5f})")
    found = reused(shoes)
    pairs = len(shoes) * (len(shoes) - 1) // 2
    print(f"reused-order test over {len(shoes)} shoes ({pairs} pairs): {len(found)} alarms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
