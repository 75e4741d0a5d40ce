"""What `simulate --inject` needs of bataille: how each action of a written round changes the round
rebuilt from it (simulate.settled: a second card to a hand or the dealer is its war card), and the
planter of the rules only its rounds can break: a tie settled by neither of the text's two ways."""

from __future__ import annotations

import random
from typing import Any

from validator.casino.cards import normalize
from validator.casino.money import to_decimal
from validator.dsl.ast import Name
from validator.dsl.expr import names_in
from validator.dsl.model import Rule
from validator.simulate.inject import Edit, GameInjection, Injector, RoundView, choice
from validator.simulate.settled import RoundRebuilt


def rebuild(round_: RoundRebuilt, action: list[Any]) -> None:
    """One action of the record, as bataille's mechanics play it."""
    verb = action[0]
    if verb == "deal" or verb == "deal_down":
        held = round_.held(action[1])
        card = normalize(action[2])
        if held.card_list:
            held.war_card = card  # a second card is the war card
        else:
            held.add(card)
    elif verb == "surrender":
        round_.hands[action[1]].surrendered = True
    elif verb == "war":
        hand = round_.hands[action[1]]
        hand.went_to_war = True
        round_.war[hand.box.number] = to_decimal(action[2])


def _tie_left_unchosen(rule_id: str) -> Injector:
    """Bataille: a tied hand that surrendered, written as neither surrendering nor going to war, and
    collected whole: a tie settled by neither of the text's two ways (the rule's clause settles it)."""

    def inject(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
        options = []
        for index, action in enumerate(view.actions):
            hand = action[1] if action[0] == "surrender" else None
            settled = view.final.get(hand) if hand is not None else None
            if hand is None or settled is None or len(view.cards.get(hand, ())) != 1:
                continue
            dealer = view.cards.get("D", [])
            if not dealer or dealer[0][0] != view.cards[hand][0][0]:
                continue  # not a tie: a surrender the simulator planted off one
            options.append((index, settled, hand))
        picked = choice(rng, options)
        if picked is None:
            return None
        index, settled, hand = picked
        record["actions"][settled] = ["lose", hand]
        del record["actions"][index]
        return Edit(record, hand, f"{hand} tied, neither went to war nor abandoned, and was collected whole")

    return inject


def _settles_a_tie_unchosen(rule: Rule) -> bool:
    """Does a main clause of the rule settle a tie (`hand.rank`, `dealer.rank`) that did not go to war?"""
    for settle in rule.settles:
        if settle.stake != "main" or settle.guard_node is None:
            continue
        read = {name.path for name in names_in(settle.guard_node) if isinstance(name, Name)}
        if {"hand.rank", "dealer.rank", "hand.went_to_war"} <= read and "hand.surrendered" not in read:
            return True
    return False


def planters(rule: Rule) -> list[Injector]:
    return [_tie_left_unchosen(rule.id)] if _settles_a_tie_unchosen(rule) else []


INJECTION = GameInjection(rebuild=rebuild, planters=planters)
