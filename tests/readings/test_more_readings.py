"""The readings of the six ambiguities added last (bataille wars, standing bettors' « sa mise » and the
box limits, aces per box or per player, the JP1 consolation per box or
per player, three 7s across a split): for each, a log written from the text that gives different
findings under its two alternatives. What each alternative must give is worked out from the article in
the comment beside each log; none is copied from the program's output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "side_bets"))

from logbuilders import shoe_record, table_record
from sb_logs import bet, jackpot, round_, shoe, table, write_log

V2013, V2019, V2020 = "fr/blackjack@2013-12-15", "fr/blackjack@2019-08-12", "fr/blackjack@2020-05-25"
V2024 = "fr/blackjack@2024-11-01"
BATAILLE = "fr/bataille@2013-05-12"


def findings(
    cli: Any, log: Path, records: list[dict[str, Any]], version: str, *options: str
) -> list[tuple[str, str | None, Any]]:
    """(rule, stake, expected) of each finding of `records` judged by `version` under the options."""
    write_log(log, records)
    result = cli("check", str(log), "--ruleset", version, "--format", "json", "--no-config", "-q", *options)
    assert result.returncode in (0, 1), result.stderr
    return [(f["rule"], f["stake"], f["expected"]) for f in json.loads(result.stdout)["findings"]]


def rules_of(found: list[tuple[str, str | None, Any]]) -> list[str]:
    return [rule for rule, _, _ in found]


# ---------------------------------------------------------------- bataille: the wars and the settlement
BATAILLE_TABLE = table_record(
    "2025-01-31", table="BA-01", game="bataille", ruleset="fr/bataille", at="2025-01-31T22:00:00+01:00"
)
BATAILLE_SHOE = shoe_record("2025-01-31", at="2025-01-31T22:02:00+01:00", burn=["7H", "AC", "3D", "5H", "6H"])


def bataille_round(settlement: list[list[Any]]) -> dict[str, Any]:
    # Box 1 (20): K♥; box 3 (20): 9♠; the dealer's 9♣. Box 1's king beats the nine: « la mise initiale du
    # joueur est gagnante et payée une fois la mise » (al. 19), 20. Box 3 ties and goes to war with 20
    # (al. 23): three cards burned, its war card Q♠, one burned, the dealer's 5♣: Q beats 5, « La mise
    # initiale est payée 1 pour 1 » (al. 24), 20, and the war stake is returned. `settlement` says when
    # what is settled.
    return {
        "type": "round",
        "round": "R1",
        "shoe": "S1",
        "at": "2025-01-31T22:03:00+01:00",
        "bets": [
            {"stake": "1", "amount": 20, "player": "P1", "seated": True},
            {"stake": "3", "amount": 20, "player": "P3", "seated": True},
        ],
        "actions": [["deal", "1", "KH"], ["deal", "3", "9S"], ["deal", "D", "9C"], *settlement],
    }


WAR = [
    ["war", "3", 20],
    ["burn", "JD"],
    ["burn", "KS"],
    ["burn", "8C"],
    ["deal", "3", "QS"],
    ["burn", "2H"],
    ["deal", "D", "5C"],
]


def test_bataille_wars_before_or_after_the_settlement(cli, tmp_path):
    log = tmp_path / "bataille.jsonl"
    # Wars first, then one pass from the dealer's right: box 3 (at war) paid, then box 1.
    one_pass = [
        BATAILLE_TABLE,
        BATAILLE_SHOE,
        bataille_round([*WAR, ["pay", "3", 20], ["push", "3:war"], ["pay", "1", 20]]),
    ]
    # Box 1, decided by its first card, paid first; then box 3's war and its settlement.
    two_passes = [
        BATAILLE_TABLE,
        BATAILLE_SHOE,
        bataille_round([["pay", "1", 20], *WAR, ["pay", "3", 20], ["push", "3:war"]]),
    ]
    after = ("--reading", "bataille-wars=after")
    order = "fr/bataille/settlement-order"
    too_early = "fr/bataille/settlement-after-dealer-point"
    # Before (the default): the wars first, then one pass from the right. Box 1 paid before the dealer's
    # war card is settled too early (« Après avoir annoncé le point », al. 21, once every point is known):
    # one finding, its time; box 3 after it is not out of order because of it.
    assert findings(cli, log, one_pass, BATAILLE) == []
    assert [(rule, stake) for rule, stake, _ in findings(cli, log, two_passes, BATAILLE)] == [
        (too_early, "1")
    ]
    # After: the decided boxes first; box 3 at war settled before box 1 is out of order.
    assert findings(cli, log, two_passes, BATAILLE, *after) == []
    assert rules_of(findings(cli, log, one_pass, BATAILLE, *after)) == [order]
    # After, a box at war is still settled on the dealer's war card: box 3 paid before it is too early.
    war_paid_early = [
        BATAILLE_TABLE,
        BATAILLE_SHOE,
        bataille_round([["pay", "1", 20], ["war", "3", 20], ["pay", "3", 20], *WAR[1:], ["push", "3:war"]]),
    ]
    assert [(r, s) for r, s, _ in findings(cli, log, war_paid_early, BATAILLE, *after)] == [(too_early, "3")]
    # Before his first card no point is known, under either reading: box 1 paid at once.
    first_card = [
        BATAILLE_TABLE,
        BATAILLE_SHOE,
        {
            **bataille_round([]),
            "actions": [
                *[["deal", "1", "KH"], ["deal", "3", "9S"], ["pay", "1", 20], ["deal", "D", "9C"], *WAR],
                *[["pay", "3", 20], ["push", "3:war"]],
            ],
        },
    ]
    for options in ((), after):
        assert [(r, s) for r, s, _ in findings(cli, log, first_card, BATAILLE, *options)] == [
            (too_early, "1")
        ]


def test_bataille_settlement_box_by_box_or_losers_first(cli, tmp_path):
    # Al. 21 is the blackjack article's settlement sentence word for word (reading settlement-order).
    # Box 1 (20): 5♥, box 3 (20): K♠, against the dealer's 9♣: box 1 loses (« sa mise initiale est
    # perdante », al. 20), box 3 wins 20 (al. 19). Box by box from the right (default): box 3 paid, then
    # box 1 collected. Losers first: box 1 collected, then box 3 paid.
    log = tmp_path / "losers.jsonl"

    def round_with(settlement: list[list[Any]]) -> dict[str, Any]:
        return {
            **bataille_round([]),
            "actions": [["deal", "1", "5H"], ["deal", "3", "KS"], ["deal", "D", "9C"], *settlement],
        }

    right_to_left = [BATAILLE_TABLE, BATAILLE_SHOE, round_with([["pay", "3", 20], ["lose", "1"]])]
    losers_first = [BATAILLE_TABLE, BATAILLE_SHOE, round_with([["lose", "1"], ["pay", "3", 20]])]
    reading = ("--reading", "settlement-order=losers-first")
    order = "fr/bataille/settlement-order"
    assert findings(cli, log, right_to_left, BATAILLE) == []
    assert [(r, s) for r, s, _ in findings(cli, log, losers_first, BATAILLE)] == [(order, "3")]
    assert findings(cli, log, losers_first, BATAILLE, *reading) == []
    assert [(r, s) for r, s, _ in findings(cli, log, right_to_left, BATAILLE, *reading)] == [(order, "1")]


# ---------------------------------------------------------------- standing bettors' « sa mise »
def double_behind(doubled: int) -> dict[str, Any]:
    # Box 1: P1 seated with 20, P9 standing behind him with 10 (al. 7): the box's stake is 30. 6♠ 5♦
    # against the dealer's 6♥; the box doubles with `doubled` and draws 9♣ (20). The dealer draws 10♣ 2♦:
    # 18. The 20 wins even money on the whole stake, 30 + `doubled`.
    actions = [
        ["deal", "1", "6S"],
        ["deal", "D", "6H"],
        ["deal", "1", "5D"],
        ["double", "1", doubled, "9C"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["pay", "1", 30 + doubled],
    ]
    return round_(1, [bet("1", 20, "P1"), bet("1", 10, "P9", seated=False)], actions)


@pytest.mark.parametrize("version", [V2013, V2024])
def test_standing_bettors_stake_of_a_double(cli, tmp_path, version):
    log = tmp_path / "double.jsonl"
    whole, own = [table(), shoe(), double_behind(30)], [table(), shoe(), double_behind(20)]
    seated_own = ("--reading", "standing-bettors-stake=seated-own")
    # The box's whole stake (default): « doubler sa mise » adds 30; 20 is short.
    assert findings(cli, log, whole, version) == []
    [(rule, _, expected)] = findings(cli, log, own, version)
    assert rule == "fr/blackjack/double-stake-equal" and "30" in expected.values()
    # The seated player's own stake: 20; 30 doubles the bettor's behind him too.
    assert findings(cli, log, own, version, *seated_own) == []
    [(rule, _, expected)] = findings(cli, log, whole, version, *seated_own)
    assert rule == "fr/blackjack/double-stake-equal" and "20" in expected.values()


def test_standing_bettors_stake_of_an_insurance(cli, tmp_path):
    # Box 1: P1 seated with 20, P9 standing with 10; 10♠ 9♦ against the dealer's A♣, insured with
    # `amount`. The dealer draws 7♥: 18, no blackjack: the
    # insurance is collected, the 19 paid 30. Whole box (default): hand-log/1 does not say whose stake
    # insures with bettors behind, so the amount is not judged (rule insurance-half-stake). Seated own:
    # half of 20 is 10, right; 15 (half the box) is wrong.
    def insured(amount: int) -> list[dict[str, Any]]:
        actions = [
            ["deal", "1", "TS"],
            ["deal", "D", "AC"],
            ["deal", "1", "9D"],
            ["insurance", "1", amount],
            ["stand", "1"],
            ["deal", "D", "7H"],
            ["lose", "1:insurance"],
            ["pay", "1", 30],
        ]
        return [table(), shoe(), round_(1, [bet("1", 20, "P1"), bet("1", 10, "P9", seated=False)], actions)]

    log = tmp_path / "insured.jsonl"
    seated_own = ("--reading", "standing-bettors-stake=seated-own")
    assert findings(cli, log, insured(15), V2020) == []
    assert findings(cli, log, insured(10), V2020, *seated_own) == []
    assert rules_of(findings(cli, log, insured(15), V2020, *seated_own)) == [
        "fr/blackjack/insurance-half-stake"
    ]


# ---------------------------------------------------------------- standing bettors and the box limits
HOUSE = """format: house-rules/1
casino: Casino de Trouville
tables:
  BJ-07:
    game: blackjack
    ruleset: fr/blackjack
    minimum: 10
    maximum: 1000
    seats: 7
    options:
      {option}
