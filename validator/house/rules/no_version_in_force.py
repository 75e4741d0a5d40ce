"""house/no-version-in-force: a version of the table's ruleset is in force on the day linted."""

from __future__ import annotations

from collections.abc import Iterator

from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import SPEC_REF, Node, finding
from validator.i18n import N_, _
from validator.rulebook.registry import NoVersionInForce

ID = "house/no-version-in-force"
DOC = house_rule(
    ID,
    checks=N_("A version of the table's ruleset is in force on the day linted."),
    why=N_("An entry is judged by the text in force on `--date` (default: today)."),
    fails=N_("`lint --date 2010-01-01` on a French blackjack entry."),
    passes=N_("`lint --date 2025-03-14`."),
)
NODES = ("ruleset",)


def check(node: Node) -> Iterator[Finding]:
    """For a `ruleset` the registry knows: the finding when no version of it is in force on the day
    (its own @DATE when it pins one)."""
    registry, day = node.registry, node.day
    assert registry is not None and day is not None
    try:
        family, pinned = registry.resolve(str(node.raw))
    except ValidatorError:
        return  # house/unknown-ruleset's
    try:
        registry.in_force(family, pinned or day)
    except NoVersionInForce as exc:
        yield finding(
            node.house, node.path, ID, SPEC_REF, _("{value} (lint --date picks the day)").format(value=exc)
        )
