"""What `simulate --inject` needs of blackjack: how each action of a written round changes the round
rebuilt from it (simulate.settled), and the planters of the rules only its rounds can break: an
insurance settled before the dealer's second card decides it, the dealer's hole card left face down, an
insurance taken once it is shown."""

from __future__ import annotations

import random
from typing import Any

from validator.casino.cards import normalize
from validator.casino.money import to_decimal
from validator.dsl.model import Rule
from validator.simulate.inject import (
    DEALS,
    Edit,
    GameInjection,
    Injector,
    RoundView,
    choice,
    guarded_by,
    reads,
)
from validator.simulate.settled import RoundRebuilt


def rebuild(round_: RoundRebuilt, action: list[Any]) -> None:
    """One action of the record, as blackjack's mechanics play it."""
    verb = action[0]
    if verb == "deal" or verb == "deal_down":  # a face-down card is the receiver's all the same
        round_.held(action[1]).add(normalize(action[2]))
    elif verb == "hit":
        round_.hands[action[1]].add(normalize(action[2]))
    elif verb == "double":
        hand = round_.hands[action[1]]
        hand.stake += to_decimal(action[2])
        hand.doubled = True
        hand.add(normalize(action[3]))
    elif verb == "split":
        new = round_.hands[action[1]].split_off(to_decimal(action[2]))
        round_.hands[new.name] = new
    elif verb == "surrender":
        round_.hands[action[1]].surrendered = True
    elif verb == "even_money":
        round_.hands[str(action[1])].even_money = round_.even_money_settles
    elif verb == "insurance":
        round_.insured[int(action[1])] = to_decimal(action[2])


def _insurance_settled_early(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """Move an insurance's settlement to right after the insurance is taken, before the dealer's second
    card (which decides it): the same verb and amount, settled too soon."""
    options = []
    for index, action in enumerate(view.actions):
        if action[0] != "insurance":
            continue
        stake = f"{action[1]}:insurance"
        settled = view.final.get(stake)
        dealer_cards = sum(1 for a in view.actions[:index] if a[0] in DEALS and a[1] == "D")
        if settled is not None and settled > index + 1 and dealer_cards < 2:
            options.append((index, settled, stake))
    picked = choice(rng, options)
    if picked is None:
        return None
    index, settled, stake = picked
    actions = record["actions"]
    actions.insert(index + 1, actions.pop(settled))
    return Edit(record, stake, f"{stake} settled as soon as it was taken, before the dealer's second card")


def _hole_card_left_down(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """The dealer's face-down card left face down: revealed only after the next card he draws, or, where
    he draws none after it, never revealed (one finding, at that card or when he stands)."""
    actions = record["actions"]
    reveal = next((i for i, a in enumerate(actions) if a[0] == "reveal" and a[1] == "D"), None)
    if reveal is None:
        return None
    card = actions[reveal][2]
    drawn = next(
        (i for i in range(reveal + 1, len(actions)) if actions[i][0] in DEALS and actions[i][1] == "D"), None
    )
    moved = actions.pop(reveal)
    if drawn is None:
        return Edit(record, "D", f"dealer_stand on D with the hole card {card} never revealed")
    actions.insert(drawn, moved)  # right after the card he draws (its index moved down by one)
    return Edit(record, "D", f"dealer_draw on D with the hole card {card} still face down")


def _insurance_after_reveal(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """Turn the dealer's face-down card over just before an insurance taken while it was face down: the
    insurance then comes once the card is shown."""
    actions = record["actions"]
    reveal = next((i for i, a in enumerate(actions) if a[0] == "reveal" and a[1] == "D"), None)
    if reveal is None:
        return None
    # The last insurance before the reveal: the card turned over just before it comes before no other
    # box's insurance (moved before an earlier one, it would make every later insurance one after it too).
    index = next((i for i in range(reveal - 1, -1, -1) if actions[i][0] == "insurance"), None)
    if index is None:
        return None
    stake = f"{actions[index][1]}:insurance"
    card = actions[reveal][2]
    actions.insert(index, actions.pop(reveal))
    return Edit(record, stake, f"{stake} taken once the hole card {card} was shown")


def planters(rule: Rule) -> list[Injector]:
    """Blackjack's own ways to break the rule: an insurance settled too soon (a rule at its settlement on
    the dealer's cards, for every insurance), the hole card left face down (a rule at the dealer's
    drawing on his cards face down), an insurance after the hole card is shown (a rule at the insurance
    on the dealer's cards turned over)."""
    found: list[Injector] = []
    events = {check.event for check in rule.checks}
    if (
        "insurance_settle" in events
        and "dealer.cards" in reads(rule)
        and not guarded_by(rule, "dealer.cards")
    ):
        found.append(_insurance_settled_early)
    if events & {"dealer_draw", "dealer_stand"} and "dealer.face_down" in reads(rule):
        found.append(_hole_card_left_down)
    if "insurance" in events and "dealer.revealed" in reads(rule):
        found.append(_insurance_after_reveal)
    return found


INJECTION = GameInjection(
    rebuild=rebuild,
    planters=planters,
    mechanical=frozenset((_insurance_settled_early, _hole_card_left_down, _insurance_after_reveal)),
)
