"""A table's limits and seats, judged by the version's own rules: those listening on the `table` and
`limits` events, run on a table state built from the entry, exactly as the replay runs them on a log's
`table` record. Their findings carry the ruleset's rule ids, the house file's path and line.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal, InvalidOperation
from typing import Any

from validator.dsl.ast import Name
from validator.dsl.expr import names_in
from validator.dsl.model import Ruleset
from validator.dsl.wording import in_words
from validator.findings.finding import Finding
from validator.house.load import HouseFile, Path_, dotted
from validator.house.rules.base import one_of
from validator.i18n import _, current
from validator.replay.judge import Judge
from validator.replay.state import TableState

# The table-level keys a house entry gives the table state, as the `table` namespace names them.
_TABLE_FACTS = ("minimum", "maximum", "seats")
_TABLE_EVENTS = ("table", "limits")


def _amount(raw: Any) -> Decimal | None:
    if isinstance(raw, bool) or raw is None:
        return None
    try:
        return Decimal(str(raw))
    except InvalidOperation:
        return None


def judge_table(
    house: HouseFile, table_id: str, ruleset: Ruleset, options: dict[str, Any]
) -> tuple[list[Finding], list[str]]:
    """The findings and notes of the ruleset's rules on the `table` and `limits` events, judged on the
    entry's limits and seats, with the house options `options` in force."""
    findings: list[Finding] = []
    notes: list[str] = []
    if not any(ruleset.checks_by_event.get(event) for event in _TABLE_EVENTS):
        return findings, notes
    entry = house.tables[table_id]
    base: Path_ = ("tables", table_id)
    # A value the schema refuses ("1e400" is not a decimal number, seats 0) has its finding already:
    # no rule judges with it, as if it were not given.
    refused = {key for key in _TABLE_FACTS if house.refused((*base, key))}
    given = {key: None if key in refused else entry.get(key) for key in _TABLE_FACTS}
    raw_seats = given["seats"]
    seats = raw_seats if isinstance(raw_seats, int) and not isinstance(raw_seats, bool) else None
    minimum, maximum = _amount(given["minimum"]), _amount(given["maximum"])
    # A fact the entry does not give is missing: no rule reading it is judged (below), so the table
    # state holds a zero in its place, of the type the (compiled) replay's TableState requires.
    values = {"minimum": minimum, "maximum": maximum, "seats": seats}
    missing = {f"table.{key}" for key, value in values.items() if value is None}
    state = TableState(
        id=table_id,
        game=ruleset.game,
        seats=seats if seats is not None else 0,
        minimum=minimum if minimum is not None else Decimal(0),
        maximum=maximum if maximum is not None else Decimal(0),
        new_cards=None,
        ruleset=ruleset.family,
        line=house.line(base),
    )
    judge = Judge(ruleset, options, house.file)
    judge.in_words = False  # _blamed reads the facts' names; the values are reworded below
    seen: set[str] = set()
    unjudged: set[str] = set()
    for event in _TABLE_EVENTS:
        # A rule reading a fact the entry does not give is not judged: none is not a limit.
        checks = []
        for rule, check in ruleset.checks_by_event.get(event, ()):
            nodes = [check.require_node] + ([check.guard_node] if check.guard_node is not None else [])
            if any(isinstance(n, Name) and n.path in missing for node in nodes for n in names_in(node)):
                unjudged.add(rule.id)
            else:
                checks.append((rule, check))
        judge.findings = []
        judge.run(tuple(checks), event, judge.context(table=state), house.line(base), None, None)
        for finding in judge.findings:
            if finding.rule in seen:
                continue
            seen.add(finding.rule)
            path = _blamed(base, entry, finding)
            checks_text = ruleset.rule(finding.rule).text("checks", current())
            expected, actual = in_words(finding.expected or {}, finding.actual or {}, checks_text)
            findings.append(
                replace(
                    finding,
                    expected=expected,
                    actual=actual,
                    kind="house",
                    path=dotted(path),
                    line=house.line(path),
                    message=f"{dotted(path)}: {finding.message}",
                )
            )
    unjudged |= {note.partition(":")[0] for note in judge.unjudged}
    if unjudged:
        absent = [
            f"valid {key}" if key in refused else key for key in _TABLE_FACTS if f"table.{key}" in missing
        ]
        notes.append(
            _("{file}: {key} gives no {what}: {rules} not judged").format(
                file=house.file,
                key=dotted(base),
                what=one_of(absent) if absent else _("value for some facts"),
                rules=", ".join(sorted(unjudged)),
            )
        )
    return findings, notes


def _blamed(base: Path_, entry: dict[str, Any], finding: Finding) -> Path_:
    """The key a broken table rule is about: the first table fact it reports that the entry gives."""
    for facts in (finding.actual or {}, finding.expected or {}):
        for name in facts:
            namespace, _dot, key = name.partition(".")
            if namespace == "table" and key in entry:
                return (*base, key)
    return base
