"""The text's own words in a house file (issue 28): `abandon` for surrender, « dames de cœur » for the
lucky ladies bet, as the rulesets declare them (`alias "…"`: rulesets/fr/blackjack/2013-12-15.rules,
2020-05-25.rules, rulesets/fr/bataille/2013-05-12.rules)."""

from __future__ import annotations

from house_helpers import write_text
from inprocess import invoke

from validator.house.aliases import normalized
from validator.house.lint import house_options
from validator.house.load import load_house
from validator.rulebook.registry import default_registry

# fr/blackjack@2020-05-25 is the wording in force on 2021-06-01: it names the bet « dames de cœur » and
# lets the house allow « abandonner la partie » (art. 55-4, 1°, al. 2 and 5°).
FRENCH = """format: house-rules/1
casino: Casino de test
tables:
  BJ-21:
    ruleset: fr/blackjack@2021-06-01
    minimum: 10
    maximum: 1000
    seats: 7
    options:
      abandon: true
    side_bets:
      Dames de cœur:
        paytable: B
      2 + 1 cartes:
        maximum: 50
"""


def test_words_are_compared_without_case_accents_or_punctuation():
    assert normalized("Dames de Cœur") == "dames_de_coeur"
    assert normalized("dames_de_coeur") == "dames_de_coeur"
    assert normalized("2 + 1 cartes") == "2_1_cartes"
    assert normalized("Mise égalité") == "mise_egalite"


def test_a_house_file_in_the_texts_words_is_read_as_the_rules_name_them(tmp_path):
    path = write_text(tmp_path, FRENCH)
    ran = invoke("lint", str(path), "--date", "2021-06-01")
    assert ran.code == 0, ran.stdout
    assert "findings:    none" in ran.stdout
    ruleset = default_registry().pick("fr/blackjack@2021-06-01")
    values = house_options(load_house(path), "BJ-21", ruleset)
    assert values["surrender"] is True
    assert values["lucky_ladies.paytable"] == "B"
    assert values["two_plus_one.maximum"] == 50


def test_a_finding_on_an_alias_points_at_the_line_the_casino_wrote(tmp_path):
    path = write_text(tmp_path, FRENCH.replace("abandon: true", "abandon: 2"))
    ran = invoke("lint", str(path), "--date", "2021-06-01")
    assert ran.code == 1
    assert f"{path}:10: error house/option-not-allowed" in ran.stdout  # line 10: `abandon: 2`
    assert "2 is not true or false" in ran.stdout


def test_rules_show_names_the_words_a_house_file_may_write():
    shown = invoke("rules", "show", "fr/blackjack@2021-06-01")
    assert (
        'surrender: bool, one of false, true; default false; a house file may write it "abandon"'
        in shown.stdout
    )
