"""The text's own words in a house file (issue 28): `abandon` for surrender, « dames de cœur » for the
lucky ladies bet, as the rulesets declare them (`alias "…"`: rulesets/fr/blackjack/2013-12-15.rules,
2020-05-25.rules, rulesets/fr/bataille/2013-05-12.rules)."""

from __future__ import annotations

import json

from conftest import ROOT
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


# ---------------------------------------------------------------- issue 41, 7: every name in the text's words

# A règlement intérieur written wholly in the words of art. 55-4 as published in 2025 (the seeds' 001):
# « black-jack … payé à raison de 3 pour 2 » (1°, al. 9: here 6 for 5, which the text fixes), the side
# bets under « mises additionnelles » (5°, al. 4), « dames de cœur » (5°) with « la table de paiement »
# (5°: A or B, here C) and « seuls joueurs assis » (5°, a)), « 2 + 1 cartes » (7°) with « les montants
# minimal et maximal » and « réserver l'accès aux joueurs assis » (7°, al. 2: a yes or no, here
# "parfois").
ALL_FRENCH = """format: house-rules/1
casino: Casino de test
tables:
  BJ-21:
    ruleset: fr/blackjack@2021-06-01
    minimum: 10
    maximum: 1000
    seats: 7
    options:
      abandon: true
      black_jack_payé: "6:5"
      nombre de cases: 3
      interdire de jouer debout: true
      deux cases au minimum: 2
    mises_additionnelles:
      dames_de_coeur:
        table de paiement: C
        seuls joueurs assis: true
      2 + 1 cartes:
        montant minimal: 1
        montant maximal: 50
        accès réservé aux joueurs assis: parfois
"""


def test_a_fixed_value_in_the_texts_words_is_the_same_error_as_under_its_name(tmp_path):
    """`black_jack_payé: "6:5"` is `blackjack_pays: "6:5"`: the text fixes 3 for 2 (art. 55-4, 1°)."""
    french = invoke("lint", str(write_text(tmp_path, ALL_FRENCH)), "--date", "2021-06-01", "-f", "jsonl")
    named = write_text(tmp_path, ALL_FRENCH.replace("black_jack_payé", "blackjack_pays"), "named.yaml")
    plain = invoke("lint", str(named), "--date", "2021-06-01", "-f", "jsonl")
    assert french.code == plain.code == 1

    def fixed(ran):
        found = [json.loads(line) for line in ran.stdout.splitlines()]
        return [(f["rule"], f["line"], f["path"], f["message"]) for f in found if f["path"].endswith("pays")]

    assert (
        fixed(french)
        == fixed(plain)
        == [
            (
                "house/fixed-by-regulation",
                11,
                "tables.BJ-21.options.blackjack_pays",
                "tables.BJ-21.options.blackjack_pays: the regulation fixes blackjack_pays at 3:2; the house "
                'cannot choose "6:5"',
            )
        ]
    )


def test_a_side_bets_block_in_the_texts_words_is_checked_inside(tmp_path):
    """Under « mises additionnelles », the bets and their settings in the text's words are judged as
    under side_bets: paytable C is no table of 5° (A or B), "parfois" is no yes or no."""
    path = write_text(tmp_path, ALL_FRENCH)
    ran = invoke("lint", str(path), "--date", "2021-06-01", "-f", "jsonl")
    found = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [(f["rule"], f["line"], f["path"]) for f in found] == [
        ("house/fixed-by-regulation", 11, "tables.BJ-21.options.blackjack_pays"),
        ("house/option-not-allowed", 17, "tables.BJ-21.side_bets.lucky_ladies.paytable"),
        ("house/option-not-allowed", 22, "tables.BJ-21.side_bets.two_plus_one.seated_only"),
    ]
    ruleset = default_registry().pick("fr/blackjack@2021-06-01")
    values = house_options(load_house(path), "BJ-21", ruleset)
    assert values["surrender"] is True and values["max_boxes_per_player"] == 3
    assert values["no_standing_when_seats_free"] is True and values["min_boxes_single_player"] == 2
    assert values["lucky_ladies.seated_only"] is True
    assert values["two_plus_one.minimum"] == 1 and values["two_plus_one.maximum"] == 50


def test_a_side_bets_block_in_the_texts_words_of_the_wrong_type_is_refused_at_its_line(tmp_path):
    block = "      dames_de_coeur:\n        table de paiement: C\n        seuls joueurs assis: true\n"
    assert block in ALL_FRENCH
    path = write_text(tmp_path, ALL_FRENCH.replace(block, "      dames_de_coeur: 3\n"))
    ran = invoke("lint", str(path), "--date", "2021-06-01")
    assert ran.code == 2
    assert f"{path}:16:" in ran.stderr and "tables.BJ-21.side_bets.lucky_ladies" in ran.stderr


