"""The table's money (hand-log/1.2 `money` records, the carnet d'avances of the arrêté du 14 mai 2007,
art. 69) reconciled séance by séance to the cent, worked by hand.

The three rounds are the `money/reconciliation` fixture's (tests/fixtures/python-rules/money/
reconciliation), at a table whose minimum, one chip, is 10. What each round collected and paid, read from
its actions (a `lose` without an amount collects the hand's whole stake, doubles and splits included):

- round 1: box 3 stakes 70, doubles 70, is paid 140: collected 0, paid 140;
- round 2: box 1 stakes 60 and doubles 60, loses (120); boxes 2, 3, 4, 5, 6, 7 lose 10, 100, 70, 40, 100,
  10: collected 120 + 10 + 100 + 70 + 40 + 100 + 10 = 450, paid 0;
- round 3: box 1 stakes 10 and splits (10 on hand 1/2), 1/2 loses (10), box 2 loses (10); box 6 is paid
  90, box 5 60, box 1 10: collected 20, paid 160.

Collected 470, paid 300: the rounds' result is 170.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import FIXTURES

from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.rulebook.registry import default_registry

REGISTRY = default_registry()
FIXTURE = FIXTURES / "python-rules" / "money" / "reconciliation" / "fails.jsonl"


def _seance(entries: list[tuple[str, int]]) -> list[dict[str, Any]]:
    """The fixture's table, shoe and three rounds, with these money entries: the opening ones after the
    table record, the others after the last round (times as the fixture's)."""
    records = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    table, shoe, rounds = records[0], records[2], [r for r in records if r["type"] == "round"]
    assert len(rounds) == 3 and table["minimum"] == 10
    opening = {"avance_initiale", "opening_inventory"}
    money = [
        {"type": "money", "at": "2016-06-10T20:00:30+02:00", "entry": e, "amount": a} for e, a in entries
    ]
    return [
        table,
        *(m for m in money if m["entry"] in opening),
        shoe,
        *rounds,
        *({**m, "at": "2016-06-10T20:30:00+02:00"} for m in money if m["entry"] not in opening),
    ]


def _check(tmp_path: Path, records: list[dict[str, Any]]) -> tuple[list[Any], Summary]:
    log = tmp_path / "seance.jsonl"
    log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    summary = Summary()
    outcomes = list(check_logs(REGISTRY, [str(log)], summary=summary))
    return [f for o in outcomes for f in o.findings], summary


def test_a_carnet_one_chip_short_is_a_money_finding_naming_its_three_figures(tmp_path):
    # Avance initiale 5,000, an avance complémentaire of 1,000, encaisse 6,160: the carnet's result is
    # 6,160 − 5,000 − 1,000 = 160; the rounds' is 170: 10, one chip of the minimum, missing.
    records = _seance([("avance_initiale", 5000), ("avance_complementaire", 1000), ("encaisse", 6160)])
    findings, summary = _check(tmp_path, records)
    [finding] = findings
    assert (finding.kind, finding.rule, finding.severity) == ("money", "money/reconciliation", "error")
    assert finding.line == len(records)  # the encaisse's line, the last
    for said in ("BJ-03", "2016-06-10T20:00:00+02:00", "encaisse 6160", "avance initiale 5000"):
        assert said in finding.message
    assert "avances complémentaires 1000" in finding.message
    assert (
        "its 3 rounds a result of 170" in finding.message and "10 missing from the table" in finding.message
    )
    assert finding.expected == {"the rounds' result": "170"}
    assert finding.actual["the carnet's result"] == "160"
    assert summary.seances == {"difference": 1}


def test_the_same_carnet_to_the_cent_is_reconciled(tmp_path):
    # Encaisse 6,170: 6,170 − 5,000 − 1,000 = 170, the rounds' result.
    findings, summary = _check(
        tmp_path, _seance([("avance_initiale", 5000), ("avance_complementaire", 1000), ("encaisse", 6170)])
    )
    assert findings == [] and summary.seances == {"reconciled": 1}


def test_a_cent_off_is_a_difference_too(tmp_path):
    # Encaisse 6,169.99: a result of 169.99, 0.01 missing.
    findings, _summary = _check(
        tmp_path,
        _seance([("avance_initiale", 5000), ("avance_complementaire", 1000), ("encaisse", "6169.99")]),
    )
    [finding] = findings
    assert "0.01 missing from the table" in finding.message


def test_the_us_count_one_chip_over(tmp_path):
    # Opening 5,000, a fill of 1,000, a credit of 500, a drop of 200, closing 5,480: the table's result is
    # closing + credits + drop − opening − fills = 5,480 + 500 + 200 − 5,000 − 1,000 = 180; the rounds'
    # is 170: 10 more at the table than the rounds explain.
    records = _seance(
        [
            ("opening_inventory", 5000),
            ("fill", 1000),
            ("credit", 500),
            ("drop", 200),
            ("closing_inventory", 5480),
        ]
    )
    [finding] = _check(tmp_path, records)[0]
    assert "10 more at the table than the rounds explain" in finding.message
    assert finding.actual["the carnet's result"] == "180"


def test_an_incomplete_carnet_is_no_finding_and_the_summary_says_why(tmp_path):
    findings, summary = _check(tmp_path, _seance([("avance_initiale", 5000)]))
    assert findings == [] and summary.seances == {"no-closing": 1}
    assert any("no encaisse" in note for note in summary.all_notes)
