"""What hand-log/1.2 adds to say what real engines do (issue 37, item 4), through the real command: each
record read by the replay, judged where a text encoded here has a sentence on it (the rule fixtures,
tests/fixtures/rules/*/cut-card-placed, cards-as-asked, bets-before-deal, reshuffle-discards-only, hold
the findings), and only reported where none has. The slow path (a line msgspec refuses, read again from
orjson's dict) reads each as the fast path does; the schema accepts each.

Every round here is worked out by hand. The French table (fr/blackjack, 2025): box 1 T 8 = 18 stands, the
dealer 7 then T = 17 (55-4, 1°: he stands at 17), box 1 paid even money, 20 on 20."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from inprocess import invoke
from logbuilders import shoe_record, table_record

from validator.simulate.charges import charged

DAY = "2025-03-14"
TABLE = table_record(day=DAY, format="hand-log/1.2")
ROUND18 = [["deal", "1", "TH"], ["deal", "D", "7C"], ["deal", "1", "8C"], ["stand", "1"], ["deal", "D", "TS"]]
PAID = [["pay", "1", 20]]


def _round(actions: list[list[Any]], bets: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "type": "round", "round": "R1", "shoe": "S1", "at": f"{DAY}T21:00:00+01:00", "dealer": "D-1",
        "bets": bets or [{"stake": "1", "amount": 20, "player": "P1", "seated": True}], "actions": actions,
    }  # fmt: skip


def _write(tmp_path: Path, records: list[dict[str, Any]], *, twice: bool = False) -> str:
    """The log; with `twice`, each round line writes its `dealer` key twice, which msgspec refuses and
    the schema accepts: the line takes the slow path."""
    lines = []
    for record in records:
        line = json.dumps(record)
        if twice and record["type"] == "round":
            line = line.replace('"dealer": "D-1"', '"dealer": "D-1", "dealer": "D-1"')
        lines.append(line + "\n")
    path = tmp_path / ("slow.jsonl" if twice else "log.jsonl")
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


def _check(tmp_path: Path, records: list[dict[str, Any]]) -> tuple[list[tuple[str, Any]], dict[str, Any]]:
    """The findings (rule, stake) and the JSON summary; the fast and slow paths must agree."""
    out = []
    for twice in (False, True):
        ran = invoke("check", _write(tmp_path, records, twice=twice), "--format", "json", "--no-config")
        assert ran.code in (0, 1), ran.stderr
        report = json.loads(ran.stdout)
        out.append(([(f["rule"], f.get("stake")) for f in report["findings"]], report["summary"]))
    assert out[0][0] == out[1][0]
    return out[0]


def _charge_notes(summary: dict[str, Any]) -> list[str]:
    return [note for note in summary["notes"] if "hand-log/1.2" in note]


# ---- charges: read and reported, never a finding ----------------------------------------------------


def test_a_stake_charged_once_is_silent(tmp_path):
    found, summary = _check(
        tmp_path, [TABLE, shoe_record(day=DAY), _round([["charge", "1", 20], *ROUND18, *PAID])]
    )
    assert found == [] and _charge_notes(summary) == []


@pytest.mark.parametrize(
    ("charges", "what"),
    [
        ([["charge", "1", 20], ["charge", "1", 20]], "charged more than staked (twice, or more)"),
        ([["charge", "1", 10]], "charged less than staked"),
        # A round that logs charges, and none for box 3's stake: « never charged ».
        ([["charge", "1", 20]], "never charged"),
    ],
)
def test_a_stake_charged_twice_less_or_never_is_reported_not_found(tmp_path, charges, what):
    """No text encoded here speaks of a player's account: the gap is in the notes, and no finding."""
    bets = [{"stake": "1", "amount": 20, "player": "P1"}]
    actions = [*charges, *ROUND18, *PAID]
    stake = "1"
    if what == "never charged":
        # Box 3: 9 K = 19 stands; 19 beats 17, paid 20 (settled from the dealer's right, box 3 first).
        bets.append({"stake": "3", "amount": 20, "player": "P2"})
        actions = [
            *charges, ["deal", "1", "TH"], ["deal", "3", "9S"], ["deal", "D", "7C"], ["deal", "1", "8C"],
            ["deal", "3", "KC"], ["stand", "1"], ["stand", "3"], ["deal", "D", "TS"], ["pay", "3", 20],
            ["pay", "1", 20],
        ]  # fmt: skip
        stake = "3"
    found, summary = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round(actions, bets)])
    assert found == []
    [note] = _charge_notes(summary)
    assert f"1 stake {what}" in note and f"round R1, stake {stake}: {what}" in note


def test_a_charge_of_a_stake_never_bet_cannot_be_replayed(tmp_path):
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round([["charge", "5", 20], *ROUND18, *PAID])])
    assert found == [("hand-log/unknown-stake", None)]


# ---- a stake left unsettled ---------------------------------------------------------------------------


