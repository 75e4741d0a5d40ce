"""What the simulator writes between rounds besides the shoes: a change of the limits shown at the table
and a new dealer's burn (in the séances of versions with rules on those events), and, for `simulate
--inject`, the violations planted there, on a jackpot reading and in the cards of a shoe.

The records are written now and then, on a schedule drawn from a random stream of their own, dated at
the séance's clock without moving it: a séance of a version with no such rules is played exactly as
before, and one with them differs only by the records added (and the stop card coming out as many
cards earlier as a new dealer burned).
What a record must hold is asked of the version's rules, as every legal step of the simulator is:

- a change of limits restates the limits played, shown at the table; planted: not shown, or a maximum
  above the one played (every bet the séance places stays within both), where exactly one rule to
  break refuses it;
- a new dealer burns the fewest cards the rules accept (taken from the talon's far end: the séance
  deals on the cards it would have dealt); planted: one more or one fewer. A new dealer comes every few
  rounds where the version has rules on the event, or, with `simulate --dealers N`, at the end of each
  stint of the team's dealer dealing (simulate.pool.DealerTeam), whatever the version;
- a jackpot reading shows the meters as they stand (simulate.side_bets.JackpotSim); planted: the main
  meter off by one unit, the jackpot then standing as written;
- a card out of the shoe: in a shoe the plan gives it, every copy left of the next card is put first
  (a shuffle like another) and one more copy of it dealt in place of the card after them, the round
  played on by the rules, once, where no other violation is planted in that round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from decimal import Decimal
from typing import Any

from validator.dsl.facts import CardFacts, ChangeFacts
from validator.replay.side_bets import Meters, jackpot_reading
from validator.simulate.side_bets import JackpotSim
from validator.simulate.table import SimShoe, TableSim, amount_json
from validator.simulate.violations import PlayedViolation, between_key

# Rounds between two records of a kind, drawn between these bounds.
EVERY = (6, 18)
# The most cards a new dealer's burn is tried with, to find the count the rules accept.
MOST_BURNED = 4
# Cards left to the shoe after a new dealer's burn, at least (the round after it must be dealt whole).
LEAST_LEFT = 60


def played(
    sim: TableSim,
    rounds: int,
    play_round: Callable[[], dict[str, Any]],
    *,
    least_left: int,
    jackpot: JackpotSim | None = None,
) -> Iterator[dict[str, Any]]:
    """A séance's records after its opening shoe, the same at every game: before each of its `rounds`,
    the hours kept (a break, the close), a new shoe where fewer than `least_left` cards are left (or the
    cut card came out), the interludes due and the jackpot's reading where one is due; then the round
    `play_round` plays."""
    interludes = Interludes(sim)
    for _unused in range(rounds):
        assert sim.shoe is not None
        yield from sim.keep_hours()
        if sim.reshuffles(least_left):
            yield sim.new_shoe("cut_card" if sim.shoe.cut_out else "exhausted")
        yield from interludes.before_round()
        if jackpot is not None and (reading := jackpot.reading()) is not None:
            yield interludes.reading(reading, jackpot)
        yield sim.remember_round(play_round())


class Interludes:
    """One séance's records between rounds, and the plants on them (see the module's docstring)."""

    def __init__(self, sim: TableSim) -> None:
        self.sim = sim
        self.rng = random.Random(f"interludes/{sim.seed}")
        events = sim.ruleset.checks_by_event
        self.limits_due = self._after(0) if "limits" in events else None
        # A new dealer every few rounds where the version has rules on the event, unless a team deals
        # in turn (simulate --dealers: simulate.pool.DealerTeam, relieved on the clock).
        self.dealer_due = self._after(0) if "dealer_change" in events and sim.team is None else None
        if sim.team is not None:
            sim.team.start_stint(sim.clock)
        self.rounds = 0
        self.shoe_seen = ""
        self.dealers = 1
        self.readings = 0

    def _after(self, rounds: int) -> int:
        return rounds + self.rng.randint(*EVERY)

    def before_round(self) -> Iterator[dict[str, Any]]:
        """The records due before the next round (called before each round, after any new shoe)."""
        sim = self.sim
        if sim.shoe_id != self.shoe_seen:
            self.shoe_seen = sim.shoe_id
            plant_a_card(sim)
        self.rounds += 1
        if self.limits_due is not None and self.rounds >= self.limits_due:
            self.limits_due = self._after(self.rounds)
            yield self.limits()
        if self.dealer_due is not None and self.rounds >= self.dealer_due:
            record = self.dealer_change()
            if record is not None:
                self.dealer_due = self._after(self.rounds)
                yield record
        if sim.team is not None and sim.team.relief_due(sim.clock):
            record = self.dealer_change()  # None: put off to a later round (too few cards left)
            if record is not None:
                yield record

    # ---- a change of limits ----
    def limits(self) -> dict[str, Any]:
        sim = self.sim
        record = {
            "type": "limits",
            "at": sim.clock.isoformat(),
            "minimum": amount_json(sim.minimum),
            "maximum": amount_json(sim.maximum),
            "displayed": True,
        }
        higher = sim.maximum + sim.minimum
        edits: list[tuple[dict[str, Any], str]] = [
            ({"displayed": False}, "a change of limits not shown at the table"),
            ({"maximum": amount_json(higher)}, f"the limits changed to a maximum of {higher}"),
        ]
        written = [{**record, **edit} for edit, _unused in edits]
        picked = _break(sim, record, "limits", [{"table": _posted(sim, r)} for r in written], edits)
        if picked is not None:
            record = written[picked]
        sim.state = _posted(sim, record)
        return record

    # ---- a new dealer ----
    def dealer_change(self) -> dict[str, Any] | None:
        """A new dealer's record, burning the fewest cards the rules accept (None: no count passes, or
        too few cards left in the shoe to burn them and deal a round before the cut card)."""
        sim = self.sim
        shoe = sim.shoe
        assert shoe is not None
        lawful = [n for n in range(MOST_BURNED) if not sim.broken_by("dealer_change", _change(n))]
        if not lawful:
            return None
        count = lawful[0]
        if shoe.left - count - 1 < LEAST_LEFT or shoe.pos + count + 1 >= shoe.cut_at:
            return None
        self.dealers += 1
        if sim.team is not None:
            sim.dealer_id = sim.team.relieve(sim.clock)
        else:
            sim.dealer_id = f"D-{sim.FIRST_DEALER - 1 + self.dealers}"
        record: dict[str, Any] = {
            "type": "dealer",
            "at": sim.clock.isoformat(),
            "dealer": sim.dealer_id,
            "burn": [],
        }
        # One card more or one fewer, in turns from one dealer to the next.
        turn = (count + 1, count - 1) if self.dealers % 2 else (count - 1, count + 1)
        counts = [n for n in turn if n >= 0]
        edits: list[tuple[dict[str, Any], str]] = [({}, f"the new dealer burns {n} cards") for n in counts]
        picked = _break(sim, record, "dealer_change", [_change(n) for n in counts], edits)
        record["burn"] = _burn_from_the_talon(shoe, counts[picked] if picked is not None else count)
        return record

    # ---- a jackpot reading ----
    def reading(self, record: dict[str, Any], jackpot: JackpotSim) -> dict[str, Any]:
        """A jackpot record, its main meter written one unit off where exactly one rule to break refuses
        it; the jackpot then stands as written."""
        sim = self.sim
        if sim.violations is None or not _planned_at(sim, "jackpot"):
            return record
        previous = jackpot.previous
        main, secondary = Decimal(str(record["main"])), Decimal(str(record["secondary"]))
        # One unit more or one fewer, in turns from one reading to the next.
        self.readings += 1
        offs = [main + 1, main - 1] if self.readings % 2 else [main - 1, main + 1]
        candidates = []
        for value in offs:
            table = replace(sim.state, jackpot=replace(previous))
            candidates.append({"jackpot": jackpot_reading(table, value, secondary)})
        edits: list[tuple[dict[str, Any], str]] = [
            ({}, f"the main meter read {amount_json(v)} instead of {amount_json(main)}") for v in offs
        ]
        picked = _break(sim, record, "jackpot", candidates, edits)
        if picked is None:
            return record
        written = offs[picked]
        jackpot.meters.main = written
        jackpot.since = Meters(written, secondary)
        jackpot.shown = (written, secondary)
        return {**record, "main": amount_json(written)}


def _planned_at(sim: TableSim, event: str) -> bool:
    """Is one of the plan's rules checked at `event`? The plan is asked about a record only then, so that
    a plan with no such rule draws the same rounds as before these records were planted."""
    plan = sim.violations
    assert plan is not None
    return any(check.event == event for r in plan.rules for check in sim.ruleset.rule(r).checks)


def _burn_from_the_talon(shoe: SimShoe, count: int) -> list[str]:
    """A new dealer's burn. The shuffle had put the burned cards on top of those the séance deals next:
    they come from the talon's far end, so that the cards dealt after the burn are the ones the séance
    would deal without it, and the stop card stays where the shoe record put it (a card planted further
    on stays the one planted)."""
    if count:
        shoe.cards[shoe.pos : shoe.pos] = shoe.cards[-count:]
        del shoe.cards[-count:]
        if isinstance(shoe, PlantedShoe) and shoe.at >= shoe.pos:
            shoe.at += count
    return shoe.burn(count)


def _change(burned: int) -> dict[str, Any]:
    return {"change": ChangeFacts(burned=burned)}


def _posted(sim: TableSim, record: dict[str, Any]) -> Any:
    """The table's state once a limits record is read (the replay's reading of it)."""
    return replace(
        sim.state,
        minimum=Decimal(str(record["minimum"])),
        maximum=Decimal(str(record["maximum"])),
        limits_displayed=record["displayed"],
    )


def _break(
    sim: TableSim,
    record: dict[str, Any],
    event: str,
    contexts: list[dict[str, Any]],
    edits: list[tuple[dict[str, Any], str]],
) -> int | None:
    """The first of the record's `edits` (with the facts `contexts` the replay reads at `event`) that
    exactly one of the plan's rules for this record refuses: its index, recorded as planted. None:
    no plan, or no edit does."""
    plan = sim.violations
    if plan is None or not _planned_at(sim, event):
        return None
    rules = plan.between_rounds(between_key(record))
    if not rules:
        return None
    candidates: list[tuple[str, str | None, dict[str, Any]]] = [(event, None, ctx) for ctx in contexts]
    return sim.breaking(between_key(record), candidates, [what for _unused, what in edits], rules=rules)


# ---- a card out of the shoe ----
class PlantedShoe(SimShoe):
    """A shoe with one card too many at `at` (the one it replaced: `original`): `keep()`, asked when
    it comes out, plants it; else (another violation planted in that round) the original card is
    dealt."""

    def __init__(self, shoe: SimShoe, at: int, original: str, keep: Callable[[], bool]) -> None:
        self.cards, self.pos, self.cut_at, self.cut_out = shoe.cards, shoe.pos, shoe.cut_at, shoe.cut_out
        self.at, self.original, self.keep = at, original, keep

    def peek(self) -> str:
        """In a round given another violation, the card planted gives way to the original."""
        return self.original if self.pos == self.at else super().peek()

    def draw(self, actions: list[list[Any]], target: str) -> str:
        if self.pos == self.at and not self.keep():
            self.cards[self.at] = self.original
        return super().draw(actions, target)


def plant_a_card(sim: TableSim) -> None:
    """In a shoe the plan gives a rule checked on a card's being left in the shoe, where a card with no
    copy left breaks exactly that rule: every copy left of the next card put first, then one more copy."""
    plan, shoe = sim.violations, sim.shoe
    if plan is None or shoe is None or shoe.left < 2 or not _planned_at(sim, "card"):
        return
    key = f"card@{sim.shoe_id}"
    rules = plan.between_rounds(key)
    plan.done(key)
    card = shoe.cards[shoe.pos]
    out = {"card": CardFacts(code=card, in_shoe=False)}
    rule = next((r for r in rules if sim.broken_by("card", out) == {r}), None)
    if rule is None:
        return
    rest = shoe.cards[shoe.pos :]
    copies = [c for c in rest if c == card]
    others = [c for c in rest if c != card]
    at = shoe.pos + len(copies)
    shoe.cards[shoe.pos :] = copies + others
    original = shoe.cards[at]
    shoe.cards[at] = card

    def keep() -> bool:
        if sim.round_id in plan.played:
            return False
        what = f"{card} dealt once every copy of it had left the shoe"
        plan.played[sim.round_id] = PlayedViolation(rule, None, what)
        sim.to_break = []
        return True

    sim.shoe = PlantedShoe(shoe, at, original, keep)
