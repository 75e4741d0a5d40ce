"""`casino-validator rules test [DIR]`: rule fixtures, run the way `opa test` runs policy tests.

A fixture is a log, `NAME.jsonl`, beside `NAME.expect.json`:

    {"rulesets": ["fr/blackjack@2019-08-12", "fr/blackjack@2024-11-01"],   # optional: pin each in turn
     "house": {"surrender": true},                                       # optional house options
     "readings": {"pair-totalling-20": "same-rank-and-suit"},            # optional: read the text so
     "why": "« … »: the sentence tested, and why these findings",        # optional: for the reader
     "findings": [{"rule": "fr/blackjack/dealer-stands-17", "line": 3, "stake": "D"}]}

The log must give exactly the listed findings, in order; each listed field must match, the others
are not compared. `"findings": []` is a passing case: the log breaks nothing.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from validator.checking.serial import check_logs
from validator.dsl.model import Ruleset
from validator.dsl.wording import in_words
from validator.errors import ValidatorError
from validator.house.lint import option_findings
from validator.house.load import HouseFile
from validator.house.values import house_value
from validator.i18n import N_, _, current
from validator.rulebook.registry import Registry, choice_problem


@dataclass(frozen=True)
class FixtureResult:
    name: str
    ruleset: str | None
    ok: bool
    problems: tuple[str, ...]
    # The readings the case chose (reading → alternative; the defaults for the others).
    readings: tuple[tuple[str, str], ...] = ()

    @property
    def label(self) -> str:
        """How `rules test` names the run: the log, the version pinned, the readings chosen."""
        pinned = f" @ {self.ruleset}" if self.ruleset else ""
        chosen = "".join(f" [{name}={alternative}]" for name, alternative in self.readings)
        return self.name + pinned + chosen


@dataclass(frozen=True)
class FixtureRun:
    """One run of a case: its log judged under one pinned version (None: the log's own) and its readings.
    `expectation` is the case's NAME.expect.json, read and checked."""

    expect: Path
    log: Path
    name: str
    pinned: str | None
    readings: tuple[tuple[str, str], ...]
    expectation: dict[str, Any]


FIXTURES = Path("tests") / "fixtures" / "rules"


def default_fixture_dir(start: Path | None = None) -> Path:
    """`rules test` without a folder: the project's fixtures, found from the current folder upwards,
    else beside the package (a checkout or an editable install); otherwise an error saying what to pass."""
    folder = (start or Path.cwd()).resolve()
    package_checkout = Path(__file__).resolve().parents[2]  # this module is validator/checking/fixtures.py
    for candidate in (folder, *folder.parents, package_checkout):
        if (candidate / FIXTURES).is_dir():
            return candidate / FIXTURES
    raise ValidatorError(
        _(
            "no rule fixtures found ({FIXTURES} in this folder, its "
            "parents, or beside the installed package): pass the folder, "
            "as in `casino-validator rules test DIR`, where DIR holds "
            "NAME.jsonl logs each with its NAME.expect.json"
        ).format(FIXTURES=FIXTURES)
    )


def find_fixtures(root: Path) -> list[Path]:
    if not root.exists():
        raise ValidatorError(_("{root}: no such directory").format(root=root))
    return sorted(root.rglob("*.expect.json"))


# The shape of NAME.expect.json; each `description` says what a value must be, in the error message.
EXPECTATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": N_("an object with a 'findings' list"),
    "required": ["findings"],
    "additionalProperties": False,
    "properties": {
        "rulesets": {
            "type": "array",
            "description": N_('a list of ruleset ids, such as ["fr/blackjack@2019-08-12"]'),
            "items": {
                "type": "string",
                "minLength": 1,
                "description": N_('a ruleset id (ID or ID@YYYY-MM-DD), such as "fr/blackjack@2019-08-12"'),
            },
        },
        "house": {
            "type": "object",
            "description": N_('an object of house options, such as {"surrender": true}'),
        },
        "readings": {
            "type": "object",
            "description": N_('an object of readings, such as {"pair-totalling-20": "same-rank-and-suit"}'),
            "additionalProperties": {
                "type": "string",
                "minLength": 1,
                "description": N_('an alternative of the reading, such as "same-rank-and-suit"'),
            },
        },
        "why": {
            "type": "string",
            "description": N_("the sentence of the text the case tests, and how its findings follow from it"),
        },
        "findings": {
            "type": "array",
            "description": N_("a list of findings ([] for a log that breaks nothing)"),
            "items": {
                "type": "object",
                "description": N_('a finding: an object of the fields to compare, such as {"line": 3}'),
            },
        },
    },
}


