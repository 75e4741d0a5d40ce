"""Linting a house-rules file against the regulation: is every choice one the text lets the casino make?

Nothing here knows an option by name. What a table may choose comes from the version of its ruleset:
`Ruleset.options` (type, allowed values or range, default, required, ref), `Ruleset.fixed` (what the text
fixes) and `Ruleset.side_bets`. The table's limits and seats are judged by the ruleset's own rules that
listen on the `table` and `limits` events, run on a table state built from the entry, exactly as the
replay runs them on a log's `table` record.

Every finding has kind `house`, the dotted `path` of the key in the file, and its YAML line.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal, InvalidOperation, getcontext
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema.exceptions import ValidationError

from validator.dsl.ast import Name, Ratio
from validator.dsl.expr import names_in
from validator.dsl.model import OptionDef, Ruleset
from validator.dsl.wording import in_words
from validator.errors import ValidatorError
from validator.findings import Finding, RoundOutcome, Summary
from validator.house.load import HouseFile, Path_, dotted, load_house
from validator.house.schema import load_schema
from validator.house.values import house_value
from validator.money import fmt
from validator.registry import NoVersionInForce, Registry
from validator.replay.judge import Judge
from validator.replay.state import TableState

SPEC_REF = "house-rules/1 (docs/house-rules.md)"

# The table-level keys a house entry gives the table state, as the `table` namespace names them.
_TABLE_FACTS = ("minimum", "maximum", "seats")
_OPTIONS = "options"
_SIDE_BETS = "side_bets"
_TABLE_EVENTS = ("table", "limits")

_RATIO = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")
_DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")


@dataclass
class LintResult:
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Versions the tables were linted against, for the summary.
    versions: set[str] = field(default_factory=set)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    def extend(self, other: LintResult) -> None:
        self.findings.extend(other.findings)
        self.notes.extend(n for n in other.notes if n not in self.notes)
        self.versions |= other.versions


def _finding(
    house: HouseFile,
    path: Path_,
    rule: str,
    ref: str,
    message: str,
    *,
    severity: str = "error",
    expected: dict[str, Any] | None = None,
    actual: dict[str, Any] | None = None,
) -> Finding:
    where = dotted(path)
    return Finding(
        kind="house",
        rule=rule,
        ref=ref,
        severity=severity,  # type: ignore[arg-type]
        file=house.file,
        line=house.line(path),
        path=where,
        message=f"{where}: {message}" if where else message,
        expected=expected,
        actual=actual,
    )


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, Decimal):
        return fmt(value) or "0"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _json(value: Any) -> Any:
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, Ratio):
        return str(value)
    return value


def _closest(word: str, candidates: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def _one_of(words: Iterable[str]) -> str:
    words = list(words)
    if not words:
        return "none"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


# ---------------------------------------------------------------- values


def option_value(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    """The YAML value as the rules compute with it, and what is wrong with it (None: nothing)."""
    if raw is None:
        return None, "has no value: give one, or leave the key out for the regulation's default"
    kind = option.type
    value: Any = None
    if kind == "bool":
        if not isinstance(raw, bool):
            return None, f"{_shown(raw)} is not true or false"
        value = raw
    elif kind in ("int", "decimal"):
        if isinstance(raw, bool):
            return None, f"{_shown(raw)} is not a number"
        if isinstance(raw, int | float):
            value = house_value(raw)
        elif isinstance(raw, str) and _DECIMAL.match(raw):
            value = Decimal(raw)
        else:
            return None, f"{_shown(raw)} is not a number"
        if kind == "int" and value != value.to_integral_value():
            return None, f"{_shown(raw)} is not a whole number"
        if value.adjusted() >= getcontext().prec:
            # More digits than Decimal computes with (28): no rule could use it, and quantize would raise.
            if option.allowed is None and option.range is None:
                return None, f"{_shown(raw)} is not a valid value: over {getcontext().prec} digits"
            return None, f"{_shown(raw)} is not allowed: the regulation allows {_allowed_text(option)}"
        if kind == "int":
            value = value.quantize(Decimal(1))
    elif kind == "ratio":
        value = house_value(raw.strip()) if isinstance(raw, str) else None
        if not isinstance(value, Ratio):
            return None, f'{_shown(raw)} is not a ratio: write it as text, such as "3:2"'
    elif kind == "choice":
        if not isinstance(raw, str):
            return (
                None,
                f"{_shown(raw)} is not one of the choices ({_allowed_text(option)}); quote it if it is one",
            )
        value = raw
    else:  # a type the rules language may add later: compared as written
        value = raw
    if not option.allows(value):
        return value, f"{_shown(raw)} is not allowed: the regulation allows {_allowed_text(option)}"
    return value, None


def _allowed_text(option: OptionDef) -> str:
    if option.allowed is not None:
        return _one_of(_shown(v) for v in option.allowed)
    if option.range is not None:
        return f"{_shown(option.range[0])} to {_shown(option.range[1])}"
    return f"any {option.type}"


def _expected(option: OptionDef) -> Any:
    """What the regulation allows, for a finding's `expected`: the list of values, or the range."""
    if option.allowed is not None:
        return [_json(v) for v in option.allowed]
    if option.range is not None:
        return f"{_shown(option.range[0])} to {_shown(option.range[1])}"
    return f"a {option.type}"


