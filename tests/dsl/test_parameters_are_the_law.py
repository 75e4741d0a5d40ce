"""Parameters are the law, or they go: every parameter a version sets is applied by one of its rules
(folded into the condition when the ruleset is compiled, dsl/fold.py) or read by the game mechanics
through `Ruleset.param`, the one path Python has to them."""

from __future__ import annotations

import ast as pyast
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import ROOT

from validator.dsl.compiler import compile_ruleset
from validator.dsl.expr import unparse
from validator.dsl.facts import TableFacts
from validator.dsl.parser import parse_ruleset
from validator.dsl.vocabulary import PARAMETERS
from validator.errors import RulesetErrors
from validator.games.blackjack.hands import BlackjackDealer
from validator.rulebook.registry import default_registry

HEADER = """ruleset xx/test
title "T"
source "S"
game blackjack
in force from 2020-01-01
"""

# The French dealer rule (fr/blackjack dealer-stands-17), as written.
DEALER = """parameter dealer.stands_on = 17  ref "R"
parameter dealer.hits_soft_17 = {soft}  ref "R"
rule dealer-stands-17 {{
    ref "R"
    severity error
    message "The dealer draws to 16."
    on dealer_draw require dealer.total <= param.dealer.stands_on - 1
        or (param.dealer.hits_soft_17 and dealer.total == param.dealer.stands_on and dealer.soft)
    on dealer_stand require dealer.total >= param.dealer.stands_on
        and not (param.dealer.hits_soft_17 and dealer.total == param.dealer.stands_on and dealer.soft)
}}
"""


def compiled(body: str, file: str = "test.rules"):
    return compile_ruleset(parse_ruleset(HEADER + body, file))


def errors(body: str) -> list[str]:
    with pytest.raises(RulesetErrors) as caught:
        compiled(body)
    return [str(e) for e in caught.value.errors]


def soft_17():
    dealer = BlackjackDealer()
    for card in ("AS", "6H"):  # ace 11 + 6: a soft 17
        dealer.add(card)
    assert (dealer.total, dealer.soft) == (17, True)
    return {"dealer": dealer, "house": {}}


@pytest.mark.parametrize(
    ("soft", "draw", "stand", "draws_on_soft_17"),
    [
        ("false", "dealer.total <= 16", "dealer.total >= 17", False),
        (
            "true",
            "dealer.total <= 16 or (dealer.total == 17 and dealer.soft)",
            "dealer.total >= 17 and not (dealer.total == 17 and dealer.soft)",
            True,
        ),
    ],
)
def test_dealer_hits_soft_17_decides_the_dealer_rule(soft, draw, stand, draws_on_soft_17):
    rule = compiled(DEALER.format(soft=soft)).rule("xx/test/dealer-stands-17")
    on_draw, on_stand = rule.checks
    # What runs and what a finding shows is the rule as the parameters make it…
    assert (unparse(on_draw.applied_require), unparse(on_stand.applied_require)) == (draw, stand)
    assert on_draw.require(soft_17()) is draws_on_soft_17
    assert on_stand.require(soft_17()) is not draws_on_soft_17
    # …and `rules show` the rule as written, parameters and all.
    assert "param.dealer.hits_soft_17" in unparse(on_draw.require_node)


def test_a_guard_the_parameters_decide_disappears_or_never_applies():
    body = """parameter split.aces_one_card = {value}  ref "R"
rule split-aces-one-card {{
    ref "R"
    severity error
    message "One card."
    on hit when param.split.aces_one_card require not hand.split_aces
}}
"""
    (on_hit,) = compiled(body.format(value="true")).rule("xx/test/split-aces-one-card").checks
    assert on_hit.applied_guard is None and on_hit.guard is None
    (on_hit,) = compiled(body.format(value="false")).rule("xx/test/split-aces-one-card").checks
    assert on_hit.guard is not None and on_hit.guard({}) is False


def test_any_of_a_list_parameter_is_unrolled_into_the_condition_for_each_value():
    body = """parameter limits.max_multiples = [50, 100]  ref "R"
rule max-multiple {
    ref "R"
    severity error
    message "Multiples."
    on table require any m in param.limits.max_multiples: table.maximum == table.minimum * m
}
"""
    (check,) = compiled(body).rule("xx/test/max-multiple").checks
    assert unparse(check.applied_require) == (
        "table.maximum == (table.minimum * 50) or table.maximum == (table.minimum * 100)"
    )
    assert (
        unparse(check.require_node)
        == "any m in param.limits.max_multiples: table.maximum == (table.minimum * m)"
    )
    table = TableFacts(minimum=Decimal(10), maximum=Decimal(1000))
    assert check.require({"table": table, "house": {}}) is True
    table.maximum = Decimal(1500)
    assert check.require({"table": table, "house": {}}) is False


def test_any_needs_a_list_parameter_and_its_name_is_known_only_inside_it():
    body = """parameter shoe.decks = 6  ref "R"
rule r {
    ref "R"
    severity error
    message "M."
    on table require (any m in param.shoe.decks: table.maximum == m) and table.minimum == n
}
"""
    assert errors(body) == [
        "test.rules:11:23: any m in param.shoe.decks: the values must be a list parameter (param.…)",
        "test.rules:11:91: unknown name 'n'",
    ]


def test_python_reads_only_the_parameters_the_vocabulary_says_the_mechanics_read():
    ruleset = default_registry().pick("fr/blackjack@2013-12-15")
    assert ruleset.param("dealer.hole_card") is False
    assert ruleset.param("blackjack.split_hand_counts") is False
    with pytest.raises(LookupError, match="read by the rules only"):
        ruleset.param("pays.blackjack")
    # The simulator plays by some the rules apply (how many cards a new shoe burns), through the same path.
    assert ruleset.param("shoe.burn") == 5  # « brûle les cinq premières cartes »
    assert PARAMETERS["shoe.burn"].simulator and not PARAMETERS["shoe.burn"].mechanics


def _parameter_literals(path: Path) -> set[str]:
    tree = pyast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in pyast.walk(tree)
        if isinstance(node, pyast.Constant) and isinstance(node.value, str) and node.value in PARAMETERS
    }


def test_no_python_outside_the_vocabulary_names_a_parameter_the_mechanics_do_not_read():
    found = {}
    for path in sorted((ROOT / "validator").rglob("*.py")):
        relative = path.relative_to(ROOT)
        # The declarations: the shared parameters, and each game's own (validator/games/<game>/vocabulary.py).
        declared = relative.match("validator/games/*/vocabulary.py")
        if relative == Path("validator/dsl/vocabulary.py") or declared:
            continue
        for name in _parameter_literals(path):
            if not (PARAMETERS[name].mechanics or PARAMETERS[name].simulator):
                found.setdefault(name, []).append(str(relative))
    assert found == {}


def test_every_shipped_version_applies_every_parameter_it_sets():
    from validator.catalogue.view import show_lines

    for ruleset in default_registry().all():
        # `rules show` prints every clause as written, named conditions and paytable lines included.
        shown = "\n".join(show_lines(ruleset)).split("\nParameters\n", 1)[1].split("\nHouse options", 1)[1]
        unread = [
            name
            for name in ruleset.parameters
            if not PARAMETERS[name].mechanics and f"param.{name}" not in shown
        ]
        assert unread == [], ruleset.version
