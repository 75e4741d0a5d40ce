"""Writes the rule fixtures of the side-bet rules (tests/fixtures/rules/fr/{blackjack,bataille}/<rule>/).

    python tests/side_bets/make_fixtures.py

Every log is written card by card below, and every expected finding beside it was worked out from the
article the rule cites (the comments say how), not copied from the program's output.
test_side_bet_fixtures.py checks that the files on disk are what this script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from sb_logs import BATAILLE, BJ_000, BJ_001, BJ_ALL, bet, jackpot, round_, shoe, table, write_fixture  # noqa: E402

ROOT = HERE.parent / "fixtures" / "rules" / "fr"
# The conditions of three rules, as a failed disjunction reports them (its text, and the facts it read).
LL_ORDER = (
    "(side.verb == side.previous_verb and side.box < side.previous_box)"
    ' or (side.verb == "pay" and side.previous_verb == "lose")'
)
QUEENS = (
    "(not dealer.blackjack and side.main_settled == 0) or (dealer.blackjack and side.main_unsettled == 0)"
)
HYPER_ORDER = (
    '(side.verb == "lose" and side.main_settled == 0) or (side.verb != "lose" and side.main_unsettled == 0)'
)


def finding(
    rule: str,
    line: int,
    stake: str | None,
    expected: dict[str, Any],
    actual: dict[str, Any],
    kind: str = "procedure",
    round_id: str | None = "R1",
) -> dict[str, Any]:
    return {
        "rule": rule,
        "kind": kind,
        "severity": "error",
        "line": line,
        "round": round_id,
        "stake": stake,
        "expected": expected,
        "actual": actual,
    }


def bj(rule: str) -> str:
    return f"fr/blackjack/{rule}"


def ba(rule: str) -> str:
    return f"fr/bataille/{rule}"


# ================================================================ blackjack rounds
# Box 1: K♠ Q♦ = 20 (any two cards totalling 20: 4 for 1 on both paytables, in every wording); box 3:
# 9♣ 8♣ = 17 (no 20: lost). Dealer 6♥, then 10♣ 2♦ = 18: box 3 collected, box 1 paid even money.
def base_round(n: int = 1, ll_settlement: list[list[Any]] | None = None) -> dict[str, Any]:
    ll = (
        ll_settlement
        if ll_settlement is not None
        else [["lose", "3:lucky_ladies"], ["pay", "1:lucky_ladies", 20]]
    )
    return round_(
        n,
        [bet("1", 20), bet("1:lucky_ladies", 5), bet("3", 20), bet("3:lucky_ladies", 5)],
        [
            ["deal", "1", "KS"],
            ["deal", "3", "9C"],
            ["deal", "D", "6H"],
            ["deal", "1", "QD"],
            ["deal", "3", "8C"],
            *ll,
            ["stand", "1"],
            ["stand", "3"],
            ["deal", "D", "TC"],
            ["deal", "D", "2D"],
            ["lose", "3"],
            ["pay", "1", 20],
        ],
    )


def one_box(
    bets: list[dict[str, Any]],
    after_deal: list[list[Any]],
    end: list[list[Any]],
    main_paid: int = 20,
    cards: tuple[str, str] = ("KS", "QD"),
) -> dict[str, Any]:
    """Box 1 dealt two cards (K♠ Q♦ by default) against the dealer's 6♥; it stands; the dealer draws
    10♣ 2♦ to 18 and box 1's 20 is paid even money on its stake."""
    return round_(
        1,
        bets,
        [
            ["deal", "1", cards[0]],
            ["deal", "D", "6H"],
            ["deal", "1", cards[1]],
            *after_deal,
            ["stand", "1"],
            ["deal", "D", "TC"],
            ["deal", "D", "2D"],
            ["pay", "1", main_paid],
            *end,
        ],
    )


def head() -> list[dict[str, Any]]:
    return [table(), shoe()]