def test_an_unsettled_stake_is_stake_settled_once_and_nothing_more(tmp_path):
    """French 1°, « procède au ramassage des mises perdantes et au paiement des mises gagnantes »: a stake
    left without settlement is `stake-settled-once`, once; its amount is not judged (nothing was paid)."""
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round([*ROUND18, ["unsettled", "1"]])])
    assert found == [("fr/blackjack/stake-settled-once", "1")]


def test_a_stake_said_unsettled_and_settled_contradicts_itself(tmp_path):
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round([*ROUND18, *PAID, ["unsettled", "1"]])])
    assert found == [("hand-log/inconsistent", None)]


# ---- a reshuffle of every card ----------------------------------------------------------------------


def test_a_reshuffle_of_all_the_cards_puts_the_tables_cards_back_in_the_shoe(tmp_path):
    """One deck: box 1 holds the A♠, the dealer the 7♣. Reshuffled with the discards only, a second A♠
    cannot come out of the shoe (cards-from-shoe); reshuffled with every card (hand-log/1.2 `all`), it
    can. Box 1: A♠ K♠ (a blackjack, paid 3 for 2 = 30); the dealer 7♣, then A♠ 9♦: 17."""
    shoe = shoe_record(day=DAY, decks=1, backs=[1], cut_card_behind=10)
    actions = [
        ["deal", "1", "AS"], ["deal", "D", "7C"], ["deal", "1", "KS"], None,
        ["deal", "D", "AS"], ["deal", "D", "9D"], ["pay", "1", 30],
    ]  # fmt: skip

    def found_with(reshuffle: list[Any]) -> set[str]:
        played = [reshuffle if a is None else a for a in actions]
        return {rule for rule, _stake in _check(tmp_path, [TABLE, shoe, _round(played)])[0]}

    discards, every = found_with(["reshuffle", []]), found_with(["reshuffle", [], "all"])
    assert "fr/blackjack/cards-from-shoe" in discards
    assert discards - every == {"fr/blackjack/cards-from-shoe"} and every <= discards


# ---- a shoe without cut card --------------------------------------------------------------------------


def test_a_shoe_without_cut_card_is_one_finding_and_its_depth_is_not_judged(tmp_path):
    shoe = {k: v for k, v in shoe_record(day=DAY, cut_card=False).items() if k != "cut_card_behind"}
    found, _ = _check(tmp_path, [TABLE, shoe, _round([*ROUND18, *PAID])])
    assert found == [("fr/blackjack/cut-card-placed", None)]


def test_a_cut_card_coming_out_of_a_shoe_without_one_cannot_be_replayed(tmp_path):
    shoe = {k: v for k, v in shoe_record(day=DAY, cut_card=False).items() if k != "cut_card_behind"}
    found, _ = _check(tmp_path, [TABLE, shoe, _round([*ROUND18, ["cut_card", "1"], *PAID])])
    assert found == [("fr/blackjack/cut-card-placed", None), ("hand-log/inconsistent", None)]


def test_no_cut_card_and_yet_cards_behind_it_contradicts_itself(tmp_path):
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY, cut_card=False), _round([*ROUND18, *PAID])])
    assert found == [("hand-log/inconsistent", None)]


# ---- a request refused or changed ---------------------------------------------------------------------


def test_a_request_said_done_as_asked_is_no_request(tmp_path):
    actions = [*ROUND18[:3], ["request", "1", "stand", "stand"], *ROUND18[3:], *PAID]
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round(actions)])
    assert found == [("hand-log/inconsistent", None)]


def test_a_refused_split_is_read_not_judged(tmp_path):
    """Whether a split was open to the player is for the split's rules, which a refusal does not run: the
    French text lets a pair of 8s split (3°), but the request is read and not made a finding."""
    actions = [
        ["deal", "1", "8H"], ["deal", "D", "7C"], ["deal", "1", "8C"], ["request", "1", "split", "refused"],
        ["stand", "1"], ["deal", "D", "TS"], ["lose", "1"],
    ]  # fmt: skip
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round(actions)])
    assert found == []


# ---- a bet taken late -----------------------------------------------------------------------------------


def test_a_late_main_bet_on_a_box_not_in_play_cannot_be_replayed(tmp_path):
    actions = [*ROUND18[:2], ["bet", "4", 10], *ROUND18[2:], *PAID]
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round(actions)])
    assert found == [("hand-log/inconsistent", None)]


def test_a_late_side_bet_is_side_bet_before_deal(tmp_path):
    """Art. 55-4, 5° a): « Avant la distribution des cartes, les joueurs ont la possibilité de placer une
    mise sur l'option dames de cœur ». Box 1's T 8 is no 20: the 5 on the dames de cœur is collected."""
    actions = [
        *ROUND18[:2],
        ["bet", "1:lucky_ladies", 5, "P1", True],
        *ROUND18[2:],
        ["lose", "1:lucky_ladies"],
        *PAID,
    ]
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round(actions)])
    assert ("fr/blackjack/side-bet-before-deal", "1:lucky_ladies") in found
    assert ("fr/blackjack/bets-before-deal", "1:lucky_ladies") not in found


