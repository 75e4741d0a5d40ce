"""Writes the rule fixtures of the side-bet rules (tests/fixtures/rules/fr/{blackjack,bataille}/<rule>/).

    python tests/side_bets/make_fixtures.py

Every log is written card by card below, and every expected finding beside it was worked out from the
article the rule cites (the comments say how), not copied from the program's output.
test_side_bet_fixtures.py checks that the files on disk are what this script writes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # logbuilders: rounds shared with tests/house
sys.path.insert(0, str(HERE))  # sb_logs

from logbuilders import (  # noqa: E402
    Action,
    bataille_king_against_nine,
    bataille_tie_surrendered,
    dealer_busts_to_25,
    eighteen_without_a_seven,
    one_box_against_dealer_18,
    split_after_a_lucky_ladies_win,
    tierce_flush,
)
from sb_logs import BATAILLE, BJ_000, BJ_001, BJ_ALL, bet, jackpot, round_, shoe, table, write_fixture  # noqa: E402

ROOT = HERE.parent / "fixtures" / "rules" / "fr"
# The conditions of three rules, as a failed disjunction reports them (its text, and the facts it read).
LL_ORDER = (
    "(side.verb == side.previous_verb and side.box <= side.previous_box)"
    ' or (side.verb == "pay" and side.previous_verb == "lose")'
)
QUEENS = (
    "(not dealer.blackjack and side.main_settled == 0) or (dealer.blackjack and side.main_unsettled == 0)"
)
HYPER_ORDER = (
    '(side.verb == "lose" and side.main_stakes_settled == 0)'
    ' or (side.verb != "lose" and side.main_stakes_unsettled == 0)'
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


def fact_finding(
    rule: str, stake: str, fact: str, expected: Any, actual: Any, line: int = 3
) -> dict[str, Any]:
    """A procedure finding of round R1 on one fact: the rule wants `expected`, the log gives `actual`."""
    return finding(rule, line, stake, {fact: expected}, {fact: actual})


def payout_finding(rule: str, stake: str, pay: str, paytable_line: str, paid: str) -> dict[str, Any]:
    """A payout finding of round R1 (line 3): the paytable's `paytable_line` gives `pay`, the log `paid`."""
    return finding(rule, 3, stake, {"pay": pay, "line": paytable_line}, {"pay": paid}, kind="payout")


def bj(rule: str) -> str:
    return f"fr/blackjack/{rule}"


def ba(rule: str) -> str:
    return f"fr/bataille/{rule}"


def box_one_bets(stake: str, amount: Any) -> list[dict[str, Any]]:
    """P1, seated at box 1: 20 on the main bet and `amount` on the side stake `stake`."""
    return [bet("1", 20), bet(stake, amount)]


def standing_behind_box_one(stake: str, amount: Any) -> list[dict[str, Any]]:
    """P1 seated at box 1 with 20; P2, standing, rides 10 on box 1 and bets `amount` on `stake` there."""
    return [bet("1", 20, "P1"), bet("1", 10, "P2", seated=False), bet(stake, amount, "P2", seated=False)]


# ================================================================ blackjack rounds
# Box 1: K♠ Q♦ = 20 (any two cards totalling 20: 4 for 1 on both paytables, in every wording); box 3:
# 9♣ 8♣ = 17 (no 20: lost). Dealer 6♥, then 10♣ 2♦ = 18: box 3 collected, box 1 paid even money.
# `side` is settled right after the deal (by default, each box's 5 on lucky ladies), `end` after the main
# stakes.
def base_round(
    bets: list[dict[str, Any]] | None = None,
    side: Sequence[Action] | None = None,
    end: Sequence[Action] = (),
) -> dict[str, Any]:
    if bets is None:
        bets = [bet("1", 20), bet("1:lucky_ladies", 5), bet("3", 20), bet("3:lucky_ladies", 5)]
    if side is None:
        side = [["lose", "3:lucky_ladies"], ["pay", "1:lucky_ladies", 20]]
    return round_(
        1,
        bets,
        [
            ["deal", "1", "KS"],
            ["deal", "3", "9C"],
            ["deal", "D", "6H"],
            ["deal", "1", "QD"],
            ["deal", "3", "8C"],
            *side,
            ["stand", "1"],
            ["stand", "3"],
            ["deal", "D", "TC"],
            ["deal", "D", "2D"],
            ["lose", "3"],
            ["pay", "1", 20],
            *end,
        ],
    )


def one_box(
    bets: list[dict[str, Any]],
    after_deal: Sequence[Action],
    end: Sequence[Action],
    main_paid: int = 20,
    cards: tuple[str, str] = ("KS", "QD"),
) -> dict[str, Any]:
    """Box 1 dealt two cards (K♠ Q♦ by default) against the dealer's 6♥; it stands; the dealer draws
    10♣ 2♦ to 18 and box 1's 20 is paid even money on its stake."""
    return round_(1, bets, one_box_against_dealer_18(after_deal, end, main_paid, cards))


