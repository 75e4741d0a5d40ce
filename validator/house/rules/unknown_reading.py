"""house/unknown-reading: each reading a table entry declares is one the version of its ruleset has, and
its alternative one of that reading's."""

from __future__ import annotations

from collections.abc import Iterator

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import Node, did_you_mean, finding, one_of
from validator.i18n import N_, _

ID = "house/unknown-reading"
DOC = house_rule(
    ID,
    checks=N_(
        "Each reading a table entry declares (`readings: {ID: ALTERNATIVE}`) is one of the version's, "
        "with one of its alternatives."
    ),
    why=N_(
        "Where the text leaves a sentence ambiguous, the casino states the reading its règlement intérieur "
        "follows; a misspelt one would silently leave the default reading in force."
    ),
    fails=N_("`jp1-stake: retained` (its alternatives are returned and kept)."),
    passes=N_("`jp1-stake: kept`."),
)
NODES = ("reading",)


def check(node: Node) -> Iterator[Finding]:
    assert node.table is not None
    ruleset, name = node.table.ruleset, node.key
    reading = ruleset.readings.get(name)
    if reading is None:
        known = one_of(sorted(ruleset.readings)) if ruleset.readings else _("none")
        hint = did_you_mean(name, ruleset.readings)
        yield finding(
            node.house,
            node.path,
            ID,
            ruleset.title,
            _("{version} has no reading {name} (its readings: {known}){hint}").format(
                version=ruleset.version, name=name, known=known, hint=hint
            ),
        )
        return
    if not isinstance(node.raw, str) or node.raw not in reading.names:
        hint = did_you_mean(str(node.raw), reading.names)
        yield finding(
            node.house,
            node.path,
            ID,
            reading.ref,
            _("reading {name} has no alternative {value} (its alternatives: {known}){hint}").format(
                name=name, value=node.raw, known=one_of(reading.names), hint=hint
            ),
        )
