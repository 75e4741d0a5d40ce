"""What a fixture run makes each clause of a ruleset decide: the observation `rules test --coverage` and
`rules test --mutate` are built on.

A version is *probed* by a copy of it whose clauses report to an `Observed` as the replay runs them: each
`on … require` clause the outcomes its condition gave (its guard holding), each `settle` clause the
stakes it was the clause chosen for, each paytable line the times it paid. The copy always runs the
clauses themselves (the generated fast path, `dsl.codegen`, says only "all held"), so every clause whose
event comes up is evaluated; the findings are the same (the suite holds the generated functions to the
clauses). Nothing of the shipped objects is changed: the copy has clauses of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from validator.dsl.model import CheckDef, HouseChecks, PaytableOutcome, Rule, Ruleset, SettleDef
from validator.rulebook.registry import Registry

# A clause of a version: (version, rule id, "on" or "settle", its index among its rule's clauses of a kind).
Clause = tuple[str, str, str, int]
# A paytable line of a version: (version, side bet, paytable, the line's label).
Line = tuple[str, str, str, str]
# The readings a version was compiled under, other than its defaults: ((reading, alternative), …).
Choice = tuple[tuple[str, str], ...]


@dataclass(slots=True)
class Observed:
    """What one fixture run made the clauses of the versions it judged decide."""

    # A `require` clause → the outcomes its condition gave where its guard held (True: held).
    outcomes: dict[Clause, set[bool]] = field(default_factory=dict)
    # A `settle` clause → the stakes it was the clause chosen for (the first whose guard held).
    chosen: dict[Clause, set[str]] = field(default_factory=dict)
    # Every clause whose guard (or, guardless, whose condition) was evaluated: a change to a clause can
    # change only the runs that evaluated it.
    evaluated: set[Clause] = field(default_factory=set)
    # The paytable lines that paid.
    paid: set[Line] = field(default_factory=set)


class Probe:
    """Where probed clauses report: `now`, the observation of the run under way (set anew for each run,
    so that one probed registry serves every run under the same readings)."""

    def __init__(self) -> None:
        self.now = Observed()

    def start(self) -> Observed:
        self.now = Observed()
        return self.now


def _run_them(_ctx: Mapping[str, Any]) -> bool:
    """The generated "all held" answer a probed version gives: never, so the clauses themselves run."""
    return False


class _Probed(Ruleset):
    """A version whose generated functions always defer to its (reporting) clauses."""

    def under_house(self, house: dict[str, Any]) -> HouseChecks:
        return HouseChecks(dict.fromkeys(self.checks_by_event, _run_them), {}, fold=False)


def non_default(ruleset: Ruleset) -> Choice:
    """The readings `ruleset` applies other than their defaults."""
    return tuple(
        (name, alternative)
        for name, alternative in sorted(ruleset.reading_choices().items())
        if ruleset.readings[name].default != alternative
    )


def probed(ruleset: Ruleset, seen: Probe) -> Ruleset:
    """A copy of `ruleset` whose clauses report what they decide to `seen`."""
    version = ruleset.version
    rules = []
    for rule in ruleset.rules:
        checks = tuple(
            _probed_check(check, (version, rule.id, "on", index), seen)
            for index, check in enumerate(rule.checks)
        )
        settles = tuple(
            _probed_settle(ruleset, settle, (version, rule.id, "settle", index), seen)
            for index, settle in enumerate(rule.settles)
        )
        rules.append(dataclasses.replace(rule, checks=checks, settles=settles))
    by_event: dict[str, list[tuple[Rule, CheckDef]]] = {}
    by_stake: dict[str, list[tuple[Rule, SettleDef]]] = {}
    for rule in rules:
        for check in rule.checks:
            by_event.setdefault(check.event, []).append((rule, check))
        for settle in rule.settles:
            by_stake.setdefault(settle.stake, []).append((rule, settle))
    values = {f.name: getattr(ruleset, f.name) for f in dataclasses.fields(ruleset)}
    values.update(
        rules=tuple(rules),
        checks_by_event={event: tuple(pairs) for event, pairs in by_event.items()},
        settles_by_stake={stake: tuple(pairs) for stake, pairs in by_stake.items()},
        all_held_by_event=dict.fromkeys(by_event, _run_them),
        settlement_by_stake={},
        by_house={},
    )
    return _Probed(**values)


def probed_registry(registry: Registry, seen: Probe) -> Registry:
    """`registry` with every version probed into `seen` (the readings it chose kept)."""
    return Registry([probed(ruleset, seen) for ruleset in registry.all()], registry.chosen)


def _probed_check(check: CheckDef, key: Clause, seen: Probe) -> CheckDef:
    require, guard = check.require, check.guard

    def probed_require(ctx: Any) -> Any:
        now = seen.now
        now.evaluated.add(key)
        held = require(ctx)
        now.outcomes.setdefault(key, set()).add(bool(held))
        return held

    if guard is None:
        return dataclasses.replace(check, require=probed_require)

    def probed_guard(ctx: Any) -> Any:
        seen.now.evaluated.add(key)
        return guard(ctx)

    return dataclasses.replace(check, guard=probed_guard, require=probed_require)


def _probed_settle(ruleset: Ruleset, settle: SettleDef, key: Clause, seen: Probe) -> SettleDef:
    guard, amount = settle.guard, settle.amount

    # The judge takes the first clause whose guard holds: a guard that holds is the clause chosen. A
    # guardless clause gets one that always holds, so that being reached is seen too.
    def probed_guard(ctx: Any) -> Any:
        now = seen.now
        now.evaluated.add(key)
        held = True if guard is None else guard(ctx)
        if held:
            stake = ctx.get("stake")
            now.chosen.setdefault(key, set()).add(str(getattr(stake, "name", "") or ""))
        return held

    changes: dict[str, Any] = {"guard": probed_guard}
    if amount is not None and settle.verb == "paytable":
        changes["amount"] = _probed_paytable(ruleset, settle, amount, seen)
    return dataclasses.replace(settle, **changes)


def _probed_paytable(
    ruleset: Ruleset, settle: SettleDef, amount: Callable[[Any], Any], seen: Probe
) -> Callable[[Any], Any]:
    """A `=> paytable …` amount that reports the lines that paid, each in the table it was read from."""
    bet = ruleset.side_bets.get(settle.stake)
    version = ruleset.version

    def probed_amount(ctx: Any) -> Any:
        outcome = amount(ctx)
        if bet is None or not isinstance(outcome, PaytableOutcome):
            return outcome
        labels = list(outcome.lines)
        for table in settle.tables:
            # A table named by a house option (`house.lucky_ladies.paytable`) is the option's value.
            name = str(ctx["house"].get(table.partition(".")[2])) if table.startswith("house.") else table
            lines = bet.paytables.get(name, ())
            if labels and any(line.label == labels[0] for line in lines):
                seen.now.paid.add((version, bet.name, name, labels.pop(0)))
        return outcome

    return probed_amount
