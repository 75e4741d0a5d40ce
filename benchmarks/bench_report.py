"""How fast `report` is over a year of many tables: a dataset of 10 million rounds, and the HTML's size.

    nice python benchmarks/bench_report.py                 # 10 000 000 rounds
    nice python benchmarks/bench_report.py --rounds 500000 # smaller

1. simulates a realistic base with the tool's own simulator and `--inject` (two blackjack tables and a
   bataille table, 2 % of rounds given a planted payout or procedure mistake), and checks it with
   `check --dataset` (timed, and timed again without `--dataset`: the dataset's cost on `check`);
2. replicates the base's Parquet rows with pyarrow up to the size asked (this is not a replay: 10 million
   rounds would take hours to check on this machine): each copy gets its own log digest and round keys,
   one of 75 tables in 3 casinos, dealers rotated every 25 rounds among 60, and dates shifted so that
   the copies cover a year; partitioned by casino and month as `check` writes them;
3. times `casino-validator report` over it in a fresh process (as a user runs it), with and without a
   filter, and prints the HTML's size.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE = (
    (
        "fr/blackjack@2025-03-14",
        "BJ-01",
        8000,
        "fr/blackjack/higher-total-wins,fr/blackjack/lower-total-loses,"
        "fr/blackjack/blackjack-pays-3-2,fr/blackjack/settlement-order",
    ),
    (
        "fr/blackjack@2025-03-14",
        "BJ-02",
        8000,
        "fr/blackjack/dealer-bust-pays,fr/blackjack/tie-is-push,fr/blackjack/bet-within-limits",
    ),
    ("fr/bataille@2025-01-31", "BA-01", 4000, "fr/bataille/higher-card-wins,fr/bataille/lower-card-loses"),
)
RATE = "0.02"
START = "2025-01-02T20:00:00+01:00"  # every base table opens the same evening
CASINOS = ("Casino de Deauville", "Casino de Trouville", "Casino d'Étretat")
TABLE_VARIANTS = 25  # each base table becomes 25 tables
DEALERS = 60
DAYS_PER_GROUP = 18  # a group of TABLE_VARIANTS copies shares its dates; groups are this many days apart


def _cli(*args: str, quiet: bool = True) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "validator", *args],
        check=False,
        stdout=subprocess.DEVNULL if quiet else None,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def base_dataset(work: Path) -> tuple[Path, int, float, float]:
    logs = work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, (ruleset, table, rounds, rules) in enumerate(BASE):
        path = logs / f"{table}.jsonl"
        _cli(
            "simulate", "--ruleset", ruleset, "--rounds", str(rounds), "--seed", str(7 + index),
            "--table", table, "-o", str(path), "--inject", rules, "--rate", RATE, "--start", START,
        )  # fmt: skip
        paths.append(str(path))
    dataset = work / "base"
    plain = _cli("check", *paths, "-q", "-f", "json", "-o", os.devnull)
    with_dataset = _cli("check", *paths, "-q", "-f", "json", "-o", os.devnull, "--dataset", str(dataset))
    return dataset, sum(r for _, _, r, _ in BASE), plain, with_dataset


def replicate(base: Path, target: Path, rounds_wanted: int) -> int:
    """Copies of the base's rows with shifted keys, tables, dealers and dates; returns the rows written."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from validator.audit.dataset.writer import casino_key

    tables = {
        name: pq.read_table(list((base / name).glob("*/*/*.parquet"))) for name in ("rounds", "findings")
    }
    shutil.copytree(base / "runs", target / "runs")
    per_copy = tables["rounds"].num_rows
    copies = -(-rounds_wanted // per_copy)
    written = 0
    for group_start in range(0, copies, TABLE_VARIANTS):
        group = range(group_start, min(copies, group_start + TABLE_VARIANTS))
        shift = pa.scalar(
            DAYS_PER_GROUP * (group_start // TABLE_VARIANTS) * 86_400_000_000, pa.duration("us")
        )
        for name, base_table in tables.items():
            parts = []
            for copy in group:
                take = base_table
                if name == "rounds" and written + per_copy > rounds_wanted:
                    take = base_table.slice(0, rounds_wanted - written)
                parts.append(_copy(take, copy, shift, pa, pc))
                if name == "rounds":
                    written += take.num_rows
            _write_partitioned(pa.concat_tables(parts), target / name, group_start, pa, pc, pq, casino_key)
    return written


def _copy(table, copy: int, shift, pa, pc):  # type: ignore[no-untyped-def]
    n = table.num_rows

    def const(value: str):  # type: ignore[no-untyped-def]
        return pa.array([value] * n, pa.string())

    prefix = const(f"{copy:05x}")
    columns = {
        "log_digest": pc.binary_join_element_wise(
            prefix, pc.utf8_slice_codeunits(table["log_digest"], 5), ""
        ),
        "round_key": pc.binary_join_element_wise(prefix, pc.utf8_slice_codeunits(table["round_key"], 5), ""),
        "file": pc.binary_join_element_wise(const(f"copy-{copy}/"), table["file"], ""),
        "table_id": pc.binary_join_element_wise(
            table["table_id"], const(f"-{copy % TABLE_VARIANTS:02d}"), ""
        ),
        "casino": const(CASINOS[copy % len(CASINOS)]),
        "dealer": pc.binary_join_element_wise(
            const("D-"), pc.cast(_dealer(table, copy, pc), pa.string()), ""
        ),
        "local_time": pc.add(table["local_time"], shift),
        # The gaming day, starting at 06:00 (the default): the shifted local time six hours earlier.
        "gaming_day": pc.cast(
            pc.subtract(
                pc.add(pc.cast(table["local_time"], pa.timestamp("us")), shift),
                pa.scalar(6 * 3_600_000_000, pa.duration("us")),
            ),
            pa.date32(),
        ),
    }
    if "at_utc" in table.column_names:
        columns["at_utc"] = pc.add(table["at_utc"], shift)
        local_text = pc.strftime(columns["local_time"], format="%Y-%m-%dT%H:%M:%S")
        columns["at"] = pc.binary_join_element_wise(local_text, pc.utf8_slice_codeunits(table["at"], 19), "")
    for name, column in columns.items():
        table = table.set_column(table.column_names.index(name), name, column)
    return table


def _dealer(table, copy: int, pc):  # type: ignore[no-untyped-def]
    """Dealers relieved every 25 rounds (by the log's line), 60 of them, each copy starting elsewhere."""
    turn = pc.add(pc.divide(table["line"], 25), copy * 7)  # integer division
    return pc.subtract(turn, pc.multiply(pc.divide(turn, DEALERS), DEALERS))


def _write_partitioned(table, folder: Path, group: int, pa, pc, pq, casino_key) -> None:  # type: ignore[no-untyped-def]
    months = pc.strftime(table["local_time"], format="%Y-%m")
    keys = pc.binary_join_element_wise(table["casino"], months, "|")
    for key in pc.unique(keys).to_pylist():
        casino, month = key.split("|")
        part = table.filter(pc.equal(keys, key))
        out = folder / f"casino_key={casino_key(casino)}" / f"month={month}"
        out.mkdir(parents=True, exist_ok=True)
        pq.write_table(part, out / f"bench-{group:05d}.parquet", compression="zstd")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--keep", type=Path, help="Build the dataset in this folder and keep it.")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="casino-validator-bench-report-"))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    try:
        base, base_rounds, plain, with_dataset = base_dataset(work)
        print(
            f"base: {base_rounds} simulated rounds (--inject at {RATE}); check {plain:.1f} s, "
            f"with --dataset {with_dataset:.1f} s (+{100 * (with_dataset / plain - 1):.0f} %)"
        )
        started = time.perf_counter()
        dataset = work / "dataset"
        rows = replicate(base, dataset, args.rounds)
        size = sum(p.stat().st_size for p in dataset.rglob("*.parquet"))
        files = sum(1 for _ in dataset.rglob("*.parquet"))
        print(
            f"dataset: {rows} rounds replicated with pyarrow in {time.perf_counter() - started:.0f} s, "
            f"{files} files, {size / 1e6:.0f} MB"
        )
        page = work / "audit.html"
        for label, extra in (
            ("whole dataset", []),
            ("one casino, one month", ["--casino", CASINOS[1], "--from", "2025-03-01", "--to", "2025-03-31"]),
        ):
            page.unlink(missing_ok=True)
            seconds = _cli("report", str(dataset), "-o", str(page), *extra)
            html = page.stat().st_size if page.exists() else 0
            print(f"report, {label}: {seconds:.1f} s, HTML {html / 1e6:.2f} MB")
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
