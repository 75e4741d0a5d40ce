"""Rulesets as a reader sees them: `rules list`, `rules show` and `rules diff`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from validator.dsl.expr import format_value, unparse
from validator.dsl.model import OptionDef, Rule, Ruleset
from validator.money import fmt
from validator.registry import Registry


def show_value(value: Any) -> str:
    if hasattr(value, "as_integer_ratio") and not isinstance(value, bool | int):
        return fmt(value) or ""
    if isinstance(value, tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return format_value(value)


def list_lines(registry: Registry) -> Iterator[str]:
    for family in sorted(registry.families):
        yield family
        for ruleset in registry.families[family]:
            count = f"{len(ruleset.rules):>3} rules"
            yield f"  {ruleset.version:<28} {ruleset.dates():<36} {count}  {ruleset.source}"


def option_line(option: OptionDef) -> str:
    if option.allowed is not None:
        allowed = "one of " + ", ".join(show_value(v) for v in option.allowed)
    elif option.range is not None:
        allowed = f"{show_value(option.range[0])} to {show_value(option.range[1])}"
    else:
        allowed = f"any {option.type}"
    default = "must be declared" if option.required else f"default {show_value(option.default)}"
    return f"{option.name}: {option.type}, {allowed}; {default}"


def check_lines(rule: Rule) -> Iterator[str]:
    for check in rule.checks:
        guard = f" when {unparse(check.guard_node)}" if check.guard_node is not None else ""
        yield f"on {check.event}{guard} require {unparse(check.require_node)}"
    for settle in rule.settles:
        guard = f" when {unparse(settle.guard_node)}" if settle.guard_node is not None else ""
        amount = f" {unparse(settle.amount_node)}" if settle.amount_node is not None else ""
        if settle.tables:
            amount = " " + " and ".join(settle.tables)
        yield f"settle {settle.stake}{guard} => {settle.verb}{amount}"


def show_lines(ruleset: Ruleset) -> Iterator[str]:
    yield f"{ruleset.version} — {ruleset.title}"
    where = f"source: {ruleset.source}   file: {ruleset.file}"
    yield f"  game: {ruleset.game}   in force: {ruleset.dates()}   {where}"
    for note in ruleset.notes:
        yield f"  note: {note}"
    yield ""
    yield "Parameters"
    for param in ruleset.parameters.values():
        yield f"  {param.name} = {show_value(param.value)}    ({param.ref})"
    yield ""
    yield "House options (what the casino may choose)"
    for option in ruleset.options.values():
        yield f"  {option_line(option)}    ({option.ref})"
    if ruleset.fixed:
        yield ""
        yield "Fixed by the text (a house file may not choose them)"
        for fixed in ruleset.fixed.values():
            yield f"  {fixed.name} = {show_value(fixed.value)}    ({fixed.ref})"
    for bet in ruleset.side_bets.values():
        yield ""
        yield f"Side bet {bet.name} — {bet.title}    ({bet.ref})"
        for name, lines in bet.paytables.items():
            yield f"  paytable {name}"
            for line in lines:
                yield f"    {line.label:<45} {line.pays!s:>16}   when {line.source}"
    yield ""
    yield "Rules"
    for rule in ruleset.rules:
        yield f"  {rule.id}  [{rule.kind}, {rule.severity}]"
        yield f"    {rule.message}"
        yield f"    ref: {rule.ref}"
        for line in check_lines(rule):
            yield f"    {line}"


def diff_lines(old: Ruleset, new: Ruleset) -> Iterator[str]:
    yield f"--- {old.version} ({old.dates()})"
    yield f"+++ {new.version} ({new.dates()})"
    yield from _section(
        "Parameters",
        {n: show_value(p.value) for n, p in old.parameters.items()},
        {n: show_value(p.value) for n, p in new.parameters.items()},
    )
    yield from _section(
        "House options",
        {n: option_line(o) for n, o in old.options.items()},
        {n: option_line(o) for n, o in new.options.items()},
    )
    yield from _section(
        "Fixed",
        {n: show_value(f.value) for n, f in old.fixed.items()},
        {n: show_value(f.value) for n, f in new.fixed.items()},
    )
    yield from _section(
        "Side bets",
        {n: _side_bet_text(old, n) for n in old.side_bets},
        {n: _side_bet_text(new, n) for n in new.side_bets},
    )
    yield from _section(
        "Rules",
        {r.name: _rule_text(r) for r in old.rules},
        {r.name: _rule_text(r) for r in new.rules},
    )


def _rule_text(rule: Rule) -> str:
    return "; ".join([f"{rule.kind}/{rule.severity}", *check_lines(rule)])


def _side_bet_text(ruleset: Ruleset, name: str) -> str:
    bet = ruleset.side_bets[name]
    return "; ".join(
        f"{t}: " + ", ".join(f"{line.label} {line.pays}" for line in lines)
        for t, lines in bet.paytables.items()
    )


def _section(title: str, old: dict[str, str], new: dict[str, str]) -> Iterator[str]:
    changes = []
    for name in sorted(old.keys() | new.keys()):
        if name not in new:
            changes.append(f"  - {name}: {old[name]}")
        elif name not in old:
            changes.append(f"  + {name}: {new[name]}")
        elif old[name] != new[name]:
            changes.append(f"  ~ {name}:")
            changes.append(f"      was: {old[name]}")
            changes.append(f"      now: {new[name]}")
    if changes:
        yield ""
        yield title
        yield from changes


def is_rule_id(registry: Registry, spec: str) -> bool:
    """`rules show fr/blackjack/dealer-stands-17` (a rule) rather than `rules show fr/blackjack` (a
    ruleset): an id some version holds, or a Python-side rule (`hand-log/*`, `house/*`)."""
    from validator.rule_docs import BUILTIN

    return spec in BUILTIN or any(rule.id == spec for ruleset in registry.all() for rule in ruleset.rules)


def rule_lines(registry: Registry, rule_id: str) -> Iterator[str]:
    """One rule, as `ruff rule` shows one: its reference and docs, then each version that has it with
    its dates, and what it runs there (where versions differ, each wording is shown)."""
    from validator.rule_docs import BUILTIN

    builtin = BUILTIN.get(rule_id)
    if builtin is not None:
        yield f"{rule_id} ({builtin.kind}, {builtin.severity})"
        yield f"  ref: {builtin.ref}"
        yield from _docs(builtin.checks, builtin.why, builtin.fails, builtin.passes)
        yield "  applied by casino-validator itself, in every version"
        return
    found = [(ruleset, rule) for ruleset in registry.all() for rule in ruleset.rules if rule.id == rule_id]
    ruleset, latest = found[-1]
    yield f"{rule_id} ({latest.kind}, {latest.severity})"
    yield f"  ref: {latest.ref}"
    yield f"  message: {latest.message}"
    doc = latest.doc
    yield from _docs(doc.get("checks", ""), doc.get("why", ""), doc.get("fails", ""), doc.get("passes", ""))
    yield "  versions:"
    shown: str | None = None
    for ruleset, rule in found:
        yield f"    {ruleset.version:<28} {ruleset.dates():<36} {rule.file}:{rule.line}"
        text = _rule_text(rule)
        if text != shown:
            for line in check_lines(rule):
                yield f"      {line}"
            shown = text


def _docs(checks: str, why: str, fails: str, passes: str) -> Iterator[str]:
    for name, text in (("checks", checks), ("why", why), ("fails", fails), ("passes", passes)):
        if text:
            yield f"  {name}: {text}"
