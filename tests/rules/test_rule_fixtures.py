"""Every rule of every ruleset ships with its documentation and with fixtures: a log that breaks it
and a log that does not, each with the exact findings it must give (the way sqlfluff and ruff test
their rules, and `opa test` runs policy tests)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import FIXTURES

from validator.fixtures import find_fixtures, load_expectation, run_fixture
from validator.registry import default_registry

REGISTRY = default_registry()
RULE_FIXTURES = FIXTURES / "rules"
DOC_FIELDS = ("checks", "why", "fails", "passes")
CASES = find_fixtures(RULE_FIXTURES) if RULE_FIXTURES.exists() else []


def _version_name(ruleset) -> str:
    return ruleset.version


ALL_RULES = [(ruleset, rule) for ruleset in REGISTRY.all() for rule in ruleset.rules]


@pytest.mark.parametrize("ruleset,rule", ALL_RULES, ids=[f"{r.version}:{x.name}" for r, x in ALL_RULES])
def test_every_rule_is_documented(ruleset, rule):
    missing = [field for field in DOC_FIELDS if not rule.doc.get(field, "").strip()]
    assert not missing, f"{rule.file}:{rule.line}: rule {rule.id} has no {', '.join(missing)}"
    assert rule.ref.strip() and rule.message.strip()


@pytest.mark.parametrize("expect", CASES, ids=[str(p.relative_to(RULE_FIXTURES)) for p in CASES])
def test_fixture(expect: Path):
    results = list(run_fixture(REGISTRY, expect, RULE_FIXTURES))
    assert results
    for result in results:
        assert result.ok, f"{result.name} @ {result.ruleset}:\n  " + "\n  ".join(result.problems)


def _coverage() -> dict[tuple[str, str], set[str]]:
    """(version, rule id) → {"fails", "passes"} as the fixtures show them."""
    seen: dict[tuple[str, str], set[str]] = {}
    for expect in CASES:
        rule_dir = expect.parent.relative_to(RULE_FIXTURES).as_posix()
        expectation = load_expectation(expect)
        fired = {f.get("rule") for f in expectation["findings"]}
        for version in expectation.get("rulesets") or []:
            seen.setdefault((version, rule_dir), set()).add("fails" if rule_dir in fired else "passes")
    return seen


COVERAGE = _coverage()


@pytest.mark.parametrize("ruleset,rule", ALL_RULES, ids=[f"{r.version}:{x.name}" for r, x in ALL_RULES])
def test_every_rule_has_a_failing_and_a_passing_fixture(ruleset, rule):
    kinds = COVERAGE.get((_version_name(ruleset), rule.id), set())
    where = RULE_FIXTURES / rule.id
    assert "fails" in kinds, f"no fixture in {where} breaks {rule.id} under {ruleset.version}"
    assert "passes" in kinds, f"no fixture in {where} passes {rule.id} under {ruleset.version}"


def test_the_rules_test_command_runs_the_fixtures(cli):
    result = cli("rules", "test", str(RULE_FIXTURES))
    assert result.returncode == 0, result.stdout[-3000:]
    assert "FAIL" not in result.stdout
