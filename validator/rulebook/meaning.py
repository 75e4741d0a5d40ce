"""What a compiled version means to the replay, and which of its clauses another compilation changes:
what `rules test --mutate` proves mutants equivalent with, and what it and `--coverage` pick the runs
that can notice a change with.

The replay reads of a version its rules' clauses as applied (parameters folded in, named conditions in
place), its paytables, parameters, options and fixed values: `meaning` is all of them, comparable. A
clause whose guard the parameters make always false means only that: it never applies.
"""

from __future__ import annotations

from typing import Any

from validator.dsl import ast
from validator.dsl.model import CheckDef, Ruleset, SettleDef
from validator.dsl.vocabulary import PARAMETERS
from validator.rulebook.probe import Clause


def meaning(ruleset: Ruleset) -> dict[str, Any]:
    """Everything of a compiled version the replay reads, comparable: equal meanings judge every log alike."""
    return {
        "rules": {
            rule.id: (
                rule.kind,
                rule.severity,
                rule.message,
                tuple(_check(c) for c in rule.checks),
                tuple(_settle(s) for s in rule.settles),
            )
            for rule in ruleset.rules
        },
        "order": tuple(rule.id for rule in ruleset.rules),
        "parameters": {name: p.value for name, p in ruleset.parameters.items()},
        "options": {
            name: (o.type, o.allowed, o.range, o.default, o.required) for name, o in ruleset.options.items()
        },
        "fixed": {name: f.value for name, f in ruleset.fixed.items()},
        "side_bets": {
            name: (
                bet.stake_name,
                bet.cases,
                tuple(
                    (
                        table,
                        tuple(
                            (ln.label, str(ln.pays), ln.when_node, ln.amount_node, ln.prize) for ln in lines
                        ),
                    )
                    for table, lines in bet.paytables.items()
                ),
            )
            for name, bet in ruleset.side_bets.items()
        },
    }


def _never(guard: Any) -> bool:
    """A guard the parameters make always false: its clause never applies, whatever it requires."""
    return isinstance(guard, ast.Literal) and guard.value is False


def _check(check: CheckDef) -> tuple[Any, ...]:
    if _never(check.applied_guard):
        return (check.event, "never")
    return (check.event, check.applied_guard, check.applied_require)


def _settle(settle: SettleDef) -> tuple[Any, ...]:
    if _never(settle.applied_guard):
        return (settle.stake, "never")
    return (settle.stake, settle.verb, settle.applied_guard, settle.applied_amount, settle.tables)


def changed_clauses(old: Ruleset, new: Ruleset) -> tuple[set[Clause], bool]:
    """The clauses of `old` whose meaning `new` changes, and whether the change reaches beyond clauses
    (every run of the version may notice it)."""
    before, after = meaning(old), meaning(new)
    version = old.version
    changed: set[Clause] = set()
    everywhere = before["order"] != after["order"] or before["options"] != after["options"]
    everywhere |= before["fixed"] != after["fixed"]
    for name in set(before["side_bets"]) | set(after["side_bets"]):
        one, other = before["side_bets"].get(name), after["side_bets"].get(name)
        if one is None or other is None or one[:2] != other[:2]:
            everywhere = True
        elif one != other:
            changed |= _settles_of(old, name)
    for rule in old.rules:
        one, other = before["rules"][rule.id], after["rules"].get(rule.id)
        if (
            other is None
            or one[:3] != other[:3]
            or len(one[3]) != len(other[3])
            or len(one[4]) != len(other[4])
        ):
            changed |= _clauses_of(version, rule.id, len(rule.checks), len(rule.settles))
            continue
        changed |= {
            (version, rule.id, "on", i)
            for i, (a, b) in enumerate(zip(one[3], other[3], strict=True))
            if a != b
        }
        changed |= {
            (version, rule.id, "settle", i)
            for i, (a, b) in enumerate(zip(one[4], other[4], strict=True))
            if a != b
        }
    moved = {n for n in before["parameters"] if before["parameters"][n] != after["parameters"].get(n)}
    for name in moved:
        if name not in after["parameters"] or PARAMETERS.get(name) is None or PARAMETERS[name].mechanics:
            everywhere = True
            continue
        # A clause left as written (not folded) reads the parameter's value when it runs.
        for rule in old.rules:
            if f"param.{name}" in repr(meaning_of_rule(rule)) or f"{{param.{name}}}" in rule.message:
                changed |= _clauses_of(version, rule.id, len(rule.checks), len(rule.settles))
        for bet in old.side_bets.values():
            if any(
                f"param.{name}" in repr((ln.when_node, ln.amount_node))
                for ls in bet.paytables.values()
                for ln in ls
            ):
                changed |= _settles_of(old, bet.name)
    return changed, everywhere


def meaning_of_rule(rule: Any) -> tuple[Any, ...]:
    return (
        tuple((c.applied_guard, c.applied_require) for c in rule.checks),
        tuple((s.applied_guard, s.applied_amount) for s in rule.settles),
    )


def _clauses_of(version: str, rule_id: str, checks: int, settles: int) -> set[Clause]:
    return {(version, rule_id, "on", i) for i in range(checks)} | {
        (version, rule_id, "settle", i) for i in range(settles)
    }


def _settles_of(ruleset: Ruleset, stake: str) -> set[Clause]:
    return {
        (ruleset.version, rule.id, "settle", i)
        for rule in ruleset.rules
        for i, settle in enumerate(rule.settles)
        if settle.stake == stake
    }