def _fixed_value(fixed: Any, raw: Any) -> Any:
    """The YAML value in the type of what the text fixes, to compare them."""
    if isinstance(fixed, Ratio) and isinstance(raw, str) and (m := _RATIO.match(raw)) and int(m.group(2)):
        return Ratio(int(m.group(1)), int(m.group(2)))
    if isinstance(fixed, Decimal) and not isinstance(raw, bool):
        try:
            return Decimal(str(raw))
        except InvalidOperation:
            return raw
    return raw


def _same(fixed: Any, value: Any) -> bool:
    if isinstance(fixed, Ratio) and isinstance(value, Ratio):
        return fixed.factor == value.factor
    return type(fixed) is type(value) and fixed == value


# ---------------------------------------------------------------- the file


def lint_house(house: HouseFile, registry: Registry, day: date) -> LintResult:
    """Every finding of the file: the schema's, then each table's against its version in force on `day`."""
    result = LintResult()
    result.findings.extend(schema_findings(house))
    for table_id, entry in house.tables.items():
        if not isinstance(entry, dict):
            continue
        ruleset, problems = resolve(house, table_id, entry, registry, day)
        result.findings.extend(problems)
        if ruleset is not None:
            result.extend(lint_table(house, table_id, ruleset))
    return result


def resolve(
    house: HouseFile, table_id: str, entry: dict[str, Any], registry: Registry, day: date
) -> tuple[Ruleset | None, list[Finding]]:
    """The version a table's `ruleset` names on `day` (its own @DATE when it pins one)."""
    spec = entry.get("ruleset")
    path: Path_ = ("tables", table_id, "ruleset")
    if not isinstance(spec, str) or not spec:
        return None, []  # the schema finding says so
    unknown = unknown_ruleset(house, table_id, spec, registry)
    if unknown is not None:
        return None, [unknown]
    family, pinned = registry.resolve(spec)
    try:
        return registry.in_force(family, pinned or day), []
    except NoVersionInForce as exc:
        return None, [
            _finding(house, path, "house/no-version-in-force", SPEC_REF, f"{exc} (lint --date picks the day)")
        ]


def unknown_ruleset(house: HouseFile, table_id: str, spec: str, registry: Registry) -> Finding | None:
    """The finding for a `ruleset` no family (or no well-formed @DATE) answers to, else None."""
    try:
        registry.resolve(spec)
    except ValidatorError as exc:
        close = _closest(spec.partition("@")[0], registry.families)
        hint = f"; did you mean {close}?" if close else ""
        path: Path_ = ("tables", table_id, "ruleset")
        return _finding(house, path, "house/unknown-ruleset", SPEC_REF, f"{exc}{hint}")
    return None


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
        if error.validator == "additionalProperties":
            if len(path) == 2 and path[0] == "tables":
                continue
            schema = error.schema if isinstance(error.schema, Mapping) else {}
            instance = error.instance if isinstance(error.instance, Mapping) else {}
            known = list(schema.get("properties", {}))
            for key in sorted(set(instance) - set(known)):
                close = _closest(key, known)
                hint = f"; did you mean {close}?" if close else f"; the keys here are {_one_of(known)}"
                findings.append(
                    _finding(
                        house,
                        (*path, key),
                        "house/unknown-key",
                        SPEC_REF,
                        f"no such key in house-rules/1{hint}",
                    )
                )
            continue
        findings.append(_finding(house, path, "house/schema", SPEC_REF, _schema_message(error)))
    return findings