def blackjack_fixtures() -> None:
    out = ROOT / "blackjack"

    # ---------------------------------------------------------------- side-bet-offered
    d = out / "side-bet-offered"
    # The mise égalité is bataille's (fr/bataille, al. 27): no wording of art. 55-4 provides it.
    write_fixture(
        d,
        "fails-egalite-at-blackjack",
        [*head(), one_box([bet("1", 20), bet("1:egalite", 5)], [], [["lose", "1:egalite"]])],
        BJ_ALL,
        [
            finding(
                bj("side-bet-offered"),
                3,
                "1:egalite",
                {"bet.side_offered": True},
                {"bet.side_offered": False},
            )
        ],
    )
    # Hyper black jack is 6° of seed 001: the lucky-ladies wording (seed 000) has no such bet.
    write_fixture(
        d,
        "fails-hyper-before-2020",
        [
            *head(),
            round_(
                1,
                [bet("4", 20), bet("4:hyper:bust", 5)],
                [
                    ["deal", "4", "KS"],
                    ["deal", "D", "6H"],
                    ["deal", "4", "QD"],
                    ["stand", "4"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["pay", "4", 20],
                    ["lose", "4:hyper:bust"],
                ],
            ),
        ],
        BJ_000,
        [
            finding(
                bj("side-bet-offered"),
                3,
                "4:hyper:bust",
                {"bet.side_offered": True},
                {"bet.side_offered": False},
            )
        ],
    )
    write_fixture(d, "passes-lucky-ladies", [*head(), base_round()], BJ_ALL, [])

    # ---------------------------------------------------------------- side-bet-with-main-bet
    d = out / "side-bet-with-main-bet"
    # "après avoir engagé leur mise principale": box 3 carries no main bet at all.
    write_fixture(
        d,
        "fails-no-main-bet-on-the-box",
        [*head(), one_box([bet("1", 20), bet("3:lucky_ladies", 5)], [["lose", "3:lucky_ladies"]], [])],
        BJ_ALL,
        [
            finding(
                bj("side-bet-with-main-bet"),
                3,
                "3:lucky_ladies",
                {"bet.player_main": True},
                {"bet.player_main": False},
            )
        ],
    )
    # P2 stands behind box 1 and bets lucky ladies without a main bet of his own.
    write_fixture(
        d,
        "fails-another-players-main-bet",
        [
            *head(),
            one_box(
                [bet("1", 20, "P1"), bet("1:lucky_ladies", 5, "P2", seated=False)],
                [["pay", "1:lucky_ladies", 20]],
                [],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("side-bet-with-main-bet"),
                3,
                "1:lucky_ladies",
                {"bet.player_main": True},
                {"bet.player_main": False},
            )
        ],
    )
    # P2, standing, rides 10 on box 1 and bets lucky ladies there: box 1's K♠ Q♦ pays his bet 4 for 1.
    write_fixture(
        d,
        "passes-standing-player-with-his-main-bet",
        [
            *head(),
            one_box(
                [
                    bet("1", 20, "P1"),
                    bet("1", 10, "P2", seated=False),
                    bet("1:lucky_ladies", 5, "P2", seated=False),
                ],
                [["pay", "1:lucky_ladies", 20]],
                [],
                main_paid=30,
            ),
        ],
        BJ_ALL,
        [],
    )

    # ---------------------------------------------------------------- side-bet-before-deal
    d = out / "side-bet-before-deal"
    # Box 1's lucky ladies is paid though it is not among the bets placed before the first card.
    write_fixture(
        d,
        "fails-stake-not-among-the-bets",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("3", 20), bet("3:lucky_ladies", 5)],
                [
                    ["deal", "1", "KS"],
                    ["deal", "3", "9C"],
                    ["deal", "D", "6H"],
                    ["deal", "1", "QD"],
                    ["deal", "3", "8C"],
                    ["lose", "3:lucky_ladies"],
                    ["pay", "1:lucky_ladies", 20],
                    ["stand", "1"],
                    ["stand", "3"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["lose", "3"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("side-bet-before-deal"),
                3,
                "1:lucky_ladies",
                {"bet.before_deal": True},
                {"bet.before_deal": False},
            )
        ],
    )
    write_fixture(d, "passes", [*head(), base_round()], BJ_ALL, [])

    # ---------------------------------------------------------------- lucky-ladies-seated-only
    d = out / "lucky-ladies-seated-only"
    house = {"lucky_ladies.seated_only": True}
    write_fixture(
        d,
        "fails-standing-player",
        [
            *head(),
            one_box(
                [
                    bet("1", 20, "P1"),
                    bet("1", 10, "P2", seated=False),
                    bet("1:lucky_ladies", 5, "P2", seated=False),
                ],
                [["pay", "1:lucky_ladies", 20]],
                [],
                main_paid=30,
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-seated-only"),
                3,
                "1:lucky_ladies",
                {"bet.seated": True},
                {"bet.seated": False},
            )
        ],
        house,
    )
    write_fixture(
        d,
        "passes-seated-player",
        [*head(), one_box([bet("1", 20), bet("1:lucky_ladies", 5)], [["pay", "1:lucky_ladies", 20]], [])],
        BJ_ALL,
        [],
        house,
    )

    # ---------------------------------------------------------------- lucky-ladies-limits
    d = out / "lucky-ladies-limits"
    house = {"lucky_ladies.minimum": 1, "lucky_ladies.maximum": 50}
    # K♠ Q♦ pays 4 for 1: 60 → 240, 0.5 → 2.
    write_fixture(
        d,
        "fails-over-maximum",
        [*head(), one_box([bet("1", 20), bet("1:lucky_ladies", 60)], [["pay", "1:lucky_ladies", 240]], [])],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-limits"), 3, "1:lucky_ladies", {"bet.amount": "<= 50"}, {"bet.amount": "60"}
            )
        ],
        house,
    )
    write_fixture(
        d,
        "fails-below-minimum",
        [*head(), one_box([bet("1", 20), bet("1:lucky_ladies", 0.5)], [["pay", "1:lucky_ladies", 2]], [])],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-limits"), 3, "1:lucky_ladies", {"bet.amount": ">= 1"}, {"bet.amount": "0.5"}
            )
        ],
        house,
    )
    write_fixture(
        d,
        "passes-at-the-limits",
        [
            *head(),
            base_round(1, [["lose", "3:lucky_ladies"], ["pay", "1:lucky_ladies", 200]])
            | {"bets": [bet("1", 20), bet("1:lucky_ladies", 50), bet("3", 20), bet("3:lucky_ladies", 1)]},
        ],
        BJ_ALL,
        [],
        house,
    )

    # ---------------------------------------------------------------- lucky-ladies-paytable
    d = out / "lucky-ladies-paytable"

    # Q♥ Q♥ against the dealer's 6♥ (no exception of b)): "Paire de dames de cœur", 125 for 1 on table A
    # in every wording: 5 → 625.
    def queens(paid: int) -> dict[str, Any]:
        return one_box(
            [bet("1", 20), bet("1:lucky_ladies", 5)],
            [["pay", "1:lucky_ladies", paid]],
            [],
            cards=("QH", "QH"),
        )

    write_fixture(
        d,
        "fails-queens-paid-as-a-pair",
        [*head(), queens(95)],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-paytable"),
                3,
                "1:lucky_ladies",
                {"pay": "625", "line": "Paire de dames de cœur"},
                {"pay": "95"},
                kind="payout",
            )
        ],
    )
    write_fixture(d, "passes-queens-paid-125-for-1", [*head(), queens(625)], BJ_ALL, [])

    # ---------------------------------------------------------------- lucky-ladies-settlement-time
    d = out / "lucky-ladies-settlement-time"
    # Box 1: K♠ 9♣ = 19, no 20: the bet is lost — but collected after box 1 has stood.
    write_fixture(
        d,
        "fails-collected-after-the-play",
        [
            *head(),
            one_box([bet("1", 20), bet("1:lucky_ladies", 5)], [], [], cards=("KS", "9C"))
            | {
                "actions": [
                    ["deal", "1", "KS"],
                    ["deal", "D", "6H"],
                    ["deal", "1", "9C"],
                    ["stand", "1"],
                    ["lose", "1:lucky_ladies"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["pay", "1", 20],
                ]
            },
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-settlement-time"),
                3,
                "1:lucky_ladies",
                {"side.play_started": False},
                {"side.play_started": True},
            )
        ],
    )
    write_fixture(
        d,
        "fails-collected-before-the-second-card",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:lucky_ladies", 5)],
                [
                    ["deal", "1", "KS"],
                    ["deal", "D", "6H"],
                    ["lose", "1:lucky_ladies"],
                    ["deal", "1", "9C"],
                    ["stand", "1"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-settlement-time"),
                3,
                "1:lucky_ladies",
                {"side.initial_deal_done": True},
                {"side.initial_deal_done": False},
            )
        ],
    )
    write_fixture(d, "passes", [*head(), base_round()], BJ_ALL, [])

    # ---------------------------------------------------------------- lucky-ladies-settlement-order
    d = out / "lucky-ladies-settlement-order"

    # Box 1 K♠ Q♦ = 20 (won, 4 for 1: 20), box 2 9♣ 8♣ = 17 (lost), box 5 10♥ 5♠ = 15 (lost), box 6 J♣ Q♥ =
    # 20 (won: 20). Dealer 6♥ 10♣ 2♦ = 18: box 6 paid, 5 and 2 collected, 1 paid.
    def four_boxes(ll: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            [bet(b, 20) for b in ("1",)]
            + [bet("1:lucky_ladies", 5)]
            + [
                bet("2", 20),
                bet("2:lucky_ladies", 5),
                bet("5", 20),
                bet("5:lucky_ladies", 5),
                bet("6", 20),
                bet("6:lucky_ladies", 5),
            ],
            [
                ["deal", "1", "KS"],
                ["deal", "2", "9C"],
                ["deal", "5", "TH"],
                ["deal", "6", "JC"],
                ["deal", "D", "6H"],
                ["deal", "1", "QD"],
                ["deal", "2", "8C"],
                ["deal", "5", "5S"],
                ["deal", "6", "QH"],
                *ll,
                ["stand", "1"],
                ["stand", "2"],
                ["stand", "5"],
                ["stand", "6"],
                ["deal", "D", "TC"],
                ["deal", "D", "2D"],
                ["pay", "6", 20],
                ["lose", "5"],
                ["lose", "2"],
                ["pay", "1", 20],
            ],
        )

    write_fixture(
        d,
        "fails-winner-paid-before-a-loser",
        [
            *head(),
            four_boxes(
                [
                    ["pay", "6:lucky_ladies", 20],
                    ["lose", "5:lucky_ladies"],
                    ["lose", "2:lucky_ladies"],
                    ["pay", "1:lucky_ladies", 20],
                ]
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-settlement-order"),
                3,
                "5:lucky_ladies",
                {"condition": LL_ORDER},
                {"side.verb": "lose", "side.previous_verb": "pay", "side.box": 5, "side.previous_box": 6},
            )
        ],
    )
    write_fixture(
        d,
        "fails-left-to-right",
        [
            *head(),
            four_boxes(
                [
                    ["lose", "2:lucky_ladies"],
                    ["lose", "5:lucky_ladies"],
                    ["pay", "6:lucky_ladies", 20],
                    ["pay", "1:lucky_ladies", 20],
                ]
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-settlement-order"),
                3,
                "5:lucky_ladies",
                {"condition": LL_ORDER},
                {"side.verb": "lose", "side.previous_verb": "lose", "side.box": 5, "side.previous_box": 2},
            )
        ],
    )
    write_fixture(
        d,
        "passes-losers-then-winners-right-to-left",
        [
            *head(),
            four_boxes(
                [
                    ["lose", "5:lucky_ladies"],
                    ["lose", "2:lucky_ladies"],
                    ["pay", "6:lucky_ladies", 20],
                    ["pay", "1:lucky_ladies", 20],
                ]
            ),
        ],
        BJ_ALL,
        [],
    )

    # ---------------------------------------------------------------- lucky-ladies-queens-of-hearts
    d = out / "lucky-ladies-queens-of-hearts"
    bets = [bet("1", 20), bet("1:lucky_ladies", 5)]
    # Against the dealer's K♣, then 5♦ 3♣ = 18 (no black jack): 125 for 1 = 625, paid before box 1's 20.
    no_bj_late = round_(
        1,
        bets,
        [
            ["deal", "1", "QH"],
            ["deal", "D", "KC"],
            ["deal", "1", "QH"],
            ["stand", "1"],
            ["deal", "D", "5D"],
            ["deal", "D", "3C"],
            ["pay", "1:lucky_ladies", 625],
            ["pay", "1", 20],
        ],
    )
    # Against the dealer's A♣, then K♦: black jack. Box 1's 20 collected, then the queens paid 1000 for 1.
    bj_last = round_(
        1,
        bets,
        [
            ["deal", "1", "QH"],
            ["deal", "D", "AC"],
            ["deal", "1", "QH"],
            ["stand", "1"],
            ["deal", "D", "KD"],
            ["lose", "1"],
            ["pay", "1:lucky_ladies", 5000],
        ],
    )
    write_fixture(
        d,
        "fails-paid-before-the-dealers-second-card",
        [
            *head(),
            round_(
                1,
                bets,
                [
                    ["deal", "1", "QH"],
                    ["deal", "D", "KC"],
                    ["deal", "1", "QH"],
                    ["pay", "1:lucky_ladies", 625],
                    ["stand", "1"],
                    ["deal", "D", "5D"],
                    ["deal", "D", "3C"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-queens-of-hearts"),
                3,
                "1:lucky_ladies",
                {"dealer.cards": ">= 2"},
                {"dealer.cards": 1},
            )
        ],
    )
    write_fixture(
        d,
        "fails-paid-before-the-main-stakes-against-black-jack",
        [
            *head(),
            round_(
                1,
                bets,
                [
                    ["deal", "1", "QH"],
                    ["deal", "D", "AC"],
                    ["deal", "1", "QH"],
                    ["stand", "1"],
                    ["deal", "D", "KD"],
                    ["pay", "1:lucky_ladies", 5000],
                    ["lose", "1"],
                ],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-queens-of-hearts"),
                3,
                "1:lucky_ladies",
                {"condition": QUEENS},
                {"dealer.blackjack": True, "side.main_settled": 0, "side.main_unsettled": 1},
            )
        ],
    )
    write_fixture(
        d,
        "fails-paid-after-the-main-stakes-without-black-jack",
        [
            *head(),
            round_(
                1,
                bets,
                [
                    ["deal", "1", "QH"],
                    ["deal", "D", "KC"],
                    ["deal", "1", "QH"],
                    ["stand", "1"],
                    ["deal", "D", "5D"],
                    ["deal", "D", "3C"],
                    ["pay", "1", 20],
                    ["pay", "1:lucky_ladies", 625],
                ],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-queens-of-hearts"),
                3,
                "1:lucky_ladies",
                {"condition": QUEENS},
                {"dealer.blackjack": False, "side.main_settled": 1, "side.main_unsettled": 0},
            )
        ],
    )
    write_fixture(d, "passes-paid-first-without-black-jack", [*head(), no_bj_late], BJ_ALL, [])
    write_fixture(d, "passes-paid-last-against-black-jack", [*head(), bj_last], BJ_ALL, [])

    # ---------------------------------------------------------------- lucky-ladies-no-split-after-win
    d = out / "lucky-ladies-no-split-after-win"
    house = {"lucky_ladies.no_split_after_win": True}
    # K♠ Q♠ = 20 of one suit: 9 for 1 (5 → 45) in every wording; the winning box then splits.
    # Hand 1: K♠ 9♦ = 19, paid; hand 1/2: Q♠ 8♥ = 18, equal to the dealer's 18: returned.
    write_fixture(
        d,
        "fails-split-after-a-win",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:lucky_ladies", 5)],
                [
                    ["deal", "1", "KS"],
                    ["deal", "D", "6H"],
                    ["deal", "1", "QS"],
                    ["pay", "1:lucky_ladies", 45],
                    ["split", "1", 20],
                    ["deal", "1", "9D"],
                    ["stand", "1"],
                    ["deal", "1/2", "8H"],
                    ["stand", "1/2"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["push", "1/2"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_ALL,
        [
            finding(
                bj("lucky-ladies-no-split-after-win"),
                3,
                "1",
                {"box.lucky_ladies_won": False},
                {"box.lucky_ladies_won": True},
            )
        ],
        house,
    )
    # 8♠ 8♥ = 16: the bet is lost, and the pair may be split. 8 10♦ = 18 returned; 8 9♣ = 17 collected.
    write_fixture(
        d,
        "passes-split-after-a-loss",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:lucky_ladies", 5)],
                [
                    ["deal", "1", "8S"],
                    ["deal", "D", "6H"],
                    ["deal", "1", "8H"],
                    ["lose", "1:lucky_ladies"],
                    ["split", "1", 20],
                    ["deal", "1", "TD"],
                    ["stand", "1"],
                    ["deal", "1/2", "9C"],
                    ["stand", "1/2"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["lose", "1/2"],
                    ["push", "1"],
                ],
            ),
        ],
        BJ_ALL,
        [],
        house,
    )

    # ================================================================ seed 001 only
    # ---------------------------------------------------------------- hyper black jack
    # Box 1: 10♠ 8♦ = 18 stands; the dealer 6♣ 10♦ 9♥ = 25 busts: box 1 paid, « BUST » paid 2 for 1.
    def hyper_bust(bets: list[dict[str, Any]], main_paid: int = 20, amount: int = 5) -> dict[str, Any]:
        return round_(
            1,
            bets,
            [
                ["deal", "1", "TS"],
                ["deal", "D", "6C"],
                ["deal", "1", "8D"],
                ["stand", "1"],
                ["deal", "D", "TD"],
                ["deal", "D", "9H"],
                ["pay", "1", main_paid],
                ["pay", "1:hyper:bust", amount * 2],
            ],
        )

    d = out / "hyper-blackjack-seated-only"
    house = {"hyper_blackjack.seated_only": True}
    write_fixture(
        d,
        "fails-standing-player",
        [
            *head(),
            hyper_bust(
                [
                    bet("1", 20, "P1"),
                    bet("1", 10, "P2", seated=False),
                    bet("1:hyper:bust", 5, "P2", seated=False),
                ],
                30,
            ),
        ],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-seated-only"),
                3,
                "1:hyper:bust",
                {"bet.seated": True},
                {"bet.seated": False},
            )
        ],
        house,
    )
    write_fixture(
        d,
        "passes-seated-player",
        [*head(), hyper_bust([bet("1", 20), bet("1:hyper:bust", 5)])],
        BJ_001,
        [],
        house,
    )

    d = out / "hyper-blackjack-limits"
    house = {"hyper_blackjack.minimum": 1, "hyper_blackjack.maximum": 50}
    write_fixture(
        d,
        "fails-below-minimum",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:hyper:bust", 0.5)],
                [
                    ["deal", "1", "TS"],
                    ["deal", "D", "6C"],
                    ["deal", "1", "8D"],
                    ["stand", "1"],
                    ["deal", "D", "TD"],
                    ["deal", "D", "9H"],
                    ["pay", "1", 20],
                    ["pay", "1:hyper:bust", 1],
                ],
            ),
        ],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-limits"), 3, "1:hyper:bust", {"bet.amount": ">= 1"}, {"bet.amount": "0.5"}
            )
        ],
        house,
    )
    write_fixture(
        d,
        "fails-over-maximum",
        [*head(), hyper_bust([bet("1", 20), bet("1:hyper:bust", 51)], amount=51)],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-limits"), 3, "1:hyper:bust", {"bet.amount": "<= 50"}, {"bet.amount": "51"}
            )
        ],
        house,
    )
    write_fixture(
        d,
        "passes-at-the-limits",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:hyper:bust", 50), bet("1:hyper:17", 1)],
                [
                    ["deal", "1", "TS"],
                    ["deal", "D", "6C"],
                    ["deal", "1", "8D"],
                    ["stand", "1"],
                    ["deal", "D", "TD"],
                    ["deal", "D", "9H"],
                    ["lose", "1:hyper:17"],
                    ["pay", "1", 20],
                    ["pay", "1:hyper:bust", 100],
                ],
            ),
        ],
        BJ_001,
        [],
        house,
    )

    d = out / "hyper-blackjack-paytable"
    # Dealer A♣ then K♥: black jack. « 21 » is a 21 of more than two cards: lost; « black jack » 19 for 1.
    write_fixture(
        d,
        "fails-21-paid-on-the-dealers-black-jack",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:hyper:21", 5)],
                [
                    ["deal", "1", "TS"],
                    ["deal", "D", "AC"],
                    ["deal", "1", "8D"],
                    ["stand", "1"],
                    ["deal", "D", "KH"],
                    ["lose", "1"],
                    ["pay", "1:hyper:21", 50],
                ],
            ),
        ],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-paytable"), 3, "1:hyper:21", {"lose": "5"}, {"pay": "50"}, kind="payout"
            )
        ],
    )
    write_fixture(
        d,
        "passes-three-cases-at-once",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:hyper:blackjack", 5), bet("1:hyper:21", 5), bet("1:hyper:bust", 5)],
                [
                    ["deal", "1", "TS"],
                    ["deal", "D", "AC"],
                    ["deal", "1", "8D"],
                    ["stand", "1"],
                    ["deal", "D", "KH"],
                    ["lose", "1:hyper:21"],
                    ["lose", "1:hyper:bust"],
                    ["lose", "1"],
                    ["pay", "1:hyper:blackjack", 95],
                ],
            ),
        ],
        BJ_001,
        [],
    )

    d = out / "hyper-blackjack-settlement-order"

    # Box 2: K♠ Q♥ = 20; dealer 6♣ 10♦ 3♥ = 19: box 2 paid, « 19 » paid 5 for 1 (25), « BUST » lost.
    def hyper_19(settlement: list[list[Any]], early: list[list[Any]] = ()) -> dict[str, Any]:
        return round_(
            1,
            [bet("2", 20), bet("2:hyper:19", 5), bet("2:hyper:bust", 5)],
            [
                ["deal", "2", "KS"],
                ["deal", "D", "6C"],
                ["deal", "2", "QH"],
                *early,
                ["stand", "2"],
                ["deal", "D", "TD"],
                ["deal", "D", "3H"],
                *settlement,
            ],
        )

    order = HYPER_ORDER
    write_fixture(
        d,
        "fails-winner-paid-before-the-main-stakes",
        [*head(), hyper_19([["lose", "2:hyper:bust"], ["pay", "2:hyper:19", 25], ["pay", "2", 20]])],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-settlement-order"),
                3,
                "2:hyper:19",
                {"condition": order},
                {"side.verb": "pay", "side.main_settled": 0, "side.main_unsettled": 1},
            )
        ],
    )
    write_fixture(
        d,
        "fails-loser-collected-after-the-main-stakes",
        [*head(), hyper_19([["pay", "2", 20], ["lose", "2:hyper:bust"], ["pay", "2:hyper:19", 25]])],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-settlement-order"),
                3,
                "2:hyper:bust",
                {"condition": order},
                {"side.verb": "lose", "side.main_settled": 1, "side.main_unsettled": 0},
            )
        ],
    )
    write_fixture(
        d,
        "fails-collected-before-the-dealers-point",
        [*head(), hyper_19([["pay", "2", 20], ["pay", "2:hyper:19", 25]], early=[["lose", "2:hyper:bust"]])],
        BJ_001,
        [
            finding(
                bj("hyper-blackjack-settlement-order"),
                3,
                "2:hyper:bust",
                {"side.dealer_done": True},
                {"side.dealer_done": False},
            )
        ],
    )
    write_fixture(
        d,
        "passes",
        [*head(), hyper_19([["lose", "2:hyper:bust"], ["pay", "2", 20], ["pay", "2:hyper:19", 25]])],
        BJ_001,
        [],
    )

    # ---------------------------------------------------------------- 2 + 1 cartes
    # Box 1: 9♥ 10♥ with the dealer's J♥: tierce flush, 30 for 1 (2 → 60). Dealer J♥ 7♣ = 17: box 1 paid.
    def flush(
        bets: list[dict[str, Any]],
        side: list[list[Any]],
        end: list[list[Any]] = (),
        main_paid: int = 20,
        cards: tuple[str, str, str] = ("9H", "JH", "TH"),
    ) -> dict[str, Any]:
        return round_(
            1,
            bets,
            [
                ["deal", "1", cards[0]],
                ["deal", "D", cards[1]],
                ["deal", "1", cards[2]],
                *side,
                ["stand", "1"],
                ["deal", "D", "7C"],
                ["pay", "1", main_paid],
                *end,
            ],
        )

    d = out / "two-plus-one-seated-only"
    house = {"two_plus_one.seated_only": True}
    write_fixture(
        d,
        "fails-standing-player",
        [
            *head(),
            flush(
                [
                    bet("1", 20, "P1"),
                    bet("1", 10, "P2", seated=False),
                    bet("1:two_plus_one", 2, "P2", seated=False),
                ],
                [["pay", "1:two_plus_one", 60]],
                main_paid=30,
            ),
        ],
        BJ_001,
        [
            finding(
                bj("two-plus-one-seated-only"),
                3,
                "1:two_plus_one",
                {"bet.seated": True},
                {"bet.seated": False},
            )
        ],
        house,
    )
    write_fixture(
        d,
        "passes-seated-player",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 2)], [["pay", "1:two_plus_one", 60]])],
        BJ_001,
        [],
        house,
    )

    d = out / "two-plus-one-limits"
    house = {"two_plus_one.minimum": 1, "two_plus_one.maximum": 50}
    write_fixture(
        d,
        "fails-over-maximum",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 100)], [["pay", "1:two_plus_one", 3000]])],
        BJ_001,
        [
            finding(
                bj("two-plus-one-limits"), 3, "1:two_plus_one", {"bet.amount": "<= 50"}, {"bet.amount": "100"}
            )
        ],
        house,
    )
    write_fixture(
        d,
        "passes-at-the-limit",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 50)], [["pay", "1:two_plus_one", 1500]])],
        BJ_001,
        [],
        house,
    )

    d = out / "two-plus-one-paytable"
    write_fixture(
        d,
        "fails-tierce-flush-paid-as-a-tierce",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 2)], [["pay", "1:two_plus_one", 20]])],
        BJ_001,
        [
            finding(
                bj("two-plus-one-paytable"),
                3,
                "1:two_plus_one",
                {"pay": "60", "line": "TIERCE FLUSH"},
                {"pay": "20"},
                kind="payout",
            )
        ],
    )
    write_fixture(
        d,
        "passes-tierce-flush-30-for-1",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 2)], [["pay", "1:two_plus_one", 60]])],
        BJ_001,
        [],
    )

    d = out / "two-plus-one-settlement-time"
    write_fixture(
        d,
        "fails-collected-with-the-main-stakes",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 2)], [], [["pay", "1:two_plus_one", 60]])],
        BJ_001,
        [
            finding(
                bj("two-plus-one-settlement-time"),
                3,
                "1:two_plus_one",
                {"side.play_started": False},
                {"side.play_started": True},
            )
        ],
    )
    write_fixture(
        d,
        "fails-before-the-second-card",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:two_plus_one", 2)],
                [
                    ["deal", "1", "9H"],
                    ["deal", "D", "JH"],
                    ["pay", "1:two_plus_one", 60],
                    ["deal", "1", "TH"],
                    ["stand", "1"],
                    ["deal", "D", "7C"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_001,
        [
            finding(
                bj("two-plus-one-settlement-time"),
                3,
                "1:two_plus_one",
                {"side.box_cards": ">= 2"},
                {"side.box_cards": 1},
            )
        ],
    )
    write_fixture(
        d,
        "passes-right-after-the-second-card",
        [*head(), flush([bet("1", 20), bet("1:two_plus_one", 2)], [["pay", "1:two_plus_one", 60]])],
        BJ_001,
        [],
    )

    # ---------------------------------------------------------------- JP1
    # Box 1: K♠ 8♦ = 18, no seven: the JP1 stake is lost; dealer 6♣ 10♦ 3♥ = 19: box 1 collected.
    def no_seven(bets: list[dict[str, Any]], jp1: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            bets,
            [
                ["deal", "1", "KS"],
                ["deal", "D", "6C"],
                ["deal", "1", "8D"],
                ["stand", "1"],
                ["deal", "D", "TD"],
                ["deal", "D", "3H"],
                ["lose", "1"],
                *jp1,
            ],
        )

    d = out / "jp1-fixed-stake"
    house = {"jp1.stake": 1}
    write_fixture(
        d,
        "fails-not-the-fixed-amount",
        [*head(), no_seven([bet("1", 20), bet("1:jp1", 2)], [["lose", "1:jp1"]])],
        BJ_001,
        [finding(bj("jp1-fixed-stake"), 3, "1:jp1", {"bet.amount": "1"}, {"bet.amount": "2"})],
        house,
    )
    write_fixture(
        d,
        "passes-the-fixed-amount",
        [*head(), no_seven([bet("1", 20), bet("1:jp1", 1)], [["lose", "1:jp1"]])],
        BJ_001,
        [],
        house,
    )

    d = out / "jp1-paytable"

    # 7♠ 7♦, then 4♥ = 18: two sevens among the first two cards, 25 for 1. Dealer 9♣ 8♣ = 17: box 1 paid.
    def two_sevens(paid: int) -> dict[str, Any]:
        return round_(
            1,
            [bet("1", 20), bet("1:jp1", 1)],
            [
                ["deal", "1", "7S"],
                ["deal", "D", "9C"],
                ["deal", "1", "7D"],
                ["hit", "1", "4H"],
                ["stand", "1"],
                ["deal", "D", "8C"],
                ["pay", "1", 20],
                ["pay", "1:jp1", paid],
            ],
        )

    write_fixture(
        d,
        "fails-two-sevens-paid-as-one",
        [*head(), two_sevens(2)],
        BJ_001,
        [
            finding(
                bj("jp1-paytable"),
                3,
                "1:jp1",
                {"pay": "25", "line": "Deux « 7 »"},
                {"pay": "2"},
                kind="payout",
            )
        ],
    )
    write_fixture(d, "passes-two-sevens-25-for-1", [*head(), two_sevens(25)], BJ_001, [])

    d = out / "jp1-supervisor-approval"

    # 7♥ 7♥, then 7♥: three sevens of one suit, the main jackpot, 15230.00 as the record before the round
    # shows it. Dealer 9♠ 8♣ = 17: box 1's 21 paid.
    def three_sevens(approve: bool) -> dict[str, Any]:
        return round_(
            1,
            [bet("1", 20), bet("1:jp1", 1)],
            [
                ["deal", "1", "7H"],
                ["deal", "D", "9S"],
                ["deal", "1", "7H"],
                ["hit", "1", "7H"],
                ["stand", "1"],
                ["deal", "D", "8C"],
                ["pay", "1", 20],
                *([["approve", "1:jp1", "S-12"]] if approve else []),
                ["pay", "1:jp1", "15230.00"],
            ],
        )

    write_fixture(
        d,
        "fails-jackpot-paid-without-approval",
        [table(), shoe(), jackpot("15230.00", "2410.50"), three_sevens(False)],
        BJ_001,
        [
            finding(
                bj("jp1-supervisor-approval"), 4, "1:jp1", {"side.approved": True}, {"side.approved": False}
            )
        ],
    )
    write_fixture(
        d,
        "passes-approved-then-paid",
        [table(), shoe(), jackpot("15230.00", "2410.50"), three_sevens(True)],
        BJ_001,
        [],
    )

    d = out / "jp1-meters"
    # Two JP1 stakes of 1 (boxes 1 and 3, no seven: both lost) between readings of 1000 + 200: the next
    # reading must total 1202, neither meter lower.
    round_two = round_(
        1,
        [bet("1", 20), bet("1:jp1", 1), bet("3", 20), bet("3:jp1", 1)],
        [
            ["deal", "1", "KS"],
            ["deal", "3", "9C"],
            ["deal", "D", "6H"],
            ["deal", "1", "QD"],
            ["deal", "3", "8C"],
            ["stand", "1"],
            ["stand", "3"],
            ["deal", "D", "TC"],
            ["deal", "D", "2D"],
            ["lose", "3"],
            ["pay", "1", 20],
            ["lose", "3:jp1"],
            ["lose", "1:jp1"],
        ],
    )
    meters = "jackpot.main + jackpot.secondary"
    write_fixture(
        d,
        "fails-a-stake-missing-from-the-meters",
        [*head(), jackpot("1000", "200"), round_two, jackpot("1001", "200", 30)],
        BJ_001,
        [
            finding(
                bj("jp1-meters"), 5, None, {meters: "1202"}, {meters: "1201"}, kind="payout", round_id=None
            )
        ],
    )
    write_fixture(
        d,
        "fails-a-meter-going-down",
        [*head(), jackpot("1000", "200"), round_two, jackpot("1010", "192", 30)],
        BJ_001,
        [
            finding(
                bj("jp1-meters"),
                5,
                None,
                {"jackpot.secondary": ">= 200"},
                {"jackpot.secondary": "192"},
                kind="payout",
                round_id=None,
            )
        ],
    )
    write_fixture(
        d,
        "passes-stakes-added",
        [*head(), jackpot("1000", "200"), round_two, jackpot("1001.6", "200.4", 30)],
        BJ_001,
        [],
    )


# ================================================================ bataille rounds
def bataille_fixtures() -> None:
    out = ROOT / "bataille"
    head = [table("bataille", "BA-01", 5, 500), shoe()]
    offered = {"egalite.offered": True}

    # Box 1: K♠ against the dealer's 9♥: paid even money; no tie, the mise égalité is lost.
    def king_nine(bets: list[dict[str, Any]], side: list[list[Any]]) -> dict[str, Any]:
        return round_(1, bets, [["deal", "1", "KS"], ["deal", "D", "9H"], ["pay", "1", 20], *side])

    # Box 1: 9♠ against the dealer's 9♦: a tie. The player surrenders (half of 20 collected); the mise
    # égalité pays 10 for 1.
    def tie(bets: list[dict[str, Any]], side: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1, bets, [["deal", "1", "9S"], ["deal", "D", "9D"], ["surrender", "1"], ["lose", "1", 10], *side]
        )

    d = out / "side-bet-offered"
    write_fixture(
        d,
        "fails-lucky-ladies-at-bataille",
        [*head, king_nine([bet("1", 20), bet("1:lucky_ladies", 5)], [["lose", "1:lucky_ladies"]])],
        BATAILLE,
        [
            finding(
                ba("side-bet-offered"),
                3,
                "1:lucky_ladies",
                {"bet.side_offered": True},
                {"bet.side_offered": False},
            )
        ],
    )
    write_fixture(
        d,
        "passes-egalite",
        [*head, tie([bet("1", 20), bet("1:egalite", 5)], [["pay", "1:egalite", 50]])],
        BATAILLE,
        [],
        offered,
    )

    d = out / "egalite-offered"
    write_fixture(
        d,
        "fails-not-offered-by-the-house",
        [*head, tie([bet("1", 20), bet("1:egalite", 5)], [["pay", "1:egalite", 50]])],
        BATAILLE,
        [
            finding(
                ba("egalite-offered"),
                3,
                "1:egalite",
                {"house.egalite.offered": True},
                {"house.egalite.offered": False},
            )
        ],
    )
    write_fixture(
        d,
        "passes-offered",
        [*head, tie([bet("1", 20), bet("1:egalite", 5)], [["pay", "1:egalite", 50]])],
        BATAILLE,
        [],
        offered,
    )

    d = out / "egalite-with-main-bet"
    write_fixture(
        d,
        "fails-seated-player-without-a-main-bet",
        [*head, king_nine([bet("1", 20, "P1"), bet("2:egalite", 5, "P2")], [["lose", "2:egalite"]])],
        BATAILLE,
        [
            finding(
                ba("egalite-with-main-bet"),
                3,
                "2:egalite",
                {"condition": "bet.player_main or (not bet.seated and bet.box_has_main)"},
                {"bet.player_main": False, "bet.seated": True, "bet.box_has_main": False},
            )
        ],
        offered,
    )
    write_fixture(
        d,
        "passes-standing-player-on-his-own",
        [
            *head,
            king_nine([bet("1", 20, "P1"), bet("1:egalite", 5, "P9", seated=False)], [["lose", "1:egalite"]]),
        ],
        BATAILLE,
        [],
        offered,
    )

    d = out / "side-bet-before-deal"
    write_fixture(
        d,
        "fails-stake-not-among-the-bets",
        [*head, tie([bet("1", 20)], [["pay", "1:egalite", 50]])],
        BATAILLE,
        [
            finding(
                ba("side-bet-before-deal"),
                3,
                "1:egalite",
                {"bet.before_deal": True},
                {"bet.before_deal": False},
            )
        ],
        offered,
    )
    write_fixture(
        d,
        "passes",
        [*head, tie([bet("1", 20), bet("1:egalite", 5)], [["pay", "1:egalite", 50]])],
        BATAILLE,
        [],
        offered,
    )

    d = out / "egalite-limits"
    write_fixture(
        d,
        "fails-over-the-house-maximum",
        [*head, king_nine([bet("1", 20), bet("1:egalite", 30)], [["lose", "1:egalite"]])],
        BATAILLE,
        [finding(ba("egalite-limits"), 3, "1:egalite", {"bet.amount": "<= 25"}, {"bet.amount": "30"})],
        {**offered, "egalite.maximum": 25},
    )
    # No limits of its own in the house rules: the table's (5 to 500).
    write_fixture(
        d,
        "fails-below-the-table-minimum",
        [*head, king_nine([bet("1", 20), bet("1:egalite", 1)], [["lose", "1:egalite"]])],
        BATAILLE,
        [finding(ba("egalite-limits"), 3, "1:egalite", {"bet.amount": ">= 5"}, {"bet.amount": "1"})],
        offered,
    )
    write_fixture(
        d,
        "passes-at-the-house-maximum",
        [*head, king_nine([bet("1", 20), bet("1:egalite", 25)], [["lose", "1:egalite"]])],
        BATAILLE,
        [],
        {**offered, "egalite.maximum": 25},
    )

    d = out / "egalite-pays-10-1"
    write_fixture(
        d,
        "fails-paid-even-money",
        [*head, tie([bet("1", 20), bet("1:egalite", 5)], [["pay", "1:egalite", 5]])],
        BATAILLE,
        [
            finding(
                ba("egalite-pays-10-1"),
                3,
                "1:egalite",
                {"pay": "50", "line": "Égalité"},
                {"pay": "5"},
                kind="payout",
            )
        ],
        offered,
    )
    write_fixture(
        d,
        "passes-10-for-1",
        [*head, tie([bet("1", 20), bet("1:egalite", 5)], [["pay", "1:egalite", 50]])],
        BATAILLE,
        [],
        offered,
    )


def main() -> None:
    blackjack_fixtures()
    bataille_fixtures()


if __name__ == "__main__":
    main()
