"""simulate --inject: the round's bets placed against one of the rules to break, decided by the judge
with the facts the replay gives each bet and round, where exactly that rule refuses them: a standing
player's bet on a box no one sits at, or beside seated players while seats are free; a seated player's
main bet on a box past the table's seats (a table of fewer seats than hand-log/1 names); a seated player's
side stake above its maximum, below its minimum or off its fixed stake; a side bet of a standing player,
or of a player with no main bet on the box; a side bet the table does not offer
(simulate.offered_against). The round is then played with the bets as placed."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.replay.state import RoundFacts
from validator.simulate.offered_against import not_offered
from validator.simulate.side_bets import offered_bets, side_stake
from validator.simulate.table import LAST_BOX, TableSim, amount_json, bet_facts

Bets = list[dict[str, Any]]


def _by_box(bets: Bets) -> Bets:
    return sorted(bets, key=lambda b: int(b["stake"].split(":")[0]))


def break_bets(sim: TableSim, bets: Bets, sides: Bets) -> tuple[Bets, Bets]:
    """The round's bets (main, side), one of them placed against exactly one of the round's rules to
    break if one can be (the round's first rule: bets can be broken in nearly every round)."""
    if not sim.to_break or not bets:
        return bets, sides
    seats = sim.seats + sim.seats_off_layout  # the free seats count those off the layout
    seated = {b["stake"] for b in bets if b["seated"]}
    mains = {b["stake"] for b in bets}
    players = len({b["player"] for b in bets if b["seated"]})
    bettors = len({b["player"] for b in bets})
    empty = [str(n) for n in range(1, sim.seats + 1) if str(n) not in mains]
    least = sim.minimum
    host = bets[0]
    edits: list[tuple[Bets, Bets]] = []
    candidates: list[tuple[str, str | None, dict[str, Any]]] = []
    whats: list[str] = []

    def add(event: str, stake: str, ctx: dict[str, Any], edit: tuple[Bets, Bets], what: str) -> None:
        edits.append(edit)
        candidates.append((event, stake, ctx))
        whats.append(what)

    # A standing player's bet, on a seated player's box or on a box no one sits at.
    for box, box_seated, new in [(host["stake"], True, 0)] + [(b, False, 1) for b in empty[:1]]:
        standing = {"stake": box, "amount": amount_json(least), "player": "P9", "seated": False}
        round_facts = RoundFacts(
            players=players, bettors=bettors + 1, boxes=len(mains) + new, free_seats=seats - len(seated)
        )
        bet = bet_facts(least, seated=False, box_seated=box_seated)
        where = "" if box_seated else ", where no one sits"
        edit = (_by_box([*bets, standing]), sides)
        add(
            "bet",
            box,
            {"round": round_facts, "bet": bet},
            edit,
            f"a standing player's bet on box {box}{where}",
        )
    # A seated player's main bet alone on a box past the table's seats (one hand-log/1 names).
    if sim.seats < LAST_BOX:
        box = str(sim.seats + 1)
        off = {"stake": box, "amount": amount_json(least), "player": "P8", "seated": True}
        round_facts = RoundFacts(
            players=players + 1, bettors=bettors + 1, boxes=len(mains) + 1, free_seats=seats - len(seated) - 1
        )
        ctx = {"round": round_facts, "bet": bet_facts(least, box_exists=False)}
        add("bet", box, ctx, (_by_box([*bets, off]), sides), f"a bet on box {box}, past the table's seats")
    round_facts = RoundFacts(
        players=players, bettors=bettors, boxes=len(mains), free_seats=seats - len(seated)
    )
    # A seated player's side stake at another amount.
    for index, side in enumerate(sides):
        head, _unused, case = side["stake"].partition(":")[2].partition(":")
        name = sim.judge.stake_sides.get(head)
        if name is None or not side["seated"]:
            continue
        low = Decimal(sim.house.get(f"{name}.minimum") or sim.minimum)
        high = Decimal(sim.house.get(f"{name}.maximum") or sim.maximum)
        amount = Decimal(str(side["amount"]))
        for changed in (high + low, low / 2, amount + low):
            bet = bet_facts(changed, main=False, side=name, case=case or None, side_offered=True)
            ctx = {"round": round_facts, "bet": bet}
            if not sim.broken_by("bet", ctx):
                edited = list(sides)
                edited[index] = {**side, "amount": amount_json(changed)}
                add(
                    "side_bet",
                    side["stake"],
                    ctx,
                    (bets, edited),
                    f"{side['stake']} staked {amount_json(changed)}",
                )
    # A side bet of a standing player (beside his main bet), or of a player with no main bet on the box.
    for name in offered_bets(sim):
        declared = sim.ruleset.side_bets[name]
        case = declared.cases[0] if declared.cases else None
        stake = side_stake(host["stake"], declared, case)
        for player, sits, has_main in (("P9", False, True), ("P7", True, False)):
            given = {"seated": sits, "main": False, "side": name, "case": case, "player_main": has_main}
            bet = bet_facts(least, side_offered=True, **given)
            ctx = {"round": round_facts, "bet": bet}
            placed = {"stake": stake, "amount": amount_json(least), "player": player, "seated": sits}
            added = bets
            if has_main:  # the standing player's own main bet beside it, which the rules must allow
                standing = {
                    "stake": host["stake"],
                    "amount": amount_json(least),
                    "player": player,
                    "seated": False,
                }
                main_bet = bet_facts(least, seated=False)
                if sim.broken_by("bet", {"round": round_facts, "bet": main_bet}):
                    continue
                added = _by_box([*bets, standing])
            if sim.broken_by("bet", ctx):
                continue
            who = "a standing player" if not sits else "a player with no main bet on the box"
            add("side_bet", stake, ctx, (added, _by_box([*sides, placed])), f"{stake} staked by {who}")
    # A side bet the table does not offer, beside the seated player's own main bet.
    for stake, ctx, placed, what in not_offered(sim, host, round_facts):
        add("side_bet", stake, ctx, (bets, _by_box([*sides, placed])), what)
    picked = sim.breaking(sim.round_id, candidates, whats, first_only=True)
    return edits[picked] if picked is not None else (bets, sides)
