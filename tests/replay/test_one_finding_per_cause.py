"""Issue 25, "One finding per cause": a deviation an engine repeats in every round is one finding a round
and one summary line, not a flood of its consequences.

The séances are built card by card (no simulator): 3,000 rounds, a new shoe every 20 rounds, every
round with the same ranks in a suit that turns with the round, so that no card comes out of a shoe more
than its six copies. What each round must give is worked out below from the text of art. 55-4.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inprocess import invoke
from logbuilders import shoe_record, table_record

from validator.findings.finding import Finding
from validator.findings.fingerprint import fingerprint
from validator.findings.project_root import find_root, fingerprint_file

ROUNDS = 3000
PER_SHOE = 20  # each rank below used once a round: 20 rounds use 20 of the 24 copies of a rank in a shoe
SUITS = "SHDC"


def _seance(path: Path, actions_of: Any, boxes: tuple[str, ...]) -> Path:
    lines = [table_record(day="2016-03-14")]
    for number in range(ROUNDS):
        if number % PER_SHOE == 0:
            lines.append(shoe_record(day="2016-03-14", shoe=f"S{number // PER_SHOE}"))
        suit = SUITS[number % 4]
        lines.append(
            {
                "type": "round",
                "round": f"R{number + 1}",
                "shoe": f"S{number // PER_SHOE}",
                "at": "2016-03-14T21:00:00+01:00",
                "bets": [{"stake": box, "amount": 20, "player": f"P{box}", "seated": True} for box in boxes],
                "actions": actions_of(suit),
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _early_second_card(suit: str) -> list[list[Any]]:
    """Boxes 1 (T 8 = 18) and 3 (9 7 = 16) against the dealer's 6; the dealer deals himself a K at the
    end of the initial deal (16), the boxes stand, he draws a 5 (21) and collects box 3 then box 1.
    Art. 55-4, 1°: he gives himself one card in the initial deal and draws « Lorsque tous les joueurs
    ont déterminé la situation de leurs mains »: the K is drawn too early, once a round. Everything else
    is lawful once the K is his: 16 draws, 21 stands, 18 and 16 lose to 21, right to left."""
    c = suit
    return [
        ["deal", "1", "T" + c], ["deal", "3", "9" + c], ["deal", "D", "6" + c],
        ["deal", "1", "8" + c], ["deal", "3", "7" + c], ["deal", "D", "K" + c],
        ["stand", "1"], ["stand", "3"], ["deal", "D", "5" + c],
        ["lose", "3"], ["lose", "1"],
    ]  # fmt: skip


def _settled_from_box_1(suit: str) -> list[list[Any]]:
    """Boxes 1 (T 8 = 18), 3 (9 7 = 16) and 5 (4 Q = 14) against the dealer's 6 K 5 = 21, all collected
    from box 1 upwards: 1°, al. 5 settles « de droite à gauche », box 5 first. The settlement leaves that
    order at box 3 (after box 1); the rest of it is the same mistake: one finding a round."""
    c = suit
    return [
        ["deal", "1", "T" + c], ["deal", "3", "9" + c], ["deal", "5", "4" + c], ["deal", "D", "6" + c],
        ["deal", "1", "8" + c], ["deal", "3", "7" + c], ["deal", "5", "Q" + c],
        ["stand", "1"], ["stand", "3"], ["stand", "5"], ["deal", "D", "K" + c], ["deal", "D", "5" + c],
        ["lose", "1"], ["lose", "3"], ["lose", "5"],
    ]  # fmt: skip


def _one_round_log(
    path: Path, table: dict[str, Any], shoe: dict[str, Any], bet: dict[str, Any], at: str, actions: list[Any]
) -> Path:
    """A log of `table`, `shoe` and one round R1 of that shoe at `at`, with `bet` and `actions`."""
    round_ = {"type": "round", "round": "R1", "shoe": shoe["shoe"], "at": at, "bets": [bet]}
    records = (table, shoe, round_ | {"actions": actions})
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def _key_of(cause: dict[str, Any]) -> str:
    """The fingerprint a consequence names its cause by (`caused_by`), computed from the cause's fields."""
    fields = {
        k: cause[k] for k in ("kind", "rule", "ref", "severity", "file", "line", "message", "round", "stake")
    }
    return fingerprint(Finding(**fields), fingerprint_file(cause["file"], find_root()))


def _findings(log: Path, fmt: str = "jsonl") -> tuple[int, str]:
    ran = invoke("check", str(log), "--ruleset", "fr/blackjack@2016-03-14", "--format", fmt, "--no-config")
    return ran.code, ran.stdout


