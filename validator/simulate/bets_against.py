"""simulate --inject: the round's bets placed against one of the rules to break, decided by the judge
with the facts the replay gives each bet and round, where exactly that rule refuses them: a standing
player's bet on a box no one sits at, or beside seated players while seats are free; a seated player's
main bet on a box past the table's seats (a table of fewer seats than hand-log/1 names); a seated player's
side stake above its maximum, below its minimum or off its fixed stake; a side bet of a standing player,
or of a player with no main bet on the box; a side bet the table does not offer
(simulate.offered_against). The round is then played with the bets as placed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from validator.replay.state import RoundFacts
from validator.simulate.offered_against import not_offered
from validator.simulate.side_bets import offered_bets, side_stake
from validator.simulate.table import LAST_BOX, TableSim, amount_json, bet_facts

Bets = list[dict[str, Any]]
# A bet that may be placed against the rules: its event and stake, the facts the judge weighs, the round's
# bets (main, side) with it placed, and what it is, in words.
Option = tuple[str, str, dict[str, Any], tuple[Bets, Bets], str]


def _by_box(bets: Bets) -> Bets:
    return sorted(bets, key=lambda b: int(b["stake"].split(":")[0]))


@dataclass(frozen=True, slots=True)
class _Placed:
    """The round's bets as placed, and what the replay counts of them."""

    bets: Bets
    sides: Bets
    seats: int  # the table's seats, those off the layout counted
    seated: int  # the boxes a seated player bets on
    mains: int  # the boxes bet on
    players: int  # the seated players
    bettors: int
    least: Decimal  # the table's minimum, each bet planted is staked at

    @classmethod
    def of(cls, sim: TableSim, bets: Bets, sides: Bets) -> _Placed:
        return cls(
            bets,
            sides,
            seats=sim.seats + sim.seats_off_layout,
            seated=len({b["stake"] for b in bets if b["seated"]}),
            mains=len({b["stake"] for b in bets}),
            players=len({b["player"] for b in bets if b["seated"]}),
            bettors=len({b["player"] for b in bets}),
            least=sim.minimum,
        )

    @property
    def host(self) -> dict[str, Any]:
        """The first main bet: the box a standing player or a side bet joins."""
        return self.bets[0]

    def facts(self, players: int = 0, bettors: int = 0, boxes: int = 0) -> RoundFacts:
        """The round's facts with `players` seated players, `bettors` and `boxes` more (each seated
        player takes a free seat)."""
        return RoundFacts(
            players=self.players + players,
            bettors=self.bettors + bettors,
            boxes=self.mains + boxes,
            free_seats=self.seats - self.seated - players,
        )

    def bet(self, player: str, *, seated: bool, box: str | None = None) -> dict[str, Any]:
        """A main bet (or a side stake, `box` its stake) of `player` at the table's minimum."""
        stake = self.host["stake"] if box is None else box
        return {"stake": stake, "amount": amount_json(self.least), "player": player, "seated": seated}


def break_bets(sim: TableSim, bets: Bets, sides: Bets) -> tuple[Bets, Bets]:
    """The round's bets (main, side), one of them placed against exactly one of the round's rules to
    break if one can be (the round's first rule: bets can be broken in nearly every round)."""
    if not sim.to_break or not bets:
        return bets, sides
    placed = _Placed.of(sim, bets, sides)
    options = [
        *_standing_bets(sim, placed),
        *_past_the_seats(sim, placed),
        *_side_stakes_off_limits(sim, placed),
        *_side_bets_without_a_seat(sim, placed),
        *_side_bets_not_offered(sim, placed),
    ]
    candidates = [(event, stake, ctx) for event, stake, ctx, _edit, _what in options]
    whats = [what for _event, _stake, _ctx, _edit, what in options]
    picked = sim.breaking(sim.round_id, candidates, whats, first_only=True)
    return options[picked][3] if picked is not None else (bets, sides)


def _standing_bets(sim: TableSim, placed: _Placed) -> Iterator[Option]:
    """A standing player's bet, on a seated player's box or on a box no one sits at."""
    mains = {b["stake"] for b in placed.bets}
    empty = [str(n) for n in range(1, sim.seats + 1) if str(n) not in mains]
    for box, box_seated, new in [(placed.host["stake"], True, 0)] + [(b, False, 1) for b in empty[:1]]:
        standing = placed.bet("P9", seated=False, box=box)
        round_facts = placed.facts(bettors=1, boxes=new)
        bet = bet_facts(placed.least, seated=False, box_seated=box_seated)
        where = "" if box_seated else ", where no one sits"
        edit = (_by_box([*placed.bets, standing]), placed.sides)
        ctx = {"round": round_facts, "bet": bet}
        yield "bet", box, ctx, edit, f"a standing player's bet on box {box}{where}"


def _past_the_seats(sim: TableSim, placed: _Placed) -> Iterator[Option]:
    """A seated player's main bet alone on a box past the table's seats (one hand-log/1 names)."""
    if sim.seats >= LAST_BOX:
        return
    box = str(sim.seats + 1)
    off = placed.bet("P8", seated=True, box=box)
    ctx = {
        "round": placed.facts(players=1, bettors=1, boxes=1),
        "bet": bet_facts(placed.least, box_exists=False),
    }
    edit = (_by_box([*placed.bets, off]), placed.sides)
    yield "bet", box, ctx, edit, f"a bet on box {box}, past the table's seats"


def _side_stakes_off_limits(sim: TableSim, placed: _Placed) -> Iterator[Option]:
    """A seated player's side stake at another amount: above its maximum, below its minimum, off its
    fixed stake."""
    round_facts = placed.facts()
    for index, side in enumerate(placed.sides):
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
                edited = list(placed.sides)
                edited[index] = {**side, "amount": amount_json(changed)}
                what = f"{side['stake']} staked {amount_json(changed)}"
                yield "side_bet", side["stake"], ctx, (placed.bets, edited), what


def _side_bets_without_a_seat(sim: TableSim, placed: _Placed) -> Iterator[Option]:
    """A side bet of a standing player (beside his main bet), or of a player with no main bet on the box."""
    round_facts = placed.facts()
    for name in offered_bets(sim):
        declared = sim.ruleset.side_bets[name]
        case = declared.cases[0] if declared.cases else None
        stake = side_stake(placed.host["stake"], declared, case)
        for player, sits, has_main in (("P9", False, True), ("P7", True, False)):
            given = {"seated": sits, "main": False, "side": name, "case": case, "player_main": has_main}
            bet = bet_facts(placed.least, side_offered=True, **given)
            ctx = {"round": round_facts, "bet": bet}
            added = placed.bets
            if has_main:  # the standing player's own main bet beside it, which the rules must allow
                main_bet = bet_facts(placed.least, seated=False)
                if sim.broken_by("bet", {"round": round_facts, "bet": main_bet}):
                    continue
                added = _by_box([*placed.bets, placed.bet(player, seated=False)])
            if sim.broken_by("bet", ctx):
                continue
            who = "a standing player" if not sits else "a player with no main bet on the box"
            side = placed.bet(player, seated=sits, box=stake)
            yield "side_bet", stake, ctx, (added, _by_box([*placed.sides, side])), f"{stake} staked by {who}"


def _side_bets_not_offered(sim: TableSim, placed: _Placed) -> Iterator[Option]:
    """A side bet the table does not offer, beside the seated player's own main bet."""
    for stake, ctx, side, what in not_offered(sim, placed.host, placed.facts()):
        yield "side_bet", stake, ctx, (placed.bets, _by_box([*placed.sides, side])), what
