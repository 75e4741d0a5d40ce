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


def test_the_help_headings_take_the_french_space_before_their_colon():
    """French typography puts a space before a colon (« Usage : », already so): click writes its
    section headings as `Options:` itself, so the French help read `Options:` under `Usage :`. Each
    heading of a group's help and a command's, in both languages."""
    group = run_cli("--lang", "fr", "rules", "-h").stdout.splitlines()
    command = run_cli("--lang", "fr", "check", "-h").stdout.splitlines()
    assert {"Options :", "Commandes :"} <= set(group) and {"Arguments :", "Options :"} <= set(command)
    assert not [line for line in group + command if re.fullmatch(r"\S.*[^ ]:", line)], group + command
    english = run_cli("rules", "-h").stdout.splitlines() + run_cli("check", "-h").stdout.splitlines()
    assert {"Options:", "Commands:", "Arguments:"} <= set(english)


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


# ---------------------------------------------------------------- issue 38, 5: French through and through

SIDE_BETS_LOG = SAMPLES / "logs" / "side-bets" / "errors-BJ-07-side-bets.jsonl"
LOGS = [
    str(DISPUTES_BJ),
    str(SAMPLES / "logs" / "disputes" / "BA-01-2025-02-01.jsonl"),
    str(SAMPLES / "logs" / "disputes" / "ON-01-2025-08-23.jsonl"),
    str(SIDE_BETS_LOG),
]
HOUSE = ["--house", str(SAMPLES / "house" / "trouville.yaml")]


def _page_text(path: Path) -> str:
    """An HTML page's text as a reader sees it: no style, no code (the DuckDB query), no link targets."""
    import html

    page = path.read_text(encoding="utf-8")
    page = re.sub(r"<style.*?</style>|<code[^>]*>.*?</code>", " ", page, flags=re.S)
    page = re.sub(r'href="[^"]*"', "", page)
    return html.unescape(re.sub(r"<[^>]+>", "\n", page))


def test_the_inspectors_commands_in_french_write_no_english_word(tmp_path):
    """check in every format, report to HTML and CSV, lint, rules show, explain and edge, with --lang fr:
    no word of the program's English that its French does not use (tests/english.py: ids, option and
    reading names, paths, JSON keys and one-word JSON values, the log's own actions and the rules
    language as written are left out first). The words the issue found are named in it."""
    from english import english_in, json_documents, prose_of, prose_of_json

    outputs: list[tuple[str, list[str]]] = []

    def text(name: str, done) -> None:
        assert done.returncode in (0, 1), (name, done.stderr)
        outputs.append((name, list(prose_of(done.stdout + done.stderr))))

    def documents(name: str, done) -> None:
        assert done.returncode in (0, 1), (name, done.stderr)
        lines = [line for doc in json_documents(done.stdout) for line in prose_of_json(doc)]
        outputs.append((name, lines + list(prose_of(done.stderr))))

    for fmt in ("text", "junit", "github"):
        text(f"check -f {fmt}", run_cli("--lang", "fr", "check", *LOGS, *HOUSE, "-q", "-f", fmt))
    for fmt in ("jsonl", "json", "sarif", "gitlab"):
        documents(f"check -f {fmt}", run_cli("--lang", "fr", "check", *LOGS, *HOUSE, "-q", "-f", fmt))
    page = tmp_path / "check.html"
    done = run_cli("--lang", "fr", "check", *LOGS, *HOUSE, "-q", "-f", "html", "-o", str(page))
    assert done.returncode == 1, done.stderr
    outputs.append(("check -f html", list(prose_of(_page_text(page)))))
    dataset, report, folder = tmp_path / "ds", tmp_path / "report.html", tmp_path / "csv"
    assert run_cli("--lang", "fr", "check", *LOGS, *HOUSE, "-q", "--dataset", str(dataset)).returncode == 1
    done = run_cli("--lang", "fr", "report", str(dataset), "-o", str(report), "--csv", str(folder))
    assert done.returncode == 0, done.stderr
    outputs.append(("report", list(prose_of(_page_text(report)))))
    for table in sorted(folder.glob("*.csv")):
        outputs.append(
            (f"report --csv {table.name}", list(prose_of(table.read_text("utf-8").replace(";", "  "))))
        )
    text("lint", run_cli("--lang", "fr", "lint", str(SAMPLES / "house" / "mistakes.yaml")))
    text("rules show version", run_cli("--lang", "fr", "rules", "show", "fr/blackjack@2025-03-14"))
    text("rules show rule", run_cli("--lang", "fr", "rules", "show", "fr/blackjack/lucky-ladies-paytable"))
    text(
        "explain",
        run_cli("--lang", "fr", "explain", str(SIDE_BETS_LOG), "--round", "BJ-07/2025-03-14/1/1", *HOUSE),
    )
    text("edge", run_cli("--lang", "fr", "edge", "--ruleset", "fr/bataille", "--options"))
    english = [(name, line, words) for name, lines in outputs for line, words in english_in(iter(lines))]
    assert english == []
    # The pieces the issue named, each in French now.
    html = _page_text(report)
    for word in ("procédure", "paiement", "erreur", "dames de cœur", "2 + 1 cartes"):
        assert word in html, word
    assert "sur case 3, assurance" in html  # the disputes' round 1/3: an insurance paid 1 for 1


