"""A reading's alternatives are named by English words (`same-rank`, `kept`: what `--reading` and a house
file's `readings:` take); a run in French says beside each name the first words of its meaning as the
ruleset writes it in French (issue 38, item 5: readings' values translated). English runs, and the
machine formats' fields, keep the names alone.

The expected words are the rulesets' own `alternative NAME "…" fr "…"` texts, cut at their first pause
(quoted in each test)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import SAMPLES, run_cli

from validator import i18n
from validator.audit.html import reading_glosses
from validator.audit.query import run_readings
from validator.dsl.readings import AlternativeInfo, headline
from validator.maths.text import text as edge_text
from validator.rulebook.registry import default_registry

CLEAN_BJ_2016 = SAMPLES / "logs" / "clean" / "BJ-03-2016-06-10.jsonl"
JP1_KEPT = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "rules"
    / "fr"
    / "blackjack"
    / "jp1-paytable"
    / "fails-one-seven-paid-2-read-stake-kept.jsonl"
)


def test_the_first_words_of_a_meaning_end_at_its_first_pause():
    # A colon, a semicolon, a parenthesis, a comma before words, a full stop: each ends the first words.
    assert headline("Case par case : chaque case que joue un joueur peut séparer une paire d'as.") == (
        "Case par case"
    )
    assert headline("Deux cartes de même rang (D-D, R-R, …) de n'importe quelles enseignes") == (
        "Deux cartes de même rang"
    )
    assert headline("Six jeux, comme l'art. 55-4 les fait distribuer.") == "Six jeux"
    assert headline("Un simple 21.") == "Un simple 21"
    # A comma between figures is not a pause; nor is one inside the law's words.
    assert headline("Le nouveau maximum est encore de 50, 100 ou 200 fois le minimum : « il » est …") == (
        "Le nouveau maximum est encore de 50, 100 ou 200 fois le minimum"
    )
    assert headline("Un joueur est « un seul joueur, à table » quoi qu'il arrive : la suite") == (
        "Un joueur est « un seul joueur, à table » quoi qu'il arrive"
    )


def test_a_gloss_is_given_in_french_only():
    info = AlternativeInfo("per-box", "Box by box: each box …", (), {"fr": "Case par case : chaque case …"})
    assert info.gloss("fr") == "Case par case"
    assert info.gloss("en") is None  # the name is the English words
    assert AlternativeInfo("x", "English only.", ()).gloss("fr") is None


def test_checks_summary_in_french_says_each_alternative_in_words():
    """The 2016 séance is judged by fr/blackjack@2013-12-15, whose readings apply their defaults:
    pair-totalling-20 = same-rank, « Deux cartes de même rang (D-D, R-R, …) … »; settlement-order =
    box-by-box, « Case par case depuis la droite du croupier : … »; even-money = not-offered, « Le texte
    n'offre pas le paiement à égalité : … »."""
    french = run_cli("--lang", "fr", "check", str(CLEAN_BJ_2016), "--no-config")
    assert french.returncode == 0, french.stderr
    for said in (
        "pair-totalling-20 = same-rank (Deux cartes de même rang)",
        "settlement-order = box-by-box (Case par case depuis la droite du croupier)",
        "even-money = not-offered (Le texte n'offre pas le paiement à égalité)",
    ):
        assert said in french.stdout, said
    english = run_cli("check", str(CLEAN_BJ_2016), "--no-config")
    assert "pair-totalling-20 = same-rank," in english.stdout and "(Deux" not in english.stdout


def test_a_finding_that_rests_on_a_reading_says_it_in_words():
    """Art. 55-4, 8°, « Un "7" — 2 pour 1 » paid 2: right under the default (the stake handed back),
    a finding only under jp1-stake = kept, « La mise est partie dans la cagnotte quoi qu'il arrive : … »;
    --all-readings adds it, resting on that alternative, and says so in French with its words. The JSON
    keeps the names."""
    done = run_cli(
        "--lang", "fr", "check", str(JP1_KEPT), "--no-config", "--all-readings", "-q", "-f", "json"
    )
    assert done.returncode == 1, done.stderr
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["rests_on"] == [{"reading": "jp1-stake", "alternative": "kept"}]
    assert finding["message"].endswith(
        "(selon la lecture `jp1-stake` = `kept` (La mise est partie dans la cagnotte quoi qu'il arrive))"
    )


def test_the_reports_readings_say_each_alternative_in_words():
    """The report's runs table reads the readings from the run's summary; the glosses come from the
    versions the registry holds (fr/bataille: bataille-wars = after, « Les cases décidées par leur
    première carte d'abord, depuis la droite du croupier ; … »)."""
    summary = json.dumps(
        {
            "readings": {
                "fr/bataille@2013-05-12": [
                    {"reading": "bataille-wars", "alternative": "after", "default": False}
                ]
            }
        }
    )
    i18n.use("fr")
    try:
        glosses = reading_glosses(default_registry())
        said = run_readings(summary, glosses)
    finally:
        i18n.use("en")
    assert said == (
        "fr/bataille@2013-05-12: bataille-wars = after (Les cases décidées par leur première carte d'abord)"
        " (pas celle par défaut)"  # the catalog's French of " (not the default)"
    )
    assert reading_glosses(default_registry()) == {}  # English: the names alone
    assert run_readings(summary) == "fr/bataille@2013-05-12: bataille-wars = after (not the default)"


def test_edge_in_french_says_each_alternative_in_words():
    """edge's readings rows: each alternative's meaning in each language (JSON), its first words under the
    reading in French."""
    report = {
        "ruleset": "zz/x@2020-01-01",
        "game": "blackjack",
        "shoe_decks": 6,
        "decks_from_version": True,
        "house_options": {},
        "main": {"return": "-0.01", "house_edge_percent": "1.0", "lines": [], "strategy": ""},
        "side_bets": [],
        "readings": [
            {
                "reading": "meme-couleur",
                "quote": "de même couleur",
                "default": "suit",
                "applied": "suit",
                "figures": [],
                "meanings": {
                    "suit": {"en": "The suit: …", "fr": "L'enseigne : des cartes « de même couleur » …"},
                    "red-or-black": {"en": "The colour: …", "fr": "La couleur : des cartes …"},
                },
            }
        ],
        "seconds": 1.5,
        "cpu_seconds": 1.25,
    }
    i18n.use("fr")
    try:
        french = edge_text(report)
    finally:
        i18n.use("en")
    assert "    suit : L'enseigne\n    red-or-black : La couleur\n" in french
    assert "L'enseigne" not in edge_text(report)
