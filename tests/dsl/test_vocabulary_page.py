"""docs/vocabulary.md is generated from the declarations `rules check` reads, and kept up to date."""

from __future__ import annotations

from conftest import ROOT

from validator.dsl.functions import FUNCTIONS
from validator.dsl.vocabulary import NAMESPACES, PARAMETERS
from validator.dsl.vocabulary_page import PAGE, render


def test_the_vocabulary_page_is_what_the_declarations_say():
    written = (ROOT / PAGE).read_text(encoding="utf-8")
    assert written == render(), "docs/vocabulary.md is stale: run python -m validator.dsl.vocabulary_page"


def test_the_page_names_every_fact_parameter_and_function():
    page = render()
    for namespace, facts in NAMESPACES.items():
        for fact in facts:
            assert f"| `{namespace}.{fact}` |" in page
    for name in PARAMETERS:
        assert f"| `param.{name}` |" in page
    assert '| `count_rank(cards, rank)` | how many of the cards have the given rank ("7") |' in page
    assert {f.name for f in FUNCTIONS.values()} == {
        "total",
        "count",
        "count_rank",
        "same_suit",
        "same_colour",
        "run_ace_low",
        "run_ace_high",
        "run_wrapping",
        "same_rank",
        "run",
        "len",
        "floor_cents",
        "round_cents",
    }


def test_did_you_mean_reads_the_same_registry(cli, tmp_path):
    text = """ruleset xx/test
title "T"
source "S"
game blackjack
in force from 2020-01-01
rule r {
    ref "R"
    severity error
    message "M."
    on side_settle require count_rnk(player.first_three, "7") == 3 and same_suit(player.first_three, 1)
}
"""
    (tmp_path / "t.rules").write_text(text, encoding="utf-8")
    result = cli("rules", "check", str(tmp_path / "t.rules"))
    assert result.returncode == 2
    assert result.stderr.splitlines()[:2] == [
        f"{tmp_path}/t.rules:10:28: unknown function 'count_rnk'; did you mean 'count_rank'?",
        f"{tmp_path}/t.rules:10:72: same_suit() takes 1 argument(s), not 2",
    ]


def test_every_fact_can_be_reached_and_every_restriction_names_a_fact_and_a_place():
    from validator.dsl.reach import PAYTABLE, PROVIDED_ONLY_AT, SETTLE, SIDE_SETTLE
    from validator.dsl.vocabulary import (
        EVENTS,
        PAYTABLE_NAMESPACES,
        SETTLE_STAKES,
        SIDE_SETTLE_NAMESPACES,
        namespaces_for,
    )

    offered = {n for event in EVENTS for n in namespaces_for(event)}
    offered |= {n for namespaces in SETTLE_STAKES.values() for n in namespaces}
    offered |= {*PAYTABLE_NAMESPACES, *SIDE_SETTLE_NAMESPACES}
    assert set(NAMESPACES) <= offered
    for fact, places in PROVIDED_ONLY_AT.items():
        namespace, _, name = fact.partition(".")
        assert name in NAMESPACES[namespace], fact
        assert set(places) <= {*EVENTS, SETTLE, SIDE_SETTLE, PAYTABLE}, fact
