"""simulate --inject: a losing insurance collected later than the rules allow. Where the insurances are
settled at the dealer's second card and he must draw a third, one of them is kept back and collected
right after that card, if exactly one of the round's rules to break refuses it (asked with the facts the
replay reads at an insurance's settlement); the others are settled when the rules have them settled,
and the round goes on by the rules."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.dsl.vocabulary import ActionFacts, SettleFacts
from validator.replay.state import Dealer


def hold_back(sim: Any, insurance: dict[int, Decimal]) -> dict[int, Decimal]:
    """At the dealer's second card, before the insurances are settled: the one insurance kept back (taken
    out of `insurance`), to be collected after the dealer's next card; empty where none can be."""
    shoe = sim.shoe
    if not sim.to_break or not insurance or shoe is None or shoe.left < 1 or not sim.dealer_must_draw():
        return {}
    later = Dealer()
    for card in [*sim.dealer.card_list, shoe.cards[shoe.pos]]:
        later.add(card)
    boxes = sorted(insurance, reverse=True)
    candidates = []
    for number in boxes:
        stake = f"{number}:insurance"
        ctx = {
            "round": sim.round_facts,
            "settle": SettleFacts(box=number, previous_box=0),
            "dealer": later,
            "action": ActionFacts(verb="lose", hand=stake, amount=None),
        }
        candidates.append(("insurance_settle", stake, ctx))
    whats = [f"{number}:insurance collected after the dealer's third card" for number in boxes]
    picked = sim.breaking(sim.round_id, candidates, whats)
    if picked is None:
        return {}
    number = boxes[picked]
    return {number: insurance.pop(number)}
