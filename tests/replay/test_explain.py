"""`casino-validator explain LOG --round ID`, driven as an auditor runs it on the dispute samples. The
expected steps and findings were worked out from the articles (samples/README.md), not copied."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

from validator.checking.explain import explain
from validator.checking.serial import check_logs
from validator.errors import ValidatorError
from validator.logs.reader import iter_log_paths, read_records
from validator.rulebook.registry import default_registry

DISPUTES = ROOT / "samples" / "logs" / "disputes"
BJ_03 = DISPUTES / "BJ-03-2016-06-11.jsonl"
REGISTRY = default_registry()


def test_a_procedure_finding_is_told_step_by_step(cli):
    # Round 1: the player has T♣ Q♣ = 20; the dealer, A♥ 6♠ (a soft 17), draws the 2♦. Under the 2013
    # wording the dealer « doit s'arrêter à 17 », soft or hard (55-4, 1°): that draw breaks the rule;
    # the player's 20 still beats the dealer's 19, so the payment of 20 is right.
    result = cli("explain", str(BJ_03), "--round", "BJ-03/2016-06-11/1/1")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"Round BJ-03/2016-06-11/1/1 ({BJ_03}:3)"
    assert lines[1] == "  table BJ-03, judged by fr/blackjack@2013-12-15 (from 2013-12-15 until 2019-08-11)"
    draw = lines.index("  7. deal D 2D")
    # Every rule of the dealer's card, in the ruleset's order: the time of his card (held: the players had
    # played), then his drawing (broken).
    assert lines[draw + 1] == (
        "     rules: cards-from-shoe held, cards-face-up held, dealer-second-card-after-players held, "
        "dealer-stands-17 BROKEN"
    )
    assert lines[draw + 2] == "     1: TC QC = 20 | D: AH 6S 2D = 19 (soft)"
    assert (
        "  9. settle 1: the rules give pay 20 (fr/blackjack/higher-total-wins); the log shows pay 20: ok"
        in lines
    )
    findings = lines[lines.index("Findings") :]
    assert findings[1].startswith("  fr/blackjack/dealer-stands-17 [procedure] on dealer: ")  # stake D
    assert findings[2] == "    ref: Arrêté du 14 mai 2007, art. 55-4, 1°"
    assert findings[3] == (
        '    expected {"dealer\'s best total": "16 or less"}, actual {"dealer\'s best total": 17}'
    )
    assert "    rule: on dealer_draw require dealer.total <= 16" in findings


def test_a_payout_finding_shows_the_money_given_and_seen(cli):
    # Round 7: 19 against the dealer's 20 is lost (« ramasse les mises des mains qui ont un point
    # inférieur au sien », al. 8): the stake of 50 is collected, but the log pays 50.
    result = cli("explain", str(BJ_03), "--round", "BJ-03/2016-06-11/1/7")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert "     4: 9C KC = 19 | D: KS QS = 20" in lines
    settle = [line for line in lines if "settle 4:" in line]
    assert settle == [
        "  8. settle 4: the rules give lose 50 (fr/blackjack/lower-total-loses); the log shows pay 50: WRONG"
    ]
    assert '    expected {"lose": "50"}, actual {"pay": "50"}' in lines


def test_a_clean_round_says_every_rule_held(cli):
    log = ROOT / "samples" / "logs" / "clean" / "BJ-03-2016-06-10.jsonl"
    first = next(json.loads(line) for line in log.read_text().splitlines() if '"round"' in line)
    result = cli("explain", str(log), "--round", first["round"])
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "No finding: every rule run on this round held."
    assert "BROKEN" not in result.stdout


def test_an_unknown_round_is_an_error_naming_the_file(cli):
    result = cli("explain", str(BJ_03), "--round", "nope")
    assert result.returncode == 2
    assert f"{BJ_03}: no round 'nope' in this log" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_round_that_cannot_be_replayed_says_why(cli, tmp_path):
    lines = BJ_03.read_text().splitlines()
    broken = json.loads(lines[2])
    broken["actions"].insert(0, ["hit", "6", "5C"])  # box 6 has no bet: no hand 6 was ever opened
    log = tmp_path / "broken.jsonl"
    log.write_text("\n".join([*lines[:2], json.dumps(broken)]) + "\n")
    result = cli("explain", str(log), "--round", broken["round"])
    assert result.returncode == 1, result.stderr
    out = result.stdout.splitlines()
    assert out[0] == f"Round {broken['round']} ({log}:3)"
    assert out[3:5] == [
        "  1. bets: box 1 20",
        "     rules: reshuffle-after-cut-card held, box-on-layout held, bet-within-limits held",
    ]
    assert out[-2] == "The round could not be replayed after step 1:"
    assert out[-1] == (
        f"  hand-log/unknown-hand: round {broken['round']}: hit on hand '6', which was never opened in "
        "this round; the round cannot be replayed"
    )


def test_a_round_before_any_shoe_cannot_be_replayed(cli, tmp_path):
    lines = BJ_03.read_text().splitlines()
    log = tmp_path / "no-shoe.jsonl"
    log.write_text("\n".join([lines[0], lines[2]]) + "\n")
    round_id = json.loads(lines[2])["round"]
    result = cli("explain", str(log), "--round", round_id)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        f"Round {round_id} ({log}:2) could not be replayed:",
        f"  hand-log/no-shoe: round {round_id} is dealt before any shoe record of table BJ-03",
    ]


@pytest.mark.parametrize("log", iter_log_paths([str(DISPUTES)]))
def test_explain_lists_the_findings_check_makes_for_every_round(log):
    # explain runs every rule one by one (the fast path is off while it traces): its findings must be
    # check's, round by round.
    by_round = {o.round: [f.rule for f in o.findings] for o in check_logs(REGISTRY, [log]) if o.round}
    assert any(by_round.values())
    for round_id, rules in by_round.items():
        told = explain(REGISTRY, log, round_id).lines
        section = told[told.index("Findings") + 1 :] if "Findings" in told else []
        listed = [line.split()[0] for line in section if line.startswith("  ") and line[2] != " "]
        assert listed == rules, round_id


def test_explain_of_a_log_that_does_not_exist():
    with pytest.raises(ValidatorError, match="no such file"):
        explain(REGISTRY, str(DISPUTES / "missing.jsonl"), "1")


def test_the_records_of_the_sample_are_what_the_test_expects():
    rounds = [r.data["round"] for r in read_records(str(BJ_03)) if r.data and r.data["type"] == "round"]
    assert rounds[0] == "BJ-03/2016-06-11/1/1" and rounds[6] == "BJ-03/2016-06-11/1/7"
