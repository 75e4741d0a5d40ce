"""Named conditions: `define NAME = condition ref "…"`, a clause of the text written once and cited by
name wherever it applies, checked with the facts of each place that cites it, and amended like any
other item (add, replace, repeal)."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES

from validator.catalogue.view import changed_items, diff_lines, show_lines
from validator.dsl.compiler import compile_ruleset
from validator.dsl.expr import unparse
from validator.dsl.parser import parse_ruleset
from validator.errors import RulesetErrors
from validator.rulebook.registry import default_registry, load_all

HEADER = """ruleset xx/test
title "T"
source "S"
game blackjack
in force from 2020-01-01
"""

HELD = """define queens = count(player.first_two, "QH") == 2
    ref "5°"
define held = queens and (dealer.up_ace or dealer.up_ten)
    ref "5°, b)"
"""


def rule(event: str, condition: str) -> str:
    return f"""rule r {{
    ref "R"
    severity error
    message "M."
    on {event} {condition}
}}
"""


def compiled(body: str):
    return compile_ruleset(parse_ruleset(HEADER + body, "test.rules"))


def errors(body: str) -> list[str]:
    with pytest.raises(RulesetErrors) as caught:
        compiled(body)
    return [str(e) for e in caught.value.errors]


def test_a_cited_condition_is_applied_as_if_written_in_its_place():
    ruleset = compiled(
        HELD + rule("side_settle", 'when side.name == "lucky_ladies" and held require dealer.cards >= 2')
    )
    (check,) = ruleset.rule("xx/test/r").checks
    assert unparse(check.guard_node) == 'side.name == "lucky_ladies" and held'
    assert unparse(check.applied_guard) == (
        'side.name == "lucky_ladies" and count(player.first_two, "QH") == 2'
        " and (dealer.up_ace or dealer.up_ten)"
    )
    assert ruleset.conditions["held"].source == "queens and (dealer.up_ace or dealer.up_ten)"
    assert ruleset.conditions["held"].ref == "5°, b)"


def test_a_cited_condition_is_checked_with_the_facts_of_the_place_citing_it():
    # player.* is offered where side bets are settled, not at a hit.
    assert errors(HELD + rule("hit", "when held require hand.total < 21")) == [
        "test.rules:14:17: condition 'held' (line 8): condition 'queens' (line 6): "
        "player.first_two: event 'hit' offers no 'player' (it offers table, param, house, round, box, hand, "
        "dealer, action)"
    ]


def test_unknown_cyclic_uncited_and_twice_defined_conditions_are_errors():
    assert errors(HELD + rule("side_settle", "require helt")) == [
        "test.rules:8:1: condition 'held' is cited by no rule or paytable line: cite it or remove it",
        "test.rules:14:28: unknown name 'helt'; did you mean 'held'?",
    ]
    looped = 'define a = b ref "x"\ndefine b = a ref "y"\n' + rule("round", "require a")
    assert (
        "test.rules:6:12: condition 'b' (line 7): condition 'a' is defined in terms of itself"
        in "\n".join(errors(looped))
    )
    twice = HELD + 'define queens = dealer.up_ace ref "again"\n' + rule("side_settle", "require held")
    assert "test.rules:10:1: condition 'queens' is defined twice (first on line 6)" in errors(twice)


def test_the_shipped_5b_exception_and_three_sevens_are_written_once():
    registry = default_registry()
    for version in ("fr/blackjack@2013-12-15", "fr/blackjack@2024-11-01"):
        ruleset = registry.pick(version)
        text = "\n".join(show_lines(ruleset))
        assert text.count('count(player.first_two, "QH") == 2') == 1
        assert text.count("queens_of_hearts_held") == 4  # the definition and its three citations
    text = "\n".join(show_lines(registry.pick("fr/blackjack@2024-11-01")))
    assert text.count('count_rank(player.first_three, "7") == 3') == 1


AMENDED = FIXTURES / "rulesets" / "amended"
AMENDING = """ruleset xx/amended
amends xx/amended@2020-01-01
title "T"
source "S"
in force from 2021-01-01
"""


def test_amendments_add_replace_and_repeal_named_conditions(tmp_path):
    base = (AMENDED / "2020-01-01.rules").read_text(encoding="utf-8")
    base = (
        base.replace(
            "on shoe require shoe.burned == param.shoe.burn",
            "on shoe when burn_known require shoe.burned == param.shoe.burn",
        )
        + 'define burn_known = shoe.burned != none ref "Texte A, al. 2"\n'
    )
    (tmp_path / "2020.rules").write_text(base, encoding="utf-8")
    replaced = 'amendment "B" {\n  replace define burn_known = shoe.burned >= 0 ref "B"\n}\n'
    (tmp_path / "2021.rules").write_text(AMENDING + replaced, encoding="utf-8")
    first, second = load_all([tmp_path / "2020.rules", tmp_path / "2021.rules"]).family("xx/amended")
    assert second.conditions["burn_known"].source == "shoe.burned >= 0"
    assert changed_items(first, second) == {("define", "burn_known")}
    diff = list(diff_lines(first, second))
    assert "    replace define burn_known" in diff
    at = diff.index("Named conditions")
    assert diff[at + 1 : at + 4] == [
        "  ~ burn_known:",
        "      was: shoe.burned != none",
        "      now: shoe.burned >= 0",
    ]

    repealed = 'amendment "B" {\n  repeal define burn_known\n}\n'
    (tmp_path / "2021.rules").write_text(AMENDING + repealed, encoding="utf-8")
    with pytest.raises(RulesetErrors) as caught:
        load_all([tmp_path / "2020.rules", tmp_path / "2021.rules"])
    assert [str(e).split("/")[-1] for e in caught.value.errors] == [
        "2020.rules:24:18: unknown name 'burn_known'"
    ]
    shutil.rmtree(tmp_path)
