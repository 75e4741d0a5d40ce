"""Linting a house-rules file against the regulation: is every choice one the text lets the casino make?

Nothing here knows an option by name. What a table may choose comes from the version of its ruleset:
`Ruleset.options` (type, allowed values or range, default, required, ref), `Ruleset.fixed` (what the text
fixes) and `Ruleset.side_bets`. This module is the driver: it walks a file in document order and hands
each part of it (`validator.house.rules.base.Node`) to the rules that look at it, one module per rule
under `validator/house/rules/`; a table's limits and seats are judged by the version's own rules
(`validator.house.table_rules`).

Every finding has kind `house`, the dotted `path` of the key in the file, and its YAML line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from validator.dsl.model import OptionDef, Ruleset
from validator.errors import ValidatorError
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.house import rules
from validator.house.aliases import resolve as resolve_aliases
from validator.house.load import HouseFile, Path_, load_house
from validator.house.rules import unknown_ruleset as rule
from validator.house.rules.base import OPTIONS, READINGS, SIDE_BETS, SPEC_REF, Node, Table
from validator.house.rules.option_not_allowed import option_value
from validator.house.table_rules import judge_table
from validator.i18n import ngettext
from validator.rulebook.registry import Registry, under_readings

__all__ = [
    "SPEC_REF",
    "LintResult",
    "house_options",
    "lint_files",
    "lint_table",
    "option_findings",
    "option_value",
    "resolve",
    "schema_findings",
    "unknown_ruleset",
]


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Versions the tables were linted against, for the summary.
    versions: set[str] = field(default_factory=set)
    # The readings they were linted under: (version, reading, alternative, whether the default).
    readings: set[tuple[str, str, str, bool]] = field(default_factory=set)
    # (reading, alternative) → its meanings, for the summary's words beside the names (Summary.alternatives).
    alternatives: dict[tuple[str, str], Any] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def extend(self, other: LintResult) -> None:
        self.findings.extend(other.findings)
        self.notes.extend(n for n in other.notes if n not in self.notes)
        self.versions |= other.versions
        self.readings |= other.readings
        for key, info in other.alternatives.items():
            self.alternatives.setdefault(key, info)


# ---------------------------------------------------------------- the file


def schema_findings(house: HouseFile) -> list[Finding]:
    """What the schema says beyond types (those stop the reading): a missing key, a wrong `format`,
    an unknown key at the top. A table's own unknown keys are `lint_table`'s, which knows its ruleset."""
    findings: list[Finding] = []
    required_at: set[Path_] = set()
    for error in house.schema_errors():
        path = tuple(error.absolute_path)
        if error.validator == "type":
            continue
        if error.validator == "required":
            # jsonschema gives one error per missing key; the first finding names them all.
            if path in required_at:
                continue
            required_at.add(path)
        if error.validator == "additionalProperties" and len(path) == 2 and path[0] == "tables":
            continue
        findings.extend(rules.check(Node("schema-error", house, path, error=error)))
    return findings


def resolve(
    house: HouseFile, table_id: str, entry: dict[str, Any], registry: Registry, day: date
) -> tuple[Ruleset | None, list[Finding]]:
    """The version a table's `ruleset` names on `day` (its own @DATE when it pins one)."""
    spec = entry.get("ruleset")
    if not isinstance(spec, str) or not spec:
        return None, []  # the schema finding says so
    node = Node("ruleset", house, ("tables", table_id, "ruleset"), raw=spec, registry=registry, day=day)
    problems = list(rules.check(node))
    if problems:
        return None, problems
    family, pinned = registry.resolve(spec)
    return registry.in_force(family, pinned or day), []


def unknown_ruleset(house: HouseFile, table_id: str, spec: str, registry: Registry) -> Finding | None:
    """The finding for a `ruleset` no family (or no well-formed @DATE) answers to, else None."""
    node = Node("ruleset", house, ("tables", table_id, "ruleset"), raw=spec, registry=registry)
    return next(rule.check(node), None)


# ---------------------------------------------------------------- one table


