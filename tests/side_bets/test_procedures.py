"""Procedural points of the side bets beyond the per-rule fixtures (tests/fixtures/rules/fr/*/<rule>/):
several holders of the queens of hearts, hyper bets over several boxes, JP1 meters after a jackpot,
approvals, stakes placed late, never settled or settled twice. Expected findings come from the text."""

from __future__ import annotations

from typing import Any

import pytest
from logbuilders import one_box_against_dealer_18, split_after_a_lucky_ladies_win
from sb_logs import BJ_001, BJ_ALL, bet, check, jackpot, round_, shoe, table
from worded import InWords


def fields(found: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return InWords((f["rule"], f["kind"], f["stake"], f["expected"], f["actual"]) for f in found)


# ---------------------------------------------------------------- 5° b): queens of hearts
@pytest.mark.parametrize("version", BJ_ALL)
def test_two_holders_of_queens_of_hearts_against_black_jack(tmp_path, version):
    # "Lorsque deux voire trois joueurs obtiennent simultanément une paire de dames de cœur …, le croupier
    # observe le même mode opératoire": both held past the dealer's second card; his A♣ K♦ is black jack:
    # both main stakes collected first, then each pair paid 1000 for 1. Box 4's K♠ Q♦ (4 for 1) is paid
    # with the others right after the deal, box 2's 9♣ 8♣ collected before it.
    bets = [
        bet("1", 10),
        bet("1:lucky_ladies", 2),
        bet("2", 10),
        bet("2:lucky_ladies", 2),
        bet("3", 10),
        bet("3:lucky_ladies", 1),
        bet("4", 10),
        bet("4:lucky_ladies", 5),
    ]
    deal = [
        ["deal", "1", "QH"],
        ["deal", "2", "9C"],
        ["deal", "3", "QH"],
        ["deal", "4", "KS"],
        ["deal", "D", "AC"],
        ["deal", "1", "QH"],
        ["deal", "2", "8C"],
        ["deal", "3", "QH"],
        ["deal", "4", "QD"],
        ["lose", "2:lucky_ladies"],
        ["pay", "4:lucky_ladies", 20],
        ["stand", "1"],
        ["stand", "2"],
        ["stand", "3"],
        ["stand", "4"],
        ["deal", "D", "KD"],
        ["lose", "4"],
        ["lose", "3"],
        ["lose", "2"],
        ["lose", "1"],
    ]
    good = round_(1, bets, [*deal, ["pay", "3:lucky_ladies", 1000], ["pay", "1:lucky_ladies", 2000]])
    assert check(tmp_path, [table(), shoe(), good], version)[0] == []
    # The first holder paid with the others (in their order, after box 4), before the dealer's second
    # card: his bet alone is flagged.
    early = round_(
        1,
        bets,
        [
            *deal[:9],
            ["lose", "2:lucky_ladies"],
            ["pay", "4:lucky_ladies", 20],
            ["pay", "1:lucky_ladies", 2000],
            *deal[11:],
            ["pay", "3:lucky_ladies", 1000],
        ],
    )
    assert fields(check(tmp_path, [table(), shoe(), early], version)[0]) == [
        (
            "fr/blackjack/lucky-ladies-queens-of-hearts",
            "procedure",
            "1:lucky_ladies",
            {"dealer.cards": ">= 2"},
            {"dealer.cards": 1},
        )
    ]


@pytest.mark.parametrize("version", BJ_ALL)
def test_queens_of_hearts_against_a_low_card_are_paid_with_the_others(tmp_path, version):
    # The exception is for a dealer's "as, roi, dame, valet ou 10": against his 6♥ the pair is paid at
    # once, 125 for 1 on table A; held to the end, it is a late lucky ladies settlement.
    def play(ll: list[list[Any]], late: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            [bet("1", 20), bet("1:lucky_ladies", 5)],
            one_box_against_dealer_18(side=ll, before_main=late, cards=("QH", "QH")),
        )

    assert check(tmp_path, [table(), shoe(), play([["pay", "1:lucky_ladies", 625]], [])], version)[0] == []
    found, _ = check(tmp_path, [table(), shoe(), play([], [["pay", "1:lucky_ladies", 625]])], version)
    assert fields(found) == [
        (
            "fr/blackjack/lucky-ladies-settlement-time",
            "procedure",
            "1:lucky_ladies",
            {"side.play_started": False},
            {"side.play_started": True},
        )
    ]


@pytest.mark.parametrize("version", BJ_ALL)
def test_split_after_a_win_is_allowed_unless_the_house_forbids_it(tmp_path, version):
    record = round_(1, [bet("1", 20), bet("1:lucky_ladies", 5)], split_after_a_lucky_ladies_win())
    assert check(tmp_path, [table(), shoe(), record], version)[0] == []
    found, _ = check(tmp_path, [table(), shoe(), record], version, {"lucky_ladies.no_split_after_win": True})
    assert [f["rule"] for f in found] == ["fr/blackjack/lucky-ladies-no-split-after-win"]


# ---------------------------------------------------------------- 6°: hyper black jack over several boxes
@pytest.mark.parametrize("version", BJ_001)
def test_hyper_order_across_boxes(tmp_path, version):
    # Dealer 6♣ 10♦ 3♥ = 19. Box 2 (K♠ Q♥ = 20) paid, box 5 (10♠ 7♦ = 17) collected. Hyper: box 5 on
    # « 19 » (won, 25), box 2 on « BUST » (lost) and « 19 » (won, 5 for 1 on 2: 10).
    bets = [bet("2", 20), bet("2:hyper:bust", 5), bet("2:hyper:19", 2), bet("5", 20), bet("5:hyper:19", 5)]
    deal = [
        ["deal", "2", "KS"],
        ["deal", "5", "TS"],
        ["deal", "D", "6C"],
        ["deal", "2", "QH"],
        ["deal", "5", "7D"],
        ["stand", "2"],
        ["stand", "5"],
        ["deal", "D", "TD"],
        ["deal", "D", "3H"],
    ]
    good = round_(
        1,
        bets,
        [
            *deal,
            ["lose", "2:hyper:bust"],
            ["lose", "5"],
            ["pay", "2", 20],
            ["pay", "5:hyper:19", 25],
            ["pay", "2:hyper:19", 10],
        ],
    )
    assert check(tmp_path, [table(), shoe(), good], version)[0] == []
    # Box 5's hyper paid between the two main stakes: the black-jack settlement was not over.
    bad = round_(
        1,
        bets,
        [
            *deal,
            ["lose", "2:hyper:bust"],
            ["lose", "5"],
            ["pay", "5:hyper:19", 25],
            ["pay", "2", 20],
            ["pay", "2:hyper:19", 10],
        ],
    )
    assert fields(check(tmp_path, [table(), shoe(), bad], version)[0]) == [
        (
            "fr/blackjack/hyper-blackjack-settlement-order",
            "procedure",
            "5:hyper:19",
            {
                "condition": '(side.verb == "lose" and side.main_settled == 0)'
                ' or (side.verb != "lose" and side.main_unsettled == 0)'
            },
            {"side.verb": "pay", "side.main_settled": 1, "side.main_unsettled": 1},
        )
    ]


@pytest.mark.parametrize("version", BJ_001)
def test_hyper_with_every_box_bust_needs_the_dealers_result(tmp_path, version):
    # Box 1 busts (10♠ 6♦ 9♣) and is collected at once; the hyper bet on « 17 » still waits for the
    # dealer's final result: 6♣ 10♦ A♥ = 17, paid 4 for 1 after the (already settled) main stake.
    record = round_(
        1,
        [bet("1", 20), bet("1:hyper:17", 5)],
        [
            ["deal", "1", "TS"],
            ["deal", "D", "6C"],
            ["deal", "1", "6D"],
            ["hit", "1", "9C"],
            ["lose", "1"],
            ["deal", "D", "TD"],
            ["deal", "D", "AH"],
            ["pay", "1:hyper:17", 20],
        ],
    )
    assert check(tmp_path, [table(), shoe(), record], version)[0] == []


# ---------------------------------------------------------------- 7°: 2 + 1 cartes during the deal
@pytest.mark.parametrize("version", BJ_001)
def test_two_plus_one_settled_as_each_box_gets_its_second_card(tmp_path, version):
    # "Après que le joueur a reçu sa deuxième carte": box 1's bet settled before box 3's second card.
    record = round_(
        1,
        [bet("1", 20), bet("1:two_plus_one", 2), bet("3", 20)],
        [
            ["deal", "1", "9H"],
            ["deal", "3", "KS"],
            ["deal", "D", "JH"],
            ["deal", "1", "TH"],
            ["pay", "1:two_plus_one", 60],
            ["deal", "3", "QD"],
            ["stand", "1"],
            ["stand", "3"],
            ["deal", "D", "7C"],
            ["pay", "3", 20],
            ["pay", "1", 20],
        ],
    )
    assert check(tmp_path, [table(), shoe(), record], version)[0] == []


# ---------------------------------------------------------------- 8°: JP1
def sevens_round(n: int, approve: list[list[Any]], pay: str = "15230.00") -> dict[str, Any]:
    # Box 1: 7♥ 7♥ 7♥, the main jackpot; box 3 K♠ 8♦ with JP1: the 100-for-1 consolation.
    return round_(
        n,
        [bet("1", 20), bet("1:jp1", 1), bet("3", 20), bet("3:jp1", 1)],
        [
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
            ["pay", "3:jp1", 100],
            *approve,
            ["pay", "1:jp1", pay],
        ],
    )


@pytest.mark.parametrize("version", BJ_001)
def test_an_approval_of_another_stake_does_not_count(tmp_path, version):
    record = sevens_round(1, [["approve", "3:jp1", "S-12"]])
    assert fields(check(tmp_path, [table(), shoe(), jackpot("15230.00", "2410.50"), record], version)[0]) == [
        (
            "fr/blackjack/jp1-supervisor-approval",
            "procedure",
            "1:jp1",
            {"side.approved": True},
            {"side.approved": False},
        )
    ]


@pytest.mark.parametrize("version", BJ_001)
def test_meters_after_a_jackpot(tmp_path, version):
    # The main jackpot is paid out in R1: the next reading's main meter restarts at the establishment's
    # amount (not known, not checked); the secondary must not go down.
    records = [
        table(),
        shoe(),
        jackpot("15230.00", "2410.50"),
        sevens_round(1, [["approve", "1:jp1", "S-12"]]),
    ]
    assert check(tmp_path, [*records, jackpot("10000", "2411", 30)], version)[0] == []
    found, _ = check(tmp_path, [*records, jackpot("10000", "2400", 30)], version)
    assert InWords(
        (f["rule"], f["kind"], f["line"], f["round"], f["stake"], f["expected"], f["actual"]) for f in found
    ) == [
        (
            "fr/blackjack/jp1-meters",
            "payout",
            5,
            None,
            None,
            {"jackpot.secondary": ">= 2410.5"},
            {"jackpot.secondary": "2400"},
        )
    ]


@pytest.mark.parametrize("version", BJ_001)
def test_meters_across_several_rounds(tmp_path, version):
    # Stakes of R1 (1) and R2 (2) between two readings: the meters together grow by 3.
    def plain(n: int, boxes: tuple[str, ...]) -> dict[str, Any]:
        bets = [x for b in boxes for x in (bet(b, 20), bet(f"{b}:jp1", 1))]
        actions = [
            *(["deal", b, "KS"] for b in boxes),
            ["deal", "D", "6H"],
            *(["deal", b, "QD"] for b in boxes),
            *(["stand", b] for b in boxes),
            ["deal", "D", "TC"],
            ["deal", "D", "2D"],
            *(["pay", b, 20] for b in reversed(boxes)),
            *(["lose", f"{b}:jp1"] for b in boxes),
        ]
        return round_(n, bets, actions)

    records = [table(), shoe(), jackpot("500", "100"), plain(1, ("1",)), plain(2, ("2", "4"))]
    assert check(tmp_path, [*records, jackpot("502", "101", 30)], version)[0] == []
    found, _ = check(tmp_path, [*records, jackpot("502", "100", 30)], version)
    assert InWords((f["rule"], f["expected"], f["actual"]) for f in found) == [
        (
            "fr/blackjack/jp1-meters",
            {"jackpot.main + jackpot.secondary": "603"},
            {"jackpot.main + jackpot.secondary": "602"},
        )
    ]


@pytest.mark.parametrize("version", BJ_001)
def test_a_jackpot_paid_with_no_reading_is_not_judged(tmp_path, version):
    # Without any jackpot record the meter is unknown: the payment cannot be judged, and the summary
    # says so instead of inventing an amount.
    found, summary = check(
        tmp_path, [table(), shoe(), sevens_round(1, [["approve", "1:jp1", "S-12"]])], version
    )
    assert found == []
    assert any("jp1-paytable" in note for note in summary.all_notes)


@pytest.mark.parametrize("version", BJ_001)
def test_jp1_placed_late(tmp_path, version):
    # Box 1's JP1 stake is approved and paid, but was never among the bets: placed after the first card.
    record = round_(
        1,
        [bet("1", 20)],
        [
            ["deal", "1", "7H"],
            ["deal", "D", "9C"],
            ["deal", "1", "7H"],
            ["hit", "1", "7H"],
            ["stand", "1"],
            ["deal", "D", "8C"],
            ["pay", "1", 20],
            ["approve", "1:jp1", "S-12"],
            ["pay", "1:jp1", "15230.00"],
        ],
    )
    found, _ = check(tmp_path, [table(), shoe(), jackpot("15230.00", "2410.50"), record], version)
    assert fields(found) == [
        (
            "fr/blackjack/side-bet-before-deal",
            "procedure",
            "1:jp1",
            {"bet.before_deal": True},
            {"bet.before_deal": False},
        )
    ]


# ---------------------------------------------------------------- every side stake settled once
@pytest.mark.parametrize("version", BJ_ALL)
def test_a_side_stake_never_settled_or_settled_twice(tmp_path, version):
    # Box 1: K♠ 9♣ = 19 against the dealer's 18: its lucky ladies (no 20) is lost.
    never = round_(1, [bet("1", 20), bet("1:lucky_ladies", 5)], one_box_against_dealer_18(cards=("KS", "9C")))
    found, _ = check(tmp_path, [table(), shoe(), never], version)
    assert [(f["rule"], f["kind"], f["stake"]) for f in found] == [
        ("fr/blackjack/stake-settled-once", "payout", "1:lucky_ladies")
    ]
    lose = ["lose", "1:lucky_ladies"]
    twice = round_(
        1,
        [bet("1", 20), bet("1:lucky_ladies", 5)],
        one_box_against_dealer_18(side=[lose], before_main=[lose], cards=("KS", "9C")),
    )
    found, _ = check(tmp_path, [table(), shoe(), twice], version)
    assert "fr/blackjack/stake-settled-once" in [f["rule"] for f in found]
    assert all(f["stake"] == "1:lucky_ladies" for f in found)


def test_side_bets_of_rulesets_without_them_are_noted_not_judged(tmp_path):
    # fr/usage-blackjack declares no side bet: its logs' side stakes are noted in the summary.
    record = round_(
        1,
        [bet("1", 20), bet("1:lucky_ladies", 5)],
        [
            ["deal", "1", "KS"],
            ["deal", "D", "6H"],
            ["deal", "1", "QD"],
            ["deal", "D", "TC"],
            ["pay", "1:lucky_ladies", 20],
            ["stand", "1"],
            ["deal", "D", "2D"],
            ["pay", "1", 20],
        ],
    )
    _found, summary = check(
        tmp_path, [table(), shoe(), record], "fr/usage-blackjack", {"blackjack_pays": "3:2"}
    )
    # The bet named by its title in the rulesets that have it (fr/blackjack's latest: « Dames de cœur »).
    assert (
        "side bet « Dames de cœur »: fr/usage-blackjack does not settle it; not judged" in summary.all_notes
    )
