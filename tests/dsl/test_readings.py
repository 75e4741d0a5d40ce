"""The `reading` construct: a version's question about an ambiguous sentence, its alternatives (each a
set of amendment changes to the version as written) and its default; what `rules check` refuses, how a
later version inherits, replaces or repeals a reading, and what `rules show` and `rules diff` print."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.errors import RulesetErrors
from validator.rulebook.registry import load_all, under_readings

BASE = """ruleset xx/read
title "T"
source "S"
game blackjack
in force from 2020-01-01 until 2020-12-31
parameter shoe.decks = 6  ref "Ref 1"
define six = shoe.decks == param.shoe.decks  ref "Ref 1"
rule six-decks {
    ref "Ref 1"
    severity error
    message "Six decks, not {shoe.decks}."
    on shoe require six
    checks "decks" why "text" fails "8 decks" passes "6 decks"
}
"""

READING = """
reading how-many {
    ref "Ref 1"
    quote "six jeux"
    question "Six decks, or six or more?"
    alternative exactly "Six decks exactly."
    alternative at-least "Six decks or more." {
        replace define six = shoe.decks >= param.shoe.decks  ref "Ref 1"
    }
    default exactly because "The text says six."
}
"""

LATER = """ruleset xx/read
amends xx/read@2020-01-01
title "T2"
source "S2"
in force from 2021-01-01
amendment "Texte B" {
%s
}
"""


def _write(tmp_path: Path, *texts: str) -> list[Path]:
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"{2020 + i}-01-01.rules"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def _errors(tmp_path: Path, *texts: str) -> list[str]:
    with pytest.raises(RulesetErrors) as caught:
        load_all(_write(tmp_path, *texts))
    return [str(e) for e in caught.value.errors]


def test_a_reading_is_compiled_with_its_alternatives_and_default(tmp_path):
    [version] = load_all(_write(tmp_path, BASE + READING)).all()
    reading = version.readings["how-many"]
    assert reading.quote == "six jeux" and reading.default == "exactly"
    assert reading.names == ("exactly", "at-least")
    assert reading.alternative("at-least").changes == (("replace", "define", "six"),)
    assert version.reading_choices() == {"how-many": "exactly"}


def test_an_alternative_changes_what_the_version_applies(tmp_path):
    [version] = load_all(_write(tmp_path, BASE + READING)).all()
    other = under_readings(version, {"how-many": "at-least"})
    assert other.conditions["six"].source == "shoe.decks >= param.shoe.decks"
    assert version.conditions["six"].source == "shoe.decks == param.shoe.decks"
    assert other.reading_choices() == {"how-many": "at-least"}
    # The default asked for is the version as written.
    as_written = under_readings(version, {"how-many": "exactly"})
    assert as_written.conditions["six"].source == "shoe.decks == param.shoe.decks"


def test_an_alternative_that_changes_nothing_is_refused_at_its_line(tmp_path):
    same = READING.replace(">= param.shoe.decks", "== param.shoe.decks")
    [error] = _errors(tmp_path, BASE + same)
    # BASE is 15 lines and READING starts with an empty line: the reading opens on line 17.
    assert error.endswith(
        ":21:5: alternative at-least of reading how-many changes nothing in this version: "
        "say what it adds, replaces or repeals"
    ), error


def test_an_unknown_default_is_refused_at_its_name(tmp_path):
    [error] = _errors(tmp_path, BASE + READING.replace("default exactly", "default exact"))
    assert ":24:13: reading how-many has no alternative exact to apply by default" in error, error


def test_a_reading_declared_twice_is_refused(tmp_path):
    errors = _errors(tmp_path, BASE + READING + READING)
    assert any("reading how-many is declared twice in this version" in e for e in errors), errors


def test_two_alternatives_of_one_name_and_a_default_with_changes_are_refused(tmp_path):
    twice = READING.replace('alternative exactly "Six decks exactly."', 'alternative at-least "Twice."')
    assert any("has two alternatives named at-least" in e for e in _errors(tmp_path, BASE + twice))
    changed_default = READING.replace("default exactly", "default at-least")
    assert any(
        "is the default of reading how-many: it is the version as written" in e
        for e in _errors(tmp_path, BASE + changed_default)
    )


def test_an_alternative_that_replaces_what_the_version_lacks_is_refused(tmp_path):
    lacking = READING.replace("replace define six", "replace define seven")
    [error] = _errors(tmp_path, BASE + lacking)
    assert "alternative at-least of reading how-many: this version has no define seven to replace" in error


def test_a_later_version_inherits_replaces_and_repeals_a_reading(tmp_path):
    inherited = load_all(_write(tmp_path, BASE + READING, LATER % "")).all()
    assert [list(v.readings) for v in inherited] == [["how-many"], ["how-many"]]
    repealed = load_all(_write(tmp_path, BASE + READING, LATER % "repeal reading how-many")).all()
    assert repealed[1].readings == {}
    replaced_text = "replace " + READING.strip().replace('"The text says six."', '"Amended."')
    replaced = load_all(_write(tmp_path, BASE + READING, LATER % replaced_text)).all()
    assert replaced[1].readings["how-many"].because == "Amended."
    # A reading written outside an amendment block of an amending file is refused like any item.
    outside = LATER.replace('amendment "Texte B"', READING + 'amendment "Texte B"') % ""
    errors = _errors(tmp_path, BASE, outside)
    assert any("the reading how-many must sit in an `amendment" in e for e in errors), errors


def test_rules_check_show_and_diff_name_the_readings(cli):
    result = cli("rules", "show", "fr/blackjack@2019-08-12")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Readings (where the text is ambiguous" in text
    assert "  pair-totalling-20    (Arrêté du 14 mai 2007, art. 55-4, 5°, al. 2)" in text
    assert "    « Paire totalisant 20 »" in text
    assert "    - same-rank-and-suit [default, applied]: " in text
    assert "        changes: replace define pair_totalling_20" in text
    diff = cli("rules", "diff", "fr/blackjack@2019-08-12", "fr/blackjack@2020-05-25").stdout.splitlines()
    readings = diff[diff.index("Readings") : diff.index("Side bets")]
    assert any(line.startswith("  - pair-totalling-20: « Paire totalisant 20 »") for line in readings)
    assert any(line.startswith("  + meme-couleur: ") for line in readings)


FRENCH = """
reading how-many {
    ref "Ref 1"
    quote "six jeux"
    question "Six decks, or six or more?"
    question fr "Six jeux, ou six ou plus ?"
    alternative exactly "Six decks exactly." fr "Six jeux exactement."
    alternative at-least "Six decks or more." fr "Six jeux ou plus." {
        replace define six = shoe.decks >= param.shoe.decks  ref "Ref 1"
    }
    default exactly because "The text says six."
    because fr "Le texte dit six."
}
"""


def test_a_reading_speaks_french_where_it_is_written_in_french(tmp_path, cli):
    [version] = load_all(_write(tmp_path, BASE + FRENCH)).all()
    reading = version.readings["how-many"]
    assert reading.text("question", "fr") == "Six jeux, ou six ou plus ?"
    assert reading.text("because", "fr") == "Le texte dit six."
    assert reading.text("question", "en") == "Six decks, or six or more?"
    assert reading.alternative("at-least").meaning_in("fr") == "Six jeux ou plus."
    assert reading.untranslated(("fr",)) == []
    # `rules check` refuses a reading in English only, naming what lacks its French.
    english = tmp_path / "english"
    english.mkdir()
    (english / "2020-01-01.rules").write_text(BASE + READING, encoding="utf-8")
    result = cli("rules", "check", str(english))
    assert result.returncode == 2
    assert (
        "reading 'how-many' is in English only for question fr, because fr, the meaning of exactly in fr, "
        "the meaning of at-least in fr" in result.stderr
    ), result.stderr
    # The shipped readings all speak French: `rules show` in French gives their French.
    shown = cli("--lang", "fr", "rules", "show", "on/fair-blackjack").stdout
    assert "« 17 avec as » est-il un 17 souple seulement (l'as compté 11)" in shown
    assert "    - soft-17 [par défaut, appliquée]: Un 17 souple : l'as compté 11 (A-6)" in shown


# An alternative that adds a rule written in English only (every other text of the version in French).
ENGLISH_RULE = """ruleset xx/lone
title "T"
source "S"
game blackjack
in force from 2020-01-01 until 2020-12-31
parameter shoe.decks = 6  ref "Ref 1"
rule six-decks {
    ref "Ref 1"
    severity error
    message "Six decks, not {shoe.decks}."  message fr "Six jeux, non {shoe.decks}."
    on shoe require shoe.decks == param.shoe.decks
    checks "decks" why "text" fails "8 decks" passes "6 decks"
    checks fr "jeux" why fr "texte" fails fr "8 jeux" passes fr "6 jeux"
}
reading strict {
    ref "Ref 1"
    quote "six jeux"
    question "Also refuse fewer than four decks?"  question fr "Refuser aussi moins de quatre jeux ?"
    alternative no "No." fr "Non."
    alternative yes "Yes." fr "Oui." {
        add rule four-decks {
            ref "Ref 1"
            severity error
            message "At least four decks."
            on shoe require shoe.decks >= 4
            checks "decks" why "text" fails "3 decks" passes "4 decks"
        }
    }
    default no because "The text says six."  because fr "Le texte dit six."
}
"""


def test_an_alternative_rule_in_english_only_is_refused_named_or_from_outside(tmp_path, cli):
    # `rules check` compiles the alternatives of the versions it is given and of the rulesets from
    # outside (`--rules`), not those of the shipped versions it is not given: the rule an alternative adds
    # is refused in English only both when its file is named and when it comes with `--rules`.
    folder = tmp_path / "lone"
    folder.mkdir()
    lone = folder / "2020-01-01.rules"
    lone.write_text(ENGLISH_RULE, encoding="utf-8")
    other = tmp_path / "minimal.rules"
    other.write_text(BASE, encoding="utf-8")
    # Line 21 of ENGLISH_RULE: `add rule four-decks {` (a rule's id is its version's family, then its name);
    # its message and docs have no French.
    said = (
        f"{lone}:21:1: rule 'xx/lone/four-decks' has its message, checks, why, fails, passes in English "
        'only: write each in French beside it (message fr "…")'
    )
    named = cli("rules", "check", str(lone))
    assert named.returncode == 2, named.stdout
    assert said in named.stderr.splitlines(), named.stderr
    outside = cli("rules", "check", "--rules", str(folder), str(other))
    assert outside.returncode == 2, outside.stdout
    assert said in outside.stderr.splitlines(), outside.stderr
