"""The strategy `edge` assumes, as casinos print it for their dealers and players: for each two-card
hand against each dealer's first card, S (stand), H (hit), D (double), P (split), R (surrender).

The figures play composition-dependent: two hands of one total may be played differently (9-3 and 8-4
against a 4, say). A chart row gives the play of the largest share of the total's hands (weighted by
their probability from a full shoe), and lists the hands played otherwise as exceptions. Hands of three
cards or more: the figures hit or stand by the cards held; the chart covers the first decision.
"""

from __future__ import annotations

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
    return {"dealer_cards": order, **tables, "exceptions": exceptions}


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
    return "\n".join(out) + "\n"