def test_a_dealer_second_card_in_every_initial_deal_is_one_finding_a_round(tmp_path):
    log = _seance(tmp_path / "early.jsonl", _early_second_card, ("1", "3"))
    code, out = _findings(log)
    found = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert {f["rule"] for f in found} == {"fr/blackjack/dealer-second-card-after-players"}
    assert sorted(f["round"] for f in found) == sorted(f"R{n + 1}" for n in range(ROUNDS))
    assert all(f["stake"] == "D" and "caused_by" not in f for f in found)
    # One summary line says it once, with its count.
    code, text = _findings(log, "text")
    repeated = [line for line in text.splitlines() if line.startswith("    - in ")]
    assert repeated == [
        "    - in 3,000 of 3,000 rounds: fr/blackjack/dealer-second-card-after-players: The dealer took his "
        "second card before the players had played: he gives himself one card in the initial deal and draws "
        "the others once every player has determined his hands."
    ]
    assert "play-in-turn" not in text


def test_a_settlement_from_box_1_upwards_is_one_finding_a_round(tmp_path):
    log = _seance(tmp_path / "upwards.jsonl", _settled_from_box_1, ("1", "3", "5"))
    code, out = _findings(log, "json")
    document = json.loads(out)
    assert code == 1
    found = document["findings"]
    assert {(f["rule"], f["stake"]) for f in found} == {("fr/blackjack/settlement-order", "3")}
    assert len(found) == ROUNDS
    assert document["summary"]["repeated"] == [
        {
            "rule": "fr/blackjack/settlement-order",
            "rounds": ROUNDS,
            "of_rounds": ROUNDS,
            "message": "Bets must be settled from the dealer's right to his left: box 3 (lose) was settled "
            "after box 1 (lose).",
        }
    ]


def test_an_insurance_after_the_early_card_names_it_as_its_cause(tmp_path):
    """The dealer's A, then his early 9 at the deal; box 1 (T K = 20) insures after it and the insurance is
    collected (no blackjack; 20 against 20 is returned). 2°: the insurance is decided by his second card,
    so insuring once it is out is a finding (insurance-before-dealer-second-card); it is there only
    because of the early card, so it names that card's finding as its cause, in jsonl and in SARIF, and
    comes right after it."""
    actions = [
        ["deal", "1", "TS"], ["deal", "D", "AH"], ["deal", "1", "KS"], ["deal", "D", "9H"],
        ["insurance", "1", 10], ["stand", "1"], ["lose", "1:insurance"], ["push", "1"],
    ]  # fmt: skip
    bet = {"stake": "1", "amount": 20, "player": "P1", "seated": True}
    table, shoe = table_record(day="2016-03-14"), shoe_record(day="2016-03-14")
    log = _one_round_log(tmp_path / "insured.jsonl", table, shoe, bet, "2016-03-14T21:00:00+01:00", actions)
    code, out = _findings(log)
    assert code == 1
    cause, consequence = (json.loads(line) for line in out.splitlines())
    assert (cause["rule"], consequence["rule"]) == (
        "fr/blackjack/dealer-second-card-after-players",
        "fr/blackjack/insurance-before-dealer-second-card",
    )
    expected = _key_of(cause)
    assert consequence["caused_by"] == expected and "caused_by" not in cause
    _code, sarif = _findings(log, "sarif")
    results = json.loads(sarif)["runs"][0]["results"]
    assert [r["properties"].get("caused_by") for r in results] == [None, expected]
    assert results[0]["partialFingerprints"]["casinoValidator/v1"] == expected


def test_a_peek_at_the_early_card_names_it_as_its_cause(tmp_path):
    """The dealer's A, then his early 9 at the deal (hand-log/1.1), which he peeks at; box 1 (T K = 20)
    stands and pushes against his A 9 = 20. The early card breaks 1° (dealer-second-card-after-players);
    the peek (no-peek: the dealer holds one card face up while the players play, al. 5 and 1°) looks at
    that card and is there only because of it: it names the card's finding as its cause."""
    actions = [
        ["deal", "1", "TS"], ["deal", "D", "AH"], ["deal", "1", "KS"], ["deal", "D", "9H"], ["peek", "D"],
        ["stand", "1"], ["push", "1"],
    ]  # fmt: skip
    bet = {"stake": "1", "amount": 20, "player": "P1", "seated": True}
    table, shoe = table_record(day="2016-03-14", format="hand-log/1.1"), shoe_record(day="2016-03-14")
    log = _one_round_log(tmp_path / "peeked.jsonl", table, shoe, bet, "2016-03-14T21:00:00+01:00", actions)
    code, out = _findings(log)
    assert code == 1
    cause, consequence = (json.loads(line) for line in out.splitlines())
    assert (cause["rule"], consequence["rule"]) == (
        "fr/blackjack/dealer-second-card-after-players",
        "fr/blackjack/no-peek",
    )
    assert consequence["caused_by"] == _key_of(cause) and "caused_by" not in cause


