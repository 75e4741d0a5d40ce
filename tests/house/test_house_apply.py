"""`check --house`: the house file's choices reach the rules that read them.

Each case is a short séance that one house file makes clean and another makes a finding of: the finding
the article (or the house option it lets the casino choose) gives, worked out from the ruleset's rule,
not from the program's output. The house entries are those a casino writes (`options`, `side_bets`), so
the cases also prove that option names reach the judge keyed as the rules read them
(`house.lucky_ladies.paytable` from `side_bets.lucky_ladies.paytable`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from house_helpers import check, write_house, write_log
from logbuilders import (
    bataille_king_against_nine,
    bataille_tie_surrendered,
    dealer_busts_to_25,
    eighteen_without_a_seven,
    one_box_against_dealer_18,
    shoe_record,
    split_after_a_lucky_ladies_win,
    table_record,
    tierce_flush,
)

TABLE_2016 = table_record("2016-03-14")
SHOE_2016 = shoe_record("2016-03-14")
TABLE_2025 = table_record(table="BJ-07")
SHOE_2025 = shoe_record()
TABLE_BATAILLE = table_record(table="BA-01", game="bataille", ruleset="fr/bataille", minimum=5, maximum=500)


def seated(stake: str, amount: Any, player: str = "P1") -> dict[str, Any]:
    return {"stake": stake, "amount": amount, "player": player, "seated": True}


def standing(stake: str, amount: Any, player: str = "P2") -> dict[str, Any]:
    return {"stake": stake, "amount": amount, "player": player, "seated": False}


def round_2016(bets: list, actions: list) -> dict[str, Any]:
    return {
        "type": "round",
        "round": "R1",
        "shoe": "S1",
        "at": "2016-03-14T21:00:00+01:00",
        "bets": bets,
        "actions": actions,
    }


def round_2025(bets: list, actions: list) -> dict[str, Any]:
    return {**round_2016(bets, actions), "at": "2025-03-14T21:01:00+01:00", "dealer": "D-117"}


def séance_2016(bets, actions):
    return [TABLE_2016, SHOE_2016, round_2016(bets, actions)]


def séance_2025(bets, actions, table=TABLE_2025):
    return [table, SHOE_2025, round_2025(bets, actions)]


# (name, records, house entry that makes it clean, house entry that gives the findings, [(rule, stake)])
CASES = [
    # 1°, al. 2: "autoriser un joueur à abandonner la partie"; without the option, no surrender.
    (
        "surrender",
        séance_2016(
            [seated("1", 20), seated("2", 20, "P2")],
            [
                ["deal", "1", "TH"],
                ["deal", "2", "9C"],
                ["deal", "D", "TS"],
                ["deal", "1", "6C"],
                ["deal", "2", "KD"],
                ["surrender", "1"],
                ["lose", "1", 10],
                ["stand", "2"],
                ["deal", "D", "8H"],
                ["pay", "2", 20],
            ],
        ),
        {"options": {"surrender": True}},
        {},
        [("fr/blackjack/surrender-allowed", "1")],
    ),
    # 1°, al. 2: "interdire à tout joueur de tirer une nouvelle carte à 21": A-5-5 is a soft 21, then a hit.
    (
        "no_hit_on_21",
        séance_2016(
            [seated("1", 20)],
            [
                ["deal", "1", "AS"],
                ["deal", "D", "9H"],
                ["deal", "1", "5D"],
                ["hit", "1", "5C"],
                ["hit", "1", "4H"],
                ["stand", "1"],
                ["deal", "D", "8S"],
                ["lose", "1"],
            ],
        ),
        {"options": {"no_hit_on_21": False}},
        {"options": {"no_hit_on_21": True}},
        [("fr/blackjack/no-hit-on-21", "1")],
    ),
    # 1°, al. 2 (from 2020-05-25): "interdire de jouer debout lorsque des places assises sont vacantes".
    (
        "no_standing_when_seats_free",
        séance_2025([seated("1", 20), standing("1", 10)], one_box_against_dealer_18(main_paid=30)),
        {},
        {"options": {"no_standing_when_seats_free": True}},
        [("fr/blackjack/no-standing-when-seats-free", "1")],
    ),
    # 1°, al. 2: "imposer à un joueur seul à la table de jouer sur deux cases au minimum".
    (
        "min_boxes_single_player",
        séance_2016(
            [seated("1", 20)],
            [
                ["deal", "1", "TD"],
                ["deal", "D", "6D"],
                ["deal", "1", "8C"],
                ["stand", "1"],
                ["deal", "D", "AC"],
                ["pay", "1", 20],
            ],
        ),
        {"options": {"min_boxes_single_player": 1}},
        {"options": {"min_boxes_single_player": 2}},
        [("fr/blackjack/lone-player-two-boxes", None)],
    ),
    # 1°, al. 2: limiting the boxes a player may play (2013 wording: when others want to play; P2 does).
    (
        "max_boxes_per_player",
        séance_2016(
            [seated("1", 20), seated("2", 20), seated("3", 20), seated("5", 20, "P2")],
            [
                ["deal", "1", "TH"],
                ["deal", "2", "9S"],
                ["deal", "3", "5C"],
                ["deal", "5", "KD"],
                ["deal", "D", "6H"],
                ["deal", "1", "8D"],
                ["deal", "2", "9C"],
                ["deal", "3", "6S"],
                ["deal", "5", "7C"],
                ["stand", "1"],
                ["stand", "2"],
                ["double", "3", 20, "TD"],
                ["stand", "5"],
                ["deal", "D", "TS"],
                ["deal", "D", "8S"],
                ["pay", "5", 20],
                ["pay", "3", 40],
                ["pay", "2", 20],
                ["pay", "1", 20],
            ],
        ),
        {"options": {"max_boxes_per_player": 3}},
        {"options": {"max_boxes_per_player": 2}},
        [
            ("fr/blackjack/max-boxes-per-player", "1"),
            ("fr/blackjack/max-boxes-per-player", "2"),
            ("fr/blackjack/max-boxes-per-player", "3"),
        ],
    ),
    # 3°, al. 5: "limiter les paires aux cartes similaires": K-Q is a pair of tens, not of identical cards.
    (
        "split_identical_only",
        séance_2016(
            [seated("1", 20)],
            [
                ["deal", "1", "KH"],
                ["deal", "D", "6S"],
                ["deal", "1", "QD"],
                ["split", "1", 20],
                ["deal", "1", "8C"],
                ["stand", "1"],
                ["deal", "1/2", "9S"],
                ["stand", "1/2"],
                ["deal", "D", "TC"],
                ["deal", "D", "8H"],
                ["pay", "1/2", 20],
                ["pay", "1", 20],
            ],
        ),
        {},
        {"options": {"split_identical_only": True}},
        [("fr/blackjack/split-identical-only", "1")],
    ),
    # 3°, al. 5: "limiter le nombre des paires": 8-8 split twice makes three hands.
    (
        "max_split_hands",
        séance_2016(
            [seated("1", 20)],
            [
                ["deal", "1", "8H"],
                ["deal", "D", "7S"],
                ["deal", "1", "8D"],
                ["split", "1", 20],
                ["deal", "1", "8C"],
                ["split", "1", 20],
                ["deal", "1", "TD"],
                ["stand", "1"],
                ["deal", "1/2", "2H"],
                ["hit", "1/2", "9H"],
                ["stand", "1/2"],
                ["deal", "1/3", "KS"],
                ["stand", "1/3"],
                ["deal", "D", "TH"],
                ["pay", "1/3", 20],
                ["pay", "1/2", 20],
                ["pay", "1", 20],
            ],
        ),
        {"options": {"max_split_hands": 3}},
        {"options": {"max_split_hands": 2}},
        [("fr/blackjack/split-max-hands", "1")],
    ),
    # 4°, al. 2: the house may "en exclure la possibilité en ce qui concerne les paires".
    (
        "double_after_split",
        séance_2016(
            [seated("1", 20)],
            [
                ["deal", "1", "8H"],
                ["deal", "D", "6S"],
                ["deal", "1", "8D"],
                ["split", "1", 20],
                ["deal", "1", "3C"],
                ["double", "1", 20, "9H"],
                ["deal", "1/2", "TS"],
                ["stand", "1/2"],
                ["deal", "D", "TD"],
                ["deal", "D", "7C"],
                ["pay", "1/2", 20],
                ["pay", "1", 40],
            ],
        ),
        {"options": {"double_after_split": True}},
        {"options": {"double_after_split": False}},
        [("fr/blackjack/double-after-split", "1")],
    ),
    # 5°, a): "limiter aux seuls joueurs assis la possibilité de miser sur cette option".
    (
        "lucky_ladies.seated_only",
        séance_2025(
            [seated("1", 20), standing("1", 10), standing("1:lucky_ladies", 5)],
            one_box_against_dealer_18([["pay", "1:lucky_ladies", 20]], main_paid=30),
        ),
        {"side_bets": {"lucky_ladies": {"seated_only": False}}},
        {"side_bets": {"lucky_ladies": {"seated_only": True}}},
        [("fr/blackjack/lucky-ladies-seated-only", "1:lucky_ladies")],
    ),
    # 5°: "le minimum et le maximum des mises additionnelles": a bet of 60 over a maximum of 50.
    (
        "lucky_ladies.maximum",
        séance_2025(
            [seated("1", 20), seated("1:lucky_ladies", 60)],
            one_box_against_dealer_18([["pay", "1:lucky_ladies", 240]]),
        ),
        {"side_bets": {"lucky_ladies": {"minimum": 1, "maximum": 100}}},
        {"side_bets": {"lucky_ladies": {"minimum": 1, "maximum": 50}}},
        [("fr/blackjack/lucky-ladies-limits", "1:lucky_ladies")],
    ),
    (
        "lucky_ladies.minimum",
        séance_2025(
            [seated("1", 20), seated("1:lucky_ladies", 60)],
            one_box_against_dealer_18([["pay", "1:lucky_ladies", 240]]),
        ),
        {"side_bets": {"lucky_ladies": {"minimum": 60}}},
        {"side_bets": {"lucky_ladies": {"minimum": 100}}},
        [("fr/blackjack/lucky-ladies-limits", "1:lucky_ladies")],
    ),
    # 5°: "choisir la table de paiement": K♠-Q♠, two cards of one suit totalling 20, pay 9 for 1 in table A
    # and 10 for 1 in table B; a stake of 10 paid 100 is table B's payment.
    (
        "lucky_ladies.paytable",
        séance_2025(
            [seated("1", 20), seated("1:lucky_ladies", 10)],
            one_box_against_dealer_18([["pay", "1:lucky_ladies", 100]], cards=("KS", "QS")),
        ),
        {"side_bets": {"lucky_ladies": {"paytable": "B"}}},
        {"side_bets": {"lucky_ladies": {"paytable": "A"}}},
        [("fr/blackjack/lucky-ladies-paytable", "1:lucky_ladies")],
    ),
    # 5°, a): "interdire … de constituer deux mains séparées" after the dames de cœur bet won.
    (
        "lucky_ladies.no_split_after_win",
        séance_2025([seated("1", 20), seated("1:lucky_ladies", 5)], split_after_a_lucky_ladies_win()),
        {"side_bets": {"lucky_ladies": {"no_split_after_win": False}}},
        {"side_bets": {"lucky_ladies": {"no_split_after_win": True}}},
        [("fr/blackjack/lucky-ladies-no-split-after-win", "1")],
    ),
    # 6°, al. 4: hyper black jack "limiter aux seuls joueurs assis".
    (
        "hyper_blackjack.seated_only",
        séance_2025(
            [seated("1", 20), standing("1", 10), standing("1:hyper:bust", 5)],
            dealer_busts_to_25(main_paid=30, bust_paid=10),
        ),
        {"side_bets": {"hyper_blackjack": {}}},
        {"side_bets": {"hyper_blackjack": {"seated_only": True}}},
        [("fr/blackjack/hyper-blackjack-seated-only", "1:hyper:bust")],
    ),
    # 7°, al. 2: "les montants minimal et maximal de cette mise": 100 on the 2 + 1 over a maximum of 50.
    (
        "two_plus_one.maximum",
        séance_2025(
            [seated("1", 20), seated("1:two_plus_one", 100)],
            tierce_flush([["pay", "1:two_plus_one", 3000]]),
        ),
        {"side_bets": {"two_plus_one": {"maximum": 100}}},
        {"side_bets": {"two_plus_one": {"maximum": 50}}},
        [("fr/blackjack/two-plus-one-limits", "1:two_plus_one")],
    ),
    # 8°, al. 2: JP1 stakes are "d'un montant fixe déterminé par le règlement intérieur".
    (
        "jp1.stake",
        séance_2025([seated("1", 20), seated("1:jp1", 2)], eighteen_without_a_seven([["lose", "1:jp1"]])),
        {"side_bets": {"jp1": {"stake": 2}}},
        {"side_bets": {"jp1": {"stake": 1}}},
        [("fr/blackjack/jp1-fixed-stake", "1:jp1")],
    ),
    # Bataille, al. 27: "la direction du casino peut donner aux joueurs la possibilité d'engager … une mise
    # supplémentaire (mise égalité)": not offered unless the house rules say so.
    (
        "egalite.offered",
        séance_2025(
            [seated("1", 20), seated("1:egalite", 5)],
            bataille_tie_surrendered([["pay", "1:egalite", 50]]),
            TABLE_BATAILLE,
        ),
        {"side_bets": {"egalite": {"offered": True}}},
        {"side_bets": {"egalite": {"offered": False}}},
        [("fr/bataille/egalite-offered", "1:egalite")],
    ),
    # The same mise égalité at a table whose house file lists the bet with its limits, as house-rules.md's
    # example does (`egalite: {minimum: 1, maximum: 25}`, no `offered` key): listing it offers it; an
    # explicit `offered: false` still withdraws it.
    (
        "egalite listed with its limits",
        séance_2025(
            [seated("1", 20), seated("1:egalite", 5)],
            bataille_tie_surrendered([["pay", "1:egalite", 50]]),
            TABLE_BATAILLE,
        ),
        {"side_bets": {"egalite": {"minimum": 1, "maximum": 25}}},
        {"side_bets": {"egalite": {"offered": False, "minimum": 1, "maximum": 25}}},
        [("fr/bataille/egalite-offered", "1:egalite")],
    ),
    (
        "egalite not listed",
        séance_2025(
            [seated("1", 20), seated("1:egalite", 5)],
            bataille_tie_surrendered([["pay", "1:egalite", 50]]),
            TABLE_BATAILLE,
        ),
        {"side_bets": {"egalite": {}}},
        {},
        [("fr/bataille/egalite-offered", "1:egalite")],
    ),
    # Bataille, al. 28: "les limites minimales et maximales indiquées à la table".
    (
        "egalite.maximum",
        séance_2025(
            [seated("1", 20), seated("1:egalite", 30)],
            bataille_king_against_nine([["lose", "1:egalite"]]),
            TABLE_BATAILLE,
        ),
        {"side_bets": {"egalite": {"offered": True, "maximum": 30}}},
        {"side_bets": {"egalite": {"offered": True, "maximum": 25}}},
        [("fr/bataille/egalite-limits", "1:egalite")],
    ),
]


def entry(records: list[dict[str, Any]], extra: dict[str, Any]) -> dict[str, Any]:
    table = records[0]
    return {
        "game": table["game"],
        "ruleset": table["ruleset"],
        "minimum": table["minimum"],
        "maximum": table["maximum"],
        "seats": table["seats"],
        **extra,
    }


@pytest.mark.parametrize(
    ("records", "clean", "broken", "expected"), [pytest.param(*c[1:], id=c[0]) for c in CASES]
)
def test_house_option_changes_the_verdict(tmp_path, records, clean, broken, expected):
    log = write_log(tmp_path, records)
    table = records[0]["table"]
    good = write_house(tmp_path, {table: entry(records, clean)}, "clean.yaml")
    bad = write_house(tmp_path, {table: entry(records, broken)}, "broken.yaml")

    status, findings, stderr = check(log, "--house", str(good))
    assert (status, findings, stderr) == (0, [], "")

    status, findings, stderr = check(log, "--house", str(bad))
    assert stderr == ""
    assert status == 1
    assert [(f["rule"], f["stake"]) for f in findings] == expected
    assert all(f["round"] == "R1" and f["line"] == 3 for f in findings)


# fr/usage-blackjack: the description gives no blackjack payout; the house's declared rate is applied.
# Two blackjacks (A-T on box 3, Q-A on box 7) paid 3 for 2: 37.5 on 25 and 7.5 on 5.
US_RECORDS = [
    table_record(
        casino="Casino de démonstration",
        table="US-01",
        ruleset="fr/usage-blackjack",
        at="2024-07-05T21:00:00+02:00",
        minimum=5,
        maximum=500,
    ),
    shoe_record(
        shoe="US-01/2024-07-05/1",
        at="2024-07-05T21:01:28+02:00",
        backs=[6],
        cut_by="6",
        cut_card_behind=62,
        burn=[],
    ),
    {
        "type": "round",
        "round": "US-01/2024-07-05/1/2",
        "shoe": "US-01/2024-07-05/1",
        "at": "2024-07-05T21:03:55+02:00",
        "dealer": "D-101",
        "bets": [seated("3", 25, "P2"), seated("7", 5)],
        "actions": [
            ["deal", "3", "AS"],
            ["deal", "7", "QH"],
            ["deal", "D", "3C"],
            ["deal", "3", "TS"],
            ["deal", "7", "AD"],
            ["deal", "D", "6D"],
            ["deal", "D", "2H"],
            ["deal", "D", "2C"],
            ["deal", "D", "KC"],
            ["pay", "7", "7.5"],
            ["pay", "3", "37.5"],
        ],
    },
]


def test_usage_blackjack_pays_the_declared_rate(tmp_path):
    log = write_log(tmp_path, US_RECORDS)
    three_two = write_house(
        tmp_path, {"US-01": entry(US_RECORDS, {"options": {"blackjack_pays": "3:2"}})}, "a.yaml"
    )
    six_five = write_house(
        tmp_path, {"US-01": entry(US_RECORDS, {"options": {"blackjack_pays": "6:5"}})}, "b.yaml"
    )

    assert check(log, "--house", str(three_two)) == (0, [], "")

    status, findings, _ = check(log, "--house", str(six_five))
    assert status == 1
    # At 6 for 5: 30 on 25 (box 3) and 6 on 5 (box 7).
    found = sorted((f["stake"], f["rule"], f["kind"], f["expected"], f["actual"]) for f in findings)
    assert found == [
        ("3", "fr/usage-blackjack/blackjack-pays-house-rate", "payout", {"pay": "30"}, {"pay": "37.5"}),
        ("7", "fr/usage-blackjack/blackjack-pays-house-rate", "payout", {"pay": "6"}, {"pay": "7.5"}),
    ]


def test_without_house_rules_the_regulation_defaults_apply_and_the_summary_says_so(tmp_path):
    log = write_log(tmp_path, CASES[0][1])  # a surrender: not allowed by default
    status, findings, _ = check(log)
    assert status == 1 and [f["rule"] for f in findings] == ["fr/blackjack/surrender-allowed"]
    from conftest import run_cli

    text = run_cli("check", str(log), "--quiet")
    assert "house rules:          none: regulation defaults" in text.stdout
    assert "no house rules given: the regulation's defaults apply" in text.stdout
    summary = json.loads(run_cli("check", str(log), "--format", "json", "--quiet").stdout)["summary"]
    assert summary["house"] is None
    assert "no house rules given: the regulation's defaults apply" in summary["notes"]


def test_the_summary_names_the_house_file(tmp_path):
    from conftest import run_cli

    log = write_log(tmp_path, CASES[0][1])
    house = write_house(tmp_path, {"BJ-03": entry(CASES[0][1], {"options": {"surrender": True}})})
    text = run_cli("check", str(log), "--quiet", "--house", str(house))
    assert text.returncode == 0
    assert f"house rules:          {house}" in text.stdout
    summary = json.loads(run_cli("check", str(log), "-f", "json", "-q", "--house", str(house)).stdout)[
        "summary"
    ]
    assert summary["house"] == str(house)
    assert "no house rules given: the regulation's defaults apply" not in summary["notes"]


def test_a_table_missing_from_the_house_file_stops_the_run(tmp_path):
    log = write_log(tmp_path, CASES[0][1])
    house = write_house(tmp_path, {"BJ-99": {"ruleset": "fr/blackjack"}})
    status, _, stderr = check(log, "--house", str(house))
    assert status == 2
    assert "table BJ-03 has no entry" in stderr and str(house) in stderr
    assert "Traceback" not in stderr


def test_house_rules_the_linter_refuses_are_not_applied(tmp_path):
    log = write_log(tmp_path, CASES[0][1])
    house = write_house(
        tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"surrender": "yes please"}}}
    )
    status, findings, stderr = check(log, "--house", str(house))
    assert status == 2 and findings == []
    assert "tables.BJ-03.options.surrender" in stderr
    # The log is of 2016: the lint to run is the one of that version's date.
    assert f"casino-validator lint {house} --date 2013-12-15" in stderr


def test_an_option_of_30_digits_stops_check_and_simulate_with_its_finding(tmp_path):
    # Both apply the house file through the linter's option check, which raised InvalidOperation past
    # Decimal's 28 digits.
    from conftest import run_cli

    records = séance_2025([seated("1", 20)], [])
    house = write_house(tmp_path, {"BJ-07": entry(records, {"options": {"max_split_hands": 10**29}})})
    words = f"tables.BJ-07.options.max_split_hands: {10**29} is not allowed: the regulation allows 2 to 8"
    status, findings, stderr = check(write_log(tmp_path, records), "--house", str(house))
    assert (status, findings) == (2, []) and "Traceback" not in stderr
    assert words in stderr
    out = tmp_path / "sim.jsonl"
    result = run_cli(
        "simulate",
        "--ruleset",
        "fr/blackjack@2025-01-01",
        "--house",
        str(house),
        "--table",
        "BJ-07",
        "-o",
        str(out),
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert words in result.stderr and not out.exists()


def test_unreadable_house_file_stops_check(tmp_path):
    log = write_log(tmp_path, CASES[0][1])
    house = tmp_path / "house.yaml"
    house.write_text("format: house-rules/1\ntables: {BJ-03: {ruleset: fr/blackjack}\n", encoding="utf-8")
    status, _, stderr = check(log, "--house", str(house))
    assert status == 2 and stderr.startswith(f"casino-validator: {house}:3:1: ")
    assert check(log, "--house", str(tmp_path / "none.yaml"))[0] == 2


def test_house_entry_for_another_ruleset_stops_check(tmp_path):
    log = write_log(tmp_path, CASES[0][1])
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/bataille"}})
    status, _, stderr = check(log, "--house", str(house))
    assert status == 2 and "declared under fr/bataille" in stderr


def test_parallel_check_applies_the_house_file(tmp_path):
    # The séance twice, the second time under round ids of its own (a round id names one round).
    again = [{**r, "round": r["round"] + "-again"} if r.get("type") == "round" else r for r in CASES[0][1]]
    log = write_log(tmp_path, CASES[0][1] + again)
    house = write_house(tmp_path, {"BJ-03": entry(CASES[0][1], {"options": {"surrender": True}})})
    assert check(log, "--house", str(house), "--jobs", "2") == (0, [], "")


def test_simulate_plays_by_the_house_entry(tmp_path):
    from conftest import run_cli

    house = write_house(tmp_path, {"US-01": entry(US_RECORDS, {"options": {"blackjack_pays": "6:5"}})})
    out = tmp_path / "sim.jsonl"
    result = run_cli(
        "simulate",
        "--ruleset",
        "fr/usage-blackjack",
        "--house",
        str(house),
        "--table",
        "US-01",
        "--rounds",
        "40",
        "--seed",
        "3",
        "--minimum",
        "5",
        "--maximum",
        "500",
        "-o",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert check(out, "--house", str(house)) == (0, [], "")
