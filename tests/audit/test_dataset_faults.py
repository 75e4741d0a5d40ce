"""The dataset under faults: a run killed at any point, two runs at once, a dataset under a `key=value`
folder or named twice. Whatever happens, `report` counts each round of the logs once, as the last run
to commit them wrote it (validator.audit.dataset.manifest)."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

SAMPLES = ROOT / "samples"
ROUNDS_RE = re.compile(r'data-figure="rounds">([0-9\u202f]+)<')


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> tuple[Path, dict]:
    """A bataille séance of 600 rounds (simulate), and its rounds as `check -f json` counts them: the
    figures the report must give, whatever happened to the dataset in between."""
    folder = tmp_path_factory.mktemp("faults")
    log = folder / "seance.jsonl"
    done = run_cli("simulate", "--ruleset", "fr/bataille", "--rounds", "600", "-o", str(log))
    assert done.returncode == 0, done.stderr
    done = run_cli("check", str(log), "-q", "-f", "json")
    return log, json.loads(done.stdout)["summary"]["rounds"]


def _report_rounds(*datasets: Path) -> tuple[int, str]:
    page = datasets[0].parent / "report.html"
    done = run_cli("report", *map(str, datasets), "-o", str(page))
    assert done.returncode == 0, done.stderr
    match = ROUNDS_RE.search(page.read_text(encoding="utf-8"))
    assert match is not None
    return int(match.group(1).replace("\u202f", "")), done.stderr


def _start(log: Path, dataset: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, CASINO_VALIDATOR_DATASET_BATCH="8")  # rows reach the disk every 8 rows
    return subprocess.Popen(
        [sys.executable, "-P", "-m", "validator", "check", str(log), "--dataset", str(dataset), "-q"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )


def _written(dataset: Path, before: set[Path]) -> bool:
    return bool(set(dataset.glob("*/*/*/*")) - before)


def test_a_run_killed_at_any_point_counts_for_nothing(long_log, tmp_path: Path) -> None:
    log, truth = long_log
    dataset = tmp_path / "ds"
    # A first run killed once its rows reach the disk: nothing counted, and report says so.
    child = _start(log, dataset)
    while not _written(dataset, set()) and child.poll() is None:
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    child.wait()
    rounds, warnings = _report_rounds(dataset)
    assert rounds == 0
    assert "stopped before its commit" in warnings
    # The run after it, in this process (`run_cli`): the killed runs above are the processes under test.
    done = run_cli("check", str(log), "--dataset", str(dataset), "-q")
    assert done.returncode in (0, 1), done.stderr
    assert "stopped before its commit; its" in done.stderr and "are removed" in done.stderr
    assert _report_rounds(dataset) == (truth["read"], "")
    # Re-runs killed at random points (seeded): the committed run's rounds, no more, no fewer.
    chance = random.Random(30)
    for _ in range(3):
        before = set(dataset.glob("*/*/*/*"))
        child = _start(log, dataset)
        while not _written(dataset, before) and child.poll() is None:
            time.sleep(0.01)
        time.sleep(chance.uniform(0, 0.5))
        child.send_signal(signal.SIGKILL)
        child.wait()
        assert _report_rounds(dataset)[0] == truth["read"]


def test_two_runs_at_once_neither_lose_nor_double_a_round(long_log, tmp_path: Path) -> None:
    log, truth = long_log
    dataset = tmp_path / "ds"
    other = SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
    children = [_start(log, dataset), _start(log, dataset)]
    for child in children:
        assert child.wait() in (0, 1), child.stderr.read() if child.stderr else ""
    assert _report_rounds(dataset) == (truth["read"], "")
    runs = list((dataset / "runs").glob("*.parquet"))
    assert len(runs) == 2  # both committed; only the last one's rows count
    # and another log beside them adds its own rounds, as `check -f json` counts them
    alone = json.loads(run_cli("check", str(other), "-q", "-f", "json").stdout)["summary"]["rounds"]["read"]
    done = run_cli("check", str(other), "--dataset", str(dataset), "-q")
    assert done.returncode == 0, done.stderr
    assert _report_rounds(dataset)[0] == truth["read"] + alone


@pytest.mark.parametrize("parent", ["status=clean", "table=X", "casino_key=other/month=1999-01"])
def test_a_dataset_under_key_value_folders_gives_its_own_figures(tmp_path: Path, parent: str) -> None:
    logs = SAMPLES / "logs" / "disputes"
    summary = json.loads(run_cli("check", str(logs), "-q", "-f", "json").stdout)["summary"]
    dataset = tmp_path / parent / "ds"
    done = run_cli("check", str(logs), "--dataset", str(dataset), "-q")
    assert done.returncode == 1, done.stderr
    from validator.audit.query import Filters, build

    audit = build([str(dataset)], Filters())
    assert audit.overview["rounds"] == summary["rounds"]["read"]
    assert audit.overview["clean"] == summary["rounds"]["clean"]
    assert audit.overview["with_findings"] == summary["rounds"]["with_findings"]
    assert sorted(h["table"] for h in audit.hold) == ["BA-01", "BJ-03", "ON-01"]


def test_a_dataset_named_twice_is_read_once(tmp_path: Path) -> None:
    logs = SAMPLES / "logs" / "disputes"
    dataset = tmp_path / "ds"
    assert run_cli("check", str(logs), "--dataset", str(dataset), "-q").returncode == 1
    (tmp_path / "link").symlink_to(dataset)
    once = _report_rounds(dataset)[0]
    assert once > 0
    assert _report_rounds(dataset, Path(f"{dataset}/"), tmp_path / "link")[0] == once


def test_the_page_lists_at_most_50_findings_of_one_item(tmp_path: Path) -> None:
    """120 broken shoe records after a table record: 120 findings of one fingerprint (one item of the
    findings list); the page lists 50 (query.FINDINGS_PER_ITEM) and counts the other 70."""
    table = (SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl").read_text().splitlines()[0]
    broken = '{"type": "shoe", "shoe": 7, "at": "2025-01-31T22:02:53+01:00"}'
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join([table] + [broken] * 120) + "\n")
    page = tmp_path / "page.html"
    done = run_cli("check", str(log), "-q", "-f", "html", "--max-broken-records", "500", "-o", str(page))
    assert done.returncode == 1, done.stderr
    html = page.read_text(encoding="utf-8")
    assert 'data-more="70"' in html
    assert html.count('<span class="fp">fingerprint ') == 50
