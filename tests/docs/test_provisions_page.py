"""docs/provisions.md is generated from the rulesets (each version's provisions and what encodes each), and
kept up to date."""

from __future__ import annotations

from conftest import ROOT

from validator.rulebook.provisions_page import PAGE, render
from validator.rulebook.registry import default_registry


def test_the_provisions_page_is_what_the_rulesets_say():
    written = (ROOT / PAGE).read_text(encoding="utf-8")
    stale = "docs/provisions.md is stale: run python -m validator.rulebook.provisions_page"
    assert written == render(), stale


def test_the_page_lists_every_provision_of_every_version_with_its_text():
    page = render()
    for ruleset in default_registry().all():
        assert f"\n## {ruleset.version}\n" in page
        for name in ruleset.provisions:
            assert f"\n| {name} | « " in page
        if ruleset.url:
            assert f"The text: <{ruleset.url}>." in page
