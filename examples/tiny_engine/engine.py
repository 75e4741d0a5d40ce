"""A small blackjack engine written for the converting walk-through (docs/converting-logs.md): it plays
the French game (no hole card, the dealer draws after the players and stands on every 17, a blackjack
paid 3 for 2, pairs of 8s split into two hands, doubles on 10 and 11) and records its play in **its own**
event format, one JSON object a line, as a vendor's engine does: nothing in it is hand-log.

Its events (`t` says which):

- `session`: the table opens (`table`, `opened` with its UTC offset, `boxes`, `min`, `max`);
- `shuffle`: a new shoe (`shoe`, `decks`, `cut_seat` the seat that cut, `cut_after` how many cards come
  out before the cut card, the burns counted, `burned`);
- `game`: a round starts (`game`, `shoe`, `at`);
- `debit`: the engine takes money from a seat's balance (`seat`, `amount`, `for`: bet, double, split);
- `bet`: a seat's wager (`seat`, `amount`, `who`);
- `card`: a card leaves the shoe (`to`: `seat3.hand1`, `seat3.hand2` or `dealer`; `card`: `Ah`, `10d`);
- `move`: a decision (`hand`, `move`: hit, stand, double, split; a split names the `new` hand);
- `cutcard`: the cut card came out (`seat` in front of which, or `dealer`);
- `settle`: a hand settled (`hand`, `result`: win, blackjack, push, lose; `paid`: the winnings).

`bug="blackjack_even"` plays a faulty build that pays a blackjack 1 for 1: the finding the walk-through
shows. Run: `python examples/tiny_engine/engine.py --rounds 40 --seed 11 > engine.jsonl`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["s", "h", "d", "c"]
DECKS = 6
BURN = 5
CUT_BEHIND = 70  # cards left behind the cut card (at least one deck: art. 55-4)


def value(card: str) -> int:
    rank = card[:-1]
    return 11 if rank == "A" else 10 if rank in ("10", "J", "Q", "K") else int(rank)


def total(cards: list[str]) -> int:
    points, aces = sum(value(c) for c in cards), sum(1 for c in cards if c[:-1] == "A")
    while points > 21 and aces:
        points, aces = points - 10, aces - 1
    return points


class Engine:
    def __init__(self, seed: int, seats: list[int], bug: str | None = None) -> None:
        self.rng = random.Random(seed)
        self.seats = seats
        self.bug = bug
        self.clock = datetime.fromisoformat("2025-03-14T20:00:00+01:00")
        self.shoe_no = 0
        self.cards: list[str] = []
        self.cut_out = False
        self.game_no = 0

    def shuffle(self) -> Iterator[dict[str, Any]]:
        self.shoe_no += 1
        self.cards = [r + s for _ in range(DECKS) for r in RANKS for s in SUITS]
        self.rng.shuffle(self.cards)
        burned = [self.cards.pop() for _ in range(BURN)]
        self.cut_out = False
        self.clock += timedelta(minutes=2)
        yield {
            "t": "shuffle", "shoe": self.shoe_no, "decks": DECKS, "cut_seat": self.seats[0],
            "cut_after": DECKS * 52 - CUT_BEHIND, "burned": burned, "at": self.clock.isoformat(),
        }  # fmt: skip

    def draw(self, to: str, events: list[dict[str, Any]], seat: int | str) -> str:
        if len(self.cards) == CUT_BEHIND and not self.cut_out:  # the cut card is drawn: it comes out
            self.cut_out = True
            events.append({"t": "cutcard", "game": self.game_no, "seat": seat})
        card = self.cards.pop()
        events.append({"t": "card", "game": self.game_no, "to": to, "card": card})
        return card

    def play(self, rounds: int) -> Iterator[dict[str, Any]]:
        yield {"t": "session", "table": "EX-1", "opened": self.clock.isoformat(), "boxes": 7, "min": 10,
               "max": 1000}  # fmt: skip
        yield from self.shuffle()
        for _ in range(rounds):
            if self.cut_out:  # the dealer finishes the round, then shuffles (art. 55-4)
                yield from self.shuffle()
            yield from self.round()

    def round(self) -> Iterator[dict[str, Any]]:
        self.game_no += 1
        self.clock += timedelta(seconds=self.rng.randint(50, 110))
        events: list[dict[str, Any]] = [
            {"t": "game", "game": self.game_no, "shoe": self.shoe_no, "at": self.clock.isoformat()}
        ]
        stakes: dict[str, Decimal] = {}
        hands: dict[str, list[str]] = {}
        for seat in self.seats:
            amount = Decimal(self.rng.choice([10, 20, 50]))
            events.append({"t": "debit", "seat": seat, "amount": str(amount), "for": "bet"})
            events.append(
                {"t": "bet", "game": self.game_no, "seat": seat, "amount": str(amount), "who": f"P{seat}"}
            )
            stakes[f"seat{seat}.hand1"] = amount
            hands[f"seat{seat}.hand1"] = []
        dealer: list[str] = []
        for name in list(hands):  # first card to each hand, from the dealer's left, then his own
            hands[name].append(self.draw(name, events, int(name[4])))
        dealer.append(self.draw("dealer", events, "dealer"))
        for name in list(hands):
            hands[name].append(self.draw(name, events, int(name[4])))
        busted: set[str] = set()
        blackjacks = {name for name, cards in hands.items() if total(cards) == 21}
        for seat in self.seats:
            order = [f"seat{seat}.hand1"]
            while order:
                name = order.pop(0)
                cards = hands[name]
                if len(cards) == 1:  # a split hand's second card, dealt before its player decides
                    cards.append(self.draw(name, events, seat))
                if name in blackjacks:
                    continue  # a blackjack makes no decision (and logs none)
                first_two = len(cards) == 2 and name.endswith("hand1") and f"seat{seat}.hand2" not in hands
                if first_two and cards[0][:-1] == cards[1][:-1] == "8":
                    new = f"seat{seat}.hand2"
                    events.append(
                        {"t": "move", "game": self.game_no, "hand": name, "move": "split", "new": new}
                    )
                    events.append({"t": "debit", "seat": seat, "amount": str(stakes[name]), "for": "split"})
                    stakes[new], hands[new] = stakes[name], [cards.pop()]
                    order[:0] = [name, new]  # the hand at the player's right plays first
                    continue
                if first_two and total(cards) in (10, 11):
                    events.append({"t": "move", "game": self.game_no, "hand": name, "move": "double"})
                    events.append({"t": "debit", "seat": seat, "amount": str(stakes[name]), "for": "double"})
                    stakes[name] *= 2
                    cards.append(self.draw(name, events, seat))
                else:
                    while total(cards) < 17:
                        events.append({"t": "move", "game": self.game_no, "hand": name, "move": "hit"})
                        cards.append(self.draw(name, events, seat))
                    if total(cards) <= 21:
                        events.append({"t": "move", "game": self.game_no, "hand": name, "move": "stand"})
                if total(cards) > 21:  # collected at once (art. 55-4, 1°)
                    busted.add(name)
                    events.append(
                        {"t": "settle", "game": self.game_no, "hand": name, "result": "lose", "paid": "0"}
                    )
        while total(dealer) < 17:  # the dealer draws to 16 and stands on every 17
            dealer.append(self.draw("dealer", events, "dealer"))
        point = total(dealer)
        dealer_bj = point == 21 and len(dealer) == 2
        for name in sorted(hands, key=lambda n: (-int(n[4]), n)):  # from the dealer's right: seat 7 first
            if name in busted:
                continue
            mine, stake = total(hands[name]), stakes[name]
            if name in blackjacks:  # two cards of the initial deal (a split hand's 21 is none)
                result = "push" if dealer_bj else "blackjack"
            elif dealer_bj or (point <= 21 and mine < point):
                result = "lose"
            elif point > 21 or mine > point:
                result = "win"
            else:
                result = "push"
            paid = stake * Decimal("1.5") if result == "blackjack" and self.bug != "blackjack_even" else stake
            if result in ("lose", "push"):
                paid = Decimal(0)
            events.append(
                {"t": "settle", "game": self.game_no, "hand": name, "result": result, "paid": str(paid)}
            )
        yield from events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A small blackjack engine, with its own event format.")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--seats", default="1,3")
    parser.add_argument("--bug", choices=["blackjack_even"])
    args = parser.parse_args(argv)
    engine = Engine(args.seed, [int(s) for s in args.seats.split(",")], args.bug)
    for event in engine.play(args.rounds):
        sys.stdout.write(json.dumps(event) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