def head() -> list[dict[str, Any]]:
    return [table(), shoe()]


# ---------------------------------------------------------------- side bets box 1 wins
def lucky_ladies_won(
    bets: list[dict[str, Any]], paid: Any, main_paid: int = 20, cards: tuple[str, str] = ("KS", "QD")
) -> dict[str, Any]:
    """`one_box` with box 1's lucky ladies paid `paid` right after the deal (K♠ Q♦, any two cards
    totalling 20, pays 4 for 1)."""
    return one_box(bets, [["pay", "1:lucky_ladies", paid]], [], main_paid, cards)


# Box 1: 10♠ 8♦ = 18 stands; the dealer 6♣ 10♦ 9♥ = 25 busts: box 1 paid, « BUST » paid 2 for 1.
def hyper_bust_won(bets: list[dict[str, Any]], paid: Any, main_paid: int = 20) -> dict[str, Any]:
    return round_(1, bets, dealer_busts_to_25(main_paid, paid))


# Box 1: 9♥ 10♥ with the dealer's J♥: tierce flush, 30 for 1 (2 → 60). Dealer J♥ 7♣ = 17: box 1 paid.
def two_plus_one_won(bets: list[dict[str, Any]], paid: Any, main_paid: int = 20) -> dict[str, Any]:
    return round_(1, bets, tierce_flush([["pay", "1:two_plus_one", paid]], main_paid=main_paid))


# (bets, the side stake's payout, box 1's main payout): a round in which box 1 wins both.
WonRound = Callable[[list[dict[str, Any]], Any, int], dict[str, Any]]


class SideBet(NamedTuple):
    """A side bet as box 1 plays it in the fixtures of its seated-only and limits rules."""

    house_name: str  # its entry in the house rules
    stake: str  # box 1's stake
    versions: list[str]  # the ruleset versions that have it
    won: WonRound


LUCKY_LADIES = SideBet("lucky_ladies", "1:lucky_ladies", BJ_ALL, lucky_ladies_won)
HYPER_BUST = SideBet("hyper_blackjack", "1:hyper:bust", BJ_001, hyper_bust_won)
TWO_PLUS_ONE = SideBet("two_plus_one", "1:two_plus_one", BJ_001, two_plus_one_won)


def write_seated_only_fixtures(folder: Path, side: SideBet, amount: Any, *, paid: Any) -> None:
    """The house limits the side bet to seated players: P2, standing behind box 1 with a main bet of his
    own, bets `amount` on it (a finding); seated P1 bets the same (none). Box 1 wins both, the side bet
    paid `paid`; the rule is the one `folder` is named after."""
    house = {f"{side.house_name}.seated_only": True}
    write_fixture(
        folder,
        "fails-standing-player",
        [*head(), side.won(standing_behind_box_one(side.stake, amount), paid, 30)],
        side.versions,
        [fact_finding(bj(folder.name), side.stake, "bet.seated", True, False)],
        house,
    )
    write_fixture(
        folder,
        "passes-seated-player",
        [*head(), side.won(box_one_bets(side.stake, amount), paid, 20)],
        side.versions,
        [],
        house,
    )


def write_amount_fixture(
    folder: Path,
    name: str,
    house: dict[str, Any],
    side: SideBet,
    amount: Any,
    *,
    paid: Any,
    broken_limit: str | None = None,
) -> None:
    """Box 1 wins a side stake of `amount`, paid `paid`. With `broken_limit` (the bound the amount is
    outside of, as the finding states it) the rule `folder` is named after finds the amount."""
    findings = []
    if broken_limit is not None:
        findings = [fact_finding(bj(folder.name), side.stake, "bet.amount", broken_limit, str(amount))]
    write_fixture(
        folder,
        name,
        [*head(), side.won(box_one_bets(side.stake, amount), paid, 20)],
        side.versions,
        findings,
        house,
    )


# ================================================================ blackjack rounds
def blackjack_side_bet_offered(out: Path) -> None:
    """The fixtures of the rule side-bet-offered."""
    d = out / "side-bet-offered"
    # The mise égalité is bataille's (fr/bataille, al. 27): no wording of art. 55-4 provides it.
    write_fixture(
        d,
        "fails-egalite-at-blackjack",
        [*head(), one_box(box_one_bets("1:egalite", 5), [], [["lose", "1:egalite"]])],
        BJ_ALL,
        [fact_finding(bj("side-bet-offered"), "1:egalite", "bet.side_offered", True, False)],
    )
    # Hyper black jack is 6° of the 2025 text: the lucky-ladies wording (of 2013) has no such bet.
    hyper_on_box_4 = one_box_against_dealer_18(end=[["lose", "4:hyper:bust"]], box="4")
    write_fixture(
        d,
        "fails-hyper-before-2020",
        [*head(), round_(1, [bet("4", 20), bet("4:hyper:bust", 5)], hyper_on_box_4)],
        BJ_000,
        [fact_finding(bj("side-bet-offered"), "4:hyper:bust", "bet.side_offered", True, False)],
    )
    write_fixture(d, "passes-lucky-ladies", [*head(), base_round()], BJ_ALL, [])