# ---- insurances per split hand ----------------------------------------------------------------------------


def test_each_split_hand_insured_is_its_own_stake(tmp_path):
    """Box 1: a pair of 8s against the dealer's ace, insured for 10 (half of 20: 2°), then split; the split
    hand 1/2 insured again after its card came (its own stake "1:insurance:2"). Hand 1: 8 2, hits T = 20;
    hand 1/2: 8 9 = 17 stands; the dealer A then 7 = 18, no blackjack: both insurances collected, 20 paid
    (beats 18), 17 collected. The second insurance comes after the box drew (a split hand's card is drawn:
    « qui ne peuvent plus s'assurer dès qu'ils ont tiré une autre carte »): `insurance-before-drawing`, its
    one finding. Before 1.2 the two were summed into one stake, settled twice: `stake-settled-once`."""
    actions = [
        ["deal", "1", "8S"], ["deal", "D", "AS"], ["deal", "1", "8H"], ["insurance", "1", 10],
        ["split", "1", 20], ["deal", "1", "2C"], ["insurance", "1/2", 10], ["deal", "1/2", "9D"],
        ["stand", "1/2"], ["hit", "1", "TC"], ["stand", "1"], ["deal", "D", "7C"],
        ["lose", "1:insurance"], ["lose", "1:insurance:2"], ["lose", "1/2"], ["pay", "1", 20],
    ]  # fmt: skip
    found, _ = _check(tmp_path, [TABLE, shoe_record(day=DAY), _round(actions)])
    assert found == [("fr/blackjack/insurance-before-drawing", "1:insurance:2")]


# ---- the schema, and the older versions ----------------------------------------------------------------


def test_the_schema_accepts_every_addition():
    validator = jsonschema.Draft202012Validator(json.loads(invoke("schema", "hand-log").stdout))
    round_record = _round(
        [
            ["charge", "1", 20], ["bet", "1", 5], ["bet", "1:lucky_ladies", 5, "P1", True],
            ["request", "1", "hit", "refused"], ["reshuffle", [], "all"], ["unsettled", "1"],
            ["insurance", "1/2", 5],
        ]
    )  # fmt: skip
    assert list(validator.iter_errors(round_record)) == []
    assert list(validator.iter_errors({**shoe_record(day=DAY), "cut_card": False})) == []
    bad = _round([["request", "1", "dance", "refused"]])
    assert list(validator.iter_errors(bad))


def test_a_1_1_log_reads_the_same_under_1_2(tmp_path):
    """Additive: the same rounds under each name give the same findings (here the settlement before the
    dealer's last card, settlement-after-dealer-point, and nothing else)."""
    actions = [*ROUND18[:4], ["pay", "1", 20], ROUND18[4]]
    runs = []
    for fmt in ("hand-log/1", "hand-log/1.1", "hand-log/1.2"):
        runs.append(
            _check(tmp_path, [table_record(day=DAY, format=fmt), shoe_record(day=DAY), _round(actions)])[0]
        )
    assert runs[0] == runs[1] == runs[2] == [("fr/blackjack/settlement-after-dealer-point", "1")]


# ---- simulate --hand-log 1.2 -------------------------------------------------------------------------------


def test_the_simulators_charges_name_split_hands_and_insurances_as_the_log_does():
    record = {
        "bets": [{"stake": "3", "amount": 20}, {"stake": "3", "amount": 10}],
        "actions": [
            ["insurance", "3", 15],
            ["split", "3", 30],
            ["split", "3/2", 30],
            ["double", "3/3", 30, "5C"],
        ],
    }
    assert charged(record) == [
        ["charge", "3", 20], ["charge", "3", 10],
        ["charge", "3:insurance", 15], ["insurance", "3", 15],
        ["charge", "3/2", 30], ["split", "3", 30],
        ["charge", "3/3", 30], ["split", "3/2", 30],
        ["charge", "3/3", 30], ["double", "3/3", 30, "5C"],
    ]  # fmt: skip


def test_simulate_writes_hand_log_1_2_that_checks_clean_with_no_charge_note(tmp_path):
    out = tmp_path / "sim.jsonl"
    ran = invoke(
        "simulate", "--ruleset", "fr/blackjack@2024-11-01", "--rounds", "30", "--seed", "3",
        "--hand-log", "1.2", "--quiet", "--output", str(out),
    )  # fmt: skip
    assert ran.code == 0, ran.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["format"] == "hand-log/1.2"
    assert any(a[0] == "charge" for r in records if r["type"] == "round" for a in r["actions"])
    ran = invoke("check", str(out), "--format", "json", "--no-config")
    report = json.loads(ran.stdout)
    assert ran.code == 0 and report["findings"] == [] and _charge_notes(report["summary"]) == []
    refused = invoke("simulate", "--ruleset", "fr/blackjack@2024-11-01", "--rounds", "1", "--hand-log", "1.3")
    assert refused.code == 2 and "--hand-log 1.3" in refused.stderr
