"""The linter's own rules, one module each, yamllint's way: `ID`, `DOC` (checks, why, fails, passes),
`NODES` (the kinds of node of a house file it looks at, `base.Node`) and `check(node)`, which yields
its findings. `RULES` is their order: the order of `rules show`'s and SARIF's rule lists, and, for a
node several rules look at, the order they are asked in. Their fixtures: tests/fixtures/python-rules/.

A table's limits and seats are judged by the version's own rules (`validator.house.table_rules`), whose
ids are the ruleset's.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from validator.findings.finding import Finding
from validator.house.rules import (
    fixed_by_regulation,
    game_mismatch,
    no_version_in_force,
    option_not_allowed,
    required_option,
    schema,
    unknown_key,
    unknown_reading,
    unknown_ruleset,
    unknown_side_bet,
    unused_suppression,
)
from validator.house.rules.base import Node

RULES: tuple[ModuleType, ...] = (
    option_not_allowed,
    fixed_by_regulation,
    unknown_key,
    unknown_side_bet,
    unknown_reading,
    required_option,
    unknown_ruleset,
    no_version_in_force,
    game_mismatch,
    schema,
    unused_suppression,
)

# The rules that look at each kind of node, in the order of RULES.
_BY_KIND: dict[str, tuple[ModuleType, ...]] = {
    kind: tuple(rule for rule in RULES if kind in rule.NODES) for rule_of in RULES for kind in rule_of.NODES
}


def check(node: Node) -> Iterator[Finding]:
    """The findings of every rule that looks at this kind of node."""
    for rule in _BY_KIND.get(node.kind, ()):
        yield from rule.check(node)