def _ontario(tmp_path: Path, name: str, actions: list[list[Any]]) -> list[dict[str, Any]]:
    table = table_record(day="2025-08-22", ruleset="on/fair-blackjack", minimum=1, maximum=5)
    shoe = shoe_record(day="2025-08-22", backs=[6], burn=["9H"], cut_card_behind=80)
    bet = {"stake": "1", "amount": 4, "player": "P1", "seated": True}
    log = _one_round_log(tmp_path / f"{name}.jsonl", table, shoe, bet, "2025-08-22T21:00:00+01:00", actions)
    ran = invoke("check", str(log), "--format", "jsonl", "--no-config")
    return [json.loads(line) for line in ran.stdout.splitlines()]


def test_an_ontario_insurance_settled_before_the_second_card_is_one_cause(tmp_path):
    """Section 7: the dealer's second card decides the insurance (« La mise rapporte au joueur si la
    deuxième carte du donneur est un roi … »), and it comes after the players (section 6). Box 1 (T 9 =
    19) insures for 2 against the ace; the dealer then draws a 7 after box 1 stands: A 7 = soft 18, no
    blackjack, and he stands (section 10: 17 with an ace draws, 18 stands). 19 beats 18: paid 4.
    - Collected before the 7: one finding, the time (insurance-settlement-time); not also
      insurance-collected-at-second-card, which judges collections made once the card is out.
    - Paid 4 before the 7: the time, and the amount (the insurance lost: insurance-pays-2-1), which is
      there only because it was paid before the card that decides it: it names the time as its cause."""
    deal = [["deal", "1", "TD"], ["deal", "D", "AS"], ["deal", "1", "9C"], ["insurance", "1", 2]]
    rest = [["stand", "1"], ["deal", "D", "7H"], ["pay", "1", 4]]
    collected = _ontario(tmp_path, "collected", [*deal, ["lose", "1:insurance"], *rest])
    assert [(f["rule"], f["stake"]) for f in collected] == [
        ("on/fair-blackjack/insurance-settlement-time", "1:insurance")
    ]
    paid = _ontario(tmp_path, "paid", [*deal, ["pay", "1:insurance", 4], *rest])
    assert [(f["rule"], f["stake"]) for f in paid] == [
        ("on/fair-blackjack/insurance-settlement-time", "1:insurance"),
        ("on/fair-blackjack/insurance-pays-2-1", "1:insurance"),
    ]
    cause, consequence = paid
    assert consequence["caused_by"] == _key_of(cause)
    # Where the dealer took his second card at the deal (the cause), an insurance collected right after
    # it is settled once the card is out: no finding of its time; the early card is the one finding.
    early = [["deal", "1", "TD"], ["deal", "D", "AS"], ["deal", "1", "9C"], ["deal", "D", "7H"],
             ["insurance", "1", 2], ["lose", "1:insurance"], ["stand", "1"], ["pay", "1", 4]]  # fmt: skip
    found = _ontario(tmp_path, "early", early)
    assert [f["rule"] for f in found] == [
        "on/fair-blackjack/dealer-second-card-after-players",
        "on/fair-blackjack/insurance-before-drawing",
    ]
    assert found[1]["caused_by"]


def test_a_surrender_the_text_does_not_know_is_one_finding(tmp_path):
    """The popular description lists the player's choices (a card, stay, insurance, split, double):
    surrender is not one of them. Box 5 (6 7 = 13) surrenders against the dealer's 9 and hole K (19) and
    is collected half (20 of 40). The surrender is the finding (no-surrender); the text settles no
    surrendered hand, so the half collected is not also judged as a 13 that lost to 19
    (lower-total-loses: 40 collected), which would be the same cause reported twice."""
    actions = [
        ["deal", "5", "6S"], ["deal", "D", "9D"], ["deal", "5", "7C"], ["deal_down", "D", "KS"],
        ["surrender", "5"], ["lose", "5", 20], ["reveal", "D", "KS"],
    ]  # fmt: skip
    table = table_record(day="2025-06-01", format="hand-log/1.1", table="T-1", ruleset="fr/usage-blackjack")
    bet = {"stake": "5", "amount": 40, "player": "P1", "seated": True}
    at = "2025-06-01T21:00:00+01:00"
    log = _one_round_log(tmp_path / "surrender.jsonl", table, shoe_record(day="2025-06-01"), bet, at, actions)
    ran = invoke("check", str(log), "--format", "jsonl", "--no-config")
    found = [json.loads(line) for line in ran.stdout.splitlines()]
    assert ran.code == 1, ran.output
    assert [(f["rule"], f["stake"]) for f in found] == [("fr/usage-blackjack/no-surrender", "5")]
