"""An auditor's year: does the report flag only what was planted? (issue 38, "Done when")

    nice -n 19 python benchmarks/bench_audit.py                   # 5 tables, 12 séances each, 39,000 rounds
    nice -n 19 python benchmarks/bench_audit.py --seances 6 --rounds 250   # one séance every other month

1. simulates a French casino's year as a user would, one `simulate` per table and séance (three blackjack
   tables and two bataille tables, `--seances` spread over the year, each table on its own evenings,
   `--players mix`: 60 % best play, 30 % casual errors, 10 % random; the default team of dealers and
   pool of players; the carnet d'avances of every séance), with violations planted at random rounds
   (`--inject`, `--rate`) and, in one séance of the year, the encaisse one chip off (`--inject
   money/reconciliation`);
2. checks every log with `check --dataset`, then `report --lang fr` over the dataset;
3. counts, against the `.planted.json` files: the planted violations found (a finding of the same rule,
   file, line and stake) and missed, the findings nobody planted, the money difference found (a
   `money/reconciliation` finding at the planted encaisse's line, and the registre's count of séances
   with a difference), and what the page flags that nobody planted: hold periods and bets « hors
   bande », dealer–player pairs, shoes whose order is flagged or reused. An auditor signs the report:
   every one of those must be 0.

Prints the counts, the CPU seconds of each step (its processes' user + system) and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

# (ruleset family, table, rules planted). The version in force on each date is the family's.
TABLES = (
    ("fr/blackjack", "BJ-01", "fr/blackjack/blackjack-pays-3-2,fr/blackjack/dealer-bust-pays"),
    ("fr/blackjack", "BJ-02", "fr/blackjack/higher-total-wins,fr/blackjack/settlement-order"),
    ("fr/blackjack", "BJ-03", "fr/blackjack/tie-is-push,fr/blackjack/bet-within-limits"),
    ("fr/bataille", "BA-01", "fr/bataille/higher-card-wins,fr/bataille/lower-card-loses"),
    ("fr/bataille", "BA-02", "fr/bataille/higher-card-wins,fr/bataille/lower-card-loses"),
)
YEAR = 2025
MONEY = ("BJ-02", 1)  # the table and month whose séance gets its encaisse one chip off
RATE = "0.005"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "validator", *args], capture_output=True, text=True, check=False
    )


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate(work: Path, seances: int, rounds: int, reuse: bool) -> list[Path]:
    logs = []
    months = [1 + (12 * n) // seances for n in range(seances)]  # spread over the year
    for index, (family, table, rules) in enumerate(TABLES):
        for month in months:
            day = 2 + 5 * index + month % 3  # each table its own evenings
            log = work / "logs" / f"{table}-{YEAR}-{month:02}.jsonl"
            logs.append(log)
            if reuse and log.with_suffix(".planted.json").exists():
                continue  # written by an earlier run into --keep's folder, with the same seed and size
            planted = rules + (",money/reconciliation" if (table, month) == MONEY else "")
            ran = _cli(
                "simulate", "--ruleset", f"{family}@{YEAR}-{month:02}-{day:02}", "--table", table,
                "--rounds", str(rounds), "--seed", str(100 * index + month), "--players", "mix",
                "--inject", planted, "--rate", RATE, "--start", f"{YEAR}-{month:02}-{day:02}T20:00:00+01:00",
                "-q", "-o", str(log),
            )  # fmt: skip
            if ran.returncode != 0:
                raise SystemExit(f"simulate {table} {month}: {ran.stderr}")
    return logs


Key = tuple[str, str, Any, Any]  # file, rule, line, stake


def _planted(logs: list[Path]) -> tuple[set[Key], set[Key]]:
    """The planted violations (each as the finding `check` must give), and the other stakes each is also
    found at (`also`: a player on too many boxes is found at each of them)."""
    planted: set[Key] = set()
    also: set[Key] = set()
    for log in logs:
        listed = json.loads(log.with_name(log.name.removesuffix(".jsonl") + ".planted.json").read_text())
        for p in listed["planted"]:
            planted.add((str(log), p["rule"], p["line"], p["stake"]))
            also |= {(str(log), p["rule"], p["line"], stake) for stake in p.get("also", ())}
    return planted, also


_ATTRIBUTE = re.compile(r'data-(outside|bets-outside|flagged|shoes-flagged|shoes-reused|differences)="(\d+)"')


def flags(page: str) -> dict[str, int]:
    """The page's own counts of what it flags (the data- attributes the report writes beside each)."""
    found: dict[str, int] = {}
    for name, value in _ATTRIBUTE.findall(page):
        found[name] = found.get(name, 0) + int(value)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seances", type=int, default=12, help="séances per table, spread over the year")
    parser.add_argument("--rounds", type=int, default=650, help="rounds per séance")
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep the logs, dataset and page here (and reuse its logs)"
    )
    options = parser.parse_args()
    work = options.keep or Path(tempfile.mkdtemp(prefix="bench-audit-"))
    (work / "logs").mkdir(parents=True, exist_ok=True)
    cpu: dict[str, float] = {}
    try:
        before = _children_cpu()
        logs = simulate(work, options.seances, options.rounds, options.keep is not None)
        cpu["simulate"], before = _children_cpu() - before, _children_cpu()
        dataset, found_json = work / "dataset", work / "findings.json"
        shutil.rmtree(dataset, ignore_errors=True)
        ran = _cli(
            "check", *map(str, logs), "--dataset", str(dataset), "-q", "-f", "json", "-o", str(found_json)
        )
        cpu["check --dataset"], before = _children_cpu() - before, _children_cpu()
        if ran.returncode not in (0, 1):
            raise SystemExit(f"check: {ran.returncode} {ran.stderr}")
        report = json.loads(found_json.read_text())
        page_path = work / "rapport.html"
        ran = _cli("report", str(dataset), "--lang", "fr", "-o", str(page_path), "--csv", str(work / "csv"))
        cpu["report --lang fr"] = _children_cpu() - before
        if ran.returncode != 0:
            raise SystemExit(f"report: {ran.returncode} {ran.stderr}")
        planted, also = _planted(logs)
        findings = {(f["file"], f["rule"], f["line"], f["stake"]) for f in report["findings"]}
        money = {p for p in planted if p[1] == "money/reconciliation"}
        page = flags(page_path.read_text(encoding="utf-8"))
        summary = report["summary"]
        print(
            f"{len(logs)} logs, {summary['rounds']['read']} rounds, {len(TABLES)} tables, "
            f"{options.seances} séances each"
        )
        print(f"planted violations: {len(planted - money)}; found {len((planted - money) & findings)}, "
              f"missed {len((planted - money) - findings)}")  # fmt: skip
        print(f"planted money differences: {len(money)}; found {len(money & findings)}; "
              f"registre séances: {summary.get('money', {}).get('seances')}")  # fmt: skip
        extra = sorted(findings - planted - also, key=str)
        print(f"findings nobody planted: {len(extra)}")
        for item in extra[:20]:
            print("  ", item)
        print("the page's flags:", page)
        false_flags = page.get("outside", 0) + page.get("bets-outside", 0) + page.get("flagged", 0)
        false_flags += page.get("shoes-flagged", 0) + page.get("shoes-reused", 0)
        false_flags += page.get("differences", 0) - len(money)
        print(f"false alarms: {len(extra) + false_flags} (findings {len(extra)}, page flags {false_flags})")
        print("CPU seconds:", {k: round(v, 1) for k, v in cpu.items()}, "load average:", os.getloadavg())
        missed = len(planted - findings)
        return 1 if extra or false_flags or missed else 0
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
