"""Séances for the audit tests: simulated by the tool's own simulator, with payout mistakes planted at
random by `simulate --inject` (noise every casino has), dealers relieved every 25 rounds as a casino
rotates them, and, for the collusion case, one dealer overpaying one player at a planted rate.

The planted overpayment is decided from the log alone: a main stake of the player's own box that the
log collects (`lose`, whole stake) is written as a `push` instead, which leaves the player the stake the
rules take from him: the house overpays him by that stake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import orjson

from validator.rulebook.registry import default_registry
from validator.simulate.inject import Planted, inject
from validator.simulate.options import SimulateOptions
from validator.simulate.plan import prepare

VERSION = "fr/blackjack@2025-03-14"
DEALERS = ("D-11", "D-12", "D-13", "D-14")
NOISE = ("fr/blackjack/higher-total-wins", "fr/blackjack/lower-total-loses", "fr/blackjack/tie-is-push")


@dataclass
class Seance:
    path: Path
    noise: list[Planted]
    colluded: list[tuple[str, str]]  # (round, stake) overpaid for the planted pair


def write_seance(
    path: Path,
    *,
    rounds: int,
    seed: int,
    pair: tuple[str, str] | None = None,
    rate: float = 0.0,
    noise_rate: float = 0.01,
) -> Seance:
    # Random players, as these séances were first written with (the audit's figures are worked from them),
    # drawn afresh each round from the same few names and with the dealers set below (dealers=0, pool=0:
    # not the credible séance's pool of 40, where a planted player sits too rarely to overpay).
    options = SimulateOptions(
        VERSION, rounds=rounds, seed=seed, table="BJ-21", players="random", dealers=0, pool=0
    )
    chosen, records = prepare(default_registry(), options)
    noise: list[Planted] = []
    rng = random.Random(f"collusion/{seed}")
    colluded: list[tuple[str, str]] = []
    number = 0
    noisy_rounds: set[str] = set()
    with path.open("wb") as out:
        for record in inject(records, chosen, list(NOISE), noise_rate, seed, noise):
            if record["type"] == "round":
                noisy_rounds.update(p.round for p in noise)
                record["dealer"] = DEALERS[(number // 25) % len(DEALERS)]
                number += 1
                if pair is not None and record["dealer"] == pair[0] and record["round"] not in noisy_rounds:
                    stake = _collected_stake_of(record, pair[1])
                    if stake is not None and rng.random() < rate:
                        record["actions"] = [
                            ["push", stake] if a == ["lose", stake] else a for a in record["actions"]
                        ]
                        colluded.append((record["round"], stake))
            out.write(orjson.dumps(record) + b"\n")
    return Seance(path, noise, colluded)


def _collected_stake_of(record: dict, player: str) -> str | None:
    """A main stake on the player's own seated box that the log collects whole, if there is one."""
    boxes = {b["stake"] for b in record["bets"] if b.get("player") == player and b.get("seated", True)}
    for action in record["actions"]:
        if action[0] == "lose" and len(action) == 2 and action[1] in boxes:
            return action[1]
    return None