def lint_table(house: HouseFile, table_id: str, ruleset: Ruleset) -> LintResult:
    """One table's entry against one version of its ruleset."""
    result = LintResult(versions={ruleset.version})
    resolve_aliases(house, table_id, ruleset)
    entry = house.tables.get(table_id)
    if not isinstance(entry, dict):
        return result
    # The entry's readings, where the run did not choose another (--reading, the configuration).
    chosen = dict(ruleset.applied)
    ruleset = under_readings(
        ruleset, {n: a for n, a in table_readings(house, table_id).items() if n not in chosen}
    )
    result.readings = {
        (ruleset.version, n, a, ruleset.readings[n].default == a)
        for n, a in ruleset.reading_choices().items()
    }
    result.alternatives = {
        (name, info.name): info for name, reading in ruleset.readings.items() for info in reading.alternatives
    }
    side_bet_options = _side_bet_options(ruleset)
    table = Table(
        house,
        table_id,
        entry,
        ruleset,
        {n: o for n, o in ruleset.options.items() if n not in side_bet_options},
        side_bet_options,
    )
    for node in _walk(table):
        result.findings.extend(rules.check(node))
    findings, notes = judge_table(house, table_id, ruleset, house_options(house, table_id, ruleset))
    result.findings.extend(findings)
    result.notes.extend(notes)
    return result


def _walk(table: Table) -> Iterator[Node]:
    """The parts of a table entry, in the order their findings are listed."""
    house, entry, base, ruleset = table.house, table.entry, table.base, table.ruleset
    for key in entry:
        yield Node("key", house, (*base, key), key=key, raw=entry[key], table=table)
    yield Node("game", house, (*base, "game"), key="game", raw=entry.get("game"), table=table)
    for key, raw in (entry.get(OPTIONS) or {}).items():
        yield Node(
            "option",
            house,
            (*base, OPTIONS, key),
            key=key,
            raw=raw,
            table=table,
            option=table.table_options.get(key),
            fixed=key if key in ruleset.fixed else None,
            candidates=table.table_options,
        )
    for bet, settings in (entry.get(SIDE_BETS) or {}).items():
        path = (*base, SIDE_BETS, bet)
        yield Node("side-bet", house, path, key=bet, raw=settings, table=table)
        if bet not in ruleset.side_bets:
            continue
        declared = {
            n.partition(".")[2]: o for n, o in table.side_bet_options.items() if n.partition(".")[0] == bet
        }
        for key, raw in (settings or {}).items():
            yield Node(
                "setting",
                house,
                (*path, key),
                key=key,
                raw=raw,
                table=table,
                option=declared.get(key),
                fixed=next((n for n in (f"{bet}.{key}", f"{bet}_{key}") if n in ruleset.fixed), None),
                candidates=declared,
                bet=bet,
            )
    for name, alternative in (entry.get(READINGS) or {}).items():
        yield Node("reading", house, (*base, READINGS, name), key=name, raw=alternative, table=table)
    yield Node("entry", house, base, raw=entry, table=table)


def option_findings(
    house: HouseFile, base: Path_, ruleset: Ruleset, options: dict[str, Any]
) -> list[Finding]:
    """Options keyed as the rules name them (`surrender`, `lucky_ladies.paytable`), as a rule fixture's
    `house` gives them: each judged as a table's options are (an allowed value, not one the text fixes,
    an option the version declares)."""
    table = Table(house, "", {}, ruleset, ruleset.options, {})
    found: list[Finding] = []
    for key, raw in options.items():
        node = Node(
            "rule-option",
            house,
            (*base, key),
            key=key,
            raw=raw,
            table=table,
            option=ruleset.options.get(key),
            fixed=key if key in ruleset.fixed else None,
            candidates=ruleset.options,
        )
        found.extend(rules.check(node))
    return found


def _side_bet_options(ruleset: Ruleset) -> dict[str, OptionDef]:
    """Options named `<side bet>.<setting>`: written under `side_bets.<side bet>` in a house file."""
    return {n: o for n, o in ruleset.options.items() if "." in n and n.partition(".")[0] in ruleset.side_bets}


# ---------------------------------------------------------------- the options the judge reads


