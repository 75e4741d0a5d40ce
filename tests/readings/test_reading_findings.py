"""`check --reading ID=ALTERNATIVE` changes exactly the findings the reading concerns: for each reading, a
small log written from the text, judged under each alternative; and `--all-readings` marks firm and
contested findings. The amounts each alternative gives are worked out from the article beside each log."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "side_bets"))

from logbuilders import one_box_against_dealer_18, tierce_flush
from sb_logs import bet, round_, shoe, table, write_log

V2013, V2019, V2020 = "fr/blackjack@2013-12-15", "fr/blackjack@2019-08-12", "fr/blackjack@2020-05-25"


def findings(
    cli: Any, tmp_path: Path, rounds: list[dict[str, Any]], version: str, *options: str
) -> list[Any]:
    """(rule, stake, expected, actual) of each finding of the log judged by `version` under the options."""
    log = tmp_path / "log.jsonl"
    write_log(log, [table(), shoe(), *rounds])
    result = cli("check", str(log), "--ruleset", version, "--format", "json", "--no-config", "-q", *options)
    assert result.returncode in (0, 1), result.stderr
    found = json.loads(result.stdout)["findings"]
    return [(f["rule"], f["stake"], f["expected"], f["actual"]) for f in found]


def lucky_ladies_round(cards: tuple[str, str], paid: int) -> dict[str, Any]:
    # Box 1: 20 on the main bet, 5 on lucky ladies (dames de cœur), `cards` (a 20) against the dealer's
    # 6♥, who draws 10♣ 2♦ to 18: the 20 wins even money (20); the side bet is paid `paid` after the deal.
    actions = one_box_against_dealer_18(side=[["pay", "1:lucky_ladies", paid]], cards=cards)
    return round_(1, [bet("1", 20), bet("1:lucky_ladies", 5)], actions)


PAYTABLE = "fr/blackjack/lucky-ladies-paytable"


# ---------------------------------------------------------------- 5°, 2013 and 2019: « Paire totalisant 20 »
@pytest.mark.parametrize("version", [V2013, V2019])
def test_pair_totalling_20(cli, tmp_path, version):
    # K♠ K♥: a pair of kings in two suits. Same rank and suit (default, issue 39: the table's order of
    # rarity and the edge of both tables): only « 2 cartes quelconques totalisant 20 », 4 for 1: 20. Same
    # rank: « Paire totalisant 20 », 19 for 1 (table A): 5 × 19 = 95.
    paid_as_pair = [lucky_ladies_round(("KS", "KH"), 95)]
    assert findings(cli, tmp_path, paid_as_pair, version, "--reading", "pair-totalling-20=same-rank") == []
    [(rule, stake, expected, actual)] = findings(cli, tmp_path, paid_as_pair, version)
    assert (rule, stake, expected["pay"], actual["pay"]) == (PAYTABLE, "1:lucky_ladies", "20", "95")
    paid_as_any = [lucky_ladies_round(("KS", "KH"), 20)]
    assert findings(cli, tmp_path, paid_as_any, version) == []
    assert (
        findings(cli, tmp_path, paid_as_any, version, "--reading", "pair-totalling-20=same-rank-and-suit")
        == []
    )
    [(rule, _, expected, _)] = findings(
        cli, tmp_path, paid_as_any, version, "--reading", "pair-totalling-20=same-rank"
    )
    assert (rule, expected["pay"]) == (PAYTABLE, "95")
    # K♠ K♠, the identical pair: 19 for 1 under both readings.
    identical = [lucky_ladies_round(("KS", "KS"), 95)]
    assert findings(cli, tmp_path, identical, version) == []
    assert findings(cli, tmp_path, identical, version, "--reading", "pair-totalling-20=same-rank") == []


# ---------------------------------------------------------------- 5° and 7° from 2020: « même couleur »
def test_meme_couleur_in_the_dames_de_coeur_table(cli, tmp_path):
    # K♥ Q♦: a 20 of two red cards of two suits. Suit: « 2 cartes quelconques totalisant 20 », 4 for 1: 20.
    # Red or black: « 2 cartes de même couleur totalisant 20 », 9 for 1: 45.
    as_any = [lucky_ladies_round(("KH", "QD"), 20)]
    assert findings(cli, tmp_path, as_any, V2020) == []
    [(rule, _, expected, _)] = findings(
        cli, tmp_path, as_any, V2020, "--reading", "meme-couleur=red-or-black"
    )
    assert (rule, expected["pay"]) == (PAYTABLE, "45")
    as_colour = [lucky_ladies_round(("KH", "QD"), 45)]
    assert findings(cli, tmp_path, as_colour, V2020, "--reading", "meme-couleur=red-or-black") == []
    [(rule, _, expected, _)] = findings(cli, tmp_path, as_colour, V2020, "--reading", "meme-couleur=suit")
    assert (rule, expected["pay"]) == (PAYTABLE, "20")


# ---------------------------------------------------------------- 7°: 2 + 1 cartes
TWO_PLUS_ONE = "fr/blackjack/two-plus-one-paytable"


def two_plus_one_round(
    first: str, second: str, paid: list[Any], end: list[Any] | None = None, main: list[Any] | None = None
) -> dict[str, Any]:
    # Box 1 (20 on the main bet, 2 on the 2 + 1): `first`, then the dealer's A♣, then `second`; the 2 + 1
    # settled right after the box's second card (`paid`), or at the end (`end`); the box stands; the
    # dealer draws 6♥: A♣ 6♥ = 17 (the ace counted 11 reaches 17, 1°): a 20 wins 20 (`main`).
    actions = [
        ["deal", "1", first],
        ["deal", "D", "AC"],
        ["deal", "1", second],
        *paid,
        ["stand", "1"],
        ["deal", "D", "6H"],
        main or ["pay", "1", 20],
        *(end or []),
    ]
    return round_(1, [bet("1", 20), bet("1:two_plus_one", 2)], actions)


def test_two_plus_one_ace_at_the_top(cli, tmp_path):
    # Q♠ K♦ and the dealer's A♣: Q-K-A, of three suits. Either end, high only, or wrapping: a « TIERCE »,
    # 10 for 1 on 2: 20. Low only: no combination, the stake is lost.
    paid = [two_plus_one_round("QS", "KD", [["pay", "1:two_plus_one", 20]])]
    for alternative in ("low-or-high", "high-only", "wrapping"):
        assert findings(cli, tmp_path, paid, V2020, "--reading", f"two-plus-one-ace={alternative}") == []
    [(rule, _, expected, _)] = findings(cli, tmp_path, paid, V2020, "--reading", "two-plus-one-ace=low-only")
    assert (rule, expected) == (TWO_PLUS_ONE, {"lose": "2"})


def test_two_plus_one_ace_in_the_middle(cli, tmp_path):
    # K♠ 2♦ and the dealer's A♣: K-A-2 is a run only when the ranks wrap round the ace: then a TIERCE, 20.
    # The box's 12 loses to the dealer's 17.
    lost = [two_plus_one_round("KS", "2D", [["lose", "1:two_plus_one"]], main=["lose", "1"])]
    assert findings(cli, tmp_path, lost, V2020) == []
    [(rule, _, expected, _)] = findings(cli, tmp_path, lost, V2020, "--reading", "two-plus-one-ace=wrapping")
    assert (rule, expected["pay"]) == (TWO_PLUS_ONE, "20")


def test_two_plus_one_fois_la_mise(cli, tmp_path):
    # 9♥ 10♥ and the dealer's J♥: a TIERCE FLUSH, « 30 fois la mise », on 2: 60 won (winnings), or 60
    # handed back with the stake in it, 58 won (whole return).
    for paid, alternative, expected in ((60, "whole-return", "58"), (58, "winnings", "60")):
        rounds = [
            round_(
                1, [bet("1", 20), bet("1:two_plus_one", 2)], tierce_flush([["pay", "1:two_plus_one", paid]])
            )
        ]
        [(rule, _, said, _)] = findings(
            cli, tmp_path, rounds, V2020, "--reading", f"two-plus-one-fois={alternative}"
        )
        assert (rule, said["pay"]) == (TWO_PLUS_ONE, expected)
        other = "winnings" if alternative == "whole-return" else "whole-return"
        assert findings(cli, tmp_path, rounds, V2020, "--reading", f"two-plus-one-fois={other}") == []


def test_two_plus_one_settled_at_the_end(cli, tmp_path):
    # Q♠ K♦ and A♣ (a TIERCE, 20), the bet paid after the main stake: before any play, a procedure
    # finding; any time after the second card, none.
    late = [two_plus_one_round("QS", "KD", [], [["pay", "1:two_plus_one", 20]])]
    [(rule, stake, _, _)] = findings(cli, tmp_path, late, V2020)
    assert (rule, stake) == ("fr/blackjack/two-plus-one-settlement-time", "1:two_plus_one")
    assert findings(cli, tmp_path, late, V2020, "--reading", "two-plus-one-time=any-time-after") == []


# ---------------------------------------------------------------- 8°: the JP1 stake
def jp1_round(paid: int) -> dict[str, Any]:
    # Box 1 (20 on the main bet, 1 on JP1): 7♠ K♦ = 17, one seven among the first two cards: « Un 7 »,
    # 2 for 1. The dealer's 6♣ 10♦ 3♥ = 19 collects the main stake, then the JP1 stake is paid `paid`:
    # 1 net when the stake stays in the jackpot (kept, the default since issue 39: « les ramasse puis les
    # ajoute à la cagnotte » before the cards), 2 with the stake handed back (returned).
    actions = [
        ["deal", "1", "7S"],
        ["deal", "D", "6C"],
        ["deal", "1", "KD"],
        ["stand", "1"],
        ["deal", "D", "TD"],
        ["deal", "D", "3H"],
        ["lose", "1"],
        ["pay", "1:jp1", paid],
    ]
    return round_(1, [bet("1", 20), bet("1:jp1", 1)], actions)


def test_jp1_stake_returned_or_kept(cli, tmp_path):
    returned, kept = [jp1_round(2)], [jp1_round(1)]
    assert findings(cli, tmp_path, kept, V2020) == []
    [(rule, _, expected, _)] = findings(cli, tmp_path, kept, V2020, "--reading", "jp1-stake=returned")
    assert (rule, expected["pay"]) == ("fr/blackjack/jp1-paytable", "2")
    assert findings(cli, tmp_path, returned, V2020, "--reading", "jp1-stake=returned") == []
    [(rule, _, expected, _)] = findings(cli, tmp_path, returned, V2020)
    assert (rule, expected["pay"]) == ("fr/blackjack/jp1-paytable", "1")


# ---------------------------------------------------------------- --all-readings
def test_all_readings_marks_firm_and_contested_findings(cli, tmp_path):
    # R1: the JP1 « Un 7 » paid 1, the net when the stake stays in the jackpot: right under the default
    # (kept); under returned 2 is due: a finding only that alternative gives, resting on it.
    # R2: K♠ Q♦ (any 20, 4 for 1 on 5: 20 paid, right under every reading) and the winning 20 paid 15
    # instead of 20: a finding under every reading — firm.
    # R3: the JP1 « Un 7 » paid 2: a finding under the default (kept: 1 is due), none under returned — it
    # rests on jp1-stake = kept.
    r1, r2, r3 = jp1_round(1), lucky_ladies_round(("KS", "QD"), 20), jp1_round(2)
    r2["actions"][-1] = ["pay", "1", 15]
    for n, record in enumerate((r1, r2, r3), start=1):
        record["round"], record["at"] = f"R{n}", record["at"].replace("21:01", f"21:0{n}")
    log = tmp_path / "log.jsonl"
    write_log(log, [table(), shoe(), r1, r2, r3])
    args = ("check", str(log), "--ruleset", V2020, "--all-readings", "--no-config", "-q")
    result = cli(*args, "--format", "json")
    assert result.returncode == 1, result.stderr
    found = {f["round"]: f for f in json.loads(result.stdout)["findings"]}
    assert (found["R1"]["firm"], found["R1"]["rests_on"]) == (
        False,
        [{"reading": "jp1-stake", "alternative": "returned"}],
    )
    assert found["R1"]["message"].endswith("(under reading `jp1-stake` = `returned`)")
    assert (found["R2"]["rule"], found["R2"]["firm"], found["R2"]["rests_on"]) == (
        "fr/blackjack/higher-total-wins",
        True,
        [],
    )
    assert {"reading": "jp1-stake", "alternative": "returned"} in found["R2"]["holds_under"]
    assert (found["R3"]["firm"], found["R3"]["rests_on"]) == (
        False,
        [{"reading": "jp1-stake", "alternative": "kept"}],
    )
    assert found["R3"]["expected"]["pay"] == "1"
    # Every format shows it: the text report's line says the reading.
    text = cli(*args).stdout
    assert (
        "(under reading `jp1-stake` = `kept`)" in text and "(under reading `jp1-stake` = `returned`)" in text
    )
    # A plain run judges under the readings applied only, and its summary says which.
    plain = json.loads(cli("check", str(log), "--ruleset", V2020, "--no-config", "-q", "-f", "json").stdout)
    assert [f["round"] for f in plain["findings"]] == ["R2", "R3"]
    assert "rests_on" not in plain["findings"][0]
    applied = plain["summary"]["readings"][V2020]
    assert {"reading": "jp1-stake", "alternative": "kept", "default": True} in applied


# ---------------------------------------------------------------- Ontario and art. 55-5
RULE_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "rules"
ONTARIO = "on/fair-blackjack"


def fixture_findings(cli: Any, log: Path, version: str, *options: str) -> list[tuple[str, str]]:
    result = cli("check", str(log), "--ruleset", version, "--format", "json", "--no-config", "-q", *options)
    assert result.returncode in (0, 1), result.stderr
    return [(f["rule"], f["severity"]) for f in json.loads(result.stdout)["findings"]]


def test_ontario_blackjack_against_the_dealers_two_card_21(cli):
    # Box 1: A♥ Q♣, a blackjack (4 staked); the dealer's A♠ K♦, his two-card 21.
    folder = RULE_FIXTURES / "on" / "fair-blackjack" / "blackjack-beats-dealer-21"
    paid = folder / "fails-paid-3-2-against-dealer-blackjack.jsonl"  # paid 6: 3 for 2
    pushed = folder / "passes-pushed-against-dealer-blackjack.jsonl"  # returned
    # A tie (default): paid 3 for 2 reads section 3 alone, a warning; returned is right.
    assert fixture_findings(cli, paid, ONTARIO) == [
        ("on/fair-blackjack/blackjack-beats-dealer-21", "warning")
    ]
    assert fixture_findings(cli, pushed, ONTARIO) == []
    # The blackjack beats it: paid 3 for 2 is right; returned is 6 short.
    beats = ("--reading", "blackjack-against-two-card-21=beats")
    assert fixture_findings(cli, paid, ONTARIO, *beats) == []
    assert fixture_findings(cli, pushed, ONTARIO, *beats) == [
        ("on/fair-blackjack/blackjack-pays-3-2", "error")
    ]


def test_ontario_split_hand_two_card_21(cli, tmp_path):
    # Box 1 (2 staked): A♥ A♦ against the dealer's 9♠, split (2 more): hand 1 draws K♣, a two-card 21;
    # hand 1/2 draws 8♠ (19). The dealer draws 8♥: 17. Hand 1/2 wins 2; hand 1 is paid 2 as a plain 21
    # (even money, the default) or 3 as a blackjack (3 for 2).
    source = (
        RULE_FIXTURES / "on" / "fair-blackjack" / "split-aces-one-card" / "passes-one-card-on-each-ace.jsonl"
    )
    table_, shoe_, round_record = (
        json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()
    )
    round_record["actions"] = [
        ["deal", "1", "AH"],
        ["deal", "D", "9S"],
        ["deal", "1", "AD"],
        ["split", "1", 2],
        ["deal", "1", "KC"],
        ["deal", "1/2", "8S"],
        ["deal", "D", "8H"],
        ["pay", "1/2", 2],
        ["pay", "1", 2],
    ]
    log = tmp_path / "split.jsonl"
    write_log(log, [table_, shoe_, round_record])
    as_blackjack = ("--reading", "split-hand-21=blackjack")
    assert fixture_findings(cli, log, ONTARIO) == []
    assert [rule for rule, _ in fixture_findings(cli, log, ONTARIO, *as_blackjack)] == [
        "on/fair-blackjack/blackjack-pays-3-2"
    ]
    round_record["actions"][-1] = ["pay", "1", 3]
    write_log(log, [table_, shoe_, round_record])
    assert fixture_findings(cli, log, ONTARIO, *as_blackjack) == []
    assert fixture_findings(cli, log, ONTARIO) != []


def test_maximum_changed_during_the_seance(cli):
    # The table opens at 10 to 1000 (100 times); a limits record then sets the maximum to 300 times the
    # minimum. Within the multiples (default): an error at the change; free: none.
    log = (
        RULE_FIXTURES
        / "fr"
        / "blackjack"
        / "max-multiple-of-minimum"
        / "fails-limits-changed-to-300-times.jsonl"
    )
    version = "fr/blackjack@2024-11-01"
    assert fixture_findings(cli, log, version) == [("fr/blackjack/max-multiple-of-minimum", "error")]
    assert fixture_findings(cli, log, version, "--reading", "maximum-changed-in-session=free") == []


def test_ontario_dealer_17_with_an_ace(cli, tmp_path):
    # R1: the dealer's 6♣ A♠ (a soft 17) draws 10♣: 6-A-10 = 17, hard, holding an ace; he stands.
    # A soft 17 only (default): right. Any 17 with an ace: he had to draw again.
    source = RULE_FIXTURES / "on" / "fair-blackjack" / "dealer-hits-soft-17"
    log = source / "passes-hits-soft-17-stands-hard-17-and-soft-18.jsonl"
    assert fixture_findings(cli, log, ONTARIO) == []
    found = fixture_findings(cli, log, ONTARIO, "--reading", "dealer-17-with-an-ace=any-17-with-an-ace")
    assert found == [("on/fair-blackjack/dealer-hits-soft-17", "error")]


def test_dealer_draws_with_no_hand_left(cli, tmp_path):
    # Box 1: 10♠ 6♦ against the dealer's 6♥, draws K♣ and busts (26), collected at once; the dealer then
    # draws 6♣ and stops on 12. No hand left (default): not judged. He must draw: an error.
    actions = [
        ["deal", "1", "TS"],
        ["deal", "D", "6H"],
        ["deal", "1", "6D"],
        ["hit", "1", "KC"],
        ["lose", "1"],
        ["deal", "D", "6C"],
    ]
    rounds = [round_(1, [bet("1", 20)], actions)]
    for version in (V2013, V2020):
        assert findings(cli, tmp_path, rounds, version) == []
        [(rule, _, _, _)] = findings(
            cli, tmp_path, rounds, version, "--reading", "dealer-draws-with-no-hand-left=must-draw"
        )
        assert rule == "fr/blackjack/dealer-stands-17"


def test_usage_croupier_conserve_la_main_and_decks(cli, tmp_path):
    # The usage text: 10♥ 8♦ against the dealer's 10♣ 8♠, 18 each, the stake returned. Keeping the deal
    # (default): right; the dealer winning ties: it should have been collected.
    usage = "fr/usage-blackjack"
    log = RULE_FIXTURES / "fr" / "usage-blackjack" / "tie-is-push" / "passes.jsonl"
    assert fixture_findings(cli, log, usage) == []
    wins = ("--reading", "croupier-conserve-la-main=wins-ties")
    assert fixture_findings(cli, log, usage, *wins) == [("fr/usage-blackjack/tie-is-push", "error")]
    # Two blackjacks are a tie too: returned (default) is right; the dealer winning ties collects them, and
    # the alternative replaces blackjack-push as well as tie-is-push.
    two_blackjacks = RULE_FIXTURES / "fr" / "usage-blackjack" / "blackjack-push" / "passes.jsonl"
    assert fixture_findings(cli, two_blackjacks, usage) == []
    assert fixture_findings(cli, two_blackjacks, usage, *wins) == [
        ("fr/usage-blackjack/blackjack-push", "error")
    ]
    # The decks are silence, not a reading (issue 39): asking for usage-decks is refused; the house may
    # declare its shoe (option decks), and a shoe of eight against a declared six is a warning.
    table_, shoe_, *rest = (json.loads(line) for line in log.read_text(encoding="utf-8").splitlines())
    eight = tmp_path / "eight.jsonl"
    write_log(eight, [table_, {**shoe_, "decks": 8}, *rest])
    assert fixture_findings(cli, eight, usage) == []
    refused = cli(
        "check", str(eight), "--ruleset", usage, "--reading", "usage-decks=six-as-the-arrete", "--no-config"
    )
    assert refused.returncode == 2


def test_the_dataset_and_the_audit_report_keep_what_a_finding_rests_on(cli, tmp_path):
    # R1: the JP1 « Un 7 » paid 1 (right under the default, kept: a finding only jp1-stake = returned
    # gives, resting on it); R2: a winning 20 paid 15
    # (firm). The dataset's findings say so, its runs the readings asked for and applied; the report
    # lists the firm round first, then the contested one under its own heading.
    r1, r2 = jp1_round(1), lucky_ladies_round(("KS", "QD"), 20)
    r2["actions"][-1] = ["pay", "1", 15]
    r2["round"], r2["at"] = "R2", r2["at"].replace("21:01", "21:02")
    log = tmp_path / "log.jsonl"
    write_log(log, [table(), shoe(), r1, r2])
    dataset = tmp_path / "ds"
    result = cli(
        "check",
        str(log),
        "--ruleset",
        V2020,
        "--all-readings",
        "--no-config",
        "-q",
        "--dataset",
        str(dataset),
    )
    assert result.returncode == 1, result.stderr
    import duckdb

    rows = duckdb.sql(
        f"SELECT round, rests_on FROM '{dataset}/findings/*/*/*.parquet' ORDER BY round"
    ).fetchall()
    assert rows == [("R1", '[{"reading": "jp1-stake", "alternative": "returned"}]'), ("R2", "[]")]
    [(options, summary)] = duckdb.sql(f"SELECT options, summary FROM '{dataset}/runs/*.parquet'").fetchall()
    assert json.loads(options)["all_readings"] is True
    assert {"reading": "jp1-stake", "alternative": "kept", "default": True} in json.loads(summary)[
        "readings"
    ][V2020]
    html = tmp_path / "report.html"
    assert cli("report", str(dataset), "-o", str(html)).returncode == 0
    page = html.read_text(encoding="utf-8")
    heading = page.index("Findings that rest on a reading")
    assert 'class="readings">fr/blackjack@2020-05-25: ' in page  # the readings the run applied
    assert "jp1-stake = kept, jp1-three-sevens-split = across-split, meme-couleur = suit" in page
    # Each run made under another reading, with its findings: under returned, R1's 1 is short, R2 stays.
    assert "judged again under " in page and "jp1-stake = returned (2)" in page
    assert page.index("round <strong>R2</strong>") < heading < page.index("round <strong>R1</strong>")


def test_settlement_box_by_box_or_losers_first(cli, tmp_path):
    # Box 1 (20): 10♥ 6♦ = 16 stands; box 3 (20): 9♠ K♣ = 19 stands; the dealer's 7♣ 10♦ = 17: box 1
    # loses, box 3 wins 20. Box by box from the right (default): box 3 paid, then box 1 collected. Losers
    # first: box 1 collected, then box 3 paid.
    def settled(*last: list[Any]) -> list[dict[str, Any]]:
        deal = [
            ["deal", "1", "TH"],
            ["deal", "3", "9S"],
            ["deal", "D", "7C"],
            ["deal", "1", "6D"],
            ["deal", "3", "KC"],
            ["stand", "1"],
            ["stand", "3"],
            ["deal", "D", "TD"],
        ]
        return [round_(1, [bet("1", 20), bet("3", 20)], [*deal, *last])]

    box_by_box = settled(["pay", "3", 20], ["lose", "1"])
    losers_first = settled(["lose", "1"], ["pay", "3", 20])
    other = ("--reading", "settlement-order=losers-first")
    order = "fr/blackjack/settlement-order"
    for version in (V2013, V2020):
        assert findings(cli, tmp_path, box_by_box, version) == []
        assert [f[0] for f in findings(cli, tmp_path, losers_first, version)] == [order]
        assert findings(cli, tmp_path, losers_first, version, *other) == []
        assert [f[0] for f in findings(cli, tmp_path, box_by_box, version, *other)] == [order]
