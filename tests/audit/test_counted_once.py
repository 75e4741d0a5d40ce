"""`report` counts each round once (issue 42, item 5): two datasets that cover the same logs counted them
twice (1,486 rounds for the samples' 743, exit 0, nothing said), and a damaged manifest that listed a file
twice, or none, gave twice the rounds, or none, without a word.

Each log is counted once by its SHA-256, from the run that checked it last, over every dataset given (as
within one dataset); the report says on standard error which datasets overlap; a manifest listing a file
twice, or rows of rounds that do not add up to the rounds its run read, is refused (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import run_cli

from validator.audit.dataset import schema
from validator.audit.query import Filters, connect

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "samples" / "logs"


def _rounds_in_samples() -> int:
    """The samples' rounds counted from the logs themselves: every record of type round (gzip read too)."""
    import gzip

    count = 0
    for path in sorted(LOGS.rglob("*.jsonl*")):
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        count += sum(json.loads(line).get("type") == "round" for line in data.splitlines() if line.strip())
    return count


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The samples checked into two datasets, and the clean logs alone into a third."""
    folder = tmp_path_factory.mktemp("overlap")
    for name, logs in (("a", LOGS), ("b", LOGS), ("c", LOGS / "clean")):
        done = run_cli("check", str(logs), "--dataset", str(folder / name), "--no-config", "-q")
        assert done.returncode in (0, 1), done.stderr
    return folder / "a", folder / "b", folder / "c"


def _rounds(*datasets: Path) -> int:
    return (
        connect([str(d) for d in datasets], Filters()).execute("SELECT sum(weight) FROM rounds").fetchone()[0]
    )


def test_two_datasets_of_the_same_logs_count_each_round_once(two: tuple[Path, Path, Path]) -> None:
    a, b, c = two
    expected = _rounds_in_samples()
    assert expected == 743  # README, "The samples": 743 rounds
    assert _rounds(a) == _rounds(b) == expected
    assert _rounds(a, b) == expected
    assert _rounds(a, b, c) == expected
    assert _rounds(c) < expected
    findings = connect([str(a)], Filters()).execute("SELECT count(*) FROM findings").fetchone()[0]
    both = connect([str(a), str(b)], Filters()).execute("SELECT count(*) FROM findings").fetchone()[0]
    assert both == findings > 0


def test_the_report_says_which_datasets_overlap(two: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a, _b, c = two
    done = run_cli("report", str(a), str(c), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 0, done.stderr
    clean = len(list((LOGS / "clean").glob("*.jsonl*")))
    assert done.stderr.strip() == (
        f"casino-validator: warning: {a} and {c} cover {clean} of the same logs (by their SHA-256): each "
        "log's rounds are counted once, from the run that checked it last"
    )


def _damage(dataset: Path, target: Path, change) -> None:
    """The dataset copied to `target`, its run's manifest rewritten by `change(files) -> files`."""
    import shutil

    shutil.copytree(dataset, target)
    [run] = list((target / "runs").glob("*.parquet"))
    row = pq.read_table(run).to_pylist()[0]
    row["files"] = change(row["files"])
    pq.write_table(pa.Table.from_pylist([row], schema=schema.RUNS), run)


def test_a_manifest_listing_a_file_twice_is_refused(two: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a, _b, _c = two
    _damage(a, tmp_path / "ds", lambda files: [*files, files[0]])
    done = run_cli("report", str(tmp_path / "ds"), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 2
    assert "twice: it is damaged" in done.stderr and "Traceback" not in done.stderr


def test_a_manifest_listing_no_file_is_refused(two: tuple[Path, Path, Path], tmp_path: Path) -> None:
    a, _b, _c = two
    _damage(a, tmp_path / "ds", lambda files: [])
    done = run_cli("report", str(tmp_path / "ds"), "-o", str(tmp_path / "page.html"))
    assert done.returncode == 2
    assert "its manifest lists 0 rows of rounds, its record says it read 743: it is damaged" in done.stderr
