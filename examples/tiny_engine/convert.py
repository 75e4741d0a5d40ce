"""The converter of the walk-through (docs/converting-logs.md): the tiny engine's own events
(examples/tiny_engine/engine.py) written as hand-log/1.2, without correcting anything.

What it does, event by event:

- `session` → a `table` record (the ruleset the table plays, fr/blackjack; new cards);
- `shuffle` → a `shoe` record: the cards behind the cut card are the shoe's cards less those before it
  (`cut_after`); the decks' backs are the casino's (two colours of three decks), the shuffle by hand;
- a round's events → one `round` record: `bet` → its `bets`; `debit` → a `charge` of the stake it pays
  for (hand-log/1.2); `card` → `deal`, `hit` or `double` by what came before it (the card after a `hit`
  move is a `hit`; after a `double` move, the double's card; any other is a `deal`: the initial deal, a
  split hand's second card, the dealer's cards); `move` → `stand`, `split` (the `hit` and `double` moves
  wait for their card); `cutcard` → `cut_card`; `settle` → `pay` (the winnings), `lose`, `push`.
- Hands are renamed as hand-log names them: `seat3.hand1` → `3`, each split's new hand → `3/2`, `3/3`, …
  in the order of the splits (not by the engine's numbering); the dealer → `D`. Cards: `Ah` → `AH`,
  `10d` → `TD`.

Run: `python examples/tiny_engine/convert.py engine.jsonl > hand-log.jsonl`, then
`casino-validator check hand-log.jsonl`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

SUITS = {"s": "S", "h": "H", "d": "D", "c": "C"}


def card(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    return ("T" if rank == "10" else rank) + SUITS[suit]


def amount(text: str) -> int | str:
    """The engine writes amounts as decimal strings: hand-log takes them as written (exact decimals)."""
    return int(text) if text.isdigit() else text


class Round:
    """One round's events gathered into a hand-log round record."""

    def __init__(self, event: dict[str, Any], shoe: str) -> None:
        self.record: dict[str, Any] = {
            "type": "round", "round": f"EX-1/{event['game']}", "shoe": shoe, "at": event["at"],
            "bets": [], "actions": [],
        }  # fmt: skip
        self.names: dict[str, str] = {}  # the engine's hand → hand-log's
        self.splits: dict[int, int] = {}  # hands opened per box
        self.pending: dict[str, tuple[str, Any]] = {}  # hand → the move waiting for its card
        # A double or split move waits for its debit, which the engine writes just after it: the move's
        # hand-log action needs the amount.
        self.awaiting: tuple[str, str, str] | None = None

    def hand(self, engine_name: str) -> str:
        if engine_name == "dealer":
            return "D"
        if engine_name not in self.names:  # a box's first hand: its number
            self.names[engine_name] = engine_name[4 : engine_name.index(".")]
        return self.names[engine_name]

    def add(self, event: dict[str, Any]) -> None:
        kind, actions = event["t"], self.record["actions"]
        if kind == "bet":
            self.record["bets"].append(
                {
                    "stake": str(event["seat"]),
                    "amount": amount(event["amount"]),
                    "player": event["who"],
                    "seated": True,
                }
            )
        elif kind == "debit":
            if event["for"] == "bet":
                actions.append(["charge", str(event["seat"]), amount(event["amount"])])
            else:  # a double's or a split's, for the move just before it
                self.debited(event)
        elif kind == "card":
            to = self.hand(event["to"])
            move = self.pending.pop(to, None)
            if move is None:
                actions.append(["deal", to, card(event["card"])])
            elif move[0] == "hit":
                actions.append(["hit", to, card(event["card"])])
            else:  # a double: its amount, then its one card
                actions.append(["double", to, move[1], card(event["card"])])
        elif kind == "move":
            self.move(event)
        elif kind == "cutcard":
            actions.append(["cut_card", "D" if event["seat"] == "dealer" else str(event["seat"])])
        elif kind == "settle":
            stake = self.hand(event["hand"])
            if event["result"] in ("win", "blackjack"):
                actions.append(["pay", stake, amount(event["paid"])])
            elif event["result"] == "lose":
                actions.append(["lose", stake])
            else:
                actions.append(["push", stake])

    def move(self, event: dict[str, Any]) -> None:
        actions, name = self.record["actions"], self.hand(event["hand"])
        move = event["move"]
        if move == "stand":
            actions.append(["stand", name])
        elif move == "hit":
            self.pending[name] = ("hit", None)
        elif move in ("double", "split"):
            self.awaiting = (move, name, event.get("new", ""))

    def debited(self, event: dict[str, Any]) -> None:
        assert self.awaiting is not None, "a debit for a double or split comes after its move"
        (move, name, engine_new), self.awaiting = self.awaiting, None
        actions, paid = self.record["actions"], amount(event["amount"])
        if move == "double":
            actions.append(["charge", name, paid])
            self.pending[name] = ("double", paid)
            return
        # A split opens the box's next hand, named in the order of the splits (not the engine's number).
        box = int(name.split("/")[0])
        self.splits[box] = self.splits.get(box, 1) + 1
        new = self.names[engine_new] = f"{box}/{self.splits[box]}"
        actions.append(["charge", new, paid])
        actions.append(["split", name, paid])


def convert(events: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    shoe = ""
    current: Round | None = None
    waiting: list[dict[str, Any]] = []  # a debit comes before its round's `game` event? kept for it
    for event in events:
        kind = event["t"]
        if kind in ("session", "shuffle", "game") and current is not None:
            yield current.record
            current = None
        if kind == "session":
            yield {
                "type": "table", "format": "hand-log/1.2", "table": event["table"], "game": "blackjack",
                "ruleset": "fr/blackjack", "at": event["opened"], "seats": event["boxes"],
                "minimum": event["min"], "maximum": event["max"], "new_cards": True,
            }  # fmt: skip
        elif kind == "shuffle":
            shoe = f"EX-1/{event['shoe']}"
            cards = event["decks"] * 52
            yield {
                "type": "shoe", "shoe": shoe, "at": event["at"],
                "reason": "open" if event["shoe"] == 1 else "cut_card",
                "decks": event["decks"], "backs": [event["decks"] // 2, event["decks"] - event["decks"] // 2],
                "shuffle": "manual", "cut_by": str(event["cut_seat"]),
                "cut_card_behind": cards - event["cut_after"], "burn": [card(c) for c in event["burned"]],
            }  # fmt: skip
        elif kind == "game":
            current = Round(event, shoe)
            for early in waiting:
                current.add(early)
            waiting.clear()
        elif current is None:
            waiting.append(event)
        else:
            current.add(event)
    if current is not None:
        yield current.record


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    with open(args[0], encoding="utf-8") as source:
        for record in convert(json.loads(line) for line in source if line.strip()):
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