def load_expectation(path: Path) -> dict[str, Any]:
    """NAME.expect.json, read and checked against `EXPECTATION_SCHEMA`; anything wrong is a
    `ValidatorError` naming the file."""
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise ValidatorError(_("{path}: a folder, not an expectation file").format(path=path)) from None
    except OSError as exc:
        raise ValidatorError(
            _("{path}: cannot be read ({strerror})").format(path=path, strerror=exc.strerror)
        ) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ValidatorError(
            _("{path}:{line}: not UTF-8 text ({reason})").format(path=path, line=line, reason=exc.reason)
        ) from None
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValidatorError(
            _("{path}:{lineno}:{colno}: not JSON: {msg}").format(
                path=path, lineno=exc.lineno, colno=exc.colno, msg=exc.msg
            )
        ) from None
    except RecursionError:
        raise ValidatorError(
            _("{path}: not JSON this program reads: nested too deeply").format(path=path)
        ) from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise ValidatorError(
            _("{path}: not JSON this program reads: {split}").format(path=path, split=str(exc).split(";")[0])
        ) from None
    if _depth_over(data, _MAX_DEPTH):
        raise ValidatorError(
            _("{path}: nested more than {value} levels deep (an expectation needs 3)").format(
                path=path, value=_MAX_DEPTH
            )
        )
    problem = _shape_problem(data)
    if problem:
        raise ValidatorError(_("{path}: {problem}").format(path=path, problem=problem))
    return cast(dict[str, Any], data)  # _shape_problem found it an object of the expected shape


# How deep an expectation's values may nest: the shape check and the comparisons recurse.
_MAX_DEPTH = 32


def _depth_over(data: Any, limit: int) -> bool:
    """Whether lists and objects nest deeper than `limit`, found without recursion."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth >= limit:
                return True
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
    return False


def _shape_problem(data: Any) -> str | None:
    from jsonschema import Draft202012Validator

    errors = sorted(
        Draft202012Validator(EXPECTATION_SCHEMA).iter_errors(data),
        key=lambda e: [str(part) for part in e.absolute_path],
    )
    if not errors:
        return None
    error = errors[0]
    where = "".join(f"[{p}]" if isinstance(p, int) else p for p in error.absolute_path)
    if error.validator == "required":
        return _("no 'findings' list: write \"findings\": [] for a log that breaks nothing")
    if error.validator == "additionalProperties":
        known = list(EXPECTATION_SCHEMA["properties"])
        unknown = sorted(set(error.instance) - set(known))[0]
        close = difflib.get_close_matches(unknown, known, n=1)
        hint = _("; did you mean {near}?").format(near=repr(close[0])) if close else ""
        return _("unknown key {key}{hint} (the keys are {known})").format(
            key=repr(unknown), hint=hint, known=", ".join(known)
        )
    shown = json.dumps(error.instance, ensure_ascii=False)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    wanted = error.schema["description"]
    return _("{where} must be {what}, not {value}").format(
        where=where or _("the expectation"), what=_(wanted), value=shown
    )


def _pinned(registry: Registry, expect_path: Path, expectation: dict[str, Any]) -> list[str | None]:
    """The `rulesets` to pin in turn, each checked to name a version (and the `house` options against
    it, when it pins a date); [None]: the log's own."""
    specs = expectation.get("rulesets") or []
    for index, spec in enumerate(specs):
        try:
            family, day = registry.resolve(spec)
            version = registry.in_force(family, day) if day is not None else None
        except ValidatorError as exc:
            raise ValidatorError(
                _("{expect_path}: rulesets[{index}]: {value}").format(
                    expect_path=expect_path, index=index, value=exc
                )
            ) from None
        if version is not None:
            _check_house(expect_path, expectation, version)
    return specs or [None]


def _check_house(expect_path: Path, expectation: dict[str, Any], ruleset: Ruleset) -> None:
    """The `house` options, judged against the version as `lint` judges a table's options."""
    options = expectation.get("house") or {}
    found = option_findings(HouseFile(str(expect_path), expectation), ("house",), ruleset, options)
    errors = [f for f in found if f.severity == "error"]
    if errors:
        message = errors[0].message
        if ruleset.version not in message:
            message += f" (under {ruleset.version})"
        raise ValidatorError(_("{expect_path}: {message}").format(expect_path=expect_path, message=message))


