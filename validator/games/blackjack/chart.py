"""The strategy `edge` assumes, as casinos print it for their dealers and players: for each two-card
hand against each dealer's first card, S (stand), H (hit), D (double), P (split), R (surrender).

The figures play composition-dependent: two hands of one total may be played differently (10-2 and 9-3
against a 4 at six decks, say). A chart row gives the play of the total: the one best for its hands
together (their values weighted by their probability from the shoe less the dealer's card, as a
total-dependent basic strategy chooses), and lists the hands played otherwise as exceptions.

A hand of three cards hits or stands. As Wizard of Odds lists them (Blackjack Appendix 3, 3b): the play
of most three-card hands of each total (`drawing`), where it differs from the chart's H or S (16 against
a ten: most three-card sixteens stand, the chart hits), and the three-card hands played otherwise.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb
from typing import Any

from validator.games.blackjack.maths import ACE, NEVER, TEN, MainGame, choices
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


def _weight(full: tuple[int, ...], cards: tuple[int, ...], up: int) -> float:
    """How many ways the shoe, less the dealer's first card, deals these cards (as a multiset)."""
    ways = 1
    for value in set(cards):
        ways *= comb(full[value] - (value == up), cards.count(value))
    return float(ways)


def chart(game: MainGame) -> dict[str, Any]:
    full = game.full
    rows: dict[str, dict[str, dict[str, str]]] = {"hard": {}, "soft": {}, "pairs": {}}
    exceptions: list[dict[str, str]] = []
    totals: dict[tuple[str, str, int], dict[str, float]] = {}  # each play's value summed over the row
    allowed: dict[tuple[str, str, int], set[str]] = {}
    hands: dict[tuple[str, str, int], list[tuple[str, str]]] = {}
    for (first, second, up), action in game.strategy.items():
        if first == second:
            table, row = "pairs", f"{NAMES[first]},{NAMES[first]}"
        else:
            table, row = _kind((first, second))
        key = (table, row, up)
        weight = _weight(full, (first, second), up)
        values = {LETTERS[a]: v for a, v in choices(game, first, second, up).items()}
        summed = totals.setdefault(key, {})
        for letter, value in values.items():
            summed[letter] = summed.get(letter, 0.0) + weight * value
        allowed[key] = allowed[key] & set(values) if key in allowed else set(values)
        hands.setdefault(key, []).append((f"{NAMES[first]},{NAMES[second]}", _letter(action)))
    for (table, row, up), summed in totals.items():
        own = hands[(table, row, up)]
        if table == "pairs":
            chosen = own[0][1]  # one hand: its own play ("P/S" where only identical tens split)
        else:
            # The play of the total: the one best for its hands together (total-dependent).
            chosen = max(sorted(allowed[(table, row, up)]), key=lambda letter: summed[letter])
        rows[table].setdefault(row, {})[NAMES[up]] = chosen
        for hand, letter in own:
            if letter != chosen:
                exceptions.append({"hand": hand, "dealer": NAMES[up], "play": letter, "chart": chosen})
    order = [NAMES[i] for i in UP_ORDER]
    tables: dict[str, Any] = {}
    for table, by_row in rows.items():
        tables[table] = {
            row: {up: by_row[row][up] for up in order if up in by_row[row]}
            for row in sorted(by_row, key=_row_order)
        }
    drawing, changes, three = _three_cards(game, rows)
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
        "three_card_changes": changes,
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
) -> tuple[dict[str, dict[str, dict[str, str]]], list[dict[str, str]], list[dict[str, str]]]:
    """Three-card hands, as Wizard of Odds lists them (Appendix 3b): for each total and dealer's card,
    the play (H or S) best for the three-card hands of that total together, the cells where it differs
    from the chart's H or S, and the hands played otherwise. Only the hands the play reaches (one of their
    two-card hands hits against that card) are counted."""
    full, values, found = game.full, game.values, game.hands
    totals: dict[tuple[str, str, int], dict[str, float]] = {}
    hands: dict[tuple[str, str, int], list[tuple[str, str]]] = {}
    for cards in combinations_with_replacement(range(len(full)), 3):
        counts = [cards.count(v) for v in range(len(full))]
        k = found.find(0, counts) if sum(cards) + 3 <= 21 else None
        if k is None:
            continue
        table, row = _kind(cards)
        for up in UP_ORDER:
            pairs = {(cards[0], cards[1]), (cards[0], cards[2]), (cards[1], cards[2])}
            reached = any(game.strategy.get((low, high, up)) == "hit" for low, high in pairs)
            if not reached or full[up] - counts[up] <= 0 or values.hit[k, up] == NEVER:
                continue
            weight = _weight(full, cards, up)
            summed = totals.setdefault((table, row, up), {})
            summed["H"] = summed.get("H", 0.0) + weight * float(values.hit[k, up])
            summed["S"] = summed.get("S", 0.0) + weight * float(values.stand[k, up])
            letter = "H" if values.hit[k, up] > values.stand[k, up] else "S"
            hands.setdefault((table, row, up), []).append((",".join(NAMES[c] for c in cards), letter))
    drawing: dict[str, dict[str, dict[str, str]]] = {"hard": {}, "soft": {}}
    changes: list[dict[str, str]] = []
    exceptions: list[dict[str, str]] = []
    for (table, row, up), summed in sorted(totals.items(), key=lambda item: (item[0][0], int(item[0][1]))):
        chosen = "H" if summed["H"] > summed["S"] else "S"
        drawing[table].setdefault(row, {})[NAMES[up]] = chosen
        two = rows.get(table, {}).get(row, {}).get(NAMES[up])
        if two in ("H", "S") and two != chosen:
            changes.append({"total": row, "table": table, "dealer": NAMES[up], "play": chosen, "chart": two})
        for hand, letter in hands[(table, row, up)]:
            if letter != chosen:
                exceptions.append({"hand": hand, "dealer": NAMES[up], "play": letter, "chart": chosen})
    return drawing, changes, exceptions


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
    if data.get("three_card_changes"):
        out.append(" " + _("three cards: the totals played otherwise than their row:"))
        for item in data["three_card_changes"]:
            total = f"A,{int(item['total']) - 11}" if item["table"] == "soft" else item["total"]
            out.append(
                "  "
                + _("{total} against {dealer}: {play} (row: {row})").format(
                    total=total, dealer=item["dealer"], play=item["play"], row=item["chart"]
                )
            )
    if data.get("three_card_exceptions"):
        out.append(" " + _("three-card hands played otherwise than their total on three cards:"))
        for item in data["three_card_exceptions"]:
            out.append(
                "  "
                + _("{hand} against {dealer}: {play} (total: {row})").format(
                    hand=item["hand"], dealer=item["dealer"], play=item["play"], row=item["chart"]
                )
            )
    return "\n".join(out) + "\n"
