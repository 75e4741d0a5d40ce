"""simulate --inject: a side bet the table does not offer, placed by a seated player beside his own main
bet: a side stake hand-log/1 can write (the stake list the decoder expands from the schema's pattern)
that the version declares no side bet for, or a side bet the version declares and the house does not
offer. Each is a candidate the judge weighs with the facts the replay gives the bet (simulate.bets_against
places the one that breaks exactly the rule to break); the round then settles it as it settles every side
stake: at the latest moment the `side_settle` rules accept, by the version's paytables, and collected
where the version has none for it (no clause, no payment to judge)."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from validator.dsl.facts import BetFacts
from validator.dsl.vocabulary import SETTLE_STAKES
from validator.logs.decode import STAKES
from validator.replay.state import RoundFacts
from validator.simulate.side_bets import beside, offered, side_stake
from validator.simulate.table import TableSim, bet_facts

# (the stake placed, the facts its `side_bet` event is judged with, the bet as the log writes it, what)
Candidate = tuple[str, dict[str, Any], dict[str, Any], str]


def _side_facts(amount: Decimal, side: str, case: str | None, side_offered: bool) -> BetFacts:
    """A seated player's side bet beside his own main bet, before the first card."""
    return bet_facts(amount, main=False, side=side, case=case, side_offered=side_offered)


def not_offered(sim: TableSim, host: dict[str, Any], round_facts: RoundFacts) -> Iterator[Candidate]:
    """Side bets on `host`'s box (a seated player's main bet) that the table does not offer: first each
    stake name hand-log/1 writes that no side bet of the version declares (one per name, its first case;
    not the stakes the game's own actions make, insurance and war), then each declared side bet the
    house does not offer. Staked at the table's minimum, or the house's minimum for the bet."""
    box = host["stake"]
    declared = {bet.stake_name for bet in sim.ruleset.side_bets.values()}
    seen: set[str] = set()
    for stake in STAKES:
        head, _unused, rest = stake.partition(":")
        if head != box or not rest:
            continue
        name, _unused, case = rest.partition(":")
        if name in declared or name in SETTLE_STAKES or name in seen:
            continue
        seen.add(name)
        bet = _side_facts(sim.minimum, name, case or None, side_offered=False)
        placed = beside(stake, sim.minimum, host)
        yield stake, {"round": round_facts, "bet": bet}, placed, f"{stake} staked: no side bet of the version"
    for name, side in sim.ruleset.side_bets.items():
        if offered(sim, name):
            continue
        first = side.cases[0] if side.cases else None
        stake = side_stake(box, side, first)
        low = sim.house.get(f"{name}.minimum")
        fixed = sim.house.get(f"{name}.stake")
        amount = Decimal(fixed if fixed is not None else low if low is not None else sim.minimum)
        bet = _side_facts(amount, name, first, side_offered=True)
        placed = beside(stake, amount, host)
        yield (
            stake,
            {"round": round_facts, "bet": bet},
            placed,
            f"{stake} staked: the house does not offer it",
        )
