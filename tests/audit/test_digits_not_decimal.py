"""A stake or a target whose box is written with a digit that is not a decimal one ('²', a superscript
two: Python's `str.isdigit` says yes, `int` refuses it) is bad input like any other stake that is not a
hand: `check --dataset` reports it as a `hand-log/schema` finding (exit 1), its round counted unreadable,
never an internal error (exit 3). It was one: the dataset's ledger read the box with `int` after
`isdigit` (validator/casino/ledger.py), as did the side bets' readers of boxes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES, run_cli

LOGS = ("logs/clean/BA-01-2025-01-31.jsonl", "logs/side-bets/errors-BJ-07-side-bets.jsonl")


def _superscript_box(source: Path, target: Path) -> str:
    """The log with its first round's first bet, and the actions aimed at its hand, on box '²'; the
    round's id, to find its finding."""
    lines, changed = [], ""
    for line in source.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if not changed and record.get("bets"):
            old = record["bets"][0]["stake"]
            record["bets"][0]["stake"] = "²"
            for action in record.get("actions", []):
                if len(action) > 1 and action[1] == old:
                    action[1] = "²"
            changed = record["round"]
        lines.append(json.dumps(record, ensure_ascii=False))
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


@pytest.mark.parametrize("log", LOGS)
def test_a_box_written_with_a_superscript_digit_is_a_schema_finding(log: str, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.jsonl"
    round_id = _superscript_box(SAMPLES / log, damaged)
    done = run_cli("check", str(damaged), "--dataset", str(tmp_path / "ds"), "--format", "jsonl")
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stderr
    findings = [json.loads(line) for line in done.stdout.splitlines()]
    schema = [f for f in findings if f["rule"] == "hand-log/schema" and f.get("round") == round_id]
    assert len(schema) == 1, findings
    assert "'²' is not a stake" in schema[0]["message"]