"""


@pytest.mark.parametrize("version", [V2013, V2020])
def test_standing_bettor_and_the_lone_player(cli, tmp_path, version):
    # The house requires a lone player to play two boxes (1°, al. 2). P1 sits at box 1 alone, P9 stands
    # behind him. Not counted (default): P1 is « un seul joueur à table » on one box: a finding.
    # Counted: P9 is a second player at the table: the rule does not apply.
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE.format(option="min_boxes_single_player: 2"), encoding="utf-8")
    actions = [
        ["deal", "1", "KS"],
        ["deal", "D", "6H"],
        ["deal", "1", "QD"],
        ["stand", "1"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["pay", "1", 30],
    ]
    records = [table(), shoe(), round_(1, [bet("1", 20, "P1"), bet("1", 10, "P9", seated=False)], actions)]
    log = tmp_path / "lone.jsonl"
    opts = ("--house", str(house))
    assert rules_of(findings(cli, log, records, version, *opts)) == ["fr/blackjack/lone-player-two-boxes"]
    counted = ("--reading", "standing-bettors-as-players=counted")
    assert findings(cli, log, records, version, *opts, *counted) == []


def test_standing_bettor_on_three_boxes(cli, tmp_path):
    # The house limits a player to two boxes (2020 wording: « limiter le nombre de cases sur lesquelles
    # peut miser un joueur »). P1, P2, P3 sit at boxes 1, 2, 3, one box each; P9 stands behind all three.
    # Not counted (default): every player is on one box. Counted: P9 bets on three boxes: a finding on
    # each of them (boxes 1, 2 and 3).
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE.format(option="max_boxes_per_player: 2"), encoding="utf-8")
    actions: list[list[Any]] = [["deal", b, "KS"] for b in "123"]
    actions += [["deal", "D", "6H"], *(["deal", b, "QD"] for b in "123"), *(["stand", b] for b in "123")]
    actions += [["deal", "D", "TC"], ["deal", "D", "2D"], *(["pay", b, 30] for b in "321")]
    bets = [x for b in "123" for x in (bet(b, 20, f"P{b}"), bet(b, 10, "P9", seated=False))]
    records = [table(), shoe(), round_(1, bets, actions)]
    log = tmp_path / "three.jsonl"
    opts = ("--house", str(house))
    assert findings(cli, log, records, V2020, *opts) == []
    counted = findings(cli, log, records, V2020, *opts, "--reading", "standing-bettors-as-players=counted")
    assert rules_of(counted) == ["fr/blackjack/max-boxes-per-player"] * 3


# ---------------------------------------------------------------- aces per box or per player
def aces_on_two_boxes(second: list[list[Any]]) -> dict[str, Any]:
    # P1 plays boxes 1 and 3: A♠ A♦ on box 1, A♥ A♣ on box 3, against the dealer's 9♣. Box 1 splits (20
    # more) and its hands draw K♣ and 9♦ (one card each, 3°); then box 3 (`second`). The dealer draws 8♣:
    # 17. Every hand of 19 or more is paid 20, a 21 of split aces « n'est payé qu'à égalité ».
    actions = [
        ["deal", "1", "AS"],
        ["deal", "3", "AH"],
        ["deal", "D", "9C"],
        ["deal", "1", "AD"],
        ["deal", "3", "AC"],
        ["split", "1", 20],
        ["deal", "1", "KC"],
        ["deal", "1/2", "9D"],
        *second,
        ["deal", "D", "8C"],
    ]
    return round_(1, [bet("1", 20, "P1"), bet("3", 20, "P1")], actions)


def test_one_pair_of_aces_per_box_or_per_player(cli, tmp_path):
    # 2020 wording: « le joueur ne peut séparer qu'une seule paire d'as ». Box 3 splits its aces too
    # (8♥ and K♦: 19 and 21). Per box (default): each box split one pair: no finding. Per player: P1's
    # second pair of aces: a finding at box 3's split.
    split_too = [["split", "3", 20], ["deal", "3", "8H"], ["deal", "3/2", "KD"]]
    paid = [["pay", "3/2", 20], ["pay", "3", 20], ["pay", "1/2", 20], ["pay", "1", 20]]
    record = aces_on_two_boxes(split_too)
    record["actions"] += paid
    records = [table(), shoe(), record]
    log = tmp_path / "aces.jsonl"
    for version in (V2020, V2024):
        assert findings(cli, log, records, version) == []
        found = findings(cli, log, records, version, "--reading", "aces-per-box-or-player=per-player")
        assert [(rule, stake) for rule, stake, _ in found] == [("fr/blackjack/split-aces-limit", "3")]


def test_aces_split_twice_per_box_or_per_player(cli, tmp_path):
    # 2019 wording: « Le joueur peut séparer les as deux fois ». Box 1 splits once (above); box 3 splits
    # A♥ A♣, its first hand draws A♦ and splits again, then the three hands draw 8♥, K♦, 9♠: box 3 split
    # aces twice, P1 three times. Per box (default): no box split more than twice. Per player: P1's third
    # split of aces is one too many.
    box3 = [
        ["split", "3", 20],
        ["deal", "3", "AD"],
        ["split", "3", 20],
        ["deal", "3", "8H"],
        ["deal", "3/3", "KD"],
        ["deal", "3/2", "9S"],
    ]
    paid = [["pay", "3/3", 20], ["pay", "3/2", 20], ["pay", "3", 20], ["pay", "1/2", 20], ["pay", "1", 20]]
    record = aces_on_two_boxes(box3)
    record["actions"] += paid
    log = tmp_path / "aces2019.jsonl"
    assert findings(cli, log, [table(), shoe(), record], V2019) == []
    found = findings(
        cli, log, [table(), shoe(), record], V2019, "--reading", "aces-per-box-or-player=per-player"
    )
    assert [(rule, stake) for rule, stake, _ in found] == [("fr/blackjack/split-aces-limit", "3")]


# ---------------------------------------------------------------- even money at the French table
@pytest.mark.parametrize("version", [V2013, V2020])
def test_even_money_at_the_french_table_is_a_rule_not_a_reading(cli, tmp_path, version):
    # Box 1 (20): A♠ K♦, a blackjack, against the dealer's A♣; the log writes even money and pays 20 at
    # once; the dealer draws 7♥ (18). No French wording offers even money (against his ace 2° offers
    # « cette assurance »): one finding at the even_money (no-even-money). The blackjack stays on the
    # layout: paid before the dealer's point (« après avoir déterminé et annoncé un point », 1°, al. 5),
    # and short: « 3 pour 2 » (1°, al. 7) on 20 is 30, 20 was paid.
    actions = [
        ["deal", "1", "AS"],
        ["deal", "D", "AC"],
        ["deal", "1", "KD"],
        ["even_money", "1"],
        ["pay", "1", 20],
        ["deal", "D", "7H"],
    ]
    records = [table(), shoe(), round_(1, [bet("1", 20)], actions)]
    log = tmp_path / "even.jsonl"
    found = findings(cli, log, records, version)
    assert [(rule, stake) for rule, stake, _ in found] == [
        ("fr/blackjack/no-even-money", "1"),
        ("fr/blackjack/settlement-after-dealer-point", "1"),
        ("fr/blackjack/blackjack-pays-3-2", "1"),
    ]
    assert found[-1][2] == {"pay": "30"}
    # It is no reading any more: asking for one is refused, with the readings the version has.
    result = cli(
        "check", str(log), "--ruleset", version, "--reading", "even-money=as-insurance", "--no-config"
    )
    assert result.returncode == 2 and "even-money" in result.stderr


# ---------------------------------------------------------------- JP1: the consolation, three 7s split
METERS = ("15230.00", "2410.50")


def test_jp1_consolation_per_box_or_per_player(cli, tmp_path):
    # P1 plays boxes 1 and 3, a JP1 stake of 1 on each, each gone into the jackpot before the cards
    # (reading jp1-stake, default kept: the log writes each gain net of it). Box 1: 7♥ 7♥ and a hit 7♥:
    # three 7s of one suit, the main jackpot (approved, paid the meter less the stake). Box 3: K♠ 8♦, no
    # seven. The dealer 9♣ 8♣: 17; both boxes win 20. Per player (default, issue 39: « l'un des joueurs »,
    # « Ce dernier »): box 3 is P1's, who was dealt the best hand: no consolation, the stake is lost. Per
    # box: box 3 is not « ce dernier », the box dealt it: « Lot de consolation : 100 pour 1 », its only
    # gain, 99 net.
    actions = [
        ["deal", "1", "7H"],
        ["deal", "3", "KS"],
        ["deal", "D", "9C"],
        ["deal", "1", "7H"],
        ["deal", "3", "8D"],
        ["hit", "1", "7H"],
        ["stand", "1"],
        ["stand", "3"],
        ["deal", "D", "8C"],
        ["pay", "3", 20],
        ["pay", "1", 20],
        ["pay", "3:jp1", 99],
        ["approve", "1:jp1", "S-12"],
        ["pay", "1:jp1", "15229.00"],
    ]
    bets = [bet("1", 20, "P1"), bet("1:jp1", 1, "P1"), bet("3", 20, "P1"), bet("3:jp1", 1, "P1")]
    records = [table(), shoe(), jackpot(*METERS), round_(1, bets, actions)]
    log = tmp_path / "consolation.jsonl"
    assert findings(cli, log, records, V2020, "--reading", "jp1-consolation=per-box") == []
    found = findings(cli, log, records, V2020)
    assert found == [("fr/blackjack/jp1-paytable", "3:jp1", {"lose": "1"})]
    # The same hands, box 3 another player's: a consolation under either reading.
    bets[2:] = [bet("3", 20, "P3"), bet("3:jp1", 1, "P3")]
    records = [table(), shoe(), jackpot(*METERS), round_(1, bets, actions)]
    assert findings(cli, log, records, V2020) == []


def test_jp1_three_sevens_across_a_split(cli, tmp_path):
    # Box 1 (20, JP1 1): 7♠, the dealer's 9♣, 7♥; the box splits (20 more) and its first hand is dealt
    # 7♦ (14), its second K♣ (17). The dealer draws 8♣: 17: the 14 loses, the 17 ties. The player's first
    # three cards 7♠ 7♥ 7♦ are three 7s of two colours. Across the split (default): « Trois 7 », 250 pour
    # 1: 249 net of the stake in the jackpot (reading jp1-stake). One hand: no hand holds them; his first two
    # cards are « Deux 7 », 25 pour 1: 24 net.
    actions = [
        ["deal", "1", "7S"],
        ["deal", "D", "9C"],
        ["deal", "1", "7H"],
        ["split", "1", 20],
        ["deal", "1", "7D"],
        ["stand", "1"],
        ["deal", "1/2", "KC"],
        ["stand", "1/2"],
        ["deal", "D", "8C"],
        ["push", "1/2"],
        ["lose", "1"],
        ["pay", "1:jp1", 249],
    ]
    records = [table(), shoe(), jackpot(*METERS), round_(1, [bet("1", 20), bet("1:jp1", 1)], actions)]
    log = tmp_path / "sevens.jsonl"
    one_hand = ("--reading", "jp1-three-sevens-split=one-hand")
    assert findings(cli, log, records, V2020) == []
    [(rule, _, expected)] = findings(cli, log, records, V2020, *one_hand)
    assert (rule, expected) == ("fr/blackjack/jp1-paytable", {"pay": "24", "line": "Deux « 7 »"})
    records[-1]["actions"][-1] = ["pay", "1:jp1", 24]
    assert findings(cli, log, records, V2020, *one_hand) == []
    [(rule, _, expected)] = findings(cli, log, records, V2020)
    assert (rule, expected) == ("fr/blackjack/jp1-paytable", {"pay": "249", "line": "Trois « 7 »"})


# ---------------------------------------------------------------- --all-readings: readings that combine
def test_all_readings_judges_the_readings_that_change_one_round_together(cli, tmp_path):
    # Box 1 (20, 2 on the 2 + 1): K♥, the dealer's A♦, 2♥; the 2 + 1 paid 60. The box stands on 12 and
    # the dealer's A♦ 6♥ (17) collects it. Read as applied (ace at either end, « couleur » the suit):
    # K-A-2 is no run and ♥♦♥ no flush: the stake is lost, 60 paid is a finding. The ace wrapping round
    # alone: a « TIERCE », 10 fois: 20. « Couleur » red or black alone: « COULEUR », 5 fois: 10. Both: a
    # « TIERCE FLUSH », 30 fois la mise: 60, right. Every run of one reading changed gives the finding;
    # only the two together drop it: it rests on both readings as applied.
    actions = [
        ["deal", "1", "KH"],
        ["deal", "D", "AD"],
        ["deal", "1", "2H"],
        ["pay", "1:two_plus_one", 60],
        ["stand", "1"],
        ["deal", "D", "6H"],
        ["lose", "1"],
    ]
    log = tmp_path / "combined.jsonl"
    write_log(log, [table(), shoe(), round_(1, [bet("1", 20), bet("1:two_plus_one", 2)], actions)])
    args = ("check", str(log), "--ruleset", V2020, "--all-readings", "--no-config", "-q")
    result = cli(*args, "-f", "json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    [finding] = data["findings"]
    assert (finding["rule"], finding["expected"], finding["firm"]) == (
        "fr/blackjack/two-plus-one-paytable",
        {"lose": "2"},
        False,
    )
    assert finding["rests_on"] == [
        {"reading": "meme-couleur", "alternative": "suit"},
        {"reading": "two-plus-one-ace", "alternative": "low-or-high"},
    ]
    assert finding["message"].endswith(
        "(under reading `meme-couleur` = `suit`, `two-plus-one-ace` = `low-or-high`)"
    )
    # Every run says which readings it changed: the one under the readings applied, one per other
    # alternative, and the three combinations of red-or-black with another place of the ace.
    judged = {
        tuple((c["reading"], c["alternative"]) for c in run["changed"]): run["findings"]
        for run in data["summary"]["readings_judged"]
    }
    assert judged[()] == 1 and judged[(("two-plus-one-ace", "wrapping"),)] == 1
    combined = {k: v for k, v in judged.items() if len(k) > 1}
    assert combined == {
        (("meme-couleur", "red-or-black"), ("two-plus-one-ace", "low-only")): 1,
        (("meme-couleur", "red-or-black"), ("two-plus-one-ace", "high-only")): 1,
        (("meme-couleur", "red-or-black"), ("two-plus-one-ace", "wrapping")): 0,
    }
    text = cli(*args).stdout
    assert "meme-couleur = red-or-black, two-plus-one-ace = wrapping: 0 findings" in text
