"""`rules coverage`: every numbered provision of a version's source text, with what encodes it or why it is
out of scope (issue 39). The shipped families account for every provision; a ruleset that leaves one
unaccounted, or cites one its text does not have, exits 1; `rules check` refuses the stray citation and
a reason in English only."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.dsl.provisions import CitationError, Key, cited, key_of
from validator.rulebook.registry import default_registry

VERSIONS = [r.version for r in default_registry().all()]


# ---------------------------------------------------------------- reading a reference
@pytest.mark.parametrize(
    "ref,keys",
    [
        ("Arrêté du 14 mai 2007, art. 55-4, al. 1", {Key("55-4", al=1)}),
        (
            "Arrêté du 14 mai 2007, art. 55-4, al. 7; 1°, al. 2 (« imposer … deux cases »)",
            {Key("55-4", al=7), Key("55-4", point=1, al=2)},
        ),
        (
            "Arrêté du 14 mai 2007, art. 55-4, 5°, a), al. 1; 6°, al. 5; 7°, al. 3; 8°, al. 4; "
            "art. 55-5, al. 1",
            {
                Key("55-4", point=5, part="a", al=1),
                Key("55-4", point=6, al=5),
                Key("55-4", point=7, al=3),
                Key("55-4", point=8, al=4),
                Key("55-5", al=1),
            },
        ),
        # Points in one group, by `,` and `et`, one of them whole; a range of points.
        (
            "Arrêté du 14 mai 2007, art. 55-4, 5°, a), 6°, al. 5, 7°, al. 3 et 8°, al. 4",
            {
                Key("55-4", point=5, part="a"),
                Key("55-4", point=6, al=5),
                Key("55-4", point=7, al=3),
                Key("55-4", point=8, al=4),
            },
        ),
        ("Arrêté du 14 mai 2007, art. 55-4, 5° à 7°", {Key("55-4", point=n) for n in (5, 6, 7)}),
        ("Arrêté du 14 mai 2007, art. 55-5, al. 4 et NOTA", {Key("55-5", al=4), Key("55-5", al=0)}),
        ("Arrêté du 14 mai 2007, bataille, al. 21 à 23", {Key("bataille", al=n) for n in (21, 22, 23)}),
        ("Arrêté du 14 mai 2007, bataille, al. 7, 9 et 10", {Key("bataille", al=n) for n in (7, 9, 10)}),
        (
            "Licence d'activité de jeu durant une foire ou une exposition, règles de jeu - blackjack, "
            "sections 3 et 7 à 10",
            {Key("", section=n) for n in (3, 7, 8, 9, 10)},
        ),
        (
            "Description du black-jack « tel que joué en France » (texte d'usage, non réglementaire), "
            "al. 4 à 6",
            {Key("", al=n) for n in (4, 5, 6)},
        ),
        ("A text of its own, with no article", set()),
    ],
)
def test_a_reference_cites_these_provisions(ref, keys):
    assert cited(ref) == keys


def test_a_provision_is_named_as_one_provision():
    assert key_of("art. 55-4, 5°, b), al. 8") == Key("55-4", point=5, part="b", al=8)
    assert key_of("section 4") == Key("", section=4)
    assert key_of("art. 55-5, NOTA").words() == "art. 55-5, NOTA"
    for whole in ("art. 55-4, 5°", "art. 55-4", "al. 1 et 2"):
        with pytest.raises(CitationError):
            key_of(whole)


# ---------------------------------------------------------------- the shipped families
@pytest.mark.parametrize("version", VERSIONS)
def test_every_provision_of_every_shipped_version_is_accounted_for(cli, version):
    result = cli("rules", "coverage", version)
    assert result.returncode == 0, result.stdout[-3000:]
    assert result.stdout.rstrip().endswith(
        "every provision accounted for: encoded, or out of scope with the reason why"
    )
    assert "NOT ACCOUNTED FOR" not in result.stdout


def test_the_provisions_are_the_texts_paragraphs():
    # The numbering the rulesets cite (docs/sources.md): art. 55-4 in the 2013 wording has al. 1 to 9, 1° al.
    # 1 to 8, 2° 4, 3° 5, 4° 2, 5° 3, 5° a) 4, 5° b) 8: 43; the 2025 text adds 6° (7), 7° (5), 8° (8) and
    # art. 55-5 (5 and its NOTA); the bataille text 29 alinéas, the popular description 16, the licence 11
    # sections.
    registry = default_registry()
    counts = {r.version: len(r.provisions) for r in registry.all()}
    assert counts == {
        "fr/bataille@2013-05-12": 29,
        "fr/blackjack@2013-12-15": 43,
        "fr/blackjack@2019-08-12": 43,
        "fr/blackjack@2020-05-25": 63,
        "fr/blackjack@2024-11-01": 69,
        "fr/usage-blackjack": 16,
        "on/fair-blackjack": 11,
    }
    ontario = registry.pick("on/fair-blackjack")
    section_4 = ontario.provisions["section 4"]
    assert section_4.quote.startswith("OUVERTURE DES TABLES")
    assert section_4.reason and "in a hand log" in section_4.reason
    assert section_4.why_not("fr") and "journal de coups" in section_4.why_not("fr")
    # A later wording's words: the 2019 amendment's talon « d'au moins un jeu ».
    assert (
        "de la valeur approximative"
        in registry.pick("fr/blackjack@2013-12-15").provisions["art. 55-4, al. 4"].quote
    )
    assert (
        "de la valeur approximative"
        not in registry.pick("fr/blackjack@2019-08-12").provisions["art. 55-4, al. 4"].quote
    )


def test_rules_show_lists_the_provisions(cli):
    shown = cli("rules", "show", "fr/bataille").stdout
    assert "Provisions of the text (what encodes each, or why it is out of scope)" in shown
    assert "  bataille, al. 21  « Après avoir annoncé le point" in shown
    assert "define settled_on_time" in shown
    french = cli("--lang", "fr", "rules", "show", "on/fair-blackjack").stdout
    assert "journal de coups" in french


# ---------------------------------------------------------------- a ruleset of one's own
BASE = """ruleset zz/cover
title "A text of two sections"
source "zz"
game blackjack
in force undated
note "A test text." note fr "Un texte d'essai."
provision "section 1" quote "Six decks."
provision "section 2" quote "The cards are inspected at the opening."{reason}
parameter shoe.decks = 6  ref "Licence de test, section 1"
rule six-decks {{
    ref "Licence de test, section {rule_section}"
    severity error
    message "Six decks." message fr "Six jeux."
    on shoe require shoe.decks == param.shoe.decks
    checks "Decks." checks fr "Jeux."
    why "« Six decks »." fails "Eight." fails fr "Huit." passes "Six." passes fr "Six."
}}
"""
REASON = '\n    out of scope "Not in a log." fr "Pas dans un journal."'


def write(tmp_path: Path, reason: str = REASON, rule_section: str = "1", name: str = "cover") -> Path:
    path = tmp_path / f"{name}.rules"
    path.write_text(BASE.format(reason=reason, rule_section=rule_section), encoding="utf-8")
    return path


def test_a_provision_neither_encoded_nor_out_of_scope_exits_1(cli, tmp_path):
    accounted = write(tmp_path)
    result = cli("rules", "coverage", "zz/cover", "--rules", str(accounted))
    assert result.returncode == 0, result.stdout
    assert "  section 2  « The cards are inspected at the opening. »" in result.stdout
    assert "not encoded, out of scope: Not in a log." in result.stdout
    gap = write(tmp_path / "gap", reason="") if (tmp_path / "gap").mkdir() is None else None
    result = cli("rules", "coverage", "zz/cover", "--rules", str(gap))
    assert result.returncode == 1
    assert "NOT ACCOUNTED FOR" in result.stdout
    assert "1 provision(s) not accounted for, 0 reference(s)" in result.stdout


def test_a_reference_to_a_provision_the_text_does_not_have(cli, tmp_path):
    stray = write(tmp_path, rule_section="3")
    result = cli("rules", "coverage", "zz/cover", "--rules", str(stray))
    assert result.returncode == 1
    assert (
        "rule six-decks cites a provision the text does not have: Licence de test, section 3" in result.stdout
    )
    check = cli("rules", "check", str(stray))
    assert check.returncode == 2
    assert "cover.rules:11:1: rule six-decks cites 'Licence de test, section 3'" in check.stderr


def test_rules_check_refuses_a_reason_in_english_only_and_a_provision_twice(cli, tmp_path):
    english = write(tmp_path, reason='\n    out of scope "Not in a log."')
    result = cli("rules", "check", str(english))
    assert result.returncode == 2
    assert "provision 'section 2': the reason it is out of scope is in English only" in result.stderr
    twice = tmp_path / "twice.rules"
    twice.write_text(
        BASE.format(reason=REASON, rule_section="1").replace(
            'provision "section 2"', 'provision "section 1" quote "Again."\nprovision "section 2"'
        ),
        encoding="utf-8",
    )
    result = cli("rules", "check", str(twice))
    assert result.returncode == 2 and "is declared twice" in result.stderr
    whole = tmp_path / "whole.rules"
    whole.write_text(
        BASE.format(reason=REASON, rule_section="1").replace(
            'provision "section 1"', 'provision "sections 1 et 2"'
        ),
        encoding="utf-8",
    )
    result = cli("rules", "check", str(whole))
    assert result.returncode == 2 and "names no one provision of a text" in result.stderr


def test_an_amendment_adds_replaces_and_repeals_provisions(cli, tmp_path):
    base = write(tmp_path)
    base.write_text(
        base.read_text(encoding="utf-8").replace(
            "in force undated", "in force from 2020-01-01 until 2020-12-31"
        ),
        "utf-8",
    )
    later = tmp_path / "later.rules"
    later.write_text(
        """ruleset zz/cover
amends zz/cover@2020-01-01
title "The text amended"
source "zz"
in force from 2021-01-01
note "Amended." note fr "Modifié."
amendment "Amending text of 2021" {
    replace provision "section 1" quote "Eight decks, now."
    repeal provision "section 2"
    add provision "section 3" quote "A new section."
        out of scope "Not in a log either." fr "Pas dans un journal non plus."
}
""",
        encoding="utf-8",
    )
    result = cli("rules", "coverage", "zz/cover@2021-06-01", "--rules", str(tmp_path))
    assert result.returncode == 0, result.stdout
    assert "« Eight decks, now. »" in result.stdout and "section 2" not in result.stdout
    assert "  section 3  « A new section. »" in result.stdout
