"""Issue 37, item 1: `caused_by` only where the finding's own facts read what its cause changed, and no state
kept across rounds that a later event resets. The rounds are written by hand; what each must give is worked
out from the text beside it."""

from __future__ import annotations

import json
from typing import Any

from inprocess import invoke
from logbuilders import shoe_record, table_record

DAY = "2016-03-14"
TWO_BOXES = [{"stake": "1", "amount": 20, "player": "P1"}, {"stake": "3", "amount": 20, "player": "P2"}]


def _round(rid: str, actions: list[list[Any]], **fields: Any) -> dict[str, Any]:
    return {"type": "round", "round": rid, "shoe": "S1", "at": f"{DAY}T21:00:00+01:00", "bets": TWO_BOXES,
            "actions": actions, **fields}  # fmt: skip


def _check(*rounds: dict[str, Any], fmt: str = "hand-log/1", extra: tuple[str, ...] = ()) -> list[dict]:
    records = [table_record(day=DAY, format=fmt), shoe_record(day=DAY), *rounds]
    ran = invoke(
        "check", "-", "--format", "jsonl", "--no-config", *extra,
        stdin="".join(json.dumps(r) + "\n" for r in records),
    )  # fmt: skip
    return [json.loads(line) for line in ran.stdout.splitlines()]


def _short(found: list[dict]) -> list[tuple[str, str | None, bool]]:
    return [(f["rule"].removeprefix("fr/blackjack/"), f.get("stake"), "caused_by" in f) for f in found]


def test_insurance_mistakes_that_do_not_read_the_early_card_are_independent():
    """Boxes 1 (T 8 = 18) and 3 (5 6 = 11) against the dealer's ace; he gives himself a 7 at the end of the
    initial deal (A 7, soft 18), too early (1°, al. 6: he draws « Lorsque tous les joueurs ont déterminé la
    situation de leurs mains »). Box 1 then insures 20 on 20; box 3 hits a 4 (15), then insures 10; the
    insurances are collected (no blackjack), box 1's 18 pushes and box 3's 15 is collected.

    - insurance-before-dealer-second-card (2°, al. 2 and 4: the card decides the insurance) reads the
      dealer's cards, which the early card changed: its two findings are the early card's consequences;
    - insurance-half-stake (2°, al. 3, « la moitié de sa propre mise »: 10, not 20) reads the amount, and
      insurance-before-drawing (2°, al. 2, « dès qu'ils ont tiré une autre carte ») the box's own hit:
      neither depends on the dealer's card, both are mistakes of their own."""
    found = _check(
        _round(
            "R1",
            [["deal", "1", "TH"], ["deal", "3", "5S"], ["deal", "D", "AC"], ["deal", "1", "8D"],
             ["deal", "3", "6C"], ["deal", "D", "7D"], ["insurance", "1", 20], ["stand", "1"],
             ["hit", "3", "4H"], ["insurance", "3", 10], ["stand", "3"], ["lose", "3:insurance"],
             ["lose", "1:insurance"], ["lose", "3"], ["push", "1"]],
        )
    )  # fmt: skip
    assert _short(found) == [
        ("dealer-second-card-after-players", "D", False),
        ("insurance-before-dealer-second-card", "1:insurance", True),
        ("insurance-before-dealer-second-card", "3:insurance", True),
        ("insurance-half-stake", "1:insurance", False),
        ("insurance-before-drawing", "3:insurance", False),
    ]


def test_an_insurance_against_a_ten_after_an_early_card_is_its_own_mistake():
    """The dealer's first card a K, his 8 at the end of the deal (too early); box 1 insures 10. 2°, al. 1:
    « Lorsque la première carte du croupier est un as »: the first card, which he held before the early
    one, is not an ace: insurance-against-ace is independent; insurance-before-dealer-second-card is the
    early card's. Box 3 (5 6 7 = 18) beats 18? No: equal points, returned; box 1 (18) returned."""
    found = _check(
        _round(
            "R1",
            [["deal", "1", "TH"], ["deal", "3", "5S"], ["deal", "D", "KC"], ["deal", "1", "8D"],
             ["deal", "3", "6C"], ["deal", "D", "8H"], ["insurance", "1", 10], ["stand", "1"],
             ["hit", "3", "7H"], ["stand", "3"], ["lose", "1:insurance"], ["push", "3"], ["push", "1"]],
        )
    )  # fmt: skip
    assert _short(found) == [
        ("dealer-second-card-after-players", "D", False),
        ("insurance-before-dealer-second-card", "1:insurance", True),
        ("insurance-against-ace", "1:insurance", False),
    ]