def test_the_bataille_words_are_the_texts_too(tmp_path):
    """Bataille (seeds' 002): « La mise " égalité ” paie 10 pour 1 » (al. 29; here 8), and the « mise
    supplémentaire (mise égalité) » the casino « peut donner aux joueurs la possibilité d'engager » with
    « les limites minimales et maximales indiquées à la table » (al. 27, 28)."""
    text = """format: house-rules/1
casino: Casino de test
tables:
  BA-01:
    ruleset: fr/bataille
    minimum: 5
    maximum: 500
    seats: 7
    options:
      égalité paie: "8:1"
    mises supplémentaires:
      mise égalité: {possibilité d'engager: true, limite minimale: 1, limite maximale: 25}
"""
    path = write_text(tmp_path, text)
    ran = invoke("lint", str(path), "--date", "2025-03-14", "-f", "jsonl")
    found = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [(f["rule"], f["path"]) for f in found] == [
        ("house/fixed-by-regulation", "tables.BA-01.options.egalite_pays")
    ]
    ruleset = default_registry().pick("fr/bataille@2025-03-14")
    values = house_options(load_house(path), "BA-01", ruleset)
    assert values["egalite.offered"] is True
    assert (values["egalite.minimum"], values["egalite.maximum"]) == (1, 25)


def test_every_option_side_bet_and_block_of_the_2020_wording_has_its_texts_word():
    """Each word below is the text's (seeds' 001, art. 55-4), as quoted in the option's ref; the names
    without one are named with why: minimum and maximum are the text's words already, and « le nombre des
    paires » counts pairs where max_split_hands counts hands."""
    ruleset = default_registry().pick("fr/blackjack@2021-06-01")
    said = {n: o.aliases for n, o in ruleset.options.items()}
    assert said == {
        "min_boxes_single_player": ("deux cases au minimum",),
        "no_standing_when_seats_free": ("interdire de jouer debout",),
        "surrender": ("abandon",),
        "max_boxes_per_player": ("nombre de cases",),
        "no_hit_on_21": ("interdire de tirer une nouvelle carte à 21",),
        "split_identical_only": ("limiter les paires aux cartes similaires",),
        "max_split_hands": (),
        "double_after_split": ("double mise sur les paires",),
        "lucky_ladies.paytable": ("table de paiement",),
        "lucky_ladies.seated_only": ("seuls joueurs assis",),
        "lucky_ladies.no_split_after_win": ("interdire de constituer deux mains séparées",),
        "lucky_ladies.minimum": (),
        "lucky_ladies.maximum": (),
        "hyper_blackjack.seated_only": ("seuls joueurs assis",),
        "hyper_blackjack.minimum": (),
        "hyper_blackjack.maximum": (),
        "two_plus_one.seated_only": ("accès réservé aux joueurs assis",),
        "two_plus_one.minimum": ("montant minimal",),
        "two_plus_one.maximum": ("montant maximal",),
        "jp1.stake": ("montant fixe",),
    }
    assert {n: b.aliases for n, b in ruleset.side_bets.items()} == {
        "lucky_ladies": ("dames de cœur",),
        "hyper_blackjack": ("hyper black jack",),
        "two_plus_one": ("2 + 1 cartes",),
        "jp1": ("jackpot progressif",),
    }
    assert ruleset.side_bets_aliases == ("mises additionnelles",)
    assert ruleset.fixed["blackjack_pays"].aliases == ("black-jack payé",)


def test_a_word_given_to_two_names_is_refused_by_rules_check(tmp_path):
    text = (ROOT / "rulesets" / "fr" / "bataille" / "2013-05-12.rules").read_text(encoding="utf-8")
    clash = text.replace('    alias "limite maximale"\n', '    alias "Limite minimale"\n', 1)
    assert clash != text
    path = tmp_path / "clash.rules"
    path.write_text(clash.replace("ruleset fr/bataille", "ruleset xx/bataille", 1), encoding="utf-8")
    ran = invoke("rules", "check", str(path))
    assert ran.code == 2
    assert (
        'alias "Limite minimale" of maximum is also minimum under side_bets.egalite in a house file: '
        "give each word to one name" in ran.stderr
    )


def test_the_words_a_house_file_may_write_are_shown_by_rules_show():
    shown = invoke("rules", "show", "fr/blackjack@2021-06-01").stdout
    assert 'blackjack_pays = 3:2; a house file may write it "black-jack payé"' in shown
    assert 'Side bets: a house file may head them side_bets or "mises additionnelles"' in shown
