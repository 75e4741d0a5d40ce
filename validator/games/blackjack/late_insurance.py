"""simulate --inject: a losing insurance collected later than the rules allow. Where the insurances are
settled at the dealer's second card, one of them is kept back, if exactly one of the round's rules to
break refuses its collection later (asked with the facts the replay reads at an insurance's
settlement): collected right after the dealer's third card where he draws one, else right after the
first hand of the final settlement. The others are settled when the rules have them settled, and the
round goes on by the rules."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.dsl.facts import ActionFacts, SettleFacts
from validator.games.blackjack.hands import BlackjackBox as Box
from validator.games.blackjack.hands import BlackjackDealer as Dealer


def hold_back(sim: Any, insurance: dict[int, Decimal], order: list[Box]) -> dict[int, Decimal]:
    """At the dealer's second card, before the insurances are settled: the one insurance kept back (taken
    out of `insurance`), to be collected after the dealer's next card or the first hand settled; empty
    where none can be (the dealer's black jack: the insurances win)."""
    shoe, dealer = sim.shoe, sim.dealer
    if not sim.to_break or not insurance or shoe is None or dealer.blackjack:
        return {}
    later, previous_box = Dealer(), 0
    if sim.dealer_must_draw():
        if shoe.left < 1:
            return {}
        for card in [*dealer.card_list, shoe.peek()]:
            later.add(card)
        when = "after the dealer's third card"
    else:
        later = dealer
        settled = [box.number for box in reversed(order) for hand in box.hand_list if sim.settled_last(hand)]
        if not settled:
            return {}
        previous_box = settled[0]
        when = f"after box {previous_box}'s hand was settled"
    boxes = sorted(insurance, reverse=True)
    candidates = []
    for number in boxes:
        stake = f"{number}:insurance"
        ctx = {
            "round": sim.round_facts,
            "settle": SettleFacts(box=number, previous_box=previous_box),
            "dealer": later,
            "action": ActionFacts(verb="lose", hand=stake, amount=None),
        }
        candidates.append(("insurance_settle", stake, ctx))
    whats = [f"{number}:insurance collected {when}" for number in boxes]
    picked = sim.breaking(sim.round_id, candidates, whats)
    if picked is None:
        return {}
    number = boxes[picked]
    return {number: insurance.pop(number)}