def test_a_reshuffle_puts_the_cut_card_back_in_even_in_a_round_that_cannot_be_replayed():
    """R1: the stop card comes out, the discards are reshuffled, then the round settles a stake never bet
    (box 5): it cannot be replayed (hand-log/unknown-stake), and its records are still read for the shoe.
    The reshuffle put the cut card back in (docs/hand-log.md), so R2 is not due for a reshuffle: before,
    the cut card was marked out again and R2 had reshuffle-after-cut-card. R2: 9 9 = 18 against T 7 = 17,
    paid. Box 3 of R2 sits out (one bet)."""
    one_box = [{"stake": "1", "amount": 20, "player": "P1"}]
    r1 = _round(
        "R1",
        [["deal", "1", "TD"], ["deal", "D", "6D"], ["deal", "1", "8C"], ["stand", "1"], ["cut_card", "D"],
         ["reshuffle", ["5C"]], ["deal", "D", "AC"], ["pay", "1", 20], ["pay", "5", 20]],
        bets=one_box,
    )  # fmt: skip
    r2 = _round(
        "R2",
        [["deal", "1", "9S"], ["deal", "D", "TC"], ["deal", "1", "9C"], ["stand", "1"], ["deal", "D", "7S"],
         ["pay", "1", 20]],
        bets=one_box,
    )  # fmt: skip
    found = _check(r1, r2, fmt="hand-log/1.1")
    assert [(f["round"], f["rule"]) for f in found] == [("R1", "hand-log/unknown-stake")]


def test_split_max_hands_says_what_the_box_held():
    """Ontario, section 9: « Tout joueur peut diviser une main deux (2) fois, pour un maximum de trois (3)
    mains ». Box 1 splits 8 8, then 8 8 again (three hands), then a third time: the box already held three
    hands, the most, and splits again. The message says so in the box's own numbers."""
    records = [
        table_record(day="2025-08-22", ruleset="on/fair-blackjack", minimum=1, maximum=5),
        shoe_record(day="2025-08-22", backs=[6], burn=["9H"], cut_card_behind=80),
        {"type": "round", "round": "R1", "shoe": "S1", "at": "2025-08-22T19:00:00-04:00",
         "bets": [{"stake": "1", "amount": 4, "player": "P1"}],
         "actions": [["deal", "1", "8H"], ["deal", "D", "6C"], ["deal", "1", "8D"], ["split", "1", 4],
                     ["deal", "1", "8S"], ["split", "1", 4], ["deal", "1", "8C"], ["split", "1", 4],
                     ["deal", "1", "TD"], ["stand", "1"], ["deal", "1/4", "TH"], ["stand", "1/4"],
                     ["deal", "1/3", "TS"], ["stand", "1/3"], ["deal", "1/2", "TC"], ["stand", "1/2"],
                     ["deal", "D", "TC"], ["deal", "D", "2D"], ["push", "1/4"], ["push", "1/3"],
                     ["push", "1/2"], ["push", "1"]]},
    ]  # fmt: skip
    ran = invoke(
        "check", "-", "--format", "jsonl", "--no-config", stdin="".join(json.dumps(r) + "\n" for r in records)
    )
    found = [json.loads(line) for line in ran.stdout.splitlines()]
    limit = [f for f in found if f["rule"] == "on/fair-blackjack/split-max-hands"]
    assert [f["message"] for f in limit] == [
        "Box 1 split again while it already held 3 hands: a box may reach at most 3 hands by splitting, so "
        "it splits only while it holds fewer."
    ]
    assert limit[0]["expected"] == {
        "hands the box holds (at a split, before it: the split adds one)": "less than 3"
    }
    assert limit[0]["actual"] == {"hands the box holds (at a split, before it: the split adds one)": 3}
