"""The rules language's side-bet parts: `settle <side bet> => paytable …`, amounts paid whole
(`pays (…)`), and the errors `rules check` gives for them, at their line and column."""

from __future__ import annotations

import pytest

from validator.dsl.compiler import compile_ruleset
from validator.dsl.parser import parse_ruleset
from validator.errors import RulesetError, RulesetErrors

HEAD = """ruleset xx/sides
title "Side bets"
source "none.txt"
game blackjack
in force from 2020-01-01
option lucky_ladies.paytable: choice in [A, B] = A  ref "Ref 1"
option wide: choice in [A, B, C] = A  ref "Ref 2"
option loose: choice = A  ref "Ref 3"
side_bet lucky_ladies {
    ref "Ref 4"
    paytable A { "20" pays 4:1 when total(player.first_two) == 20 }
    paytable B { "20" pays 5:1 when total(player.first_two) == 20 }
}
side_bet jp1 {
    ref "Ref 5"
    paytable standard {
        "top" pays (floor_cents(jackpot.main / jackpot.main_hands))
            when count_rank(player.first_three, "7") == 3
    }
}
"""


def rule(settle: str) -> str:
    return f"""rule r {{
    ref "Ref"
    severity error
    message "m"
    {settle}
    checks "c" why "w" fails "f" passes "p"
}}
"""


def compiled(text: str):
    return compile_ruleset(parse_ruleset(text, "sides.rules"))


def errors(text: str) -> list[str]:
    with pytest.raises((RulesetErrors, RulesetError)) as caught:
        compiled(text)
    found = caught.value.errors if isinstance(caught.value, RulesetErrors) else [caught.value]
    return [f"{e.line}:{e.column}: {e.detail}" for e in found]


def test_a_paytable_settlement_compiles_and_shows_as_written():
    from validator.catalogue.view import check_lines

    ruleset = compiled(
        HEAD
        + rule("settle lucky_ladies => paytable house.lucky_ladies.paytable")
        + rule("settle jp1 => paytable standard").replace("rule r", "rule s")
    )
    assert [line for r in ruleset.rules for line in check_lines(r)] == [
        "settle lucky_ladies => paytable house.lucky_ladies.paytable",
        "settle jp1 => paytable standard",
    ]
    top = ruleset.side_bets["jp1"].paytables["standard"][0]
    assert top.pays == "floor_cents(jackpot.main / jackpot.main_hands)"
    assert top.prize == "jackpot.main"


@pytest.mark.parametrize(
    "settle,message",
    [
        ("settle lucky_ladies => paytable C", "5:37: side bet 'lucky_ladies' has no paytable 'C'"),
        (
            "settle lucky_ladies => paytable house.wide",
            "5:37: option 'wide' may name a table that side bet 'lucky_ladies' does not have (C)",
        ),
        (
            "settle lucky_ladies => paytable house.loose",
            "5:37: option 'loose' may name a table that side bet 'lucky_ladies' does not have:"
            " give it an 'in [...]' list",
        ),
        (
            "settle main => paytable A",
            "5:20: 'main' is not a side bet: only a side bet is settled by its paytables",
        ),
        ("settle two_plus_one => paytable standard", "5:5: unknown stake 'two_plus_one' to settle"),
    ],
)
def test_paytable_settlement_errors(settle, message):
    found = errors(HEAD + rule(settle))
    line = HEAD.count("\n")
    expected_line, rest = message.split(":", 1)
    assert f"{int(expected_line) + line}:{rest}" in [f.split(";")[0] for f in found]


def test_an_amount_naming_an_unknown_fact_is_an_error():
    text = HEAD.replace("jackpot.main_hands)", "jackpot.main_hand)")
    assert any("jackpot.main_hand: 'jackpot' has no fact 'main_hand'" in e for e in errors(text))