def blackjack_side_bet_with_main_bet(out: Path) -> None:
    """The fixtures of the rule side-bet-with-main-bet."""
    d = out / "side-bet-with-main-bet"
    # "après avoir engagé leur mise principale": box 3 carries no main bet at all.
    write_fixture(
        d,
        "fails-no-main-bet-on-the-box",
        [*head(), one_box([bet("1", 20), bet("3:lucky_ladies", 5)], [["lose", "3:lucky_ladies"]], [])],
        BJ_ALL,
        [fact_finding(bj("side-bet-with-main-bet"), "3:lucky_ladies", "bet.player_main", True, False)],
    )
    # P2 stands behind box 1 and bets lucky ladies without a main bet of his own.
    write_fixture(
        d,
        "fails-another-players-main-bet",
        [*head(), lucky_ladies_won([bet("1", 20, "P1"), bet("1:lucky_ladies", 5, "P2", seated=False)], 20)],
        BJ_ALL,
        [fact_finding(bj("side-bet-with-main-bet"), "1:lucky_ladies", "bet.player_main", True, False)],
    )
    # P2, standing, rides 10 on box 1 and bets lucky ladies there: box 1's K♠ Q♦ pays his bet 4 for 1.
    write_fixture(
        d,
        "passes-standing-player-with-his-main-bet",
        [*head(), lucky_ladies_won(standing_behind_box_one("1:lucky_ladies", 5), 20, main_paid=30)],
        BJ_ALL,
        [],
    )


def blackjack_side_bet_before_deal(out: Path) -> None:
    """The fixtures of the rule side-bet-before-deal."""
    d = out / "side-bet-before-deal"
    # Box 1's lucky ladies is paid though it is not among the bets placed before the first card.
    write_fixture(
        d,
        "fails-stake-not-among-the-bets",
        [*head(), base_round([bet("1", 20), bet("3", 20), bet("3:lucky_ladies", 5)])],
        BJ_ALL,
        [fact_finding(bj("side-bet-before-deal"), "1:lucky_ladies", "bet.before_deal", True, False)],
    )
    write_fixture(d, "passes", [*head(), base_round()], BJ_ALL, [])


def lucky_ladies_limits(out: Path) -> None:
    """The fixtures of the rule lucky-ladies-limits."""
    d = out / "lucky-ladies-limits"
    house = {"lucky_ladies.minimum": 1, "lucky_ladies.maximum": 50}
    # K♠ Q♦ pays 4 for 1: 60 → 240, 0.5 → 2.
    write_amount_fixture(d, "fails-over-maximum", house, LUCKY_LADIES, 60, paid=240, broken_limit="<= 50")
    write_amount_fixture(d, "fails-below-minimum", house, LUCKY_LADIES, 0.5, paid=2, broken_limit=">= 1")
    write_fixture(
        d,
        "passes-at-the-limits",
        [
            *head(),
            base_round(
                [bet("1", 20), bet("1:lucky_ladies", 50), bet("3", 20), bet("3:lucky_ladies", 1)],
                [["lose", "3:lucky_ladies"], ["pay", "1:lucky_ladies", 200]],
            ),
        ],
        BJ_ALL,
        [],
        house,
    )


def lucky_ladies_paytable(out: Path) -> None:
    """The fixtures of the rule lucky-ladies-paytable."""
    d = out / "lucky-ladies-paytable"

    # Q♥ Q♥ against the dealer's 6♥ (no exception of b)): "Paire de dames de cœur", 125 for 1 on table A
    # in every wording: 5 → 625.
    def queens(paid: int) -> dict[str, Any]:
        return lucky_ladies_won(box_one_bets("1:lucky_ladies", 5), paid, cards=("QH", "QH"))

    write_fixture(
        d,
        "fails-queens-paid-as-a-pair",
        [*head(), queens(95)],
        BJ_ALL,
        [
            payout_finding(
                bj("lucky-ladies-paytable"), "1:lucky_ladies", "625", "Paire de dames de cœur", "95"
            )
        ],
    )
    write_fixture(d, "passes-queens-paid-125-for-1", [*head(), queens(625)], BJ_ALL, [])


