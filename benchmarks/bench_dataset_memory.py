"""Peak memory of `check --dataset` (and `-f html`): bounded by the rows in flight, not by the log.

    nice python benchmarks/bench_dataset_memory.py            # 600 000 rounds, 1 280 000 findings
    nice python benchmarks/bench_dataset_memory.py --rounds 60000 --findings 128000    # smaller

Two logs, each checked in a fresh process whose peak resident memory is read from the kernel
(`os.wait4`'s rusage of that child alone):

1. ROUNDS rounds of bataille over MONTHS months: one séance simulated by the tool's own simulator
   (`simulate --ruleset fr/bataille`), copied into each month (its dates moved there), so that every
   month is a partition of its own; checked with and without `--dataset` (the dataset's cost side by
   side);
2. FINDINGS broken `shoe` records after one table record (each is one finding of its own, none in a
   round), checked with `--dataset` and with `-f html` (the page's size is printed: it must not grow
   with the findings).
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

FIRST_MONTH = (2014, 1)  # fr/bataille is in force from 2013-05-12


def _month(index: int) -> str:
    year, month = FIRST_MONTH
    total = year * 12 + (month - 1) + index
    return f"{total // 12:04d}-{total % 12 + 1:02d}"


def _measure(args: list[str]) -> tuple[float, float, int, float]:
    """(seconds, peak resident MB, exit status, CPU seconds) of `casino-validator ARGS` in a process of
    its own (on a shared machine the CPU time is the figure to compare; the wall-clock counts the others')."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "validator", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - started, usage.ru_maxrss / 1024, child.returncode, cpu


def _rounds_log(folder: Path, rounds: int, months: int) -> Path:
    per_month = -(-rounds // months)
    base = folder / "base.jsonl"
    year, month = FIRST_MONTH
    start = f"{year:04d}-{month:02d}-01T14:00:00+01:00"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "validator",
            "simulate",
            "--ruleset",
            "fr/bataille",
            "--start",
            start,
            "--rounds",
            str(per_month),
            "--seed",
            "52",
            "-o",
            str(base),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    text = base.read_text(encoding="utf-8")
    prefix = f"{year:04d}-{month:02d}-"
    log = folder / "months.jsonl"
    with log.open("w", encoding="utf-8") as out:
        for index in range(months):
            out.write(text.replace(prefix, f"{_month(index)}-"))
    return log


def _findings_log(folder: Path, findings: int) -> Path:
    log = folder / "broken.jsonl"
    table = (
        '{"type": "table", "format": "hand-log/1", "table": "BA-01", "casino": "Casino de Trouville",'
        ' "game": "bataille", "ruleset": "fr/bataille", "at": "2025-01-31T22:00:00+01:00", "seats": 7,'
        ' "minimum": 5, "maximum": 500, "new_cards": true}\n'
    )
    broken = '{"type": "shoe", "shoe": 7, "at": "2025-01-31T22:02:53+01:00"}\n'
    with log.open("w", encoding="utf-8") as out:
        out.write(table)
        for _ in range(findings // 10_000):
            out.write(broken * 10_000)
        out.write(broken * (findings % 10_000))
    return log


def _line(what: str, measured: tuple[float, float, int, float], extra: str = "") -> None:
    seconds, peak, status, cpu = measured
    print(f"  {what:<20} {seconds:8.1f} s wall {cpu:8.1f} s CPU  peak {peak:7.1f} MB  exit {status}{extra}")


def _line(what: str, measured: tuple[float, float, int, float], extra: str = "") -> None:
    seconds, peak, status, cpu = measured
    print(f"  {what:<20} {seconds:8.1f} s wall {cpu:8.1f} s CPU  peak {peak:7.1f} MB  exit {status}{extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=600_000)
    parser.add_argument("--months", type=int, default=52)
    parser.add_argument("--findings", type=int, default=1_280_000)
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="casino-validator-bench-memory-"))
    try:
        print(f"machine: {platform.machine()} {platform.system()}, python {platform.python_version()}")
        log = _rounds_log(folder, options.rounds, options.months)
        rounds = sum(1 for line in log.open(encoding="utf-8") if '"type":"round"' in line)
        plain = _measure(["check", str(log), "-q", "-f", "json"])
        with_dataset = _measure(["check", str(log), "-q", "-f", "json", "--dataset", str(folder / "ds1")])
        print(f"{rounds:,} rounds over {options.months} months ({log.stat().st_size / 1e6:.0f} MB of log):")
        _line("check", plain)
        _line("check --dataset", with_dataset)
        print(f"  --dataset / without: {with_dataset[1] / plain[1]:.2f}x the memory")
        log = _findings_log(folder, options.findings)
        many = ["--max-broken-records", str(options.findings + 1)]
        found = _measure(["check", str(log), "-q", "-f", "json", *many, "--dataset", str(folder / "ds2")])
        page = folder / "page.html"
        html = _measure(["check", str(log), "-q", "-f", "html", *many, "-o", str(page)])
        size = page.stat().st_size / 1e3 if page.exists() else float("nan")
        megabytes = log.stat().st_size / 1e6
        print(f"{options.findings:,} findings (broken shoe records, {megabytes:.0f} MB of log):")
        _line("check --dataset", found)
        _line("check -f html", html, f"  page {size:,.0f} kB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
