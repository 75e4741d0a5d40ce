"""How fast `watch` judges a round once its line is written, and what it costs a round and an hour idle.

    python benchmarks/bench_watch.py                       # the paces below, 0.25 s between looks
    python benchmarks/bench_watch.py --rounds 400 --interval 0.1

A séance with payouts broken in about one round in three (`simulate --inject`, seeded) is appended to a
log line by line at several paces while `casino-validator watch LOG -f jsonl` follows it; each finding is
timestamped as it is read from the watch's standard output and matched to its line's write time. Printed
for each pace: rounds written, findings, the delay from a line's write to its finding (median, 90th and
99th percentile, worst), and the watch's CPU time per round written (user + system, read from
/proc/PID/stat before and after), then the CPU an idle watch spends per minute of waiting, its start-up's
CPU and its first round's (the ruleset loaded: once a log). The clock starts once the watch has started
(its state file written) and judged the séance's head (the lines to its first round): what is left is
what a round costs. Beside it, `check`'s CPU a round on a longer séance, start-up and first round left
out the same way (a check of the whole less a check of its head; the median of three, before and after
the paces), the figure the watch's is held to (within 2 ×).

Paces: `casino` (a busy table deals about a round a minute; a casino of 30 tables is one round every two
seconds: written here at 2 rounds/s), `fast` (50 rounds/s, a whole casino's day in minutes), `busy`
(500 rounds/s: more than one core judges, so the delay grows with the backlog) and `burst` (as fast as the
disk takes them: the delay then includes the judging of the rounds written before).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

PACES = {"casino": 2.0, "fast": 50.0, "busy": 500.0, "burst": 0.0}  # rounds a second; 0: no pause
RULES = "fr/blackjack/blackjack-pays-3-2,fr/blackjack/lower-total-loses,fr/blackjack/higher-total-wins"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def seance(folder: Path, rounds: int) -> list[bytes]:
    log = folder / f"seance-{rounds}.jsonl"
    command = [sys.executable, "-m", "validator", "simulate", "--ruleset", "fr/blackjack@2024-11-01"]
    command += ["--rounds", str(rounds), "--seed", "11", "--inject", RULES, "--rate", "0.35", "-q"]
    subprocess.run([*command, "-o", str(log)], check=True, stdout=subprocess.DEVNULL)
    return log.read_bytes().splitlines(keepends=True)


def is_round(line: bytes) -> bool:
    return b'"type": "round"' in line or b'"type":"round"' in line


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_pace(folder: Path, lines: list[bytes], pace: float, interval: float) -> dict[str, float]:
    log = folder / f"watched-{pace}.jsonl"
    log.write_bytes(b"")
    state = folder / f"state-{pace}.json"
    state.unlink(missing_ok=True)  # a pace run again starts afresh, as the first time
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
    # Started and waiting: its first commit has written the state file. (Its start-up, seconds of wall
    # time on a loaded machine, is not a round's cost: timed apart.)
    started = time.perf_counter()
    while not state.exists() and process.poll() is None and time.perf_counter() - started < 120:
        time.sleep(0.05)
    time.sleep(0.5)
    startup_cpu = cpu_seconds(process.pid)
    # The séance's head (its lines to the first round, whose ruleset the watch then loads: once a log,
    # as `check` does) is written and judged before the clock starts, as `check_cpu` leaves it out.
    head = next(n for n, line in enumerate(lines) if is_round(line)) + 1
    with log.open("ab", buffering=0) as handle:
        handle.write(b"".join(lines[:head]))
    started = time.perf_counter()
    while time.perf_counter() - started < 120 and process.poll() is None:
        marks = json.loads(state.read_text() or "{}").get("logs", {}) if state.exists() else {}
        if any(mark["offset"] == log.stat().st_size for mark in marks.values()):
            break
        time.sleep(0.05)
    time.sleep(0.5)
    first_round_cpu = cpu_seconds(process.pid) - startup_cpu
    cpu_before = cpu_seconds(process.pid)
    written: dict[int, float] = {}
    rounds = 0
    with log.open("ab", buffering=0) as handle:
        for number, line in enumerate(lines[head:], start=head + 1):
            handle.write(line)
            written[number] = time.perf_counter()
            if is_round(line):
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
    delays = [(at - written[line]) * 1000 for line, at in seen if line in written]
    return {
        "rounds": rounds,
        "findings": len(seen),
        "median": statistics.median(delays) if delays else float("nan"),
        "p90": percentile(delays, 0.90) if delays else float("nan"),
        "p99": percentile(delays, 0.99) if delays else float("nan"),
        "worst": max(delays) if delays else float("nan"),
        "cpu_us_per_round": (cpu_after - cpu_before) / max(rounds, 1) * 1e6,
        "idle_cpu_per_minute": idle_cpu / 5.0 * 60,
        "startup_cpu": startup_cpu,
        "first_round_cpu": first_round_cpu,
    }


def check_cpu(folder: Path, lines: list[bytes]) -> float:
    """`check`'s CPU per round on the same séance, start-up left out: a check of the whole séance less a
    check of its head (the lines up to its first round), over the rounds between them; the median of three
    pairs (`lines`: a séance long enough that its rounds' CPU is well above start-up's noise)."""
    first = next(n for n, line in enumerate(lines) if is_round(line))
    rounds = sum(1 for line in lines if is_round(line))
    figures = []
    for _ in range(3):
        spent = []
        for name, part in (("head", lines[: first + 1]), ("whole", lines)):
            log = folder / f"check-{name}.jsonl"
            log.write_bytes(b"".join(part))
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            command = [sys.executable, "-m", "validator", "check", str(log), "-f", "jsonl", "--no-config"]
            subprocess.run([*command, "-q", "-o", os.devnull], stdout=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            spent.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        figures.append((spent[1] - spent[0]) / max(rounds - 1, 1))
    return statistics.median(figures)


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
        print(
            header
            + f" {'worst ms':>9} {'CPU µs/round':>13} {'idle s/min':>10} {'start-up s':>10} {'1st rd s':>8}"
        )
        long = seance(folder, max(3000, args.rounds))
        reference = check_cpu(folder, long)
        for name in args.paces.split(","):
            figures = run_pace(folder, lines, PACES[name], args.interval)
            print(
                f"{name:>8} {figures['rounds']:>7} {figures['findings']:>9} {figures['median']:>10.1f} "
                f"{figures['p90']:>8.1f} {figures['p99']:>8.1f} {figures['worst']:>9.1f} "
                f"{figures['cpu_us_per_round']:>13.0f} {figures['idle_cpu_per_minute']:>10.3f} "
                f"{figures['startup_cpu']:>10.2f} {figures['first_round_cpu']:>8.2f}"
            )
        reference = (reference + check_cpu(folder, long)) / 2
        print(
            f"check of a séance of {len(long):,} lines, start-up left out (mean of runs before, after): ",
            end="",
        )
        print(f"{reference * 1e6:.0f} µs of CPU a round; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
