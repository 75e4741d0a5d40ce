"""The readings the fourth reading of the texts declared (issue 39): for each, a log written from the text
that gives different findings under its alternatives. What each alternative must give is worked out from
the sentence quoted in the comment beside each log; none is copied from the program's output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from logbuilders import shoe_record, table_record

V2013, V2020, V2024 = "fr/blackjack@2013-12-15", "fr/blackjack@2020-05-25", "fr/blackjack@2024-11-01"
ONTARIO = "on/fair-blackjack"


def write(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def found(cli: Any, path: Path, records: list[dict[str, Any]], version: str, *reading: str) -> list[tuple]:
    """(rule, stake) of each finding of `records` judged by `version`, under `reading` (ID=ALTERNATIVE)."""
    write(path, records)
    args = ["check", str(path), "--ruleset", version, "--format", "json", "--no-config", "-q"]
    for choice in reading:
        args += ["--reading", choice]
    result = cli(*args)
    assert result.returncode in (0, 1), result.stderr
    return [(f["rule"], f["stake"]) for f in json.loads(result.stdout)["findings"]]


def bet(stake: str, amount: Any, player: str, seated: bool = True) -> dict[str, Any]:
    return {"stake": stake, "amount": amount, "player": player, "seated": seated}


def round_(day: str, bets: list[dict[str, Any]], actions: list[list[Any]], n: int = 1) -> dict[str, Any]:
    return {
        "type": "round",
        "round": f"R{n}",
        "shoe": "S1",
        "at": f"{day}T21:0{n}:00+01:00",
        "bets": bets,
        "actions": actions,
    }


def blackjack(day: str, *rounds: dict[str, Any], **table: Any) -> list[dict[str, Any]]:
    return [table_record(day, **table), shoe_record(day), *rounds]


# ---------------------------------------------------------------- 2°, al. 2: « dès qu'ils ont tiré »
def test_insurance_closed_by_the_players_own_card_or_any(cli, tmp_path):
    # Box 1 (20): 10♠ 6♦; box 5 (20): 9♣ 9♥; the dealer's A♣. Box 1 hits 10♥ (26, collected at once);
    # box 5 then insures for 10 and stands; the dealer draws 7♦ (A-7, 18): the insurance collected, box 5's
    # 18 returned. « qui ne peuvent plus s'assurer dès qu'ils ont tiré une autre carte »: box 5 has drawn
    # nothing (own card, default): clean; any card at the table: box 1 had drawn, box 5's insurance late.
    actions = [
        ["deal", "1", "TS"],
        ["deal", "5", "9C"],
        ["deal", "D", "AC"],
        ["deal", "1", "6D"],
        ["deal", "5", "9H"],
        ["hit", "1", "TH"],
        ["lose", "1"],
        ["insurance", "5", 10],
        ["stand", "5"],
        ["deal", "D", "7D"],
        ["lose", "5:insurance"],
        ["push", "5"],
    ]
    records = blackjack("2016-03-14", round_("2016-03-14", [bet("1", 20, "P1"), bet("5", 20, "P5")], actions))
    log = tmp_path / "insurance.jsonl"
    assert found(cli, log, records, V2013) == []
    assert found(cli, log, records, V2013, "insurance-closed-by=any-card") == [
        ("fr/blackjack/insurance-before-drawing", "5:insurance")
    ]


# ---------------------------------------------------------------- 3°, al. 5: pairs per box or per player
def test_split_limit_per_box_or_per_player(cli, tmp_path):
    # P1 plays boxes 1 and 2, each dealt 8-8 against the dealer's 6♥, each split once (max_split_hands: 2,
    # two hands). Per box (default): each box reaches two hands, within the limit. Per player: his second
    # split is a third hand of his, over the limit « que peut constituer un même joueur ».
    actions = [
        ["deal", "1", "8S"],
        ["deal", "2", "8D"],
        ["deal", "D", "6H"],
        ["deal", "1", "8C"],
        ["deal", "2", "8H"],
        ["split", "1", 20],
        ["deal", "1", "TC"],
        ["stand", "1"],
        ["deal", "1/2", "TD"],
        ["stand", "1/2"],
        ["split", "2", 20],
        ["deal", "2", "TH"],
        ["stand", "2"],
        ["deal", "2/2", "TS"],
        ["stand", "2/2"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["push", "2/2"],
        ["push", "2"],
        ["push", "1/2"],
        ["push", "1"],
    ]
    house = tmp_path / "house.yaml"
    house.write_text(
        "format: house-rules/1\ntables:\n  BJ-03:\n"
        "    ruleset: fr/blackjack\n    options: {max_split_hands: 2}\n",
        encoding="utf-8",
    )
    records = blackjack("2016-03-14", round_("2016-03-14", [bet("1", 20, "P1"), bet("2", 20, "P1")], actions))
    log = tmp_path / "pairs.jsonl"
    write(log, records)

    def run(*reading: str) -> list[tuple]:
        args = [
            "check",
            str(log),
            "--ruleset",
            V2013,
            "--house",
            str(house),
            "-f",
            "json",
            "--no-config",
            "-q",
        ]
        for choice in reading:
            args += ["--reading", choice]
        result = cli(*args)
        assert result.returncode in (0, 1), result.stderr
        return [(f["rule"], f["stake"]) for f in json.loads(result.stdout)["findings"]]

    assert run() == []
    assert run("split-limit-per-box-or-player=per-player") == [("fr/blackjack/split-max-hands", "2")]


# ---------------------------------------------------------------- 3°, al. 2: the second cards of a split
def test_split_second_cards_either_or_together(cli, tmp_path):
    # Box 1 (20): 8♠ 8♣ against the dealer's 6♥, split: hand 1 dealt 3♦, hits 10♠ (21) and stands, then
    # hand 1/2 is dealt 10♥ and stands (18). The dealer draws 10♣ 2♦ (18): 21 paid, 18 returned. Either
    # (default): the second card was dealt, not asked for: clean. Together (« lors de la première
    # distribution », one distribution): hand 1 played while 1/2 still waited: one finding at its hit.
    actions = [
        ["deal", "1", "8S"],
        ["deal", "D", "6H"],
        ["deal", "1", "8C"],
        ["split", "1", 20],
        ["deal", "1", "3D"],
        ["hit", "1", "TS"],
        ["stand", "1"],
        ["deal", "1/2", "TH"],
        ["stand", "1/2"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["push", "1/2"],
        ["pay", "1", 20],
    ]
    records = blackjack("2016-03-14", round_("2016-03-14", [bet("1", 20, "P1")], actions))
    log = tmp_path / "split.jsonl"
    assert found(cli, log, records, V2013) == []
    together = found(cli, log, records, V2013, "split-second-cards=together")
    assert together[0] == ("fr/blackjack/split-second-cards-together", "1")
    # Both hands dealt first, then played: clean under both.
    records[-1]["actions"] = [
        ["deal", "1", "8S"],
        ["deal", "D", "6H"],
        ["deal", "1", "8C"],
        ["split", "1", 20],
        ["deal", "1", "3D"],
        ["deal", "1/2", "TH"],
        ["hit", "1", "TS"],
        ["stand", "1"],
        ["stand", "1/2"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["push", "1/2"],
        ["pay", "1", 20],
    ]
    assert found(cli, log, records, V2013, "split-second-cards=together") == []


# ---------------------------------------------------------------- 55-5: the minimum, per box or per bettor
def test_minimum_per_box_or_per_bettor(cli, tmp_path):
    # Box 1: P1 seated with 20, P9 standing behind him with 5, at a table of 10 to 1000. K♠ Q♦ (20) against
    # the dealer's 6♥ 10♣ 2♦ (18): the box's 25 paid. Per box (default): 25 is within 10 to 1000. Per
    # bettor (« Les mises des joueurs … dans les limites du minimum »): P9's 5 is under the minimum.
    actions = [
        ["deal", "1", "KS"],
        ["deal", "D", "6H"],
        ["deal", "1", "QD"],
        ["stand", "1"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["pay", "1", 25],
    ]
    day = "2025-03-14"
    records = blackjack(day, round_(day, [bet("1", 20, "P1"), bet("1", 5, "P9", seated=False)], actions))
    log = tmp_path / "minimum.jsonl"
    assert found(cli, log, records, V2024) == []
    assert found(cli, log, records, V2024, "minimum-per-bettor-or-box=per-bettor") == [
        ("fr/blackjack/bet-within-limits", "1")
    ]


# ---------------------------------------------------------------- 55-5 and its NOTA: a table open that night
def test_a_table_opened_before_55_5_came_into_force(cli, tmp_path):
    # Table opened on 31 October 2024 at 10 to 1500 (150 times: no rule of the wording then in force judges
    # the multiples); one round on 1 November 2024 (art. 55-5 in force). At the opening (default): the table
    # was opened lawfully, nothing to find. From the entry into force: its first round under the new text
    # finds the maximum outside 50, 100 or 200 times.
    actions = [
        ["deal", "1", "KS"],
        ["deal", "D", "6H"],
        ["deal", "1", "QD"],
        ["stand", "1"],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        ["pay", "1", 20],
    ]
    records = [
        table_record("2024-10-31", maximum=1500),
        shoe_record("2024-10-31"),
        {**round_("2024-10-31", [bet("1", 20, "P1")], actions), "at": "2024-11-01T00:30:00+01:00"},
    ]
    log = tmp_path / "opened.jsonl"
    assert found(cli, log, records, "fr/blackjack") == []
    assert found(cli, log, records, "fr/blackjack", "maximum-at-entry-into-force=from-entry-into-force") == [
        ("fr/blackjack/maximum-at-entry-into-force", None)
    ]
    # Opened on 1 November itself at 150 times: max-multiple-of-minimum at the table record, under both.
    opened_after = [
        table_record("2024-11-01", maximum=1500),
        shoe_record("2024-11-01"),
        round_("2024-11-01", [bet("1", 20, "P1")], actions),
    ]
    assert [r for r, _ in found(cli, log, opened_after, "fr/blackjack")] == [
        "fr/blackjack/max-multiple-of-minimum"
    ]
    assert [
        r
        for r, _ in found(
            cli, log, opened_after, "fr/blackjack", "maximum-at-entry-into-force=from-entry-into-force"
        )
    ] == ["fr/blackjack/max-multiple-of-minimum"]


# ---------------------------------------------------------------- 8°, al. 7: the cent of a shared jackpot
@pytest.mark.parametrize("version", [V2020, V2024])
def test_a_shared_jackpot_rounded_down_or_to_the_nearest_cent(cli, tmp_path, version):
    # Boxes 1, 3 and 5 each dealt three 7s of one suit (♥, ♦, ♠): the main jackpot, 15230.00, shared by the
    # three (« partagé équitablement entre elles »): 5076.666…; each stake of 1 already in the jackpot
    # (reading jp1-stake): net 5075.66 rounded down (default), 5075.67 to the nearest cent.
    sevens = {"1": "7H", "3": "7D", "5": "7S"}
    actions: list[list[Any]] = [["deal", b, c] for b, c in sevens.items()] + [["deal", "D", "9C"]]
    actions += [["deal", b, c] for b, c in sevens.items()]
    for b, c in sevens.items():
        actions += [["hit", b, c], ["stand", b]]
    actions += [["deal", "D", "8C"], ["pay", "5", 20], ["pay", "3", 20], ["pay", "1", 20]]

    def paid(share: str) -> list[list[Any]]:
        return [
            x for b in ("5", "3", "1") for x in (["approve", f"{b}:jp1", "S-12"], ["pay", f"{b}:jp1", share])
        ]

    bets = [x for b in sevens for x in (bet(b, 20, f"P{b}"), bet(f"{b}:jp1", 1, f"P{b}"))]
    day = "2025-03-14" if version == V2024 else "2021-03-14"
    jackpot = {"type": "jackpot", "at": f"{day}T20:03:00+01:00", "main": "15230.00", "secondary": "2410.50"}

    def records(share: str) -> list[dict[str, Any]]:
        return [table_record(day), shoe_record(day), jackpot, round_(day, bets, [*actions, *paid(share)])]

    log = tmp_path / "shared.jsonl"
    nearest = "jp1-shared-jackpot-cents=nearest"
    assert found(cli, log, records("5075.66"), version) == []
    assert len(found(cli, log, records("5075.66"), version, nearest)) == 3
    assert found(cli, log, records("5075.67"), version, nearest) == []
    assert len(found(cli, log, records("5075.67"), version)) == 3


# ---------------------------------------------------------------- 8°, al. 8: who triggers the consolations
@pytest.mark.parametrize("version", [V2020, V2024])
def test_a_consolation_triggered_by_any_player_or_a_jp1_bettor_only(cli, tmp_path, version):
    # Box 1 (P1) bets 20 and no JP1; it is dealt 7♠ 7♠ and hits 7♠: three 7s of one suit, the main jackpot's
    # hand. Box 3 (P3) bets 20 and 1 on JP1, dealt 10♣ 9♦ (no seven), and stands; the dealer 9♣ 8♣ (17):
    # both main stakes paid 20. « Les lots de consolation sont remportés par tous les joueurs ayant misé
    # sur l'option JP1 dès lors que l'un des joueurs à la table se voit distribuer l'une des deux meilleures
    # mains »: read as any player at the table (default), P1's hand wins P3 the consolation, 100 pour 1 net
    # of the stake already in the jackpot (reading jp1-stake): 99, so paying it is clean and collecting the
    # stake is one finding; read as a JP1 bettor only, P1 bet nothing: no consolation, the other way round.
    actions: list[list[Any]] = [
        ["deal", "1", "7S"],
        ["deal", "3", "TC"],
        ["deal", "D", "9C"],
        ["deal", "1", "7S"],
        ["deal", "3", "9D"],
        ["hit", "1", "7S"],
        ["stand", "1"],
        ["stand", "3"],
        ["deal", "D", "8C"],
        ["pay", "3", 20],
        ["pay", "1", 20],
    ]
    bets = [bet("1", 20, "P1"), bet("3", 20, "P3"), bet("3:jp1", 1, "P3")]
    day = "2025-03-14" if version == V2024 else "2021-03-14"
    jackpot = {"type": "jackpot", "at": f"{day}T20:03:00+01:00", "main": "15230.00", "secondary": "2410.50"}

    def records(last: list[Any]) -> list[dict[str, Any]]:
        return [table_record(day), shoe_record(day), jackpot, round_(day, bets, [*actions, last])]

    log = tmp_path / "trigger.jsonl"
    bettor = "jp1-consolation-trigger=jp1-bettor"
    assert found(cli, log, records(["pay", "3:jp1", 99]), version) == []
    assert found(cli, log, records(["lose", "3:jp1"]), version, bettor) == []
    assert [s for _r, s in found(cli, log, records(["lose", "3:jp1"]), version)] == ["3:jp1"]
    assert [s for _r, s in found(cli, log, records(["pay", "3:jp1", 99]), version, bettor)] == ["3:jp1"]


# ---------------------------------------------------------------- Ontario: the licence's own readings
def ontario(*rounds: dict[str, Any]) -> list[dict[str, Any]]:
    day = "2025-08-23"
    table = table_record(
        day, table="ON-01", ruleset=ONTARIO, minimum=1, maximum=5, at=f"{day}T19:00:00-04:00"
    )
    shoe = shoe_record(day, burn=["9H"], backs=[6], cut_card_behind=80, at=f"{day}T19:00:30-04:00")
    return [table, shoe, *({**r, "at": f"{day}T19:01:00-04:00"} for r in rounds)]


def test_ontario_insurance_half_exactly_or_at_most(cli, tmp_path):
    # Box 1 (4): 10♠ 9♦ against the donneur's A♣; an insurance of 1 (a quarter, not half of 4); his second
    # card 7♦ (18): the insurance collected, the 19 paid 4. « correspondre à la moitié (½) »: exactly half
    # (default): 1 is not 2, a finding; up to half: within it.
    actions = [
        ["deal", "1", "TS"],
        ["deal", "D", "AC"],
        ["deal", "1", "9D"],
        ["insurance", "1", 1],
        ["stand", "1"],
        ["deal", "D", "7D"],
        ["lose", "1:insurance"],
        ["pay", "1", 4],
    ]
    records = ontario(round_("2025-08-23", [bet("1", 4, "P1")], actions))
    log = tmp_path / "half.jsonl"
    assert found(cli, log, records, ONTARIO) == [("on/fair-blackjack/insurance-half-stake", "1:insurance")]
    assert found(cli, log, records, ONTARIO, "licence-insurance-half=up-to-half") == []


def test_ontario_standing_bettors(cli, tmp_path):
    # Box 1: P1 seated with 2, P9 standing behind him with 2. 10♠ 9♦ against 7♣ 10♦ (17): the box's 4 paid.
    # « chaque joueur de blackjack assis à la table parie »: the licence says nothing else (default): clean;
    # read as the seated players only: P9's bet is a finding.
    actions = [
        ["deal", "1", "TS"],
        ["deal", "D", "7C"],
        ["deal", "1", "9D"],
        ["stand", "1"],
        ["deal", "D", "TD"],
        ["pay", "1", 4],
    ]
    records = ontario(round_("2025-08-23", [bet("1", 2, "P1"), bet("1", 2, "P9", seated=False)], actions))
    log = tmp_path / "standing.jsonl"
    assert found(cli, log, records, ONTARIO) == []
    assert found(cli, log, records, ONTARIO, "licence-standing-bettors=seated-only") == [
        ("on/fair-blackjack/seated-players-bet", "1")
    ]


def test_ontario_settlement_order_and_dealers_card(cli, tmp_path):
    # Box 1: 10♥ 6♦ (16), box 3: 10♠ K♣ (20); the donneur takes his 7♣ after the second round, then 10♦ (17).
    # Section 3's own order: box 1 collected, then box 3 paid. The licence orders no settlement and does not
    # place the dealer's card (defaults): clean. Read with the arrêté's place for his card: one warning at
    # it; with section 6's order of the cards applied to the payments: box 3 after box 1, one warning.
    actions = [
        ["deal", "1", "TH"],
        ["deal", "3", "TS"],
        ["deal", "1", "6D"],
        ["deal", "3", "KC"],
        ["deal", "D", "7C"],
        ["stand", "1"],
        ["stand", "3"],
        ["deal", "D", "TD"],
        ["lose", "1"],
        ["pay", "3", 2],
    ]
    records = ontario(round_("2025-08-23", [bet("1", 2, "P1"), bet("3", 2, "P3")], actions))
    log = tmp_path / "order.jsonl"
    assert found(cli, log, records, ONTARIO) == []
    assert found(cli, log, records, ONTARIO, "licence-settlement-order=losers-first") == []
    assert found(cli, log, records, ONTARIO, "licence-settlement-order=right-to-left") == [
        ("on/fair-blackjack/settlement-order", "3")
    ]
    early = found(cli, log, records, ONTARIO, "licence-dealer-card=after-first-round")
    assert early and {rule for rule, _ in early} == {"on/fair-blackjack/deal-order"}
