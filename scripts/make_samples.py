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
from validator.registry import default_registry
from validator.simulate.run import simulate

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "samples" / "logs"

# (file, table, ruleset version, rounds, seed, start, minimum, maximum, house options)
CLEAN = [
    ("clean/BJ-03-2016-06-10.jsonl", "BJ-03", "fr/blackjack@2016-06-10", 160, 11, "2016-06-10T20:00:00+02:00", 10, 1000, {}),
    ("clean/BJ-07-2025-03-14.jsonl.gz", "BJ-07", "fr/blackjack@2025-03-14", 160, 12, "2025-03-14T20:00:00+01:00", 10, 1000,
     {"surrender": True, "max_split_hands": 3}),
    ("clean/ON-01-2025-08-22.jsonl", "ON-01", "on/fair-blackjack", 120, 13, "2025-08-22T18:00:00-04:00", 1, 5, {}),
    ("clean/US-01-2024-07-05.jsonl", "US-01", "fr/usage-blackjack", 120, 14, "2024-07-05T21:00:00+02:00", 5, 500,
     {"blackjack_pays": Ratio(3, 2)}),
    ("clean/BA-01-2025-01-31.jsonl", "BA-01", "fr/bataille@2025-01-31", 150, 15, "2025-01-31T22:00:00+01:00", 5, 500, {}),
]


def records_for(table: str, spec: str, rounds: int, seed: int, start: str, low: int, high: int,
                house: dict[str, Any]) -> list[dict[str, Any]]:
    registry = default_registry()
    ruleset = registry.pick(spec)
    options = {**ruleset.house_defaults(), **house}
    return list(
        simulate(ruleset, options, seed=seed, rounds=rounds, table_id=table, start=datetime.fromisoformat(start),
                 minimum=Decimal(low), maximum=Decimal(high))
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


if __name__ == "__main__":
    main()
