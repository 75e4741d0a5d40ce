"""The replay reads each record as the reader decoded it (msgspec structs, by attribute): the dict of a
valid line (`Record.data`, orjson's) is made only where one is needed: the audit dataset's facts, a
round that cannot be replayed."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from conftest import SAMPLES, run_cli

from validator.findings.finding import Summary
from validator.logs.reader import read_records
from validator.replay.session import LogReplay
from validator.rulebook.registry import default_registry

LOGS = sorted((SAMPLES / "logs").rglob("*.jsonl*"))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_a_check_run_makes_no_dict_of_a_valid_line(path: Path) -> None:
    records = list(read_records(str(path)))
    replay = LogReplay(default_registry(), str(path), Summary())
    outcomes = list(replay.replay(iter(records)))
    assert outcomes and replay.summary.rounds_clean + replay.summary.rounds_with_findings > 0
    valid = [r for r in records if r.problem is None]
    assert valid and all(r._data is None for r in valid), "the replay asked a valid record for its dict"


def test_the_audit_dataset_still_reads_the_dicts() -> None:
    path = next(p for p in LOGS if p.name.endswith(".jsonl"))
    records = list(read_records(str(path)))
    replay = LogReplay(default_registry(), str(path), Summary(), collect=True)
    outcomes = list(replay.replay(iter(records)))
    rounds = [o for o in outcomes if o.round is not None]
    assert rounds and all(o.facts is not None and o.facts.at == o.at for o in rounds)


def _round_with_amount(amount: bytes) -> bytes:
    line = next(
        line
        for line in (SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl").read_bytes().splitlines()
        if line.startswith(b'{"type": "round"')
    )
    bet = orjson.loads(line)["bets"][0]
    written = orjson.dumps(bet["amount"])
    return line.replace(b'"amount": ' + written, b'"amount": ' + amount, 1)


def test_integers_past_64_bits_are_read_as_orjson_reads_them(tmp_path: Path) -> None:
    # orjson reads 2^64 as a float and a 400-digit integer not at all; msgspec would read both exactly.
    # The replay reads the struct: such a line takes the reader's slow path, and the findings say what
    # orjson read (the check once ended in an internal error on the 400-digit one).
    head = (SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl").read_bytes().splitlines()[:2]
    lines = [*head, _round_with_amount(b"18446744073709551616"), _round_with_amount(b"1" + b"0" * 400)]
    log = tmp_path / "big.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    result = run_cli("check", str(log), "--format", "jsonl")
    assert result.returncode == 1, result.stderr
    findings = [orjson.loads(line) for line in result.stdout.splitlines()]
    assert [f["line"] for f in findings] == [3, 4]
    assert "bets[0].amount: 1.8446744073709552e+19 is too large for an amount" in findings[0]["message"]
    assert findings[1]["rule"] == "hand-log/invalid-json"
    assert "number is infinity" in findings[1]["message"]
