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


def outcome(blackjack: bool, mine: int, point: int, dealer_bj: bool) -> str:
    """A standing hand's result against the dealer's `point`: win, blackjack, push or lose. `blackjack`:
    the hand is two cards of the initial deal making 21 (a split hand's 21 is none)."""
    if blackjack:
        return "push" if dealer_bj else "blackjack"
    if dealer_bj or (point <= 21 and mine < point):
        return "lose"
    if point > 21 or mine > point:
        return "win"
    return "push"


class Round:
    """What a round holds while it is played: its events so far, each hand's stake and cards (by name,
    `seat3.hand1`), the dealer's cards, and which hands are blackjacks or busted."""

    __slots__ = ("blackjacks", "busted", "dealer", "events", "hands", "stakes")

    def __init__(self, opening: dict[str, Any]) -> None:
        self.events: list[dict[str, Any]] = [opening]
        self.stakes: dict[str, Decimal] = {}
        self.hands: dict[str, list[str]] = {}
        self.dealer: list[str] = []
        self.blackjacks: set[str] = set()
        self.busted: set[str] = set()


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
        """One round, in the order of the table: bets, the initial deal, each seat's decisions from the
        dealer's left, the dealer's draw, then the settlement. Its events come out once it is over."""
        self.game_no += 1
        self.clock += timedelta(seconds=self.rng.randint(50, 110))
        game = Round({"t": "game", "game": self.game_no, "shoe": self.shoe_no, "at": self.clock.isoformat()})
        self.take_bets(game)
        self.deal(game)
        for seat in self.seats:
            self.play_seat(game, seat)
        while total(game.dealer) < 17:  # the dealer draws to 16 and stands on every 17
            game.dealer.append(self.draw("dealer", game.events, "dealer"))
        self.settle(game)
        yield from game.events

    def take_bets(self, game: Round) -> None:
        for seat in self.seats:
            amount = Decimal(self.rng.choice([10, 20, 50]))
            game.events.append({"t": "debit", "seat": seat, "amount": str(amount), "for": "bet"})
            game.events.append(
                {"t": "bet", "game": self.game_no, "seat": seat, "amount": str(amount), "who": f"P{seat}"}
            )
            game.stakes[f"seat{seat}.hand1"] = amount
            game.hands[f"seat{seat}.hand1"] = []

    def deal(self, game: Round) -> None:
        """First card to each hand, from the dealer's left, then his own; a second card to each hand."""
        for name in list(game.hands):
            game.hands[name].append(self.draw(name, game.events, int(name[4])))
        game.dealer.append(self.draw("dealer", game.events, "dealer"))
        for name in list(game.hands):
            game.hands[name].append(self.draw(name, game.events, int(name[4])))
        game.blackjacks = {name for name, cards in game.hands.items() if total(cards) == 21}

    def move(self, game: Round, hand: str, move: str, **more: str) -> None:
        game.events.append({"t": "move", "game": self.game_no, "hand": hand, "move": move, **more})

    def play_seat(self, game: Round, seat: int) -> None:
        """The seat's hands in turn: a pair of 8s splits in two, played from the player's right."""
        order = [f"seat{seat}.hand1"]
        while order:
            name = order.pop(0)
            cards = game.hands[name]
            if len(cards) == 1:  # a split hand's second card, dealt before its player decides
                cards.append(self.draw(name, game.events, seat))
            if name in game.blackjacks:
                continue  # a blackjack makes no decision (and logs none)
            first_two = len(cards) == 2 and name.endswith("hand1") and f"seat{seat}.hand2" not in game.hands
            if first_two and cards[0][:-1] == cards[1][:-1] == "8":
                new = self.split(game, seat, name)
                order[:0] = [name, new]  # the hand at the player's right plays first
                continue
            self.play_hand(game, seat, name, first_two)

    def split(self, game: Round, seat: int, name: str) -> str:
        """Splits the hand `name` in two, the new hand staked as much: the new hand's name."""
        new = f"seat{seat}.hand2"
        self.move(game, name, "split", new=new)
        game.events.append({"t": "debit", "seat": seat, "amount": str(game.stakes[name]), "for": "split"})
        game.stakes[new], game.hands[new] = game.stakes[name], [game.hands[name].pop()]
        return new

    def play_hand(self, game: Round, seat: int, name: str, first_two: bool) -> None:
        """Doubles on a first two cards of 10 or 11 (one card more), or hits to 17; a bust is collected."""
        cards = game.hands[name]
        if first_two and total(cards) in (10, 11):
            self.move(game, name, "double")
            game.events.append(
                {"t": "debit", "seat": seat, "amount": str(game.stakes[name]), "for": "double"}
            )
            game.stakes[name] *= 2
            cards.append(self.draw(name, game.events, seat))
        else:
            while total(cards) < 17:
                self.move(game, name, "hit")
                cards.append(self.draw(name, game.events, seat))
            if total(cards) <= 21:
                self.move(game, name, "stand")
        if total(cards) > 21:  # collected at once (art. 55-4, 1°)
            game.busted.add(name)
            game.events.append(
                {"t": "settle", "game": self.game_no, "hand": name, "result": "lose", "paid": "0"}
            )

    def settle(self, game: Round) -> None:
        """Every hand still on the table, from the dealer's right: seat 7 first."""
        point = total(game.dealer)
        dealer_bj = point == 21 and len(game.dealer) == 2
        for name in sorted(game.hands, key=lambda n: (-int(n[4]), n)):
            if name in game.busted:
                continue
            result = outcome(name in game.blackjacks, total(game.hands[name]), point, dealer_bj)
            stake = game.stakes[name]
            paid = stake * Decimal("1.5") if result == "blackjack" and self.bug != "blackjack_even" else stake
            if result in ("lose", "push"):
                paid = Decimal(0)
            game.events.append(
                {"t": "settle", "game": self.game_no, "hand": name, "result": result, "paid": str(paid)}
            )


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