def lucky_ladies_settlement_time(out: Path) -> None:
    """The fixtures of the rule lucky-ladies-settlement-time."""
    d = out / "lucky-ladies-settlement-time"
    # Box 1: K♠ 9♣ = 19, no 20: the bet is lost — but collected after box 1 has stood.
    write_fixture(
        d,
        "fails-collected-after-the-play",
        [
            *head(),
            round_(
                1,
                box_one_bets("1:lucky_ladies", 5),
                [
                    ["deal", "1", "KS"],
                    ["deal", "D", "6H"],
                    ["deal", "1", "9C"],
                    ["stand", "1"],
                    ["lose", "1:lucky_ladies"],
                    ["deal", "D", "TC"],
                    ["deal", "D", "2D"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_ALL,
        [
            fact_finding(
                bj("lucky-ladies-settlement-time"), "1:lucky_ladies", "side.play_started", False, True
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
                box_one_bets("1:lucky_ladies", 5),
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
            fact_finding(
                bj("lucky-ladies-settlement-time"), "1:lucky_ladies", "side.initial_deal_done", True, False
            )
        ],
    )
    write_fixture(d, "passes", [*head(), base_round()], BJ_ALL, [])


def lucky_ladies_settlement_order(out: Path) -> None:
    """The fixtures of the rule lucky-ladies-settlement-order."""
    d = out / "lucky-ladies-settlement-order"

    # Box 1 K♠ Q♦ = 20 (won, 4 for 1: 20), box 2 9♣ 8♣ = 17 (lost), box 5 10♥ 5♠ = 15 (lost), box 6 J♣ Q♥ =
    # 20 (won: 20). Dealer 6♥ 10♣ 2♦ = 18: box 6 paid, 5 and 2 collected, 1 paid.
    def four_boxes(ll: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            [x for box in ("1", "2", "5", "6") for x in (bet(box, 20), bet(f"{box}:lucky_ladies", 5))],
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

    def ladies_order_finding(previous_verb: str, previous_box: int) -> dict[str, Any]:
        """Box 5's lost lucky ladies collected right after box `previous_box`'s was settled."""
        return finding(
            bj("lucky-ladies-settlement-order"),
            3,
            "5:lucky_ladies",
            {"condition": LL_ORDER},
            {
                "side.verb": "lose",
                "side.previous_verb": previous_verb,
                "side.box": 5,
                "side.previous_box": previous_box,
            },
        )

    lose_2, lose_5 = ["lose", "2:lucky_ladies"], ["lose", "5:lucky_ladies"]
    pay_1, pay_6 = ["pay", "1:lucky_ladies", 20], ["pay", "6:lucky_ladies", 20]
    write_fixture(
        d,
        "fails-winner-paid-before-a-loser",
        [*head(), four_boxes([pay_6, lose_5, lose_2, pay_1])],
        BJ_ALL,
        [ladies_order_finding("pay", 6)],
    )
    write_fixture(
        d,
        "fails-left-to-right",
        [*head(), four_boxes([lose_2, lose_5, pay_6, pay_1])],
        BJ_ALL,
        [ladies_order_finding("lose", 2)],
    )
    write_fixture(
        d,
        "passes-losers-then-winners-right-to-left",
        [*head(), four_boxes([lose_5, lose_2, pay_6, pay_1])],
        BJ_ALL,
        [],
    )


def lucky_ladies_queens_of_hearts(out: Path) -> None:
    """The fixtures of the rule lucky-ladies-queens-of-hearts."""
    d = out / "lucky-ladies-queens-of-hearts"
    bets = box_one_bets("1:lucky_ladies", 5)

    # Q♥ Q♥ on box 1 against the dealer's K♣ then 5♦ 3♣ = 18, or against his A♣ then K♦ (black jack).
    def queens_against_king(early: list[list[Any]], settlement: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            bets,
            [
                ["deal", "1", "QH"],
                ["deal", "D", "KC"],
                ["deal", "1", "QH"],
                *early,
                ["stand", "1"],
                ["deal", "D", "5D"],
                ["deal", "D", "3C"],
                *settlement,
            ],
        )

    def queens_against_ace(settlement: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            bets,
            [
                ["deal", "1", "QH"],
                ["deal", "D", "AC"],
                ["deal", "1", "QH"],
                ["stand", "1"],
                ["deal", "D", "KD"],
                *settlement,
            ],
        )

    def queens_finding(dealer_blackjack: bool, main_settled: int, main_unsettled: int) -> dict[str, Any]:
        return finding(
            bj("lucky-ladies-queens-of-hearts"),
            3,
            "1:lucky_ladies",
            {"condition": QUEENS},
            {
                "dealer.blackjack": dealer_blackjack,
                "side.main_settled": main_settled,
                "side.main_unsettled": main_unsettled,
            },
        )

    queens_625, queens_5000 = ["pay", "1:lucky_ladies", 625], ["pay", "1:lucky_ladies", 5000]
    # Against the dealer's K♣, then 5♦ 3♣ = 18 (no black jack): 125 for 1 = 625, paid before box 1's 20.
    no_bj_late = queens_against_king([], [queens_625, ["pay", "1", 20]])
    # Against the dealer's A♣, then K♦: black jack. Box 1's 20 collected, then the queens paid 1000 for 1.
    bj_last = queens_against_ace([["lose", "1"], queens_5000])
    write_fixture(
        d,
        "fails-paid-before-the-dealers-second-card",
        [*head(), queens_against_king([queens_625], [["pay", "1", 20]])],
        BJ_ALL,
        [fact_finding(bj("lucky-ladies-queens-of-hearts"), "1:lucky_ladies", "dealer.cards", ">= 2", 1)],
    )
    write_fixture(
        d,
        "fails-paid-before-the-main-stakes-against-black-jack",
        [*head(), queens_against_ace([queens_5000, ["lose", "1"]])],
        BJ_ALL,
        [queens_finding(True, 0, 1)],
    )
    write_fixture(
        d,
        "fails-paid-after-the-main-stakes-without-black-jack",
        [*head(), queens_against_king([], [["pay", "1", 20], queens_625])],
        BJ_ALL,
        [queens_finding(False, 1, 0)],
    )
    write_fixture(d, "passes-paid-first-without-black-jack", [*head(), no_bj_late], BJ_ALL, [])
    write_fixture(d, "passes-paid-last-against-black-jack", [*head(), bj_last], BJ_ALL, [])


def lucky_ladies_no_split_after_win(out: Path) -> None:
    """The fixtures of the rule lucky-ladies-no-split-after-win."""
    d = out / "lucky-ladies-no-split-after-win"
    house = {"lucky_ladies.no_split_after_win": True}
    # K♠ Q♠ = 20 of one suit: 9 for 1 (5 → 45) in every wording; the winning box then splits.
    # Hand 1: K♠ 9♦ = 19, paid; hand 1/2: Q♠ 8♥ = 18, equal to the dealer's 18: returned.
    write_fixture(
        d,
        "fails-split-after-a-win",
        [*head(), round_(1, box_one_bets("1:lucky_ladies", 5), split_after_a_lucky_ladies_win())],
        BJ_ALL,
        [
            fact_finding(
                bj("lucky-ladies-no-split-after-win"), "1", '"lucky_ladies" in box.won_side_bets', False, True
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
                box_one_bets("1:lucky_ladies", 5),
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


def hyper_blackjack_limits(out: Path) -> None:
    """The fixtures of the rule hyper-blackjack-limits."""
    d = out / "hyper-blackjack-limits"
    house = {"hyper_blackjack.minimum": 1, "hyper_blackjack.maximum": 50}
    write_amount_fixture(d, "fails-below-minimum", house, HYPER_BUST, 0.5, paid=1, broken_limit=">= 1")
    write_amount_fixture(d, "fails-over-maximum", house, HYPER_BUST, 51, paid=102, broken_limit="<= 50")
    write_fixture(
        d,
        "passes-at-the-limits",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:hyper:bust", 50), bet("1:hyper:17", 1)],
                dealer_busts_to_25(bust_paid=100, before_main=[["lose", "1:hyper:17"]]),
            ),
        ],
        BJ_001,
        [],
        house,
    )


def hyper_blackjack_paytable(out: Path) -> None:
    """The fixtures of the rule hyper-blackjack-paytable."""
    d = out / "hyper-blackjack-paytable"

    # Dealer A♣ then K♥: black jack. « 21 » is a 21 of more than two cards: lost; « black jack » 19 for 1.
    def against_black_jack(hyper_bets: list[dict[str, Any]], settlement: list[list[Any]]) -> dict[str, Any]:
        return round_(
            1,
            [bet("1", 20), *hyper_bets],
            [
                ["deal", "1", "TS"],
                ["deal", "D", "AC"],
                ["deal", "1", "8D"],
                ["stand", "1"],
                ["deal", "D", "KH"],
                *settlement,
            ],
        )

    write_fixture(
        d,
        "fails-21-paid-on-the-dealers-black-jack",
        [*head(), against_black_jack([bet("1:hyper:21", 5)], [["lose", "1"], ["pay", "1:hyper:21", 50]])],
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
            against_black_jack(
                [bet("1:hyper:blackjack", 5), bet("1:hyper:21", 5), bet("1:hyper:bust", 5)],
                [
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


def hyper_blackjack_settlement_order(out: Path) -> None:
    """The fixtures of the rule hyper-blackjack-settlement-order."""
    d = out / "hyper-blackjack-settlement-order"

    # Box 2: K♠ Q♥ = 20; dealer 6♣ 10♦ 3♥ = 19: box 2 paid, « 19 » paid 5 for 1 (25), « BUST » lost.
    def hyper_19(settlement: list[list[Any]], early: Sequence[Action] = ()) -> dict[str, Any]:
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

    def hyper_order_finding(stake: str, verb: str, main_settled: int, main_unsettled: int) -> dict[str, Any]:
        return finding(
            bj("hyper-blackjack-settlement-order"),
            3,
            stake,
            {"condition": HYPER_ORDER},
            {
                "side.verb": verb,
                "side.main_stakes_settled": main_settled,
                "side.main_stakes_unsettled": main_unsettled,
            },
        )

    lose_bust, pay_19, pay_main = ["lose", "2:hyper:bust"], ["pay", "2:hyper:19", 25], ["pay", "2", 20]
    write_fixture(
        d,
        "fails-winner-paid-before-the-main-stakes",
        [*head(), hyper_19([lose_bust, pay_19, pay_main])],
        BJ_001,
        [hyper_order_finding("2:hyper:19", "pay", 0, 1)],
    )
    write_fixture(
        d,
        "fails-loser-collected-after-the-main-stakes",
        [*head(), hyper_19([pay_main, lose_bust, pay_19])],
        BJ_001,
        [hyper_order_finding("2:hyper:bust", "lose", 1, 0)],
    )
    write_fixture(
        d,
        "fails-collected-before-the-dealers-point",
        [*head(), hyper_19([pay_main, pay_19], early=[lose_bust])],
        BJ_001,
        [
            fact_finding(
                bj("hyper-blackjack-settlement-order"), "2:hyper:bust", "side.dealer_done", True, False
            )
        ],
    )
    write_fixture(d, "passes", [*head(), hyper_19([lose_bust, pay_main, pay_19])], BJ_001, [])
    # Box 1 (20): 10-9 and « BUST »; the dealer's ace, box 1 insures for 10 (2°, al. 3). His second card
    # 5♥ (soft 16), no black-jack: « il ramasse les assurances » (2°, al. 4) then; he draws 2♣ (soft 18).
    # Then 6°, al. 7, « après avoir déterminé et annoncé un point »: « BUST » collected, box 1 paid 20. The
    # insurance, settled at his second card by 2°, is no stake of 6°'s sequence: nothing to find.
    write_fixture(
        d,
        "passes-insurance-at-the-second-card",
        [
            *head(),
            round_(
                1,
                [bet("1", 20), bet("1:hyper:bust", 5)],
                [
                    ["deal", "1", "TS"],
                    ["deal", "D", "AS"],
                    ["deal", "1", "9C"],
                    ["insurance", "1", 10],
                    ["stand", "1"],
                    ["deal", "D", "5H"],
                    ["lose", "1:insurance"],
                    ["deal", "D", "2C"],
                    ["lose", "1:hyper:bust"],
                    ["pay", "1", 20],
                ],
            ),
        ],
        BJ_001,
        [],
    )


def two_plus_one_limits(out: Path) -> None:
    """The fixtures of the rule two-plus-one-limits."""
    d = out / "two-plus-one-limits"
    house = {"two_plus_one.minimum": 1, "two_plus_one.maximum": 50}
    write_amount_fixture(d, "fails-over-maximum", house, TWO_PLUS_ONE, 100, paid=3000, broken_limit="<= 50")
    write_amount_fixture(d, "passes-at-the-limit", house, TWO_PLUS_ONE, 50, paid=1500)


def two_plus_one_paytable(out: Path) -> None:
    """The fixtures of the rule two-plus-one-paytable."""
    d = out / "two-plus-one-paytable"
    two_plus_one_bets = box_one_bets("1:two_plus_one", 2)
    write_fixture(
        d,
        "fails-tierce-flush-paid-as-a-tierce",
        [*head(), two_plus_one_won(two_plus_one_bets, 20)],
        BJ_001,
        [payout_finding(bj("two-plus-one-paytable"), "1:two_plus_one", "60", "TIERCE FLUSH", "20")],
    )
    write_fixture(
        d, "passes-tierce-flush-30-for-1", [*head(), two_plus_one_won(two_plus_one_bets, 60)], BJ_001, []
    )


def two_plus_one_settlement_time(out: Path) -> None:
    """The fixtures of the rule two-plus-one-settlement-time."""
    d = out / "two-plus-one-settlement-time"
    two_plus_one_bets = box_one_bets("1:two_plus_one", 2)
    write_fixture(
        d,
        "fails-collected-with-the-main-stakes",
        [*head(), round_(1, two_plus_one_bets, tierce_flush([], [["pay", "1:two_plus_one", 60]]))],
        BJ_001,
        [
            fact_finding(
                bj("two-plus-one-settlement-time"), "1:two_plus_one", "side.play_started", False, True
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
                two_plus_one_bets,
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
        [fact_finding(bj("two-plus-one-settlement-time"), "1:two_plus_one", "side.box_cards", ">= 2", 1)],
    )
    write_fixture(
        d,
        "passes-right-after-the-second-card",
        [*head(), two_plus_one_won(two_plus_one_bets, 60)],
        BJ_001,
        [],
    )


def jp1_fixed_stake(out: Path) -> None:
    """The fixtures of the rule jp1-fixed-stake."""

    # Box 1: K♠ 8♦ = 18, no seven: the JP1 stake is lost; dealer 6♣ 10♦ 3♥ = 19: box 1 collected.
    def no_seven(jp1_stake: int) -> dict[str, Any]:
        return round_(1, box_one_bets("1:jp1", jp1_stake), eighteen_without_a_seven([["lose", "1:jp1"]]))

    d = out / "jp1-fixed-stake"
    house = {"jp1.stake": 1}
    write_fixture(
        d,
        "fails-not-the-fixed-amount",
        [*head(), no_seven(2)],
        BJ_001,
        [fact_finding(bj("jp1-fixed-stake"), "1:jp1", "bet.amount", "1", "2")],
        house,
    )
    write_fixture(d, "passes-the-fixed-amount", [*head(), no_seven(1)], BJ_001, [], house)


def jp1_paytable(out: Path) -> None:
    """The fixtures of the rule jp1-paytable."""
    d = out / "jp1-paytable"

    # 7♠ 7♦, then 4♥ = 18: two sevens among the first two cards, 25 for 1. Dealer 9♣ 8♣ = 17: box 1 paid.
    # The stake went into the jackpot before the cards (« les ramasse puis les ajoute à la cagnotte », 8°,
    # al. 3; reading jp1-stake, default kept): the gain, 25, is all the player gets, and hand-log/1 writes
    # its net on top of the stake: 24. Paid as « Un 7 » (2 for 1): a net of 1.
    def two_sevens(paid: int) -> dict[str, Any]:
        return round_(
            1,
            box_one_bets("1:jp1", 1),
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
        [*head(), two_sevens(1)],
        BJ_001,
        [payout_finding(bj("jp1-paytable"), "1:jp1", "24", "Deux « 7 »", "1")],
    )
    write_fixture(d, "passes-two-sevens-25-for-1", [*head(), two_sevens(24)], BJ_001, [])


def jp1_supervisor_approval(out: Path) -> None:
    """The fixtures of the rule jp1-supervisor-approval."""
    d = out / "jp1-supervisor-approval"

    # 7♥ 7♥, then 7♥: three sevens of one suit, the main jackpot, 15230.00 as the record before the round
    # shows it; the stake of 1 already in the jackpot (reading jp1-stake, default kept): a net of 15229.00.
    # Dealer 9♠ 8♣ = 17: box 1's 21 paid.
    def three_sevens(approve: bool) -> list[dict[str, Any]]:
        return [
            *head(),
            jackpot("15230.00", "2410.50"),
            round_(
                1,
                box_one_bets("1:jp1", 1),
                [
                    ["deal", "1", "7H"],
                    ["deal", "D", "9S"],
                    ["deal", "1", "7H"],
                    ["hit", "1", "7H"],
                    ["stand", "1"],
                    ["deal", "D", "8C"],
                    ["pay", "1", 20],
                    *([["approve", "1:jp1", "S-12"]] if approve else []),
                    ["pay", "1:jp1", "15229.00"],
                ],
            ),
        ]

    write_fixture(
        d,
        "fails-jackpot-paid-without-approval",
        three_sevens(False),
        BJ_001,
        [fact_finding(bj("jp1-supervisor-approval"), "1:jp1", "side.approved", True, False, line=4)],
    )
    write_fixture(d, "passes-approved-then-paid", three_sevens(True), BJ_001, [])


def jp1_meters(out: Path) -> None:
    """The fixtures of the rule jp1-meters."""
    d = out / "jp1-meters"
    # Two JP1 stakes of 1 (boxes 1 and 3, no seven: both lost) between readings of 1000 + 200: the next
    # reading must total 1202, neither meter lower.
    round_two = base_round(
        [bet("1", 20), bet("1:jp1", 1), bet("3", 20), bet("3:jp1", 1)],
        side=[],
        end=[["lose", "3:jp1"], ["lose", "1:jp1"]],
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


def blackjack_fixtures() -> None:
    """The fixtures of fr/blackjack's side-bet rules, one folder (rule) after another."""
    out = ROOT / "blackjack"
    blackjack_side_bet_offered(out)
    blackjack_side_bet_with_main_bet(out)
    blackjack_side_bet_before_deal(out)
    # ---------------------------------------------------------------- lucky ladies
    write_seated_only_fixtures(out / "lucky-ladies-seated-only", LUCKY_LADIES, 5, paid=20)
    lucky_ladies_limits(out)
    lucky_ladies_paytable(out)
    lucky_ladies_settlement_time(out)
    lucky_ladies_settlement_order(out)
    lucky_ladies_queens_of_hearts(out)
    lucky_ladies_no_split_after_win(out)
    # ================================================================ the 2025 text only
    # ---------------------------------------------------------------- hyper black jack
    write_seated_only_fixtures(out / "hyper-blackjack-seated-only", HYPER_BUST, 5, paid=10)
    hyper_blackjack_limits(out)
    hyper_blackjack_paytable(out)
    hyper_blackjack_settlement_order(out)
    # ---------------------------------------------------------------- 2 + 1 cartes
    write_seated_only_fixtures(out / "two-plus-one-seated-only", TWO_PLUS_ONE, 2, paid=60)
    two_plus_one_limits(out)
    two_plus_one_paytable(out)
    two_plus_one_settlement_time(out)
    # ---------------------------------------------------------------- JP1
    jp1_fixed_stake(out)
    jp1_paytable(out)
    jp1_supervisor_approval(out)
    jp1_meters(out)


# ================================================================ bataille rounds
def bataille_fixtures() -> None:
    out = ROOT / "bataille"
    head = [table("bataille", "BA-01", 5, 500), shoe()]
    offered = {"egalite.offered": True}

    # Box 1: K♠ against the dealer's 9♥: paid even money; no tie, the mise égalité is lost.
    def king_nine(bets: list[dict[str, Any]], side: list[list[Any]]) -> dict[str, Any]:
        return round_(1, bets, bataille_king_against_nine(side))

    # Box 1: 9♠ against the dealer's 9♦: a tie. The player surrenders (half of 20 collected); the mise
    # égalité pays 10 for 1.
    def tie(bets: list[dict[str, Any]], side: list[list[Any]]) -> dict[str, Any]:
        return round_(1, bets, bataille_tie_surrendered(side))

    def egalite_lost(amount: Any) -> dict[str, Any]:
        return king_nine(box_one_bets("1:egalite", amount), [["lose", "1:egalite"]])

    def egalite_paid(paid: int) -> dict[str, Any]:
        return tie(box_one_bets("1:egalite", 5), [["pay", "1:egalite", paid]])

    d = out / "side-bet-offered"
    write_fixture(
        d,
        "fails-lucky-ladies-at-bataille",
        [*head, king_nine(box_one_bets("1:lucky_ladies", 5), [["lose", "1:lucky_ladies"]])],
        BATAILLE,
        [fact_finding(ba("side-bet-offered"), "1:lucky_ladies", "bet.side_offered", True, False)],
    )
    write_fixture(d, "passes-egalite", [*head, egalite_paid(50)], BATAILLE, [], offered)

    d = out / "egalite-offered"
    write_fixture(
        d,
        "fails-not-offered-by-the-house",
        [*head, egalite_paid(50)],
        BATAILLE,
        [fact_finding(ba("egalite-offered"), "1:egalite", "house.egalite.offered", True, False)],
    )
    write_fixture(d, "passes-offered", [*head, egalite_paid(50)], BATAILLE, [], offered)

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
        [fact_finding(ba("side-bet-before-deal"), "1:egalite", "bet.before_deal", True, False)],
        offered,
    )
    write_fixture(d, "passes", [*head, egalite_paid(50)], BATAILLE, [], offered)

    d = out / "egalite-limits"
    write_fixture(
        d,
        "fails-over-the-house-maximum",
        [*head, egalite_lost(30)],
        BATAILLE,
        [fact_finding(ba("egalite-limits"), "1:egalite", "bet.amount", "<= 25", "30")],
        {**offered, "egalite.maximum": 25},
    )
    # No limits of its own in the house rules: the table's (5 to 500).
    write_fixture(
        d,
        "fails-below-the-table-minimum",
        [*head, egalite_lost(1)],
        BATAILLE,
        [fact_finding(ba("egalite-limits"), "1:egalite", "bet.amount", ">= 5", "1")],
        offered,
    )
    write_fixture(
        d,
        "passes-at-the-house-maximum",
        [*head, egalite_lost(25)],
        BATAILLE,
        [],
        {**offered, "egalite.maximum": 25},
    )

    d = out / "egalite-pays-10-1"
    write_fixture(
        d,
        "fails-paid-even-money",
        [*head, egalite_paid(5)],
        BATAILLE,
        [payout_finding(ba("egalite-pays-10-1"), "1:egalite", "50", "Égalité", "5")],
        offered,
    )
    write_fixture(d, "passes-10-for-1", [*head, egalite_paid(50)], BATAILLE, [], offered)


def main() -> None:
    blackjack_fixtures()
    bataille_fixtures()


if __name__ == "__main__":
    main()
