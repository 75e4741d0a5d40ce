"""`edge --strategy`: the chart and its two- and three-card exceptions against published lists, and a
hand's values against an exact calculator written apart from the project.

Sources:
- Wizard of Odds, Blackjack Appendix 3b, "Double Deck Basic Strategy Exceptions" (https://wizardofodds.com/
  games/blackjack/appendix/3b/, last updated 2 March 2019; the same lists in its 2006 version,
  http://wizardofodds.com/blackjack/appendix3b.html): two decks, the dealer stands on soft 17, "how to play
  your cards immediately after a shuffle". Two cards: 11 (9+2) and 11 (8+3) against an ace hit, 12 (10+2)
  against a 4 hits. Three cards: 16 against a 10 stands and soft 18 against an ace stands (the changes to
  basic strategy), except 16 (6+6+4), (7+6+3), (8+6+2), (9+6+A) and (10+3+3) against a 10, which hit, and
  soft 18 (A+A+6) against an ace, which hits.
- Wizard of Odds, Blackjack Appendix 3 (single deck, the dealer stands on soft 17; read as reproduced at
  http://www.godofgambling.com/game/bjapx3.shtml and http://www.hundredpercentgambling.com/page.php?pid=
  Single%20deck%20exceptions%202, "Thanks again to The Wizard Of Odds for use of these charts"). Two cards:
  8 (6+2) against a 5 and a 6 hits, 12 (7+5) and 12 (8+4) against a 3 stand, 12 (10+2) against a 4 and a
  6 hits, 13 (10+3) against a 2 hits. (Its three-card list is not checked: it has 12 against a 3 stand on
  three cards with no exception, where A+2+9 and 2+3+7 hit by 0.004 and 0.003 of a unit, by this engine
  and by Farmer's calculator alike, below.)
- Eric Farmer's composition-dependent calculator (github.com/possibly-wrong/blackjack, src/strategy.cpp
  at a1f7dbb, version 7.6), run for the same game (six decks, S17, DAS, resplits to four hands, CDP): it
  prints 10-2 against a 4 as stand -21.111530574 %, hit -21.036425799 %, and 9-3 as stand -20.803872843 %,
  hit -21.539016270 % ("Hard 12 vs. 4 : stand except, 2T" among its composition-dependent variations);
  and, one deck, A-2-9 against a 3: stand -25.564449456 %, hit -25.176496173 %.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.games.blackjack.chart import chart, text
from validator.games.blackjack.maths import main_game
from validator.maths.probe import Probe
from validator.rulebook.registry import load_file

HERE = Path(__file__).parent


def _game(tmp: Path, decks: int):
    """The classic game of the appendices: the dealer checks for blackjack, stands on soft 17; double on
    any two cards and after splits, resplits to four hands."""
    source = (HERE / "classic-blackjack.rules").read_text(encoding="utf-8")
    source = source.replace("shoe.decks = 6", f"shoe.decks = {decks}").replace(
        "dealer.peeks = false", "dealer.peeks = true"
    )
    path = tmp / f"classic-{decks}.rules"
    path.write_text(source, encoding="utf-8")
    ruleset = load_file(path)
    house = {**ruleset.house_defaults(), "double_after_split": True, "max_split_hands": 4}
    return main_game(Probe(ruleset, house))


def _listed(items: list[dict[str, str]]) -> set[tuple[str, str, str]]:
    return {(item["hand"], item["dealer"], item["play"]) for item in items}


def test_two_decks_are_wizard_of_odds_appendix_3b(tmp_path):
    data = chart(_game(tmp_path, 2))
    assert _listed(data["exceptions"]) == {("2,9", "A", "H"), ("3,8", "A", "H"), ("2,T", "4", "H")}
    assert data["hard"]["11"]["A"] == "D" and data["hard"]["12"]["4"] == "S"
    changes = {(c["table"], c["total"], c["dealer"], c["play"]) for c in data["three_card_changes"]}
    assert changes == {("hard", "16", "T", "S"), ("soft", "18", "A", "S")}
    assert _listed(data["three_card_exceptions"]) == {
        ("4,6,6", "T", "H"),
        ("3,6,7", "T", "H"),
        ("2,6,8", "T", "H"),
        ("A,6,9", "T", "H"),
        ("3,3,T", "T", "H"),
        ("A,A,6", "A", "H"),
    }
    shown = text(data)
    assert "2,T against 4: H (row: S)" in shown and "16 against T: S (row: H)" in shown
    assert "A,A,6 against A: H (total: S)" in shown


def test_one_deck_two_card_exceptions_are_wizard_of_odds_appendix_3(tmp_path):
    game = _game(tmp_path, 1)
    assert _listed(chart(game)["exceptions"]) == {
        ("2,6", "5", "H"),
        ("2,6", "6", "H"),
        ("5,7", "3", "S"),
        ("4,8", "3", "S"),
        ("2,T", "4", "H"),
        ("2,T", "6", "H"),
        ("3,T", "2", "H"),
    }
    k = game.hands.find(0, [1, 1, 0, 0, 0, 0, 0, 0, 1, 0])  # A-2-9 against a 3 (index 2)
    assert k is not None
    assert game.values.stand[k, 2] == pytest.approx(-0.25564449456, abs=1e-11)
    assert game.values.hit[k, 2] == pytest.approx(-0.25176496173, abs=1e-11)


def test_six_decks_ten_two_against_four_hits_as_farmers_calculator_says(tmp_path):
    """Issue 40: the chart missed this composition-dependent play when the engine tracked two cards."""
    game = _game(tmp_path, 6)
    data = chart(game)
    assert data["hard"]["12"]["4"] == "S"
    assert ("2,T", "4", "H") in _listed(data["exceptions"])
    for first, second, stand, hit in (
        (1, 9, -0.21111530574, -0.21036425799),
        (2, 8, -0.20803872843, -0.21539016270),
    ):
        k = game.root(first, second)
        assert game.values.stand[k, 3] == pytest.approx(stand, abs=1e-11)
        assert game.values.hit[k, 3] == pytest.approx(hit, abs=1e-11)
