"""The names hand-log/1 gives side stakes, and which bets are progressive, come from the rulesets'
side_bet blocks (`stake hyper cases "17" …`, paytable lines that pay a meter out), not from Python."""

from __future__ import annotations

import pytest

from validator.errors import RulesetErrors
from validator.replay.side_bets import side_of, stake_sides
from validator.rulebook.registry import default_registry, load_file

REGISTRY = default_registry()

TWO_BETS = """ruleset xx/stakes
title "Two bets, one stake name"
source "none"
game bataille
in force from 2020-01-01
side_bet egalite {
    ref "al. 27"
    paytable standard {
        "Égalité"  pays 10:1 when hand.rank == dealer.rank
    }
}
side_bet pair {
    ref "al. 28"
    stake egalite
    paytable standard {
        "Paire"  pays 5:1 when hand.rank == dealer.rank
    }
}
"""


def test_two_side_bets_may_not_share_a_stake_name(tmp_path):
    path = tmp_path / "stakes.rules"
    path.write_text(TWO_BETS, encoding="utf-8")
    with pytest.raises(RulesetErrors) as caught:
        load_file(path)
    assert str(caught.value) == (
        f"{path}:12:1: side bet 'pair': another side bet's stakes are already named 'egalite'"
    )


def test_stake_names_are_read_from_every_version_of_the_registry():
    sides = stake_sides(REGISTRY.all())
    # The 2020 wording says `stake hyper`; the 2013 one has no such bet, yet a "4:hyper:bust" stake at
    # a 2016 table is still known as the hyper black jack (and reported as a bet that wording lacks).
    assert side_of("hyper:bust", sides) == ("hyper_blackjack", "bust")
    assert side_of("lucky_ladies", sides) == ("lucky_ladies", None)
    assert side_of("insurance", sides) == (None, None)
    old = REGISTRY.pick("fr/blackjack@2013-12-15")
    assert side_of("hyper:bust", stake_sides([old])) == (None, None)


def test_progressive_bets_are_those_whose_lines_pay_a_meter():
    current = REGISTRY.pick("fr/blackjack@2024-11-01")
    assert {name for name, bet in current.side_bets.items() if bet.prizes} == {"jp1"}
    assert current.side_bets["jp1"].prizes == {"jackpot.main", "jackpot.secondary"}
    assert current.side_bets["hyper_blackjack"].cases == ("17", "18", "19", "20", "21", "blackjack", "bust")
