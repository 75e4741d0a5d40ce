"""A round record whose `bets` is not a list (`"bets": true`) is a `hand-log/schema` finding in a plain
`check`; under `--dataset` and `-f html` its facts were read as a list and the run ended in an internal
error (issue 42, item 6). The dataset and the page now hold it as a round without bets, beside its
finding."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"


def test_a_round_whose_bets_are_not_a_list_is_its_finding_in_the_dataset_and_the_page(tmp_path: Path) -> None:
    out = []
    for line in DISPUTES.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if record.get("type") == "round" and record["round"].endswith("/2"):
            record["bets"] = True
        out.append(json.dumps(record))
    log = tmp_path / "bets.jsonl"
    log.write_text("\n".join(out) + "\n", encoding="utf-8")
    plain = run_cli("check", str(log), "-f", "jsonl", "--no-config")
    schema = [f for f in map(json.loads, plain.stdout.splitlines()) if f["rule"] == "hand-log/schema"]
    assert plain.returncode == 1 and [f["line"] for f in schema] == [4]
    dataset = run_cli("check", str(log), "--dataset", str(tmp_path / "ds"), "--no-config", "-q")
    assert dataset.returncode == 1, dataset.stderr
    rows = [
        r for p in (tmp_path / "ds" / "findings").rglob("*.parquet") for r in pq.read_table(p).to_pylist()
    ]
    assert [r["line"] for r in rows if r["rule"] == "hand-log/schema"] == [4]
    page = run_cli("check", str(log), "-f", "html", "-o", str(tmp_path / "page.html"), "--no-config")
    assert page.returncode == 1, page.stderr
    assert "hand-log/schema" in (tmp_path / "page.html").read_text(encoding="utf-8")
