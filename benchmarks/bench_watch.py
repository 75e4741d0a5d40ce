"""How fast `watch` judges a round once its line is written, and what it costs a round and an hour idle.

    python benchmarks/bench_watch.py                       # the paces below, 0.25 s between looks
    python benchmarks/bench_watch.py --rounds 400 --interval 0.1

A séance with payouts broken in about one round in three (`simulate --inject`, seeded) is appended to a
log line by line at several paces while `casino-validator watch LOG -f jsonl` follows it; each finding is
timestamped as it is read from the watch's standard output and matched to its line's write time. Printed
for each pace: rounds written, findings, the delay from a line's write to its finding (median, 90th and
99th percentile, worst), and the watch's CPU time per round written (user + system, read from
/proc/PID/stat before and after), then the CPU an idle watch spends per minute of waiting.

Paces: `casino` (a busy table deals about a round a minute; a casino of 30 tables is one round every two
seconds: written here at 2 rounds/s), `fast` (50 rounds/s, a whole casino's day in minutes) and `burst`
(as fast as the disk takes them: the delay then includes the judging of the rounds written before).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PACES = {"casino": 2.0, "fast": 50.0, "burst": 0.0}  # rounds a second; 0: no pause
RULES = "fr/blackjack/blackjack-pays-3-2,fr/blackjack/lower-total-loses,fr/blackjack/higher-total-wins"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def seance(folder: Path, rounds: int) -> list[bytes]:
    log = folder / "seance.jsonl"
    command = [sys.executable, "-m", "validator", "simulate", "--ruleset", "fr/blackjack@2024-11-01"]
    command += ["--rounds", str(rounds), "--seed", "11", "--inject", RULES, "--rate", "0.35", "-q"]
    subprocess.run([*command, "-o", str(log)], check=True, stdout=subprocess.DEVNULL)
    return log.read_bytes().splitlines(keepends=True)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_pace(folder: Path, lines: list[bytes], pace: float, interval: float) -> dict[str, float]:
    log = folder / f"watched-{pace}.jsonl"
    log.write_bytes(b"")
    state = folder / f"state-{pace}.json"
    command = [sys.executable, "-m", "validator", "watch", str(log), "-f", "jsonl", "--no-config"]
    command += ["--interval", str(interval), "--state", str(state)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    seen: list[tuple[int, float]] = []

    def read() -> None:
        assert process.stdout is not None
        for text in process.stdout:
            seen.append((json.loads(text)["line"], time.perf_counter()))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(1.0)  # the watch has started and is waiting
    cpu_before = cpu_seconds(process.pid)
    written: dict[int, float] = {}
    rounds = 0
    with log.open("ab", buffering=0) as handle:
        for number, line in enumerate(lines, start=1):
            handle.write(line)
            written[number] = time.perf_counter()
            if b'"type": "round"' in line or b'"type":"round"' in line:
                rounds += 1
                if pace:
                    time.sleep(1 / pace)
    time.sleep(interval * 4 + 1.0)
    cpu_after = cpu_seconds(process.pid)
    # Idle: nothing written for a while.
    idle_from = cpu_seconds(process.pid)
    time.sleep(5.0)
    idle_cpu = cpu_seconds(process.pid) - idle_from
    process.terminate()
    process.wait(timeout=60)
    reader.join(timeout=10)
    delays = [(at - written[line]) * 1000 for line, at in seen]
    return {
        "rounds": rounds,
        "findings": len(seen),
        "median": statistics.median(delays) if delays else float("nan"),
        "p90": percentile(delays, 0.90) if delays else float("nan"),
        "p99": percentile(delays, 0.99) if delays else float("nan"),
        "worst": max(delays) if delays else float("nan"),
        "cpu_us_per_round": (cpu_after - cpu_before) / max(rounds, 1) * 1e6,
        "idle_cpu_per_minute": idle_cpu / 5.0 * 60,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds of the séance (default 300)")
    parser.add_argument("--interval", type=float, default=0.25, help="watch --interval (default 0.25)")
    parser.add_argument("--paces", default=",".join(PACES), help="which paces (default all)")
    args = parser.parse_args()
    from validator.compiled import describe

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores; build: {describe()}; ", end="")
    print(f"interval {args.interval} s; séance of {args.rounds} rounds")
    with tempfile.TemporaryDirectory(prefix="casino-validator-bench-watch-") as temporary:
        folder = Path(temporary)
        lines = seance(folder, args.rounds)
        header = f"{'pace':>8} {'rounds':>7} {'findings':>9} {'median ms':>10} {'p90 ms':>8} {'p99 ms':>8}"
        print(header + f" {'worst ms':>9} {'CPU µs/round':>13} {'idle CPU s/min':>15}")
        for name in args.paces.split(","):
            figures = run_pace(folder, lines, PACES[name], args.interval)
            print(
                f"{name:>8} {figures['rounds']:>7} {figures['findings']:>9} {figures['median']:>10.1f} "
                f"{figures['p90']:>8.1f} {figures['p99']:>8.1f} {figures['worst']:>9.1f} "
                f"{figures['cpu_us_per_round']:>13.0f} {figures['idle_cpu_per_minute']:>15.3f}"
            )


if __name__ == "__main__":
    main()
