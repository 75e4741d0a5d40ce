"""The Python-side rules (`hand-log/*`, `ruleset/no-version-in-force`, `house/*`) as first-class rules:
each id in the registry has its docs and a pair of fixtures under tests/fixtures/python-rules/ID/ —
`fails.*` gives that rule (and only it, but for companions its `also` file names and says why), and
`passes.*` does not give it. An optional `args` file holds options the command needs for the case (a
limit lowered so a small file reaches it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

from validator.catalogue.builtin_docs import BUILTIN, builtin_docs
from validator.house import rules as house_rules
from validator.logs import rules as log_rules

CASES = FIXTURES / "python-rules"
LINT_DAY = "2025-03-14"


def _fixture(rule: str, name: str) -> Path:
    found = sorted((CASES / rule).glob(f"{name}.*"))
    assert len(found) == 1, f"{rule}: expected one {name}.* fixture, found {[p.name for p in found]}"
    return found[0]


def _rules_found(rule: str, path: Path) -> list[str]:
    extra = (CASES / rule / "args").read_text().split() if (CASES / rule / "args").exists() else []
    yaml = path.suffix == ".yaml"
    args = ["lint", str(path), "--date", LINT_DAY] if yaml else ["check", str(path), "-q"]
    result = run_cli(*args, *extra, "--format", "jsonl", "--no-config")
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    return [json.loads(line)["rule"] for line in result.stdout.splitlines()]


@pytest.mark.parametrize("rule", sorted(BUILTIN))
def test_the_failing_fixture_gives_exactly_its_rule(rule: str) -> None:
    also_file = CASES / rule / "also"
    also = set(also_file.read_text().split()) if also_file.exists() else set()
    assert rule not in also
    found = _rules_found(rule, _fixture(rule, "fails"))
    assert rule in found
    assert set(found) == {rule} | also


@pytest.mark.parametrize("rule", sorted(BUILTIN))
def test_the_passing_fixture_does_not_give_its_rule(rule: str) -> None:
    assert rule not in _rules_found(rule, _fixture(rule, "passes"))


def test_every_fixture_folder_is_a_rule_of_the_registry() -> None:
    folders = {str(p.parent.relative_to(CASES)) for p in CASES.rglob("fails.*")}
    assert folders == set(BUILTIN)


@pytest.mark.parametrize("rule", sorted(BUILTIN))
def test_every_rule_has_its_four_texts(rule: str) -> None:
    doc = BUILTIN[rule]
    assert doc.id == rule
    assert doc.checks and doc.why and doc.fails and doc.passes
    if rule.startswith("money/"):  # the table's money: the arrêté's art. 69 (validator/logs/rules/money.py)
        assert (doc.kind, doc.ref) == ("money", "Arrêté du 14 mai 2007, art. 69")
        return
    assert doc.ref.endswith(".md)")
    assert doc.kind == ("house" if rule.startswith("house/") else "format")


def test_each_house_rule_is_a_module_with_an_id_its_docs_and_a_check() -> None:
    ids = []
    for module in house_rules.RULES:
        assert module.DOC.id == module.ID
        assert module.__doc__ is not None and module.__doc__.startswith(f"{module.ID}: ")
        assert callable(module.check)
        ids.append(module.ID)
    assert len(ids) == len(set(ids)) == 11
    assert [d.id for d in builtin_docs(("house/",))] == ids


def test_the_registry_lists_the_format_rules_then_the_house_rules_in_their_modules_order() -> None:
    assert list(BUILTIN) == [d.id for d in log_rules.DOCS] + [m.ID for m in house_rules.RULES]
    assert [d.id for d in builtin_docs(("hand-log/", "ruleset/", "money/"))] == [d.id for d in log_rules.DOCS]
    assert builtin_docs(("house/unknown-key",)) == [BUILTIN["house/unknown-key"]]


def test_rules_show_prints_a_python_side_rule_from_its_module() -> None:
    from validator.house.rules import unknown_key

    result = run_cli("rules", "show", "house/unknown-key")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "house/unknown-key (house, error)",
        "  ref: house-rules/1 (docs/house-rules.md)",
        f"  checks: {unknown_key.DOC.checks}",
        f"  why: {unknown_key.DOC.why}",
        f"  fails: {unknown_key.DOC.fails}",
        f"  passes: {unknown_key.DOC.passes}",
        "  applied by casino-validator itself, in every version",
    ]