def test_numbers_are_written_as_french_writes_them():
    """Babel's French patterns (CLDR): digits grouped by a narrow no-break space, a decimal comma, a
    no-break space before %; English as the program always wrote them."""
    from decimal import Decimal

    from validator import numbers

    i18n.use("fr")
    try:
        assert numbers.whole(39300) == "39\u202f300"
        assert numbers.percent(Decimal("0.0344")) == "3,44\u00a0%"
        assert numbers.percent(-0.15179, 2) == "-15,18\u00a0%"
        assert numbers.amount(Decimal("117240.5")) == "117\u202f240,5"
        assert numbers.amount(Decimal("-32732.50")) == "-32\u202f732,5"
        assert (
            numbers.localized("0.0536") == "0,0536" and numbers.localized("1000000") == "1\u202f000\u202f000"
        )
        assert (
            numbers.fixed(1.925, 2) == "1,93" or numbers.fixed(1.925, 2) == "1,92"
        )  # a float's own rounding
    finally:
        i18n.use("en")
    assert numbers.whole(39300) == "39,300" and numbers.whole(39300, sep="") == "39300"
    assert numbers.percent(Decimal("0.0344")) == "3.44 %"
    assert numbers.amount(Decimal("117240.5"), sep="\u202f") == "117\u202f240.5"


