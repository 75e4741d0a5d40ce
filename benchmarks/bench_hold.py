"""Does the report's hold band accuse only what was planted? Simulated séances, checked with `--dataset`,
then the report's hold section (`validator.audit.query.build`, the theoretical priced by `edge`).

    nice python benchmarks/bench_hold.py                        # every case, as quoted in RESULTS.md
    nice python benchmarks/bench_hold.py --best 20000 --year 20000   # smaller

1. **best play** (`--best` rounds each, 200 000 by default): a clean séance played by the strategy `edge`
   computes, per game (fr/blackjack, fr/bataille) and, at BJ-07 of the Trouville house file (which
   offers them), per side bet and case: the main line and each bet of its own must hold inside its band;
2. **a year of one table** (`--year` rounds, 90 000 by default: 250 rounds an evening, 360 evenings) of
   players of mixed skill (`--players mix`: 60 % best, 30 % casual errors, 10 % random), per game:
   clean, no period of the hold section may be flagged (per table, per gaming day, month and year to
   date); the same log with a **1-point skim** planted (lost main stakes written as pushes, at random,
   until the stakes given back reach 1 % of the main bets placed) must be flagged below its band, for
   the whole table and year to date.

Prints one line per case: rounds, hold, theoretical, band, flagged periods, CPU seconds.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from validator.audit.dataset.writer import DatasetRun  # noqa: E402
from validator.audit.query import Filters, build, connect  # noqa: E402
from validator.audit.theory import theory  # noqa: E402
from validator.checking.serial import check_logs  # noqa: E402
from validator.findings.finding import Summary  # noqa: E402
from validator.house.apply import house_lookup  # noqa: E402
from validator.rulebook.registry import default_registry  # noqa: E402
from validator.simulate.options import SimulateOptions  # noqa: E402
from validator.simulate.plan import prepare  # noqa: E402

HOUSE = ROOT / "samples" / "house" / "trouville.yaml"
GAMES = (("fr/blackjack@2025-03-14", "BJ-03"), ("fr/bataille@2013-05-12", "BA-01"))


def simulate(path: Path, version: str, table: str, players: str, rounds: int, seed: int) -> None:
    _chosen, records = prepare(
        default_registry(),
        SimulateOptions(version, rounds=rounds, seed=seed, table=table, players=players, house=HOUSE),
    )
    with path.open("wb") as out:
        for record in records:
            out.write(orjson.dumps(record) + b"\n")


def audit(log: Path, folder: Path):  # type: ignore[no-untyped-def]
    registry = default_registry()
    shutil.rmtree(folder, ignore_errors=True)
    run = DatasetRun.start(str(folder), [str(log)], {}, str(HOUSE))
    summary = Summary()
    lookup = house_lookup(HOUSE, registry)[0]
    for _ in run.writer().write_all(
        check_logs(registry, [str(log)], summary=summary, collect=True, house=lookup)
    ):
        pass
    run.commit(summary)
    return build([str(folder)], theory=theory(connect([str(folder)], Filters())))


def skim(source: Path, target: Path, share: Decimal, seed: int) -> Decimal:
    """`source` with lost main stakes written as pushes, at random, until they reach `share` of the main
    bets placed; returns what was given back."""
    records = [orjson.loads(line) for line in source.read_bytes().splitlines()]
    placed = sum(
        (
            Decimal(str(b["amount"]))
            for r in records
            if r.get("type") == "round"
            for b in r["bets"]
            if b["stake"].isdigit()
        ),
        Decimal(0),
    )
    lost: list[tuple[int, int, Decimal]] = []
    for i, record in enumerate(records):
        if record.get("type") != "round":
            continue
        stakes = {b["stake"]: Decimal(str(b["amount"])) for b in record["bets"]}
        for j, action in enumerate(record["actions"]):
            if action[0] == "lose" and len(action) == 2 and action[1] in stakes and action[1].isdigit():
                lost.append((i, j, stakes[action[1]]))
    random.Random(seed).shuffle(lost)
    given = Decimal(0)
    for i, j, amount in lost:
        if given >= placed * share:
            break
        records[i]["actions"][j] = ["push", records[i]["actions"][j][1]]
        given += amount
    target.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return given / placed


def shoes(found) -> str:  # type: ignore[no-untyped-def]
    return (
        f"  shoes tested {found.shoes_tested}, flagged for their order {len(found.shoes_flagged)}, "
        f"reused {len(found.shoes_reused)}"
    )


def line(name: str, row: dict, flagged: int, cpu: float) -> str:  # type: ignore[type-arg]
    def pct(x: object) -> str:
        return "—" if x is None else f"{float(x) * 100:.2f} %"  # type: ignore[arg-type]

    return (
        f"{name}: {row['rounds']} rounds, hold {pct(row.get('hold_main', row.get('hold')))}, theoretical "
        f"{pct(row['theoretical'])}, band {pct(row['low'])} to {pct(row['high'])}, "
        f"outside {row['outside']}, flagged periods {flagged}, {cpu:.0f} s CPU"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--best", type=int, default=200_000)
    parser.add_argument("--year", type=int, default=90_000)
    parser.add_argument("--only", choices=("best", "sides", "year"), default=None)
    parser.add_argument("--game", choices=[v for v, _ in GAMES], default=None, help="one game's cases only")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-hold-"))
    failures = 0
    try:
        games = [(v, t) for v, t in GAMES if options.game in (None, v)]
        if options.only in (None, "best"):
            for version, table in games:
                start = time.process_time()
                simulate(work / "best.jsonl", version, table, "best", options.best, seed=7)
                found = audit(work / "best.jsonl", work / "ds")
                (row,) = found.hold
                print(line(f"best play {version}", row, found.hold_outside, time.process_time() - start))
                print(shoes(found))
                failures += row["outside"] or found.hold_outside > 0
        if options.only in (None, "sides"):
            start = time.process_time()
            simulate(work / "sides.jsonl", "fr/blackjack@2025-03-14", "BJ-07", "best", options.best, seed=8)
            found = audit(work / "sides.jsonl", work / "ds")
            cpu = time.process_time() - start
            for row in [*found.hold, *found.hold_bets]:
                name = f"best play BJ-07 {row.get('bet', 'main')}"
                print(line(name, row, 0, cpu))
                failures += bool(row["outside"])
        if options.only in (None, "year"):
            for version, table in games:
                start = time.process_time()
                simulate(work / "year.jsonl", version, table, "mix", options.year, seed=9)
                clean = audit(work / "year.jsonl", work / "ds")
                (row,) = clean.hold
                print(
                    line(
                        f"a year, mixed players, clean {version}",
                        row,
                        clean.hold_outside,
                        time.process_time() - start,
                    )
                )
                print(f"  periods tested: {len(clean.hold_periods)}, decisions not priced: {row['unpriced']}")
                print(shoes(clean))
                failures += row["outside"] or clean.hold_outside > 0
                start = time.process_time()
                share = skim(work / "year.jsonl", work / "skim.jsonl", Decimal("0.01"), seed=10)
                skimmed = audit(work / "skim.jsonl", work / "ds")
                (row,) = skimmed.hold
                year = [r for r in skimmed.hold_periods if r["period"] == "year"]
                print(
                    line(
                        f"the same with a {float(share) * 100:.2f}-point skim",
                        row,
                        skimmed.hold_outside,
                        time.process_time() - start,
                    )
                )
                print(f"  year to date outside: {[r['outside'] for r in year]}")
                failures += not row["outside"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("failures:", failures)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
