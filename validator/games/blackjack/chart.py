"""The strategy `edge` assumes, as casinos print it for their dealers and players: for each two-card
hand against each dealer's first card, S (stand), H (hit), D (double), P (split), R (surrender).

The figures play composition-dependent: two hands of one total may be played differently (10-2 and 9-3
against a 4 at six decks, say). A chart row gives the play of the largest share of the total's hands
(weighted by their probability from a full shoe), and lists the hands played otherwise as exceptions.

A hand of three cards hits or stands: by its total, the chart's letter where it is H or S; where the
chart doubles, splits or surrenders, what most of the total's two-card hands would do of hitting and
standing (`drawing`). The three-card hands the play reaches (one of their two-card hands hits against
that dealer's card) and plays otherwise are listed too (16 against a ten: most three-card sixteens stand
at six decks, the chart hits).
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb
from typing import Any

from validator.games.blackjack.maths import ACE, TEN, MainGame
from validator.i18n import _

LETTERS = {"stand": "S", "hit": "H", "double": "D", "split": "P", "surrender": "R"}
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, TEN, ACE)  # 2 … 9, ten-value, ace: the columns as charts print them
NAMES = "A23456789T"


def _letter(action: str) -> str:
    """ "split (identical) / stand": identical ten-value pairs split, others stand: P/S."""
    if " / " in action:
        chosen, other = action.split(" / ")
        return f"{LETTERS[chosen.split(' ')[0]]}/{LETTERS[other]}"
    return LETTERS[action]


def chart(game: MainGame) -> dict[str, Any]:
    full = game.full
    rows: dict[str, dict[str, dict[str, str]]] = {"hard": {}, "soft": {}, "pairs": {}}
    exceptions: list[dict[str, str]] = []
    plays: dict[tuple[str, str, str], dict[str, float]] = {}
    hands: dict[tuple[str, str, str], list[tuple[str, str]]] = {}
    for (first, second, up), action in game.strategy.items():
        weight = full[first] * (full[second] - (first == second)) * (1 if first == second else 2)
        if first == second:
            table, row = "pairs", f"{NAMES[first]},{NAMES[first]}"
        elif ACE in (first, second):
            table, row = "soft", str(first + second + 12)
        else:
            table, row = "hard", str(first + second + 2)
        key = (table, row, NAMES[up])
        letter = _letter(action)
        votes = plays.setdefault(key, {})
        votes[letter] = votes.get(letter, 0.0) + weight
        hands.setdefault(key, []).append((f"{NAMES[first]},{NAMES[second]}", letter))
    for (table, row, column), votes in plays.items():
        chosen = max(sorted(votes), key=lambda letter: votes[letter])
        rows[table].setdefault(row, {})[column] = chosen
        for hand, letter in hands[(table, row, column)]:
            if letter != chosen:
                exceptions.append({"hand": hand, "dealer": column, "play": letter, "chart": chosen})
    order = [NAMES[i] for i in UP_ORDER]
    tables: dict[str, Any] = {}
    for table, by_row in rows.items():
        tables[table] = {
            row: {up: by_row[row][up] for up in order if up in by_row[row]}
            for row in sorted(by_row, key=_row_order)
        }
    drawing, three = _three_cards(game, rows)
    return {
        "dealer_cards": order,
        **tables,
        "exceptions": exceptions,
        "drawing": {
            table: {
                row: {up: by_row[row][up] for up in order if up in by_row[row]}
                for row in sorted(by_row, key=_row_order)
            }
            for table, by_row in drawing.items()
        },
        "three_card_exceptions": three,
    }


def _kind(cards: tuple[int, ...]) -> tuple[str, str]:
    """The chart's table and row of a hand's total (hard, or soft: an ace counted 11)."""
    hard = sum(cards) + len(cards)
    if ACE in cards and hard + 10 <= 21:
        return "soft", str(hard + 10)
    return "hard", str(hard)


def _three_cards(
    game: MainGame, rows: dict[str, dict[str, dict[str, str]]]
) -> tuple[dict[str, dict[str, dict[str, str]]], list[dict[str, str]]]:
    """The total's play on three cards (H or S) by table, row and dealer's card, and the three-card hands
    the play reaches that play otherwise."""
    full, values, found = game.full, game.values, game.hands
    size = sum(full)

    def weight(cards: tuple[int, ...]) -> float:
        ways = 1
        for value in set(cards):
            ways *= comb(full[value], cards.count(value))
        return ways / comb(size, len(cards))

    def draws(cards: tuple[int, ...], up: int) -> bool | None:
        counts = [0] * len(full)
        for card in cards:
            counts[card] += 1
        k = found.find(0, counts)
        if k is None or values.hit[k, up] == float("-inf"):
            return None
        return bool(values.hit[k, up] > values.stand[k, up])

    # Where the chart's letter is neither H nor S: what most two-card hands of the total would do.
    votes: dict[tuple[str, str, int], dict[str, float]] = {}
    for first, second in combinations_with_replacement(range(len(full)), 2):
        for up in range(len(full)):
            hits = draws((first, second), up)
            if hits is not None:
                table, row = _kind((first, second))
                vote = votes.setdefault((table, row, up), {})
                letter = "H" if hits else "S"
                vote[letter] = vote.get(letter, 0.0) + weight((first, second))
    drawing: dict[str, dict[str, dict[str, str]]] = {"hard": {}, "soft": {}}
    exceptions: list[dict[str, str]] = []
    for cards in combinations_with_replacement(range(len(full)), 3):
        if sum(cards) + 3 > 21 or any(cards.count(v) > full[v] for v in set(cards)):
            continue
        table, row = _kind(cards)
        for up in UP_ORDER:
            reached = any(
                game.strategy.get((low, high, up)) == "hit"
                for low, high in {(cards[0], cards[1]), (cards[0], cards[2]), (cards[1], cards[2])}
            )
            hits = draws(cards, up)
            if not reached or hits is None:
                continue
            letter = rows.get(table, {}).get(row, {}).get(NAMES[up], "")
            if letter not in ("H", "S"):
                vote = votes.get((table, row, up), {})
                letter = max(sorted(vote), key=lambda v: vote[v]) if vote else ("S" if row == "21" else "H")
            drawing[table].setdefault(row, {})[NAMES[up]] = letter
            play = "H" if hits else "S"
            if play != letter:
                hand = ",".join(NAMES[c] for c in cards)
                exceptions.append({"hand": hand, "dealer": NAMES[up], "play": play, "chart": letter})
    return drawing, exceptions


def _row_order(row: str) -> tuple[int, str]:
    return (int(row), "") if row.isdigit() else (NAMES.index(row[0]) if row[0] != "A" else 99, row)


def text(data: dict[str, Any]) -> str:
    out = [_("strategy the figures assume (S stand, H hit, D double, P split, R surrender):")]
    names = {"hard": _("hard"), "soft": _("soft"), "pairs": _("pairs")}
    head = "  " + " " * 6 + "".join(f"{up:>5}" for up in data["dealer_cards"])
    for table in ("hard", "soft", "pairs"):
        out.append(f" {names[table]}")
        out.append(head)
        for row, plays in data[table].items():
            label = f"A,{int(row) - 11}" if table == "soft" else row
            out.append(f"  {label:<6}" + "".join(f"{plays.get(up, '-'):>5}" for up in data["dealer_cards"]))
    if data["exceptions"]:
        out.append(" " + _("hands played otherwise than their row:"))
        for item in data["exceptions"]:
            out.append(
                "  "
                + _("{hand} against {dealer}: {play} (row: {row})").format(
                    hand=item["hand"], dealer=item["dealer"], play=item["play"], row=item["chart"]
                )
            )
    if data.get("three_card_exceptions"):
        out.append(
            " "
            + _(
                "three-card hands played otherwise than their total (H or S: the row's, or where the row "
                "doubles, splits or surrenders, what most of its two-card hands do of hitting and standing):"
            )
        )
        for item in data["three_card_exceptions"]:
            out.append(
                "  "
                + _("{hand} against {dealer}: {play} (total: {row})").format(
                    hand=item["hand"], dealer=item["dealer"], play=item["play"], row=item["chart"]
                )
            )
    return "\n".join(out) + "\n"