def _schema_message(error: ValidationError) -> str:
    value = error.validator_value
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, Mapping) else {}
        missing = [k for k in (value if isinstance(value, list) else []) if k not in present]
        if len(missing) == 1:
            return f"{missing[0]} is required here"
        return f"{', '.join(missing[:-1])} and {missing[-1]} are required here"
    if error.validator == "const":
        return f"must be {_shown(value)}, not {_shown(error.instance)}"
    if error.validator == "minimum":
        return f"{_shown(error.instance)} is below {value}"
    if error.validator == "maximum":
        return f"{_shown(error.instance)} is above {value}"
    if error.validator == "pattern":
        return f"{_shown(error.instance)} is not a decimal number"
    if error.validator in ("minLength", "minProperties"):
        return "must not be empty"
    return error.message


# ---------------------------------------------------------------- one table


def lint_table(house: HouseFile, table_id: str, ruleset: Ruleset) -> LintResult:
    """One table's entry against one version of its ruleset."""
    result = LintResult(versions={ruleset.version})
    entry = house.tables.get(table_id)
    if not isinstance(entry, dict):
        return result
    base: Path_ = ("tables", table_id)
    side_bet_options = _side_bet_options(ruleset)
    table_options = {n: o for n, o in ruleset.options.items() if n not in side_bet_options}
    found = result.findings

    # Keys of the entry the schema does not know: perhaps an option written one level too high.
    known = _table_keys()
    for key in entry:
        if key in known:
            continue
        if key in table_options:
            hint = f"; a house option goes under options: {dotted((*base, _OPTIONS, key))}"
        elif key in ruleset.side_bets:
            hint = f"; a side bet goes under side_bets: {dotted((*base, _SIDE_BETS, key))}"
        else:
            close = _closest(key, known)
            hint = f"; did you mean {close}?" if close else f"; the keys of a table are {_one_of(known)}"
        found.append(
            _finding(
                house, (*base, key), "house/unknown-key", SPEC_REF, f"no such key in a table entry{hint}"
            )
        )

    game = entry.get("game")
    if isinstance(game, str) and game and game != ruleset.game:
        found.append(
            _finding(
                house,
                (*base, "game"),
                "house/game-mismatch",
                SPEC_REF,
                f"the table plays {game}, but {ruleset.version} is a {ruleset.game} ruleset",
                expected={"game": ruleset.game},
                actual={"game": game},
            )
        )

    options = entry.get(_OPTIONS) or {}
    for key, raw in options.items():
        path = (*base, _OPTIONS, key)
        if key in table_options:
            found.extend(_check_option(house, path, table_options[key], raw))
        elif key in ruleset.fixed:
            found.append(_fixed_finding(house, path, ruleset, key, raw))
        elif key in side_bet_options:
            bet, _, setting = key.partition(".")
            found.append(
                _finding(
                    house,
                    path,
                    "house/unknown-key",
                    ruleset.title,
                    f"{key} is a setting of the side bet {bet}: write it as "
                    f"{dotted((*base, _SIDE_BETS, bet, setting))}",
                )
            )
        elif key in ruleset.side_bets:
            found.append(
                _finding(
                    house,
                    path,
                    "house/unknown-key",
                    ruleset.title,
                    f"{key} is a side bet: list it under {dotted((*base, _SIDE_BETS, key))}",
                )
            )
        else:
            found.append(_unknown_option(house, path, ruleset, key, table_options))

    bets = entry.get(_SIDE_BETS) or {}
    for bet, settings in bets.items():
        path = (*base, _SIDE_BETS, bet)
        if bet not in ruleset.side_bets:
            close = _closest(bet, ruleset.side_bets)
            offered = _one_of(ruleset.side_bets) if ruleset.side_bets else "none"
            hint = f"; did you mean {close}?" if close else ""
            found.append(
                _finding(
                    house,
                    path,
                    "house/unknown-side-bet",
                    ruleset.title,
                    f"{ruleset.version} has no side bet {bet} (its side bets: {offered}){hint}",
                )
            )
            continue
        declared = {n.partition(".")[2]: o for n, o in side_bet_options.items() if n.partition(".")[0] == bet}
        for key, raw in (settings or {}).items():
            kpath = (*path, key)
            fixed = next((n for n in (f"{bet}.{key}", f"{bet}_{key}") if n in ruleset.fixed), None)
            if key in declared:
                found.extend(_check_option(house, kpath, declared[key], raw))
            elif fixed is not None:
                found.append(_fixed_finding(house, kpath, ruleset, fixed, raw))
            else:
                close = _closest(key, declared)
                if close:
                    hint = f"; did you mean {close}?"
                elif declared:
                    hint = f"; its settings are {_one_of(sorted(declared))}"
                else:
                    hint = "; the regulation leaves nothing of it to the house"
                found.append(
                    _finding(
                        house,
                        kpath,
                        "house/unknown-key",
                        ruleset.title,
                        f"{ruleset.version} declares no setting {key} for the side bet {bet}{hint}",
                    )
                )

    for name, option in ruleset.options.items():
        if not option.required:
            continue
        if name in side_bet_options:
            bet, _, setting = name.partition(".")
            given = isinstance(bets.get(bet), dict) and setting in bets[bet]
            path = (*base, _SIDE_BETS, bet, setting)
        else:
            given = name in options
            path = (*base, _OPTIONS, name)
        if not given:
            found.append(
                _finding(
                    house,
                    path,
                    "house/required-option",
                    option.ref,
                    f"{name} must be declared: {ruleset.version} leaves it to the house rules "
                    "and has no default",
                )
            )

    table_result = _table_rules(house, table_id, ruleset)
    found.extend(table_result.findings)
    result.notes.extend(table_result.notes)
    return result


