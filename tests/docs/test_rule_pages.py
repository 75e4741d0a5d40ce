"""The documentation site's rule pages (scripts/docs_site.py, a MkDocs hook): one page per rule of every
ruleset and per Python-side rule, each with what `rules show` prints and its fixtures, in both
languages, and every page in the site's nav. The pages are made when the site is built, never committed;
this holds the generator to what the rulesets, the catalog and the fixtures say (the strict build in
.ci/run holds their links)."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT

from validator.catalogue.builtin_docs import BUILTIN
from validator.catalogue.view import all_rule_ids
from validator.dsl.model import Ruleset
from validator.i18n import _, use
from validator.rulebook.registry import alternatives, default_registry


@pytest.fixture(scope="module")
def site() -> Any:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        module = importlib.import_module("docs_site")
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return module


@pytest.fixture(scope="module")
def pages(site: Any) -> dict[str, str]:
    return site.site_pages()


def test_one_page_per_rule_and_an_index_linking_each(site: Any, pages: dict[str, str]) -> None:
    registry = default_registry()
    # Every id a version holds, and those only a reading's alternative adds (they have fixtures, chosen
    # by the reading their .expect.json names).
    ids = all_rule_ids(registry)
    ids += sorted(
        {
            rule.id
            for ruleset in registry.all()
            for _reading, _alternative, outcome in alternatives(ruleset)
            if isinstance(outcome, Ruleset)
            for rule in outcome.rules
        }
        - set(ids)
    )
    assert sorted(pages) == sorted([site.INDEX, *(f"rules/{rule_id}.md" for rule_id in ids)])
    index = pages[site.INDEX]
    for rule_id in ids:
        assert f"[`{rule_id}`]({rule_id}.md)" in index, rule_id
    assert len(ids) > 150  # the rulesets' rules and the Python-side ones


def test_a_ruleset_rules_page_says_what_rules_show_says_in_both_languages(pages: dict[str, str]) -> None:
    registry = default_registry()
    for rule_id in dict.fromkeys(rule.id for ruleset in registry.all() for rule in ruleset.rules):
        page = pages[f"rules/{rule_id}.md"]
        found = [(r, rule) for r in registry.all() for rule in r.rules if rule.id == rule_id]
        latest = found[-1][1]
        assert page.startswith(f"# `{rule_id}`\n"), rule_id
        assert f"| kind | {latest.kind} |" in page and f"| severity | {latest.severity} |" in page
        english, french = latest.text("message", "en"), latest.text("message", "fr")
        assert english != french, rule_id  # every rule has its French (tests/test_i18n.py)
        assert f"- English: {english}" in page and f"- Français : {french}" in page, rule_id
        for key in ("checks", "why", "fails", "passes"):
            assert latest.text(key, "en") in page and latest.text(key, "fr") in page, (rule_id, key)
        for version, rule in found:
            assert f"| `{version.version}` | {version.dates()} |" in page, (rule_id, version.version)
            assert f"`{rule.file}:{rule.line}`" in page
            assert " ".join(rule.ref.replace("|", "\\|").split()) in page


def test_a_rules_fixtures_are_printed_failing_and_passing(pages: dict[str, str]) -> None:
    """Every fixture of every ruleset rule, its expected findings and its log, under "Failing" or
    "Passing" by its name (tests/fixtures/rules/README.md: `fails…`, `passes…`)."""
    fixtures = ROOT / "tests" / "fixtures" / "rules"
    checked = 0
    for log in fixtures.rglob("*.jsonl"):
        rule_id = log.parent.relative_to(fixtures).as_posix()
        page = pages[f"rules/{rule_id}.md"]
        title = "Failing" if log.name.startswith("fails") else "Passing"
        assert f"### {title}: `{log.stem}`" in page, log
        assert log.read_text(encoding="utf-8").strip() in page, log
        expect = log.with_name(log.stem + ".expect.json")
        assert expect.read_text(encoding="utf-8").strip() in page, expect
        checked += 1
    assert checked > 400
    page = pages["rules/fr/blackjack/dealer-stands-17.md"]
    assert page.index("### Failing: `fails-soft-17`") < page.index("### Passing: `passes`")


def test_a_python_side_rules_page_has_its_docs_in_both_languages_and_its_fixtures(
    pages: dict[str, str],
) -> None:
    fixtures = ROOT / "tests" / "fixtures" / "python-rules"
    for rule_id, doc in BUILTIN.items():
        page = pages[f"rules/{rule_id}.md"]
        assert f"| ref | {doc.ref} |" in page and f"| kind | {doc.kind} |" in page
        try:
            use("fr")
            french = {key: _(getattr(doc, key)) for key in ("checks", "why", "fails", "passes")}
        finally:
            use("en")
        assert french["checks"] != doc.checks, rule_id  # the catalog has its French
        for key, text in french.items():
            assert getattr(doc, key) in page and text in page, (rule_id, key)
        for case in (fixtures / rule_id).glob("*"):
            if case.name in ("args", "also"):
                assert case.read_text(encoding="utf-8").split()[0] in page
            elif case.suffix != ".gz":  # a fixture of invalid UTF-8 is shown with its bytes replaced
                assert case.read_bytes().decode("utf-8", errors="replace").strip() in page, case
    page = pages["rules/hand-log/broken-records-skipped.md"]
    assert "Run with `--max-broken-records 2`." in page
    assert "The failing case also gives `hand-log/invalid-json`." in page


def test_every_page_is_in_the_sites_nav_under_the_rules_index(site: Any, pages: dict[str, str]) -> None:
    reference = [{"Readings": "readings.md"}, {"Rules": site.INDEX}]
    nav: list[Any] = [{"Home": "index.md"}, {"Reference": reference}]
    site.on_config({"nav": nav})
    rules = nav[1]["Reference"][1]["Rules"]
    assert rules[0] == site.INDEX and len(rules) > 5

    def paths(entry: Any) -> list[str]:
        if isinstance(entry, str):
            return [entry]
        if isinstance(entry, list):
            return [p for item in entry for p in paths(item)]
        return [p for value in entry.values() for p in paths(value)]

    assert sorted(paths(rules)) == sorted(pages)
    assert {"fr/blackjack": rules[2]["fr/blackjack"]} == rules[2]  # grouped by family
    with pytest.raises(ValueError, match=r"names no rules/index\.md"):
        site.on_config({"nav": [{"Home": "index.md"}]})


def test_the_script_writes_the_pages(site: Any, pages: dict[str, str], tmp_path: Path) -> None:
    assert site.main([str(tmp_path)]) == 0
    written = {
        p.relative_to(tmp_path).as_posix(): p.read_text(encoding="utf-8") for p in tmp_path.rglob("*.md")
    }
    assert written == pages
