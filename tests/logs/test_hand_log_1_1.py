"""hand-log/1.1 is additive (issue 25): a log says `hand-log/1.1` and may name who insures; the same
records under `hand-log/1` read and give the same findings."""

from __future__ import annotations

import json

import jsonschema
from inprocess import invoke
from logbuilders import shoe_record, table_record

# Box 1: P1 seated with 20, P9 standing behind him with 10. T 9 = 19 against the dealer's A 7 = 18: the
# box is paid 30, the insurance (no blackjack) collected. 2°, al. 3: the insurance is « la moitié de sa
# propre mise », P1's own 20: 10.
BETS = [
    {"stake": "1", "amount": 20, "player": "P1", "seated": True},
    {"stake": "1", "amount": 10, "player": "P9", "seated": False},
]


def _log(tmp_path, fmt: str, insurance: list) -> str:
    actions = [
        ["deal", "1", "TD"], ["deal", "D", "AS"], ["deal", "1", "9C"], insurance, ["stand", "1"],
        ["deal", "D", "7H"], ["lose", "1:insurance"], ["pay", "1", 30],
    ]  # fmt: skip
    records = [
        table_record(day="2016-03-14", format=fmt),
        shoe_record(day="2016-03-14"),
        {"type": "round", "round": "R1", "shoe": "S1", "at": "2016-03-14T21:00:00+01:00", "bets": BETS,
         "actions": actions},
    ]  # fmt: skip
    path = tmp_path / f"{fmt.replace('/', '-')}-{len(insurance)}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def _found(log: str) -> tuple[int, list[dict]]:
    ran = invoke("check", log, "--format", "jsonl", "--no-config")
    return ran.code, [
        {k: v for k, v in json.loads(line).items() if k != "file"} for line in ran.stdout.splitlines()
    ]


def test_a_hand_log_1_log_reads_the_same_when_it_says_1_1(tmp_path):
    # 15 on a box of 30 with a bettor behind: hand-log/1 cannot say whose stake insures, so neither can
    # the same records labelled 1.1 without `by`: no finding either way.
    one = _found(_log(tmp_path, "hand-log/1", ["insurance", "1", 15]))
    one_one = _found(_log(tmp_path, "hand-log/1.1", ["insurance", "1", 15]))
    assert one == one_one == (0, [])


def test_by_names_whose_stake_insures(tmp_path):
    code, found = _found(_log(tmp_path, "hand-log/1.1", ["insurance", "1", 15, ["P1"]]))
    assert code == 1
    assert [(f["rule"], f["stake"], f["expected"], f["actual"]) for f in found] == [
        (
            "fr/blackjack/insurance-half-stake",
            "1:insurance",
            {"the amount the action names": "10"},
            {"the amount the action names": "15"},
        )
    ]
    # P1 and P9 both insure: half of 20 + 10.
    assert _found(_log(tmp_path, "hand-log/1.1", ["insurance", "1", 15, ["P1", "P9"]])) == (0, [])


def test_by_naming_no_bettor_of_the_box_cannot_be_replayed(tmp_path):
    code, found = _found(_log(tmp_path, "hand-log/1.1", ["insurance", "1", 10, ["P4"]]))
    assert code == 1
    assert [(f["rule"], f["round"]) for f in found] == [("hand-log/inconsistent", "R1")]
    assert "'P4', who has no main bet on the box" in found[0]["message"]


def test_the_schema_takes_hand_log_1_1(tmp_path):
    schema = json.loads(invoke("schema", "hand-log").stdout)
    with open(_log(tmp_path, "hand-log/1.1", ["insurance", "1", 10, ["P1"]])) as lines:
        for line in lines:
            jsonschema.validate(json.loads(line), schema)
