"""simulate --inject: a side stake the log settles that was never placed (hand-log/1 lists in a round's
`bets` what was staked before the first card, so a side stake first named by its settlement was placed
once the cards were out: the replay's `late_bet`). Where exactly one of the round's rules to break
refuses it, a box with a seated player's main bet is given a stake of a side bet of the version that
its player did not place (the judge leaves out a bet the house does not offer: another rule refuses
it), and the croupier collects it (`lose`, no amount: what was staked is not written, so no payment
is judged) at the latest moment the `side_settle` rules accept a losing stake of that side bet.
Progressive jackpots are left out: their stakes feed the meters."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.replay.state import RoundFacts
from validator.simulate.side_bets import RoundSides, side_stake
from validator.simulate.table import TableSim, bet_facts


def collect_late(sim: TableSim, sides: RoundSides, bets: list[dict[str, Any]]) -> None:
    """Before `sides` settles the round's side stakes: one more, never placed, collected, where this
    round plants it (the round's first rule to break: such a stake can be settled in nearly every
    round)."""
    if not sim.to_break:
        return
    round_facts = getattr(sim, "round_facts", None) or RoundFacts(
        boxes=len({b["stake"] for b in bets}),
        players=len({b["player"] for b in bets if b["seated"]}),
        bettors=len({b["player"] for b in bets}),
    )
    seated = sorted({int(b["stake"]) for b in bets if b["seated"]})
    candidates: list[tuple[str, str | None, dict[str, Any]]] = []
    amounts: list[Decimal] = []
    for name, side in sim.ruleset.side_bets.items():
        if side.prizes:
            continue
        case = side.cases[0] if side.cases else None
        for box in seated:
            stake = side_stake(box, side, case)
            if stake in sides.stakes:
                continue
            given = {"seated": None, "main": False, "side": name, "case": case, "player_main": None}
            bet = bet_facts(None, side_offered=True, before_deal=False, **given)
            candidates.append(("late_bet", stake, {"round": round_facts, "bet": bet}))
            low = sim.house.get(f"{name}.stake") or sim.house.get(f"{name}.minimum") or sim.minimum
            amounts.append(Decimal(low))
    whats = [f"{stake} collected, though never placed" for _, stake, _ in candidates]
    picked = sim.breaking(sim.round_id, candidates, whats, first_only=True)
    if picked is None:
        return
    late = candidates[picked][1]
    assert late is not None
    sides.stakes[late] = amounts[picked]
    sides.collected.add(late)
