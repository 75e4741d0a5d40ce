"""`casino-validator rules test [DIR]`: rule fixtures, run the way `opa test` runs policy tests.

A fixture is a log, `NAME.jsonl`, beside `NAME.expect.json`:

    {"rulesets": ["fr/blackjack@2019-08-12", "fr/blackjack@2024-11-01"],   # optional: pin each in turn
     "house": {"surrender": true},                                       # optional house options
     "findings": [{"rule": "fr/blackjack/dealer-stands-17", "line": 3, "stake": "D"}]}

The log must give exactly the listed findings, in order; each listed field must match, the others
are not compared. `"findings": []` is a passing case: the log breaks nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.check import check_logs
from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.registry import Registry


@dataclass(frozen=True)
class FixtureResult:
    name: str
    ruleset: str | None
    ok: bool
    problems: tuple[str, ...]


def find_fixtures(root: Path) -> list[Path]:
    if not root.exists():
        raise ValidatorError(f"{root}: no such directory")
    return sorted(root.rglob("*.expect.json"))


def load_expectation(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValidatorError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
        raise ValidatorError(f"{path}: an expectation is an object with a 'findings' list")
    return data


def run_fixture(registry: Registry, expect_path: Path, root: Path) -> Iterator[FixtureResult]:
    expectation = load_expectation(expect_path)
    log = expect_path.with_name(expect_path.name.removesuffix(".expect.json") + ".jsonl")
    if not log.exists():
        raise ValidatorError(f"{expect_path}: its log {log.name} is missing")
    name = str(log.relative_to(root)) if log.is_relative_to(root) else str(log)
    options = expectation.get("house") or {}

    def house(_table: str, ruleset: Ruleset) -> dict[str, Any]:
        return {**ruleset.house_defaults(), **_house_values(options)}

    for pinned in expectation.get("rulesets") or [None]:
        found = [
            o
            for outcome in check_logs(registry, [str(log)], ruleset=pinned, house=house)
            for o in outcome.findings
        ]
        problems = compare(expectation["findings"], [f.as_dict() for f in found])
        yield FixtureResult(name, pinned, not problems, tuple(problems))


def _house_values(options: dict[str, Any]) -> dict[str, Any]:
    from validator.house.values import house_value

    return {key: house_value(value) for key, value in options.items()}


def compare(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    problems = []
    for index in range(max(len(expected), len(actual))):
        if index >= len(expected):
            problems.append(f"unexpected finding: {_short(actual[index])}")
            continue
        if index >= len(actual):
            problems.append(f"missing finding: {_short(expected[index])}")
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
