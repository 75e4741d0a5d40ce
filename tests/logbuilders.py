"""Pieces of the short hand-log/1 logs that several test folders write (the reader and `check` tests, the
side-bet fixtures and procedure tests, the house-rules tests): the `table` and `shoe` records every log
opens with, and the card-by-card actions of rounds. The action builders return a round's `actions` only:
the callers wrap them in their own round records. The cards are chosen by hand; what a round must give is
worked out, from the article, beside each use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Action = list[Any]


def table_record(day: str = "2025-03-14", casino: str | None = None, **fields: Any) -> dict[str, Any]:
    """A `table` record: blackjack table BJ-03 under fr/blackjack, opened at 20:00 (+01:00) on `day`, seven
    boxes, limits 10 to 1000, new cards; `casino` (after the table id) only when given. `fields` replace
    values in place, so the keys keep their order in the log written."""
    record: dict[str, Any] = {"type": "table", "format": "hand-log/1", "table": "BJ-03"}
    if casino is not None:
        record["casino"] = casino
    record |= {
        "game": "blackjack",
        "ruleset": "fr/blackjack",
        "at": f"{day}T20:00:00+01:00",
        "seats": 7,
        "minimum": 10,
        "maximum": 1000,
        "new_cards": True,
    }
    return record | fields


def shoe_record(day: str = "2025-03-14", **fields: Any) -> dict[str, Any]:
    """A `shoe` record: shoe S1 opened at 20:02 (+01:00) on `day`, six decks of two backs shuffled by hand,
    cut by box 1 with the cut card 70 cards from the end, five cards burned. `fields` replace values in
    place, as in `table_record`."""
    return {
        "type": "shoe",
        "shoe": "S1",
        "at": f"{day}T20:02:00+01:00",
        "reason": "open",
        "decks": 6,
        "backs": [3, 3],
        "shuffle": "manual",
        "cut_by": "1",
        "cut_card_behind": 70,
        "burn": ["9H", "2C", "KD", "4S", "7H"],
    } | fields


def one_box_against_dealer_18(
    side: Sequence[Action] = (),
    end: Sequence[Action] = (),
    main_paid: Any = 20,
    cards: tuple[str, str] = ("KS", "QD"),
    box: str = "1",
    before_main: Sequence[Action] = (),
) -> list[Action]:
    """`box` dealt two cards (K♠ Q♦ = 20 by default) against the dealer's 6♥, and `side` settled right
    after the deal; the box stands; the dealer draws 10♣ 2♦ to 18; `before_main`, then the box's main
    stakes paid `main_paid` (a 19 or 20 wins even money), then `end`."""
    return [
        ["deal", box, cards[0]],
        ["deal", "D", "6H"],
        ["deal", box, cards[1]],
        *side,
        ["stand", box],
        ["deal", "D", "TC"],
        ["deal", "D", "2D"],
        *before_main,
        ["pay", box, main_paid],
        *end,
    ]


def split_after_a_lucky_ladies_win() -> list[Action]:
    """Box 1 (20 on the main bet, 5 on lucky ladies): K♠ Q♠ = 20 of one suit against the dealer's 6♥, the
    lucky ladies paid 9 for 1 (45); the box then splits. Hand 1: K♠ 9♦ = 19; hand 1/2: Q♠ 8♥ = 18. The
    dealer draws 10♣ 2♦ to 18: hand 1/2 returned, hand 1 paid."""
    return [
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
    ]


def dealer_busts_to_25(
    main_paid: Any = 20, bust_paid: Any = 10, before_main: Sequence[Action] = ()
) -> list[Action]:
    """Box 1: 10♠ 8♦ = 18 stands; the dealer's 6♣ 10♦ 9♥ = 25 busts: `before_main`, then box 1 paid
    `main_paid`, then the hyper black jack « BUST » stake paid `bust_paid` (2 for 1)."""
    return [
        ["deal", "1", "TS"],
        ["deal", "D", "6C"],
        ["deal", "1", "8D"],
        ["stand", "1"],
        ["deal", "D", "TD"],
        ["deal", "D", "9H"],
        *before_main,
        ["pay", "1", main_paid],
        ["pay", "1:hyper:bust", bust_paid],
    ]


def tierce_flush(side: Sequence[Action], end: Sequence[Action] = (), main_paid: Any = 20) -> list[Action]:
    """Box 1: 9♥ 10♥ with the dealer's J♥, a tierce flush for the 2 + 1 (30 for 1), `side` settled after
    box 1's second card; box 1 stands; the dealer draws 7♣ to 17; box 1 paid `main_paid`, then `end`."""
    return [
        ["deal", "1", "9H"],
        ["deal", "D", "JH"],
        ["deal", "1", "TH"],
        *side,
        ["stand", "1"],
        ["deal", "D", "7C"],
        ["pay", "1", main_paid],
        *end,
    ]


def eighteen_without_a_seven(jp1: Sequence[Action]) -> list[Action]:
    """Box 1: K♠ 8♦ = 18, no seven (a JP1 stake is lost); the dealer's 6♣ 10♦ 3♥ = 19: box 1 collected,
    then `jp1`."""
    return [
        ["deal", "1", "KS"],
        ["deal", "D", "6C"],
        ["deal", "1", "8D"],
        ["stand", "1"],
        ["deal", "D", "TD"],
        ["deal", "D", "3H"],
        ["lose", "1"],
        *jp1,
    ]


def bataille_king_against_nine(side: Sequence[Action]) -> list[Action]:
    """Bataille, box 1 (20): K♠ against the dealer's 9♥, paid even money; no tie. Then `side`."""
    return [["deal", "1", "KS"], ["deal", "D", "9H"], ["pay", "1", 20], *side]


def bataille_tie_surrendered(side: Sequence[Action]) -> list[Action]:
    """Bataille, box 1 (20): 9♠ against the dealer's 9♦, a tie; the player surrenders (half of 20
    collected). Then `side`."""
    return [["deal", "1", "9S"], ["deal", "D", "9D"], ["surrender", "1"], ["lose", "1", 10], *side]
