"""Every rule of every ruleset ships with its documentation and with fixtures: a log that breaks it
and a log that does not, each with the exact findings it must give (the way sqlfluff and ruff test
their rules, and `opa test` runs policy tests)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import FIXTURES

from validator.checking.fixtures import find_fixtures, load_expectation, run_fixture
from validator.rulebook.registry import default_registry

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
        if expectation.get("readings"):
            continue  # judged under another reading: says nothing of the version as written
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


def test_the_rules_test_command_runs_the_fixtures_and_they_exercise_every_clause(cli):
    """Every case passes, and together they exercise every item of every shipped version (clause
    coverage, docs/rules-language.md step 5): each `require` clause both held and failed, each `settle`
    clause chosen where the log agrees and where it does not, each paytable line paid, each parameter
    read by an exercised clause, each reading alternative told apart from another — but for the outcomes
    no log can give, declared with their reasons in unreachable-outcomes.json (27 items of 10 clauses),
    which must each still be unreachable by every case and name an item that exists."""
    result = cli("rules", "test", str(RULE_FIXTURES), "--coverage", "--fail-under", "100")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "FAIL" not in result.stdout
    summary = result.stdout.splitlines()[-1]
    assert re.fullmatch(
        r"coverage: 100\.0 % \((\d+)/\1\) of \d+ versions, \d+ items unreachable \(declared\)", summary
    )


# ------------------------------------------------------- a malformed expectation: exit 2, no traceback

PASSING_LOG = RULE_FIXTURES / "fr" / "blackjack" / "dealer-stands-17" / "passes.jsonl"

BAD_EXPECTATIONS = {
    "ruleset-not-a-string": (
        b'{"rulesets": [123], "findings": []}',
        'rulesets[0] must be a ruleset id (ID or ID@YYYY-MM-DD), such as "fr/blackjack@2019-08-12", not 123',
    ),
    "rulesets-not-a-list": (
        b'{"rulesets": "fr/blackjack", "findings": []}',
        'rulesets must be a list of ruleset ids, such as ["fr/blackjack@2019-08-12"], not "fr/blackjack"',
    ),
    "unknown-ruleset": (
        b'{"rulesets": ["fr/blackjak"], "findings": []}',
        "rulesets[0]: unknown ruleset 'fr/blackjak': known rulesets are fr/bataille, fr/blackjack, "
        "fr/usage-blackjack, on/fair-blackjack",
    ),
    "house-a-list": (
        b'{"house": ["x"], "findings": []}',
        'house must be an object of house options, such as {"surrender": true}, not ["x"]',
    ),
    "house-a-string": (
        b'{"house": "x", "findings": []}',
        'house must be an object of house options, such as {"surrender": true}, not "x"',
    ),
    "finding-a-string": (
        b'{"findings": ["x"]}',
        'findings[0] must be a finding: an object of the fields to compare, such as {"line": 3}, not "x"',
    ),
    "finding-null": (
        b'{"findings": [null]}',
        'findings[0] must be a finding: an object of the fields to compare, such as {"line": 3}, not null',
    ),
    "no-findings": (
        b'{"rulesets": ["fr/blackjack"]}',
        "no 'findings' list: write \"findings\": [] for a log that breaks nothing",
    ),
    "misspelt-key": (
        b'{"ruleset": ["fr/blackjack"], "findings": []}',
        "unknown key 'ruleset'; did you mean 'rulesets'? "
        "(the keys are rulesets, house, readings, why, findings)",
    ),
    "not-utf8": (b'{"findings": []}\n\xff\n', "not UTF-8 text (invalid start byte)"),
    "not-json": (b'{"findings": [}', "not JSON: Expecting value"),
    "house-option-not-a-number": (
        b'{"rulesets": ["fr/blackjack@2019-08-12"], "house": {"max_split_hands": "abc"}, "findings": []}',
        'house.max_split_hands: "abc" is not a number (under fr/blackjack@2019-08-12)',
    ),
    "house-option-out-of-range": (
        b'{"rulesets": ["fr/blackjack@2019-08-12"], "house": {"max_split_hands": 9}, "findings": []}',
        "house.max_split_hands: 9 is not allowed: the regulation allows 2 to 8 "
        "(under fr/blackjack@2019-08-12)",
    ),
}
_PLACE = {"not-utf8": ":2", "not-json": ":1:15"}


@pytest.mark.parametrize("case", sorted(BAD_EXPECTATIONS))
def test_a_malformed_expectation_is_exit_2_naming_the_file(tmp_path, cli, case):
    content, message = BAD_EXPECTATIONS[case]
    (tmp_path / "a.jsonl").write_bytes(PASSING_LOG.read_bytes())
    expect = tmp_path / "a.expect.json"
    expect.write_bytes(content)
    result = cli("rules", "test", str(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr == f"casino-validator: {expect}{_PLACE.get(case, '')}: {message}\n"


def test_house_options_are_checked_against_the_version_the_log_names(tmp_path, cli):
    (tmp_path / "a.jsonl").write_bytes(PASSING_LOG.read_bytes())
    expect = tmp_path / "a.expect.json"
    expect.write_text('{"house": {"surender": true}, "findings": []}', encoding="utf-8")
    result = cli("rules", "test", str(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr == (
        f"casino-validator: {expect}: house.surender: fr/blackjack@2013-12-15 declares no house option "
        f"surender; did you mean surrender?\n  asked for by the table record at {tmp_path / 'a.jsonl'}:1\n"
    )


def test_a_folder_named_like_an_expectation_is_exit_2(tmp_path, cli):
    (tmp_path / "b.expect.json").mkdir()
    result = cli("rules", "test", str(tmp_path))
    assert result.returncode == 2
    assert (
        result.stderr
        == f"casino-validator: {tmp_path / 'b.expect.json'}: a folder, not an expectation file\n"
    )
