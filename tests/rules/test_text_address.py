"""Each ruleset names its source text's official address once (`address "https://…"`, or `address none
"why"` for a text that has none), an amended version inherits it, and the reports link each rule's
reference to it: SARIF's `helpUri`, the HTML report, `rules show` and `rules coverage` (issue 39)."""

from __future__ import annotations

import json
from pathlib import Path

from validator.checking.serial import rule_catalogue
from validator.findings.finding import RuleInfo
from validator.formats.sarif import _descriptor
from validator.rulebook.registry import default_registry

ELI = "https://www.legifrance.gouv.fr/eli/arrete/2007/5/14/INTD0754510A/jo/texte"
AGCO = "https://www.agco.ca/lottery-and-gaming/fairs-and-exhibitions-licensing-overview"


def test_each_shipped_version_names_its_texts_address():
    by_version = {r.version: r.address for r in default_registry().all()}
    for version, address in by_version.items():
        assert address is not None, f"{version} does not say where its text is published"
        if version.startswith(("fr/blackjack", "fr/bataille")):
            # The arrêté du 14 mai 2007 (NOR INTD0754510A, JORF n°114 of 17 May 2007): every wording.
            assert address.url == ELI
        elif version == "on/fair-blackjack":
            assert address.url == AGCO
        else:  # the popular description: no authority publishes it, and the ruleset says so
            assert version == "fr/usage-blackjack"
            assert address.url is None and address.reason and address.translations["fr"]
    # Named once: the amended versions inherit it from the 2013 wording, where it is written.
    text = Path("rulesets/fr/blackjack")
    named = [p.name for p in sorted(text.glob("*.rules")) if "\naddress " in p.read_text(encoding="utf-8")]
    assert named == ["2013-12-15.rules"]


def test_rules_show_and_coverage_give_the_address(cli):
    rule = cli("rules", "show", "fr/bataille/settlement-order").stdout.splitlines()
    assert rule[1] == "  ref: Arrêté du 14 mai 2007, bataille, al. 21"
    assert rule[2] == f"  the text: {ELI}"
    version = cli("rules", "show", "on/fair-blackjack").stdout
    assert f"  the text: {AGCO}\n" in version
    usage = cli("rules", "coverage", "fr/usage-blackjack").stdout.splitlines()
    assert usage[1].startswith("  the text: no official address (A popular description")


def test_sarif_links_each_rule_to_its_text():
    catalogue = rule_catalogue(default_registry())
    info = catalogue["fr/blackjack/dealer-stands-17"]
    assert info.url == ELI
    assert _descriptor(info, [])["helpUri"] == ELI
    assert catalogue["on/fair-blackjack/six-decks"].url == AGCO
    # No address, no helpUri: the popular description, the reader's own format rules.
    assert "helpUri" not in _descriptor(catalogue["fr/usage-blackjack/dealer-stands-17"], [])
    assert "helpUri" not in _descriptor(catalogue["hand-log/invalid-json"], [])
    assert "helpUri" not in _descriptor(RuleInfo("x/y", "ref", "error", "Checks."), [])


def test_the_reports_link_a_findings_reference_to_its_text(cli, tmp_path):
    log = "tests/fixtures/rules/fr/bataille/settlement-order/fails-box-1-before-box-3.jsonl"
    sarif = cli("check", log, "--format", "sarif", "--quiet")
    assert sarif.returncode == 1, sarif.stderr
    rules = json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"]: r.get("helpUri") for r in rules}["fr/bataille/settlement-order"] == ELI
    html = cli("check", log, "--format", "html", "--quiet")
    assert html.returncode == 1, html.stderr
    assert f'<a href="{ELI}">Arrêté du 14 mai 2007, bataille, al. 21</a>' in html.stdout
    assert f'<a class="text" href="{ELI}">' in html.stdout


HEADER = """ruleset zz/addressed
title "A text"
source "zz"
game blackjack
in force from 2020-01-01
note "A test text." note fr "Un texte d'essai."
"""


def test_an_address_is_a_web_address_or_says_why_there_is_none(cli, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text(HEADER + 'address "Légifrance"\n', encoding="utf-8")
    result = cli("rules", "check", str(bad))
    assert result.returncode == 2
    assert "address 'Légifrance' is not a web address" in result.stderr
    english = tmp_path / "english.rules"
    english.write_text(HEADER + 'address none "Published nowhere."\n', encoding="utf-8")
    result = cli("rules", "check", str(english))
    assert result.returncode == 2
    assert "english.rules:7:1: address none: the reason is in English only" in result.stderr
    twice = tmp_path / "twice.rules"
    twice.write_text(HEADER + 'address "https://a.example"\naddress "https://b.example"\n', encoding="utf-8")
    result = cli("rules", "check", str(twice))
    assert result.returncode == 2 and "'address' is given twice" in result.stderr


def test_an_amended_version_inherits_the_address_and_may_name_another(cli, tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(
        HEADER.replace("from 2020-01-01", "from 2020-01-01 until 2020-12-31")
        + 'address none "Published nowhere." fr "Publié nulle part."\n',
        encoding="utf-8",
    )
    later = tmp_path / "later.rules"
    amended = (
        'ruleset zz/addressed\namends zz/addressed@2020-01-01\ntitle "Later"\nsource "zz"\n'
        'in force from 2021-01-01\nnote "Later." note fr "Plus tard."\n'
    )
    later.write_text(amended, encoding="utf-8")
    result = cli("rules", "show", "zz/addressed@2021-01-01", "--rules", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "  the text: no official address (Published nowhere.)" in result.stdout
    # Its own (a folder of its own: the files a process has read are not read again).
    other = tmp_path / "other"
    other.mkdir()
    (other / "base.rules").write_text(base.read_text(encoding="utf-8"), encoding="utf-8")
    (other / "later.rules").write_text(amended + 'address "https://c.example"\n', encoding="utf-8")
    result = cli("rules", "show", "zz/addressed@2021-01-01", "--rules", str(other))
    assert "  the text: https://c.example" in result.stdout
