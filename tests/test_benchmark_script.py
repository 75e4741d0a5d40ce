"""The benchmark script runs and prints what benchmarks/RESULTS.md quotes (it is measured by hand, never
timed in a test): the build, a row per size with orjson's time, reading's (msgspec alone, the reader)
and check's, each with its ratio to orjson's, rounds/s and peak memory, for one process and for --jobs,
and the linearity line."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from conftest import ROOT


def test_the_benchmark_script_prints_its_table(tmp_path):
    """`--jobs 1`: the parallel column's run is the same command with another number (a local cluster of
    N workers is tested in tests/replay/test_cluster.py); two clusters started and stopped here would be
    half of this test's CPU."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # its simulated logs are cached in the temp folder
    script = ROOT / "benchmarks" / "bench_check.py"
    result = subprocess.run(
        [sys.executable, str(script), "--rounds", "60", "120", "--jobs", "1"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("machine: ") and "; build: " in lines[0]
    assert "msgspec s" in lines[1] and "peak MB" in lines[1] and "-j1 s" in lines[1]
    number = r"\s+[\d.]+"
    row = re.compile(rf"^\s+(60|120){number * 5} \|{number * 5} \|{number * 4}$")
    assert [row.match(line) is not None for line in lines[2:4]] == [True, True], lines
    linearity = r"CPU per round \(one process\): \d+ µs, \d+ µs \((NOT )?linear: spread [\d.]+\)"
    assert re.match(linearity, lines[4])
    kept = sorted(p.name for p in tmp_path.glob("casino-validator-bench-*"))
    assert [re.sub(r"-[0-9a-f]{12}\.", ".", name) for name in kept] == [
        "casino-validator-bench-120-2026.jsonl",
        "casino-validator-bench-60-2026.jsonl",
    ]
