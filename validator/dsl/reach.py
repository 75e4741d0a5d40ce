"""Where each fact can be reached: the facts the replay sets only at some points of the game.

A rule may name a fact of a namespace its event offers (`vocabulary.EVENTS`); most facts are kept up
to date at every event that offers their namespace. The facts below are not: the replay sets them at
the points listed and leaves them at their defaults elsewhere, so a rule that reads one anywhere else
would read a value that says nothing about the round (`round.live_hands` at a `hit` is 0 whatever the
layout holds). `rules check` refuses such a rule: the fact cannot be reached from where it is read.

Places are event names (`on EVENT …`), `settle` (a `settle main|insurance|war …` clause, read at the
final settlement), `side settle` (a side bet's `settle` clause) and `paytable` (a paytable line).
docs/rules-language.md says the same, for people writing rules.
"""

from __future__ import annotations

from validator.i18n import _

SETTLE = "settle"
SIDE_SETTLE = "side settle"  # i18n: not shown (a key)
PAYTABLE = "paytable"

# fact → the places the replay sets it.
PROVIDED_ONLY_AT: dict[str, tuple[str, ...]] = {
    # Counted when the dealer's drawing is over (the replay's end of the round).
    "round.live_hands": ("dealer_stand", SETTLE),
    "round.live_blackjacks": ("dealer_stand", SETTLE),
    # Looked ahead from a card the dealer draws: whether a player's decision still follows; at a peek,
    # whether the dealer's own drawing, after the players, had begun.
    "round.players_done": ("dealer_draw", "peek"),
    # The log's first settlement of the stake being judged.
    "stake.verb": (SETTLE, SIDE_SETTLE),
    "stake.paid": (SETTLE, SIDE_SETTLE),
    # Read at a jackpot record only: the meters then, against the record before.
    "jackpot.previous_main": ("jackpot",),
    "jackpot.previous_secondary": ("jackpot",),
    "jackpot.stakes": ("jackpot",),
    "jackpot.paid_main": ("jackpot",),
    "jackpot.paid_secondary": ("jackpot",),
    # At an insurance: whose stake insures (none where the log cannot say).
    "action.insurer_stake": ("insurance",),
    # Counted at a split, before it is judged.
    "box.player_ace_splits": ("split",),
    "box.player_splits": ("split",),
}


def unreachable(fact: str, place: str) -> str | None:
    """Why `fact` cannot be read at `place`, or None when it can."""
    places = PROVIDED_ONLY_AT.get(fact)
    if places is None or place in places:
        return None
    shown = ", ".join(_place_words(p) for p in places)
    return _("{fact} is set only at {places}: {place} never provides it").format(
        fact=fact, places=shown, place=_place_words(place)
    )


def _place_words(place: str) -> str:
    if place == SETTLE:
        return _("a settle clause of a main, insurance or war stake")
    if place == SIDE_SETTLE:
        return _("a side bet's settle clause")
    if place == PAYTABLE:
        return _("a paytable line")
    return _("event '{event}'").format(event=place)
