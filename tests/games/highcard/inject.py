"""What `simulate --inject` needs of high card: a dealt card is the receiver's; no planter of its own (the
shared ones break its rules: a payout changed, the settlement order swapped)."""

from __future__ import annotations

from typing import Any

from validator.casino.cards import normalize
from validator.dsl.model import Rule
from validator.simulate.inject import GameInjection, Injector
from validator.simulate.settled import RoundRebuilt


def rebuild(round_: RoundRebuilt, action: list[Any]) -> None:
    if action[0] == "deal":
        round_.held(action[1]).add(normalize(action[2]))


def planters(rule: Rule) -> list[Injector]:
    return []


INJECTION = GameInjection(rebuild=rebuild, planters=planters)
