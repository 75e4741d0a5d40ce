"""Regenerate samples/: clean séances from the simulator (fixed seeds), and logs with known violations
made from them by small, documented edits. Run from the repository root:

    python scripts/make_samples.py

The violation logs' findings are listed in samples/README.md and asserted by tests/test_samples.py;
they were worked out from the rules' texts, not copied from the program's output.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from validator.dsl.ast import Ratio
from validator.rulebook.registry import default_registry
from validator.simulate.run import Seance, simulate

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "samples" / "logs"

# (file, table, ruleset version, rounds, seed, start, minimum, maximum, house options)
CLEAN = [
    (
        "clean/BJ-03-2016-06-10.jsonl",
        "BJ-03",
        "fr/blackjack@2016-06-10",
        160,
        11,
        "2016-06-10T20:00:00+02:00",
        10,
        1000,
        {},
    ),
    (
        "clean/BJ-07-2025-03-14.jsonl.gz",
        "BJ-07",
        "fr/blackjack@2025-03-14",
        160,
        12,
        "2025-03-14T20:00:00+01:00",
        10,
        1000,
        {"surrender": True, "max_split_hands": 3},
    ),
    (
        "clean/ON-01-2025-08-22.jsonl",
        "ON-01",
        "on/fair-blackjack",
        120,
        13,
        "2025-08-22T18:00:00-04:00",
        1,
        5,
        {},
    ),
    (
        "clean/US-01-2024-07-05.jsonl",
        "US-01",
        "fr/usage-blackjack",
        120,
        14,
        "2024-07-05T21:00:00+02:00",
        5,
        500,
        {"blackjack_pays": Ratio(3, 2)},
    ),
    (
        "clean/BA-01-2025-01-31.jsonl",
        "BA-01",
        "fr/bataille@2025-01-31",
        150,
        15,
        "2025-01-31T22:00:00+01:00",
        5,
        500,
        {},
    ),
]


def records_for(
    table: str, spec: str, rounds: int, seed: int, start: str, low: int, high: int, house: dict[str, Any]
) -> list[dict[str, Any]]:
    registry = default_registry()
    ruleset = registry.pick(spec)
    options = {**ruleset.house_defaults(), **house}
    return list(
        simulate(
            ruleset,
            options,
            Seance(
                seed=seed,
                rounds=rounds,
                table_id=table,
                start=datetime.fromisoformat(start),
                minimum=Decimal(low),
                maximum=Decimal(high),
            ),
        )
    )


def write(path: Path, records: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()
    if path.suffix == ".gz":
        with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
            out.write(text)
    else:
        path.write_bytes(text)


Edit = Callable[[list[dict[str, Any]]], None]


# Hand-written séances, each round breaking one rule; samples/README.md lists the finding each must
# give, worked out from the article, and tests/test_samples.py holds the program to that list.
def _table(table: str, game: str, ruleset: str, at: str, low: int, high: int) -> dict[str, Any]:
    return {
        "type": "table",
        "format": "hand-log/1",
        "table": table,
        "casino": "Casino de démonstration",
        "game": game,
        "ruleset": ruleset,
        "at": at,
        "seats": 7,
        "minimum": low,
        "maximum": high,
        "new_cards": True,
    }


def _shoe(shoe: str, at: str, backs: list[int], burn: list[str], behind: int) -> dict[str, Any]:
    return {
        "type": "shoe",
        "shoe": shoe,
        "at": at,
        "reason": "open",
        "decks": 6,
        "backs": backs,
        "shuffle": "manual",
        "cut_by": "1",
        "cut_card_behind": behind,
        "burn": burn,
    }


def _round(
    table: str, shoe: str, n: int, at: str, bets: list[tuple[str, int]], actions: list[list[Any]]
) -> dict[str, Any]:
    return {
        "type": "round",
        "round": f"{shoe}/{n}",
        "shoe": shoe,
        "at": at,
        "dealer": "D-101",
        "bets": [
            {"stake": box, "amount": amount, "player": f"P{box}", "seated": True} for box, amount in bets
        ],
        "actions": actions,
    }


def bj03_disputes() -> list[dict[str, Any]]:
    """fr/blackjack, 2013 wording (in force on 2016-06-11): six rounds, one broken rule each."""
    shoe, day = "BJ-03/2016-06-11/1", "2016-06-11T21:{:02d}:00+02:00"
    r = lambda n, bets, actions: _round("BJ-03", shoe, n, day.format(n), bets, actions)  # noqa: E731
    return [
        _table("BJ-03", "blackjack", "fr/blackjack", day.format(0), 10, 1000),
        _shoe(shoe, day.format(0), [3, 3], ["4D", "QS", "JH", "3H", "2D"], 84),
        # 1: the dealer draws to a soft 17; he must stand on every 17.
        r(
            1,
            [("1", 20)],
            [
                ["deal", "1", "TC"],
                ["deal", "D", "AH"],
                ["deal", "1", "QC"],
                ["stand", "1"],
                ["deal", "D", "6S"],
                ["deal", "D", "2D"],
                ["pay", "1", 20],
            ],
        ),
        # 2: a blackjack paid even money instead of 3 to 2.
        r(
            2,
            [("2", 10)],
            [
                ["deal", "2", "AS"],
                ["deal", "D", "9H"],
                ["deal", "2", "KD"],
                ["deal", "D", "8C"],
                ["pay", "2", 10],
            ],
        ),
        # 3: insurance against the dealer's blackjack paid 1 to 1 instead of 2 to 1.
        r(
            3,
            [("3", 20)],
            [
                ["deal", "3", "TD"],
                ["deal", "D", "AC"],
                ["deal", "3", "9D"],
                ["insurance", "3", 10],
                ["stand", "3"],
                ["deal", "D", "KH"],
                ["pay", "3:insurance", 10],
                ["lose", "3"],
            ],
        ),
        # 4: a 9 and an 8 split: only two cards of the same value may be split.
        r(
            4,
            [("1", 10)],
            [
                ["deal", "1", "9S"],
                ["deal", "D", "7H"],
                ["deal", "1", "8S"],
                ["split", "1", 10],
                ["deal", "1", "TH"],
                ["stand", "1"],
                ["deal", "1/2", "TS"],
                ["stand", "1/2"],
                ["deal", "D", "TC"],
                ["pay", "1/2", 10],
                ["pay", "1", 10],
            ],
        ),
        # 5: a double on three cards: doubling is on the first two cards only.
        r(
            5,
            [("1", 10)],
            [
                ["deal", "1", "2C"],
                ["deal", "D", "6D"],
                ["deal", "1", "3C"],
                ["hit", "1", "4C"],
                ["double", "1", 10, "5C"],
                ["deal", "D", "TC"],
                ["deal", "D", "9C"],
                ["pay", "1", 20],
            ],
        ),
        # 6: box 1 paid before box 5: stakes are settled from the dealer's right to his left.
        r(
            6,
            [("1", 10), ("5", 10)],
            [
                ["deal", "1", "TH"],
                ["deal", "5", "9H"],
                ["deal", "D", "7C"],
                ["deal", "1", "KH"],
                ["deal", "5", "QH"],
                ["stand", "1"],
                ["stand", "5"],
                ["deal", "D", "JH"],
                ["pay", "1", 10],
                ["pay", "5", 10],
            ],
        ),
        # 7: 19 against the dealer's 20 paid instead of collected.
        r(
            7,
            [("4", 50)],
            [
                ["deal", "4", "9C"],
                ["deal", "D", "KS"],
                ["deal", "4", "KC"],
                ["stand", "4"],
                ["deal", "D", "QS"],
                ["pay", "4", 50],
            ],
        ),
    ]


def on01_disputes() -> list[dict[str, Any]]:
    """on/fair-blackjack: the dealer must hit a soft 17; bets from $1 to $5."""
    shoe, day = "ON-01/2025-08-23/1", "2025-08-23T19:{:02d}:00-04:00"
    r = lambda n, bets, actions: _round("ON-01", shoe, n, day.format(n), bets, actions)  # noqa: E731
    return [
        _table("ON-01", "blackjack", "on/fair-blackjack", day.format(0), 1, 5),
        _shoe(shoe, day.format(0), [6], ["JS"], 98),
        # 1: the dealer stands on A-6, a soft 17 he must hit; 19 beats 17 and is paid.
        r(
            1,
            [("1", 5)],
            [
                ["deal", "1", "TC"],
                ["deal", "D", "AH"],
                ["deal", "1", "9C"],
                ["stand", "1"],
                ["deal", "D", "6S"],
                ["pay", "1", 5],
            ],
        ),
        # 2: a $10 bet at a $1-$5 table.
        r(
            2,
            [("2", 10)],
            [
                ["deal", "2", "TD"],
                ["deal", "D", "7D"],
                ["deal", "2", "QD"],
                ["stand", "2"],
                ["deal", "D", "KD"],
                ["pay", "2", 10],
            ],
        ),
    ]


def ba01_disputes() -> list[dict[str, Any]]:
    """fr/bataille: the higher card wins even money; the dealer's higher card collects."""
    shoe, day = "BA-01/2025-02-01/1", "2025-02-01T22:{:02d}:00+01:00"
    r = lambda n, bets, actions: _round("BA-01", shoe, n, day.format(n), bets, actions)  # noqa: E731
    return [
        _table("BA-01", "bataille", "fr/bataille", day.format(0), 5, 500),
        _shoe(shoe, day.format(0), [3, 3], ["7H", "AC", "3D", "5H", "6H"], 69),
        # 1: a king against the dealer's 8 collected instead of paid.
        r(1, [("3", 20)], [["deal", "3", "KC"], ["deal", "D", "8C"], ["lose", "3"]]),
        # 2: a 4 against the dealer's jack paid instead of collected.
        r(2, [("5", 30)], [["deal", "5", "4H"], ["deal", "D", "JD"], ["pay", "5", 30]]),
    ]


DISPUTES = [
    ("disputes/BJ-03-2016-06-11.jsonl", bj03_disputes),
    ("disputes/ON-01-2025-08-23.jsonl", on01_disputes),
    ("disputes/BA-01-2025-02-01.jsonl", ba01_disputes),
]


def main() -> None:
    made: dict[str, list[dict[str, Any]]] = {}
    available = {r.family for r in default_registry().all()} | {r.version for r in default_registry().all()}
    for name, table, spec, rounds, seed, start, low, high, house in CLEAN:
        family = spec.split("@")[0]
        if family not in available:
            print(f"skip {name}: no ruleset {family}")
            continue
        records = records_for(table, spec, rounds, seed, start, low, high, house)
        write(LOGS / name, records)
        made[name] = records
        print(f"wrote {name}: {len(records)} records")
    for name, make in DISPUTES:
        records = make()
        write(LOGS / name, records)
        print(f"wrote {name}: {len(records)} records")


if __name__ == "__main__":
    main()