def test_an_english_run_loads_no_babel():
    """Babel writes French numbers only: an English check's start-up does not import it."""
    code = (
        "import sys; from validator.cli import main; sys.argv = ['casino-validator', 'check', "
        f"{str(CLEAN_BJ)!r}, '-q']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\nprint('babel' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip().splitlines()[-1] == "False", done.stderr
    code = code.replace("'check'", "'--lang', 'fr', 'check'")
    done = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr


def test_a_french_check_summary_writes_its_numbers_in_french(tmp_path):
    """A log of 1,200 rounds: 8 copies of the clean bataille séance (150 rounds, sample's own count),
    each copy's ids its own: « coups lus : 1 200 », grouped as French groups thousands."""
    bataille = (SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl").read_text(encoding="utf-8")
    log = tmp_path / "long.jsonl"
    log.write_text("".join(bataille.replace("BA-01/", f"BA-01-{n}/") for n in range(8)), encoding="utf-8")
    done = run_cli("--lang", "fr", "check", str(log), "-q", "--no-config")
    assert done.returncode == 0, done.stdout
    assert re.search(r"coups lus:\s+1\u202f200\n", done.stdout), done.stdout


def test_the_csv_follows_the_language_or_the_dialect_asked_for(tmp_path):
    """French: `;` between cells, decimal commas, French headings and words; English: the dataset's
    column names, `,` and `.`; --csv-dialect comma keeps French words with English separators.
    D-101 deals the disputes' 7 + 2 + 2 rounds of BJ-03, BA-01 and ON-01 (11); the house overpaid 160 there
    (a losing 50 paid 50: +100; a losing 30 paid 30: +60) and underpaid 55 (a blackjack of 10 paid 10,
    not 15: 5; an insurance of 10 paid 10, not 20: 10; a winning 20 collected: 40)."""
    import csv

    dataset = tmp_path / "ds"
    assert run_cli("check", *LOGS, *HOUSE, "-q", "--dataset", str(dataset)).returncode == 1
    french, english, mixed = tmp_path / "fr", tmp_path / "en", tmp_path / "mixed"
    assert (
        run_cli(
            "--lang", "fr", "report", str(dataset), "-o", str(tmp_path / "a.html"), "--csv", str(french)
        ).returncode
        == 0
    )
    assert (
        run_cli("report", str(dataset), "-o", str(tmp_path / "b.html"), "--csv", str(english)).returncode == 0
    )
    done = run_cli(
        "--lang",
        "fr",
        "report",
        str(dataset),
        "-o",
        str(tmp_path / "c.html"),
        "--csv",
        str(mixed),
        "--csv-dialect",
        "comma",
    )
    assert done.returncode == 0, done.stderr

    def rows(folder: Path, name: str, delimiter: str) -> list[dict[str, str]]:
        with (folder / f"{name}.csv").open(encoding="utf-8") as handle:
            return list(csv.DictReader(handle, delimiter=delimiter))

    fr_dealers = {r["croupier"]: r for r in rows(french, "money_by_dealer", ";")}
    assert fr_dealers["D-101"]["payé en trop"] == "160" and fr_dealers["D-101"]["payé en moins"] == "55"
    en_dealers = {r["dealer"]: r for r in rows(english, "money_by_dealer", ",")}
    assert en_dealers["D-101"]["overpaid"] == "160" and en_dealers["D-101"]["rounds"] == "11"
    kinds = rows(french, "findings_by_kind", ";")
    assert {r["nature"] for r in kinds} == {"procédure", "paiement"}
    holds = rows(french, "hold_by_table", ";")
    assert all("," in r["théorique"] and "." not in r["théorique"] for r in holds)
    assert {r["hors de la bande"] for r in holds} <= {"oui", "non"}
    assert {r["table"] for r in rows(mixed, "hold_by_table", ",")} == {r["table"] for r in holds}
    assert "." in rows(mixed, "hold_by_table", ",")[0]["théorique"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("check", "--nope"), "Erreur : Aucune option --nope"),
        (("report",), "Erreur : Argument 'DATASET...' manquant."),
        (("nocommand",), "Erreur : Aucune commande 'nocommand'."),
        (("rules", "shw"), "Erreur : Aucune commande 'shw'. Vouliez-vous dire 'show' ?"),
        (
            ("check", "--jobs", "x", "a"),
            "Erreur : Valeur invalide pour '--jobs' / '-j' : un nombre entier est attendu",
        ),
        (
            ("check", "--jobs", "0", "a"),
            "Erreur : Valeur invalide pour '--jobs' / '-j' : 1 ou plus est attendu",
        ),
        (("check", "a", "--house"), "Erreur : L'option '--house' demande une valeur."),
        (("check", "a", "--quiet=3"), "Erreur : L'option '--quiet' ne prend pas de valeur."),
    ],
)
def test_the_command_lines_own_errors_are_in_french(args, said):
    done = run_cli("--lang", "fr", *args)
    assert done.returncode == 2
    assert said in done.stderr, done.stderr
    assert "Error:" not in done.stderr and "Try '" not in done.stderr
    english = run_cli(*args)
    assert english.returncode == 2 and "Error: " in english.stderr


def test_a_why_joined_in_english_between_its_quotations_needs_its_french(tmp_path):
    """A `why` that is only the law's words needs no French; one whose words between its quotations are
    English (« … »; the dealer draws « … ») does (the ten rules the issue found read half in English)."""
    text = RULESET % '    message fr "Six jeux, non {shoe.decks}."'
    quoted = text.replace(
        '    checks "decks"', '    why "« six jeux » ; « de cinquante-deux cartes »."\n    checks "decks"'
    )
    path = tmp_path / "quoted.rules"
    path.write_text(quoted, encoding="utf-8")
    assert run_cli("rules", "check", str(path)).returncode == 0
    joined = text.replace(
        '    checks "decks"',
        '    why "« six jeux »; the dealer draws « de cinquante-deux cartes »."\n    checks "decks"',
    )
    path.write_text(joined, encoding="utf-8")
    done = run_cli("rules", "check", str(path))
    assert done.returncode == 2
    assert "has its why in English only" in done.stderr