def plan_fixture(registry: Registry, expect_path: Path, root: Path) -> list[FixtureRun]:
    """The runs a case asks for (one per version it pins, under the readings it chooses), its expectation
    checked against the registry first: a bad one is a `ValidatorError` naming the file."""
    expectation = load_expectation(expect_path)
    pins = _pinned(registry, expect_path, expectation)
    readings = expectation.get("readings") or {}
    for name, alternative in readings.items():
        problem = choice_problem(registry, name, alternative)
        if problem is not None:
            raise ValidatorError(
                _("{expect_path}: {message}").format(expect_path=expect_path, message=problem)
            )
    log = expect_path.with_name(expect_path.name.removesuffix(".expect.json") + ".jsonl")
    if not log.exists():
        raise ValidatorError(
            _("{expect_path}: its log {name} is missing").format(expect_path=expect_path, name=log.name)
        )
    name = str(log.relative_to(root)) if log.is_relative_to(root) else str(log)
    chosen = tuple(sorted(readings.items()))
    return [FixtureRun(expect_path, log, name, pinned, chosen, expectation) for pinned in pins]


def judge_run(registry: Registry, run: FixtureRun) -> tuple[FixtureResult, list[dict[str, Any]]]:
    """One run judged by `registry` (under the run's readings): its result, and the findings it gave."""
    # The rules as the readings chosen have them: their findings, and their words (a rule only an
    # alternative adds, or words an alternative replaces).
    chosen = registry.with_readings(dict(run.readings))
    found = findings_of(chosen, run)
    wanted = [_in_words(chosen, item, run.pinned) for item in run.expectation["findings"]]
    problems = compare(wanted, found)
    return FixtureResult(run.name, run.pinned, not problems, tuple(problems), run.readings), found


def findings_of(registry: Registry, run: FixtureRun) -> list[dict[str, Any]]:
    """The findings `registry` (its readings already chosen) gives the run's log, as dicts."""
    options = run.expectation.get("house") or {}

    def house(_table: str, ruleset: Ruleset) -> dict[str, Any]:
        _check_house(run.expect, run.expectation, ruleset)
        return {**ruleset.house_defaults(), **_house_values(options)}

    return [
        o.as_dict()
        for outcome in check_logs(registry, [str(run.log)], ruleset=run.pinned, house=house)
        for o in outcome.findings
    ]


def run_fixture(registry: Registry, expect_path: Path, root: Path) -> Iterator[FixtureResult]:
    for run in plan_fixture(registry, expect_path, root):
        yield judge_run(registry, run)[0]


def _in_words(
    registry: Registry, wanted: dict[str, Any], pinned: str | None, judging: Registry | None = None
) -> dict[str, Any]:
    """A fixture may write expected/actual in the rule's own terms (`{"dealer.total": "<= 16"}`); the
    findings carry them in an auditor's words (dsl/wording.py): compare like with like. A rule that
    only an alternative of a reading adds is found in `judging` (the registry under the run's readings)."""
    if not isinstance(wanted.get("expected"), dict) or not isinstance(wanted.get("actual"), dict):
        return wanted
    checks = ""
    for source in (registry, judging) if judging is not None else (registry,):
        for ruleset in [source.pick(pinned)] if pinned else source.all():
            rule = next((r for r in ruleset.rules if r.id == wanted.get("rule")), None)
            if rule is not None:
                checks = rule.text("checks", current())
        if checks:
            break
    expected, actual = in_words(wanted["expected"], wanted["actual"], checks)
    return {**wanted, "expected": expected, "actual": actual}


def _house_values(options: dict[str, Any]) -> dict[str, Any]:
    return {key: house_value(value) for key, value in options.items()}


def compare(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    problems = []
    for index in range(max(len(expected), len(actual))):
        if index >= len(expected):
            problems.append(_("unexpected finding: {finding}").format(finding=_short(actual[index])))
            continue
        if index >= len(actual):
            problems.append(_("missing finding: {finding}").format(finding=_short(expected[index])))
            continue
        for key, want in expected[index].items():
            got = actual[index].get(key)
            if got != want:
                problems.append(
                    f"finding {index + 1}: {key} is {got!r}, expected {want!r} ({_short(actual[index])})"
                )
    return problems


def _short(finding: dict[str, Any]) -> str:
    return f"{finding.get('rule')} line {finding.get('line')} stake {finding.get('stake')}"