@cache
def _table_keys() -> list[str]:
    """The keys the schema gives a table entry."""
    return list(load_schema()["$defs"]["table"]["properties"])


def option_findings(
    house: HouseFile, base: Path_, ruleset: Ruleset, options: dict[str, Any]
) -> list[Finding]:
    """Options keyed as the rules name them (`surrender`, `lucky_ladies.paytable`), as a rule fixture's
    `house` gives them: each judged as a table's options are (an allowed value, not one the text fixes,
    an option the version declares)."""
    found: list[Finding] = []
    for key, raw in options.items():
        path = (*base, key)
        if key in ruleset.options:
            found.extend(_check_option(house, path, ruleset.options[key], raw))
        elif key in ruleset.fixed:
            found.append(_fixed_finding(house, path, ruleset, key, raw))
        else:
            found.append(_unknown_option(house, path, ruleset, key, ruleset.options))
    return found


def _side_bet_options(ruleset: Ruleset) -> dict[str, OptionDef]:
    """Options named `<side bet>.<setting>`: written under `side_bets.<side bet>` in a house file."""
    return {n: o for n, o in ruleset.options.items() if "." in n and n.partition(".")[0] in ruleset.side_bets}


def _check_option(house: HouseFile, path: Path_, option: OptionDef, raw: Any) -> list[Finding]:
    _, problem = option_value(option, raw)
    if problem is None:
        return []
    return [
        _finding(
            house,
            path,
            "house/option-not-allowed",
            option.ref,
            problem,
            expected={option.name: _expected(option)},
            actual={option.name: _json(raw)},
        )
    ]


def _fixed_finding(house: HouseFile, path: Path_, ruleset: Ruleset, name: str, raw: Any) -> Finding:
    fixed = ruleset.fixed[name]
    value = _fixed_value(fixed.value, raw)
    if _same(fixed.value, value):
        return _finding(
            house,
            path,
            "house/fixed-by-regulation",
            fixed.ref,
            f"the regulation fixes {name} at {_shown(fixed.value)}: the house cannot choose it "
            "(the value is the same here; remove the key)",
            severity="warning",
        )
    return _finding(
        house,
        path,
        "house/fixed-by-regulation",
        fixed.ref,
        f"the regulation fixes {name} at {_shown(fixed.value)}; the house cannot choose {_shown(raw)}",
        expected={name: _json(fixed.value)},
        actual={name: _json(raw)},
    )


