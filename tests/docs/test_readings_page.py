"""docs/readings.md is generated from the rulesets, and kept up to date."""

from __future__ import annotations

from conftest import ROOT

from validator.rulebook.readings_page import PAGE, render
from validator.rulebook.registry import default_registry


def test_the_readings_page_is_what_the_rulesets_say():
    written = (ROOT / PAGE).read_text(encoding="utf-8")
    assert written == render(), "docs/readings.md is stale: run python -m validator.rulebook.readings_page"


def test_the_page_lists_every_reading_of_every_version():
    page = render()
    for name, versions in default_registry().readings().items():
        assert f"## {name}\n" in page
        for ruleset, reading in versions:
            assert f"`{ruleset.version}`" in page
            assert f"> « {reading.quote} »" in page
            for alternative in reading.names:
                assert f"| `{alternative}`" in page
