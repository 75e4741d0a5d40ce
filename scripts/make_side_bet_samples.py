"""Writes samples/logs/side-bets/: one séance at table BJ-07 (fr/blackjack, 14 March 2025) with every side
bet of article 55-4 played by the rules, and the same séance with side-bet errors. Run from the root:

    python scripts/make_side_bet_samples.py

Both are checked with the house rules of samples/house/trouville.yaml (BJ-07: dames de cœur on table B,
seated players only, 1 to 50; hyper black jack and 2 + 1 cartes 1 to 50; JP1 stake 1; surrender).
samples/logs/side-bets/README.md lists the findings of the errors log, worked out from the article, and
tests/side_bets/test_side_bet_samples.py holds the program to that list.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "samples" / "logs" / "side-bets"
DAY = "2025-03-14"
SHOE = f"BJ-07/{DAY}/1"


def at(hour: int, minute: int) -> str:
    return f"{DAY}T{hour:02d}:{minute:02d}:00+01:00"


def bet(stake: str, amount: Any, player: str, seated: bool = True) -> dict[str, Any]:
    return {"stake": stake, "amount": amount, "player": player, "seated": seated}


def rnd(n: int, minute: int, bets: list[dict[str, Any]], actions: list[list[Any]]) -> dict[str, Any]:
    return {
        "type": "round",
        "round": f"{SHOE}/{n}",
        "shoe": SHOE,
        "at": at(21, minute),
        "dealer": "D-117",
        "bets": bets,
        "actions": actions,
    }


def jackpot(minute: int, main: str, secondary: str) -> dict[str, Any]:
    return {"type": "jackpot", "at": at(21, minute), "main": main, "secondary": secondary}


def clean() -> list[dict[str, Any]]:
    return [
        {
            "type": "table",
            "format": "hand-log/1",
            "table": "BJ-07",
            "casino": "Casino de Trouville",
            "game": "blackjack",
            "ruleset": "fr/blackjack",
            "at": at(20, 0),
            "seats": 7,
            "minimum": 10,
            "maximum": 1000,
            "new_cards": True,
        },
        {
            "type": "shoe",
            "shoe": SHOE,
            "at": at(20, 2),
            "reason": "open",
            "decks": 6,
            "backs": [3, 3],
            "shuffle": "manual",
            "cut_by": "4",
            "cut_card_behind": 70,
            "burn": ["9H", "2C", "KD", "4S", "7H"],
        },
        jackpot(0, "15230.00", "2410.50"),
        # R1: 2 + 1 cartes (9♥ 10♥ + J♥, tierce flush 30 for 1), dames de cœur (box 5's J♠ J♦: one rank, two
        # suits, so any 20, 4 for 1; boxes 6 and 2 without 20 collected first, right to left), hyper black
        # jack (dealer J♥ 9♦ = 19: « BUST » collected first, « 19 » paid 5 for 1 last).
        rnd(
            1,
            1,
            [
                bet("2", 20, "P2"),
                bet("2:lucky_ladies", 5, "P2"),
                bet("2:two_plus_one", 2, "P2"),
                bet("5", 50, "P5"),
                bet("5:lucky_ladies", 10, "P5"),
                bet("5:hyper:bust", 5, "P5"),
                bet("6", 20, "P6"),
                bet("6:lucky_ladies", 5, "P6"),
                bet("6:hyper:19", 5, "P6"),
            ],
            [
                ["deal", "2", "9H"],
                ["deal", "5", "JS"],
                ["deal", "6", "9C"],
                ["deal", "D", "JH"],
                ["deal", "2", "TH"],
                ["deal", "5", "JD"],
                ["deal", "6", "8C"],
                ["pay", "2:two_plus_one", 60],
                ["lose", "6:lucky_ladies"],
                ["lose", "2:lucky_ladies"],
                ["pay", "5:lucky_ladies", 40],
                ["stand", "2"],
                ["stand", "5"],
                ["stand", "6"],
                ["deal", "D", "9D"],
                ["lose", "5:hyper:bust"],
                ["lose", "6"],
                ["pay", "5", 50],
                ["push", "2"],
                ["pay", "6:hyper:19", 25],
            ],
        ),
        # R2: queens of hearts against the dealer's K♣: held; his K♣ 7♣ = 17 is no black jack, so they are
        # paid first (200 for 1 on table B), before the main stakes. Box 4's 7♠ 7♦: two sevens, JP1 25 for 1;
        # its stake of 1 went into the jackpot before the cards (8°, al. 3; reading jp1-stake): a net of 24.
        rnd(
            2,
            3,
            [
                bet("1", 20, "P1"),
                bet("1:lucky_ladies", 5, "P1"),
                bet("4", 20, "P4"),
                bet("4:jp1", 1, "P4"),
                bet("4:lucky_ladies", 2, "P4"),
            ],
            [
                ["deal", "1", "QH"],
                ["deal", "4", "7S"],
                ["deal", "D", "KC"],
                ["deal", "1", "QH"],
                ["deal", "4", "7D"],
                ["lose", "4:lucky_ladies"],
                ["stand", "1"],
                ["hit", "4", "5H"],
                ["stand", "4"],
                ["deal", "D", "7C"],
                ["pay", "1:lucky_ladies", 1000],
                ["pay", "4", 20],
                ["pay", "1", 20],
                ["pay", "4:jp1", 24],
            ],
        ),
        # R3: queens of hearts against the dealer's A♥, then K♦: black jack. The main stakes are collected
        # (the queens' owner's too) and the insurance paid 2 for 1, then the queens 1000 for 1.
        rnd(
            3,
            5,
            [bet("3", 20, "P3"), bet("3:lucky_ladies", 5, "P3"), bet("7", 20, "P7")],
            [
                ["deal", "3", "QH"],
                ["deal", "7", "TS"],
                ["deal", "D", "AH"],
                ["deal", "3", "QH"],
                ["deal", "7", "9S"],
                ["insurance", "7", 10],
                ["stand", "3"],
                ["stand", "7"],
                ["deal", "D", "KD"],
                ["lose", "7"],
                ["lose", "3"],
                ["pay", "7:insurance", 20],
                ["pay", "3:lucky_ladies", 5000],
            ],
        ),
        # R4: box 2's 7♥ 7♥ 7♥, the main jackpot (15230.00 by the last reading), paid after the supervisor's
        # approval; box 5 (K♠ 9♦, no seven) wins the 100-for-1 consolation. Each stake of 1 already in the
        # jackpot (reading jp1-stake): nets of 15229.00 and 99.
        rnd(
            4,
            7,
            [bet("2", 20, "P2"), bet("2:jp1", 1, "P2"), bet("5", 20, "P5"), bet("5:jp1", 1, "P5")],
            [
                ["deal", "2", "7H"],
                ["deal", "5", "KS"],
                ["deal", "D", "9S"],
                ["deal", "2", "7H"],
                ["deal", "5", "9D"],
                ["hit", "2", "7H"],
                ["stand", "2"],
                ["stand", "5"],
                ["deal", "D", "8C"],
                ["pay", "5", 20],
                ["pay", "2", 20],
                ["pay", "5:jp1", 99],
                ["approve", "2:jp1", "S-12"],
                ["pay", "2:jp1", "15229.00"],
            ],
        ),
        # The main jackpot was paid: its meter starts again from the house's amount; the secondary grew.
        jackpot(9, "10002.40", "2411.10"),
        # R5: three hyper cases on box 1, which surrenders 10♠ 6♦ against the dealer's 7♥ (half collected);
        # box 4's 7♠ 7♣ + 7♥: brelan, 20 for 1. Dealer 7♥ 10♦ = 17: « 17 » paid 4 for 1, after box 4's push.
        rnd(
            5,
            11,
            [
                bet("1", 20, "P1"),
                bet("1:hyper:17", 5, "P1"),
                bet("1:hyper:bust", 5, "P1"),
                bet("1:hyper:blackjack", 2, "P1"),
                bet("4", 20, "P4"),
                bet("4:two_plus_one", 2, "P4"),
            ],
            [
                ["deal", "1", "TS"],
                ["deal", "4", "7S"],
                ["deal", "D", "7H"],
                ["deal", "1", "6D"],
                ["deal", "4", "7C"],
                ["pay", "4:two_plus_one", 40],
                ["surrender", "1"],
                ["lose", "1", 10],
                ["hit", "4", "3D"],
                ["stand", "4"],
                ["deal", "D", "TD"],
                ["lose", "1:hyper:bust"],
                ["lose", "1:hyper:blackjack"],
                ["push", "4"],
                ["pay", "1:hyper:17", 20],
            ],
        ),
        # R6: a standing player rides on box 6; the JP1 stake (no seven) is collected.
        rnd(
            6,
            13,
            [bet("6", 20, "P6"), bet("6", 10, "P9", seated=False), bet("6:jp1", 1, "P6")],
            [
                ["deal", "6", "KD"],
                ["deal", "D", "5C"],
                ["deal", "6", "8H"],
                ["stand", "6"],
                ["deal", "D", "TC"],
                ["deal", "D", "9C"],
                ["pay", "6", 30],
                ["lose", "6:jp1"],
            ],
        ),
        # One JP1 stake since the last reading: the meters together grew by 1.
        jackpot(15, "10003.20", "2411.30"),
        # R7: K♥ Q♦, any 20: 4 for 1.
        rnd(
            7,
            16,
            [bet("3", 20, "P3"), bet("3", 10, "P9", seated=False), bet("3:lucky_ladies", 5, "P3")],
            [
                ["deal", "3", "KH"],
                ["deal", "D", "4S"],
                ["deal", "3", "QD"],
                ["pay", "3:lucky_ladies", 20],
                ["stand", "3"],
                ["deal", "D", "TS"],
                ["deal", "D", "5S"],
                ["pay", "3", 30],
            ],
        ),
        # R8: 2♦ 4♦ with the dealer's 3♦: tierce flush, 30 for 1.
        rnd(
            8,
            18,
            [bet("5", 20, "P5"), bet("5:two_plus_one", 2, "P5")],
            [
                ["deal", "5", "2D"],
                ["deal", "D", "3D"],
                ["deal", "5", "4D"],
                ["pay", "5:two_plus_one", 60],
                ["hit", "5", "TC"],
                ["hit", "5", "5C"],
                ["stand", "5"],
                ["deal", "D", "9H"],
                ["deal", "D", "6H"],
                ["pay", "5", 20],
            ],
        ),
        # R9: 50 (the house maximum) on « 20 »; the dealer's K♣ Q♣ = 20: paid 4 for 1.
        rnd(
            9,
            20,
            [bet("2", 20, "P2"), bet("2:hyper:20", 50, "P2")],
            [
                ["deal", "2", "8S"],
                ["deal", "D", "KC"],
                ["deal", "2", "9H"],
                ["stand", "2"],
                ["deal", "D", "QC"],
                ["lose", "2"],
                ["pay", "2:hyper:20", 200],
            ],
        ),
        # R10: 5♠ 5♣ with the dealer's 5♥: brelan, 20 for 1; box 6 doubles its 10.
        rnd(
            10,
            22,
            [bet("6", 20, "P6"), bet("6:two_plus_one", 2, "P6")],
            [
                ["deal", "6", "5S"],
                ["deal", "D", "5H"],
                ["deal", "6", "5C"],
                ["pay", "6:two_plus_one", 40],
                ["double", "6", 20, "9D"],
                ["deal", "D", "KD"],
                ["deal", "D", "2S"],
                ["pay", "6", 40],
            ],
        ),
        # R11: 9♣ K♣ = 19: no 20, the dames de cœur bet is collected.
        rnd(
            11,
            24,
            [bet("1", 20, "P1"), bet("1:lucky_ladies", 5, "P1")],
            [
                ["deal", "1", "9C"],
                ["deal", "D", "6S"],
                ["deal", "1", "KC"],
                ["lose", "1:lucky_ladies"],
                ["stand", "1"],
                ["deal", "D", "JC"],
                ["deal", "D", "AS"],
                ["pay", "1", 20],
            ],
        ),
    ]


def _round(records: list[dict[str, Any]], n: int) -> dict[str, Any]:
    return next(r for r in records if r.get("round") == f"{SHOE}/{n}")


def _move(actions: list[list[Any]], action: list[Any], before: list[Any]) -> None:
    actions.remove(action)
    actions.insert(actions.index(before), action)


def errors() -> list[dict[str, Any]]:
    """The same séance with one side-bet error in each round (and in the last meter reading)."""
    records = copy.deepcopy(clean())
    r1 = _round(records, 1)["actions"]  # J♠ J♦ paid as a pair (19 for 1): its suits differ
    r1[r1.index(["pay", "5:lucky_ladies", 40])] = ["pay", "5:lucky_ladies", 190]
    r2 = _round(records, 2)["actions"]  # the queens paid with the others, before the dealer's second card
    _move(r2, ["pay", "1:lucky_ladies", 1000], ["stand", "1"])
    r3 = _round(records, 3)["actions"]  # the queens paid before the main stakes were collected
    _move(r3, ["pay", "3:lucky_ladies", 5000], ["lose", "7"])
    r4 = _round(records, 4)["actions"]  # the jackpot paid with no supervisor's approval
    r4.remove(["approve", "2:jp1", "S-12"])
    r5 = _round(records, 5)["actions"]  # the winning hyper case paid before box 4's stake was settled
    _move(r5, ["pay", "1:hyper:17", 20], ["push", "4"])
    r6 = _round(records, 6)  # a JP1 stake of 2, not the house's fixed 1 (and the meters count 1)
    r6["bets"][2]["amount"] = 2
    r7 = _round(records, 7)  # the dames de cœur bet is the standing player's, the house allows seated only
    r7["bets"][2] = bet("3:lucky_ladies", 5, "P9", seated=False)
    r8 = _round(records, 8)  # the 2 + 1 cartes stake is not among the bets: placed after the first card
    r8["bets"] = r8["bets"][:1]
    r9 = _round(records, 9)  # 60 on « 20 », over the house maximum of 50 (paid 4 for 1: 240)
    r9["bets"][1]["amount"] = 60
    r9["actions"][-1] = ["pay", "2:hyper:20", 240]
    r10 = _round(records, 10)  # the 2 + 1 cartes bet on box 6 is P7's, who has no main bet there
    r10["bets"][1]["player"] = "P7"
    r11 = _round(records, 11)  # a mise égalité (a bataille bet) at the black-jack table
    r11["bets"][1]["stake"] = "1:egalite"
    r11["actions"][3] = ["lose", "1:egalite"]
    return records


def write(path: Path, records: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def main() -> None:
    write(OUT / "clean-BJ-07-side-bets.jsonl", clean())
    write(OUT / "errors-BJ-07-side-bets.jsonl", errors())


if __name__ == "__main__":
    main()
