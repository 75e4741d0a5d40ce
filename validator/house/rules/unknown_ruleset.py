"""house/unknown-ruleset: a table's `ruleset` is one the tool holds."""

from __future__ import annotations

from collections.abc import Iterator

from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import SPEC_REF, Node, did_you_mean, finding
from validator.i18n import N_, _

ID = "house/unknown-ruleset"
DOC = house_rule(
    ID,
    checks=N_("A table's `ruleset` is one the tool holds."),
    why=N_("Without the ruleset, nothing in the entry can be judged."),
    fails=N_("A ruleset id with a typo."),
    passes=N_("A ruleset id `rules list` shows."),
)
NODES = ("ruleset",)


def check(node: Node) -> Iterator[Finding]:
    """The finding for a `ruleset` no family (or no well-formed @DATE) answers to."""
    registry = node.registry
    assert registry is not None
    spec = str(node.raw)
    try:
        registry.resolve(spec)
    except ValidatorError as exc:
        hint = did_you_mean(spec.partition("@")[0], registry.families)
        yield finding(node.house, node.path, ID, SPEC_REF, _("{value}{hint}").format(value=exc, hint=hint))
