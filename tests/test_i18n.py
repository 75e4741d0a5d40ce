"""French and English (issue 28, item 1): the language chosen by --lang, the configuration's `lang`
and the locale; every text of the program and every rule in both; a text missing in either fails here.

The French expected below is the catalog's (validator/locale/fr/LC_MESSAGES/casino-validator.po) and
the rulesets' own `message fr` lines, quoted where the test names them."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SAMPLES, run_cli

from validator import i18n
from validator.dsl.compiler import untranslated
from validator.rulebook.registry import default_registry

CLEAN_BJ = SAMPLES / "logs" / "clean" / "BJ-03-2016-06-10.jsonl"
DISPUTES_BJ = SAMPLES / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"


def _catalog_tool():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_text_of_the_program_has_its_french_and_the_mo_is_compiled_from_the_po():
    """The texts marked in the package, the CLI's help and the vocabulary's words: each must have a
    French translation in the .po, and the .mo the package reads must be the .po compiled. A text added
    without its French is named here (run `python scripts/i18n.py`, then write its French in the .po)."""
    tool = _catalog_tool()
    catalog = tool.read_catalog()
    found = tool.texts()
    assert len(found) > 500  # the help, the messages, the report, the vocabulary: not an empty extraction
    assert tool.missing(catalog, found) == []
    # What gettext reads from each, compared: the same messages with the same French and the same
    # header, but for the header's "Generated-By" line, which names the Babel release that compiled it
    # (a newer Babel in a fresh install must not fail a .mo that says the same).
    assert tool.as_read(tool.MO.read_bytes()) == tool.as_read(tool.compiled(catalog))


def test_every_rule_of_every_shipped_ruleset_has_its_message_and_docs_in_french():
    problems = [
        p for ruleset in default_registry().all() for rule in ruleset.rules for p in untranslated(rule)
    ]
    assert problems == []


def test_every_reading_of_every_shipped_ruleset_has_its_question_answers_and_reason_in_french():
    missing = []
    for ruleset in default_registry().all():
        for reading in ruleset.readings.values():
            assert reading.text("question", "fr") != reading.question, (ruleset.version, reading.name)
            assert reading.text("because", "fr") != reading.because, (ruleset.version, reading.name)
            missing += [f"{ruleset.version}: {problem}" for problem in reading.untranslated(("fr",))]
    assert missing == []


def test_rules_show_gives_a_reading_in_the_language_chosen():
    french = run_cli("--lang", "fr", "rules", "show", "fr/blackjack@2014-01-01").stdout
    # rulesets/fr/blackjack/2013-12-15.rules, reading settlement-order: its `question fr` and `because fr`.
    assert "Le règlement se fait-il case par case depuis la droite" in french
    assert "par défaut box-by-box, parce que : « dans l'ordre prévu, de droite à gauche » régit" in french
    english = run_cli("rules", "show", "fr/blackjack@2014-01-01").stdout
    assert "Is the settlement made box by box from the right" in english and "Le règlement" not in english


def test_the_language_is_the_option_then_the_configuration_then_the_locale_then_english():
    assert i18n.choose("en", "fr", {"LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.choose(None, "fr", {"LANG": "C.UTF-8"}) == "fr"
    # LC_ALL, then LC_MESSAGES, then LANG, as POSIX orders them.
    assert i18n.choose(None, None, {"LC_ALL": "fr_FR.UTF-8", "LANG": "en_GB.UTF-8"}) == "fr"
    assert i18n.choose(None, None, {"LC_MESSAGES": "en_US.UTF-8", "LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.choose(None, None, {"LC_ALL": "", "LANG": "fr_CA.UTF-8"}) == "fr"
    assert i18n.choose(None, None, {"LANG": "fr"}) == "fr"
    # A language the program does not speak, or the C locale: English.
    assert i18n.choose(None, None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.choose(None, None, {"LANG": "C"}) == "en"
    assert i18n.choose(None, None, {}) == "en"


def _process(*args: str, env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-P", "-m", "validator", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**clean, **env},
        check=False,
    )


def test_check_speaks_the_locales_french_and_english_with_lang_en():
    args = ("check", str(SAMPLES), "--house", str(SAMPLES / "house" / "trouville.yaml"), "-q")
    french = _process(*args, env={"LANG": "fr_FR.UTF-8"})
    assert french.returncode == 1, french.stderr
    # The rule's French message (rulesets/fr/blackjack/2013-12-15.rules, blackjack-pays-3-2).
    assert "Un black-jack est payé 3 pour 2." in french.stdout
    for word in ("résumé", "coups lus:", "constats:", "payé en trop par le casino:", "erreur fr/blackjack"):
        assert word in french.stdout
    for english in ("summary", "rounds read", "A blackjack is paid 3 for 2.", " error fr/"):
        assert english not in french.stdout
    english = _process("--lang", "en", *args, env={"LANG": "fr_FR.UTF-8"})
    assert english.returncode == 1
    assert "A blackjack is paid 3 for 2." in english.stdout and "summary" in english.stdout
    assert "résumé" not in english.stdout


def test_lint_rules_show_edge_and_the_help_speak_french_with_lang_fr():
    lint = run_cli("--lang", "fr", "lint", str(SAMPLES / "house" / "mistakes.yaml"))
    assert lint.returncode == 1
    assert "ne déclare aucune option du casino surender ; vouliez-vous dire surrender ?" in lint.stdout
    assert "résumé" in lint.stdout and "summary" not in lint.stdout
    shown = run_cli("--lang", "fr", "rules", "show", "fr/blackjack/insurance-pays-2-1")
    assert shown.returncode == 0
    assert "message : L'assurance est payée 2 pour 1 quand le croupier fait black-jack" in shown.stdout
    assert "vérifie : Le règlement de chaque assurance." in shown.stdout
    edge = run_cli("--lang", "fr", "edge", "--ruleset", "fr/bataille")
    assert edge.returncode == 0
    assert "mise principale : rendement" in edge.stdout and "avantage de la maison" in edge.stdout
    helped = run_cli("--lang", "fr", "check", "-h")
    assert helped.stdout.startswith("Usage : casino-validator check")
    assert "Format de sortie." in helped.stdout and "Output format." not in helped.stdout
    # The next command, without --lang, is English again (the suite's locale is C).
    assert "Output format." in run_cli("check", "-h").stdout


def test_the_json_message_follows_the_language_and_the_ids_do_not():
    english = json.loads(run_cli("check", str(DISPUTES_BJ), "-f", "json", "-q").stdout)
    french = json.loads(run_cli("--lang", "fr", "check", str(DISPUTES_BJ), "-f", "json", "-q").stdout)

    def ids(report):
        return [(f["rule"], f["round"], f["stake"], f["line"]) for f in report["findings"]]

    assert ids(english) == ids(french)
    pays = {f["rule"]: f["message"] for f in french["findings"]}
    # Round BJ-03/2016-06-11/1/2 of the log: box 2 dealt AS and KD, the dealer 9H and 8C (issue 25's
    # evidence: the cards and totals in the message, the same in both languages).
    assert pays["fr/blackjack/blackjack-pays-3-2"] == (
        "Un black-jack est payé 3 pour 2. La main : A♠ K♦ (21) ; le croupier : 9♥ 8♣ (17)."
    )


def test_the_configuration_files_lang_chooses_french(tmp_path):
    (tmp_path / "casino-validator.toml").write_text('lang = "fr"\n', encoding="utf-8")
    done = _process("check", str(CLEAN_BJ), "-q", env={"LANG": "C.UTF-8"}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "résumé" in done.stdout
    (tmp_path / "casino-validator.toml").write_text('lang = "de"\n', encoding="utf-8")
    refused = _process("check", str(CLEAN_BJ), "-q", env={"LANG": "C.UTF-8"}, cwd=tmp_path)
    assert refused.returncode == 2
    assert "lang must be one of en, fr, not 'de'" in refused.stderr


RULESET = """ruleset xx/lang
title "t"
source "s"
game blackjack
in force from 2020-01-01
parameter shoe.decks = 6  ref "r"
rule six-decks {
    ref "r"
    severity error
    message "Six decks, not {shoe.decks}."
%s
    on shoe require shoe.decks == param.shoe.decks
    checks "decks" checks fr "jeux"
}
"""


@pytest.mark.parametrize(
    ("french", "status", "said"),
    [
        ('    message fr "Six jeux, non {shoe.decks}."', 0, "ok — xx/lang@2020-01-01, 1 rules"),
        ("", 2, "rule 'xx/lang/six-decks' has its message in English only: write each in French beside it"),
        ('    message fr "Six jeux."', 2, "the 'fr' message's placeholders must be the English message's"),
        ('    message fr "Six jeux, non {shoe.cards}." ', 2, "the 'fr' message's placeholders"),
    ],
)
def test_rules_check_refuses_a_rule_in_one_language_only(tmp_path, french, status, said):
    path = tmp_path / "lang.rules"
    path.write_text(RULESET % french, encoding="utf-8")
    done = run_cli("rules", "check", str(path))
    assert done.returncode == status, done.stderr
    assert said in (done.stdout + done.stderr)


def test_a_french_field_without_its_english_is_an_error(tmp_path):
    path = tmp_path / "lang.rules"
    path.write_text(
        (RULESET % '    message fr "Six jeux, non {shoe.decks}."').replace('    checks "decks" ', "    ")
    )
    done = run_cli("rules", "check", str(path))
    assert done.returncode == 2
    assert "has its checks in 'fr' only: write it in English too" in done.stderr


def test_the_html_report_is_in_the_language_chosen(tmp_path):
    dataset = tmp_path / "ds"
    assert run_cli("check", str(DISPUTES_BJ), "--dataset", str(dataset), "-q").returncode == 1
    page = tmp_path / "fr.html"
    done = run_cli("--lang", "fr", "report", str(dataset), "-o", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert '<html lang="fr">' in html
    assert "<h2>Constats par règle</h2>" in html and "<title>Rapport d&#39;audit</title>" in html
    # The rule's docs in French, from the ruleset (blackjack-pays-3-2's `checks fr`); the findings'
    # messages are the dataset's, in the language of the check that wrote it (docs/findings.md).
    assert "<strong>Vérifie :</strong> Le paiement d&#39;un black-jack" in html
    english = tmp_path / "en.html"
    assert run_cli("report", str(dataset), "-o", str(english)).returncode == 0
    assert '<html lang="en">' in english.read_text(encoding="utf-8")


def test_no_text_of_the_package_is_written_without_a_mark():
    """A string with words (two words of letters in a row) that no `_()`, `N_()` or `ngettext()` holds fails
    here, with its file and line, unless it is one no user reads as a message: a docstring, a CLI help
    (read from the command tree), SQL, a module scripts/i18n.py lists with why, or a line marked
    `# i18n: not shown (why)`. A mark inside an f-string fails too: Babel does not extract it."""
    assert _catalog_tool().unmarked() == []


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ('raise ValueError(f"{name}: no such table")\n', "not marked for translation"),
        ('said = "the dealer stands"\n', "not marked for translation"),
        ("said = f\"{_('held')} here\"\n", "a mark inside an f-string is not extracted"),
        ('said = _("the dealer stands")\n', None),
        ('"""A docstring of two words."""\n', None),
        ('sql = "SELECT rule FROM findings"\n', None),
        ('said = "the dealer stands"  # i18n: not shown (a test)\n', None),
        ('said = "ok"\n', None),
    ],
)
def test_the_unmarked_text_check_finds_what_it_should(tmp_path, source, found):
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    said = _catalog_tool().unmarked([probe])
    if found is None:
        assert said == []
    else:
        assert len(said) == 1 and found in said[0], said


# English words that no French sentence of the program's holds: two of them on one line of a French run's
# output is an English sentence (ids, paths, quoted log values and rule expressions are left out first).
_ENGLISH = re.compile(
    r"\b(the|of|and|is|are|with|from|this|that|cannot|was|were|for|by|which|has|have|be|its|it|not)\b"
)


def _english_lines(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        if re.match(r"\s*(on|settle) [a-z_]+ ", line):  # a rule's condition, in the rules language
            continue
        bare = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|« [^»]* »|\S+[/_.-]\S+|--[a-z-]+", " ", line)
        if len(set(_ENGLISH.findall(bare))) >= 2:
            found.append(line)
    return found


def test_a_french_run_writes_no_english_sentence(tmp_path):
    """The commands an inspector runs, in French: check (with format findings and a Latin-1 line), explain,
    rules show (a Python-side rule, a version with its readings), lint, edge, simulate's summary, watch's
    refusals. A line with two English words is a text the catalog lacks or a mark missing."""
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(
        CLEAN_BJ.read_bytes()
        + b'{"type": "rnd"}\nnot json\n{"type": "round", "round": "x"}\n'
        + '{"type": "table", "casino": "Caf\u00e9"}\n'.encode("latin-1")
    )
    runs = [
        ("check", str(broken), str(DISPUTES_BJ), "--house", str(SAMPLES / "house" / "trouville.yaml")),
        ("explain", str(DISPUTES_BJ), "--round", "BJ-03/2016-06-11/1/2"),
        ("rules", "show", "hand-log/truncated"),
        ("rules", "show", "fr/blackjack@2014-01-01"),
        ("lint", str(SAMPLES / "house" / "mistakes.yaml")),
        ("edge", "--ruleset", "fr/bataille"),
        ("watch", "-"),
        ("watch", str(tmp_path / "none.jsonl")),
    ]
    english = []
    for args in runs:
        done = run_cli("--lang", "fr", *args)
        assert done.returncode in (0, 1, 2), (args, done.stderr)
        english += [f"{args[0]}: {line}" for line in _english_lines(done.stdout + done.stderr)]
    assert english == []


@pytest.mark.parametrize(
    ("broken", "french", "english"),
    [
        # A compile error, with its hint (the rules language's own words: validator/dsl/compiler.py).
        (
            ("param.shoe.decks", "param.shoe.deks"),
            "param.shoe.deks : ce n'est pas un paramètre ; vouliez-vous dire 'shoe.decks' ?",
            "param.shoe.deks: not a parameter; did you mean 'shoe.decks'?",
        ),
        # A parse error (validator/dsl/parser.py), at its line and column.
        (("require shoe.decks ==", "require shoe.decks = ="), "erreur de syntaxe : ", "syntax error: "),
        # A rule in English only, refused by `rules check` (validator/dsl/compiler.py, `untranslated`).
        (
            ('    checks "decks" checks fr "jeux"', '    checks "decks"'),
            "n'a ses champs checks qu'en anglais : rédigez chacun en français à côté (checks fr \"…\")",
            'has its checks in English only: write each in French beside it (checks fr "…")',
        ),
    ],
)
def test_a_broken_ruleset_is_told_in_french_with_lang_fr(tmp_path, broken, french, english):
    path = tmp_path / "lang.rules"
    text = RULESET % '    message fr "Six jeux, non {shoe.decks}."'
    assert broken[0] in text
    path.write_text(text.replace(broken[0], broken[1]), encoding="utf-8")
    done = run_cli("--lang", "fr", "rules", "check", str(path))
    assert done.returncode == 2, done.stdout + done.stderr
    assert french in done.stderr, done.stderr
    assert english not in done.stderr
    done = run_cli("--lang", "en", "rules", "check", str(path))
    assert done.returncode == 2
    assert english in done.stderr, done.stderr


NOTE = 'note "Open-ended: no later wording."\n'
NOTE_FR = 'note fr "Sans terme : aucune rédaction postérieure."\n'


def _with_note(tmp_path: Path, notes: str) -> Path:
    path = tmp_path / "lang.rules"
    text = RULESET % '    message fr "Six jeux, non {shoe.decks}."'
    path.write_text(text.replace("parameter shoe.decks", notes + "parameter shoe.decks"), encoding="utf-8")
    return path


def test_a_note_in_english_only_is_refused_and_its_french_is_shown_with_lang_fr(tmp_path):
    path = _with_note(tmp_path, NOTE)
    done = run_cli("rules", "check", str(path))
    assert done.returncode == 2
    assert f'{path}:6:1: the note is in English only: write it in French just after it (note fr "…")' in (
        done.stderr
    )
    path = _with_note(tmp_path, NOTE + NOTE_FR)
    assert run_cli("rules", "check", str(path)).returncode == 0
    shown = run_cli("--lang", "fr", "rules", "show", "xx/lang", "--rules", str(path))
    assert shown.returncode == 0, shown.stderr
    assert "  note : Sans terme : aucune rédaction postérieure." in shown.stdout
    assert "Open-ended" not in shown.stdout
    shown = run_cli("--lang", "en", "rules", "show", "xx/lang", "--rules", str(path))
    assert "  note: Open-ended: no later wording." in shown.stdout


@pytest.mark.parametrize(
    ("notes", "said"),
    [
        (NOTE_FR + NOTE, 'note fr translates the note just before it: write note "…" first'),
        (NOTE + NOTE_FR + NOTE_FR, "the note of line 6 is given in 'fr' twice"),
        (NOTE + 'note en "Open-ended."\n', "note en: 'en' is not a language a note is translated into"),
    ],
)
def test_a_french_note_must_follow_its_english_once(tmp_path, notes, said):
    done = run_cli("rules", "check", str(_with_note(tmp_path, notes)))
    assert done.returncode == 2
    assert said in done.stderr, done.stderr