def _unknown_option(
    house: HouseFile, path: Path_, ruleset: Ruleset, key: str, table_options: dict[str, OptionDef]
) -> Finding:
    close = _closest(key, table_options)
    if close:
        hint = f"; did you mean {close}?"
    elif table_options:
        hint = f"; its options are {_one_of(sorted(table_options))}"
    else:
        hint = "; it leaves no option to the house"
    return _finding(
        house,
        path,
        "house/unknown-key",
        ruleset.title,
        f"{ruleset.version} declares no house option {key}{hint}",
    )


# ---------------------------------------------------------------- limits and seats, by the ruleset's rules


def house_options(house: HouseFile, table_id: str, ruleset: Ruleset) -> dict[str, Any]:
    """The options the judge reads for this table: the regulation's defaults, then the valid choices of the
    entry, keyed as the rules name them (`surrender`, `lucky_ladies.paytable`)."""
    values = ruleset.house_defaults()
    entry = house.tables.get(table_id)
    if not isinstance(entry, dict):
        return values
    for key, raw in (entry.get(_OPTIONS) or {}).items():
        option = ruleset.options.get(key)
        if option is not None:
            value, problem = option_value(option, raw)
            if problem is None:
                values[key] = value
    for bet, settings in (entry.get(_SIDE_BETS) or {}).items():
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


def _amount(raw: Any) -> Decimal | None:
    if isinstance(raw, bool) or raw is None:
        return None
    try:
        return Decimal(str(raw))
    except InvalidOperation:
        return None


def _table_rules(house: HouseFile, table_id: str, ruleset: Ruleset) -> LintResult:
    """The ruleset's rules on the `table` and `limits` events, judged on the entry's limits and seats."""
    result = LintResult()
    if not any(ruleset.checks_by_event.get(event) for event in _TABLE_EVENTS):
        return result
    entry = house.tables[table_id]
    base: Path_ = ("tables", table_id)
    # A value the schema refuses ("1e400" is not a decimal number, seats 0) has its finding already:
    # no rule judges with it, as if it were not given.
    refused = {key for key in _TABLE_FACTS if house.refused((*base, key))}
    given = {key: None if key in refused else entry.get(key) for key in _TABLE_FACTS}
    seats = given["seats"]
    state = TableState(
        id=table_id,
        game=ruleset.game,
        seats=seats if isinstance(seats, int) and not isinstance(seats, bool) else None,  # type: ignore[arg-type]
        minimum=_amount(given["minimum"]),  # type: ignore[arg-type]
        maximum=_amount(given["maximum"]),  # type: ignore[arg-type]
        new_cards=None,
        ruleset=ruleset.family,
        line=house.line(base),
    )
    missing = {f"table.{key}" for key in _TABLE_FACTS if getattr(state, key) is None}
    judge = Judge(ruleset, house_options(house, table_id, ruleset), house.file)
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
            checks_text = ruleset.rule(finding.rule).doc.get("checks", "")
            expected, actual = in_words(finding.expected or {}, finding.actual or {}, checks_text)
            result.findings.append(
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
        result.notes.append(
            f"{house.file}: {dotted(base)} gives no {_one_of(absent) if absent else 'value for some facts'}: "
            f"{', '.join(sorted(unjudged))} not judged"
        )
    return result


def _blamed(base: Path_, entry: dict[str, Any], finding: Finding) -> Path_:
    """The key a broken table rule is about: the first table fact it reports that the entry gives."""
    for facts in (finding.actual or {}, finding.expected or {}):
        for name in facts:
            namespace, _, key = name.partition(".")
            if namespace == "table" and key in entry:
                return (*base, key)
    return base


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
                result.extend(lint_table(house, table_id, ruleset))
            summary.rulesets |= result.versions
            for note in result.notes:
                if note not in summary.notes:
                    summary.notes.append(note)
            ordered = sorted(result.findings, key=lambda f: f.line or 0)
            # Every entry, clean or not, is an outcome: JUnit makes one test case of each.
            yield _counted(summary, house, ordered, house.line(("tables", table_id)), entry=str(table_id))
    summary.notes.insert(
        0,
        f"lint: {tables} table{'s' if tables != 1 else ''} checked against the versions in force "
        f"on {day.isoformat()}",
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