def table_readings(house: HouseFile, table_id: str) -> dict[str, str]:
    """The readings a table entry declares (`readings: {ID: ALTERNATIVE}`), as written; those the
    version does not have are `house/unknown-reading` findings, and left out where applied."""
    entry = house.tables.get(table_id)
    declared = entry.get(READINGS) if isinstance(entry, dict) else None
    if not isinstance(declared, dict):
        return {}
    return {str(k): v for k, v in declared.items() if isinstance(v, str)}


def house_options(house: HouseFile, table_id: str, ruleset: Ruleset) -> dict[str, Any]:
    """The options the judge reads for this table: the regulation's defaults, then the valid choices of the
    entry, keyed as the rules name them (`surrender`, `lucky_ladies.paytable`)."""
    values = ruleset.house_defaults()
    resolve_aliases(house, table_id, ruleset)
    entry = house.tables.get(table_id)
    if not isinstance(entry, dict):
        return values
    for key, raw in (entry.get(OPTIONS) or {}).items():
        option = ruleset.options.get(key)
        if option is not None:
            value, problem = option_value(option, raw)
            if problem is None:
                values[key] = value
    for bet, settings in (entry.get(SIDE_BETS) or {}).items():
        # A casino that lists a side bet (with its limits, as house-rules.md's own example does) offers
        # it: where the ruleset has a `<bet>.offered` switch, listing the bet turns it on, and an
        # explicit `offered: false` still withdraws it.
        switch = ruleset.options.get(f"{bet}.offered")
        if switch is not None and switch.type == "bool" and "offered" not in (settings or {}):
            values[switch.name] = True
        for key, raw in (settings or {}).items():
            option = ruleset.options.get(f"{bet}.{key}")
            if option is not None:
                value, problem = option_value(option, raw)
                if problem is None:
                    values[option.name] = value
    return values


# ---------------------------------------------------------------- the command


def lint_files(
    registry: Registry,
    paths: Iterable[Path | str],
    day: date,
    summary: Summary,
    on_unreadable: Callable[[str], None],
) -> Iterator[RoundOutcome]:
    """`casino-validator lint`: one outcome per file's own findings and per table; a file that cannot be
    read is passed to `on_unreadable` (the run then ends with status 2) and the others are still linted."""
    tables = 0
    for path in paths:
        try:
            house = load_house(path)
        except ValidatorError as exc:
            on_unreadable(str(exc))
            continue
        summary.files += 1
        file_findings = schema_findings(house)
        if file_findings:
            yield _counted(summary, house, file_findings)
        for table_id, entry in house.tables.items():
            if not isinstance(entry, dict):
                continue
            tables += 1
            summary.records += 1
            result = LintResult()
            ruleset, problems = resolve(house, table_id, entry, registry, day)
            result.findings.extend(problems)
            if ruleset is not None:
                try:
                    result.extend(lint_table(house, table_id, ruleset))
                except ValidatorError as exc:  # a block in the text's words of the wrong type
                    on_unreadable(str(exc))
                    break
            summary.rulesets |= result.versions
            summary.readings |= result.readings
            for key, info in result.alternatives.items():
                summary.alternatives.setdefault(key, info)
            for note in result.notes:
                if note not in summary.notes:
                    summary.notes.append(note)
            ordered = sorted(result.findings, key=lambda f: f.line or 0)
            # Every entry, clean or not, is an outcome: JUnit makes one test case of each.
            yield _counted(summary, house, ordered, house.line(("tables", table_id)), entry=str(table_id))
    summary.notes.insert(
        0,
        ngettext(
            "lint: {n} table checked against the versions in force on {day}",
            "lint: {n} tables checked against the versions in force on {day}",
            tables,
        ).format(n=tables, day=day.isoformat()),
    )


def _counted(
    summary: Summary,
    house: HouseFile,
    findings: list[Finding],
    line: int | None = None,
    entry: str | None = None,
) -> RoundOutcome:
    for finding in findings:
        summary.count(finding)
    if entry is not None and findings:
        summary.tables_with_findings += 1
    return RoundOutcome(house.file, line, None, tuple(findings), "none", entry=entry)
