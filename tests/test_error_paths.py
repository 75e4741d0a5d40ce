"""The error paths of issue 28 (item 5): each gives one actionable line, exit 2 where the run cannot be
made, with did-you-mean wherever a name is looked up; skipped files are counted and named. Each is run
through the command (in this process: tests/inprocess.py) and its status and message asserted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import SAMPLES
from inprocess import invoke

CLEAN = SAMPLES / "logs" / "clean"
BJ = CLEAN / "BJ-03-2016-06-10.jsonl"  # fr/blackjack, 160 rounds, clean (samples/README.md)


def test_a_pinned_version_not_in_force_stops_check_in_one_line() -> None:
    # fr/blackjack's first wording is in force from 2013-12-15 (rulesets/fr/blackjack/2013-12-15.rules).
    ran = invoke("check", "--ruleset", "fr/blackjack@2010-01-01", str(CLEAN), "-q")
    assert ran.code == 2
    assert ran.stdout == ""
    (line,) = ran.stderr.splitlines()
    assert line.startswith("casino-validator: fr/blackjack has no version in force on 2010-01-01")
    # It names the versions there are and their dates.
    for version in ("2013-12-15", "2019-08-12", "2020-05-25", "2024-11-01"):
        assert f"fr/blackjack@{version} from {version}" in line


def test_a_latin1_log_gives_one_finding_with_the_way_to_re_encode_it(tmp_path: Path) -> None:
    # The sample's table record names "Casino de démonstration": in Latin-1, é is the byte 0xe9.
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(BJ.read_text(encoding="utf-8").encode("latin-1"))
    ran = invoke("check", str(latin), "-f", "json", "-q")
    assert ran.code == 1
    report = json.loads(ran.stdout)
    (finding,) = report["findings"]
    assert finding["rule"] == "hand-log/invalid-utf8"
    assert finding["line"] == 1
    assert "byte 0xe9" in finding["message"]
    assert f"iconv -f latin1 -t utf-8 {latin} > {latin}.utf8" in finding["message"]
    # The rounds after it keep their table: all 160 replayed and clean, no hand-log/no-table flood.
    assert report["summary"]["rounds"]["clean"] == 160


def test_rules_show_a_mistyped_rule_gets_the_closest_ids() -> None:
    ran = invoke("rules", "show", "dealer-stand-17")
    assert ran.code == 2
    (line,) = ran.stderr.splitlines()
    assert "did you mean fr/blackjack/dealer-stands-17" in line
    assert "`rules list --ids`" in line


def test_rules_show_rule_at_a_date_shows_the_wording_in_force_that_day() -> None:
    ran = invoke("rules", "show", "fr/blackjack/dealer-stands-17@2016-06-10")
    assert ran.code == 0
    versions = ran.stdout.split("versions:")[1]
    # 2016-06-10 falls in the 2013 wording alone (rulesets/fr/blackjack/2013-12-15.rules).
    assert "fr/blackjack@2013-12-15" in versions
    assert "fr/blackjack@2024-11-01" not in versions
    before = invoke("rules", "show", "fr/blackjack/dealer-stands-17@2010-01-01")
    assert before.code == 2
    assert "no version in force on 2010-01-01" in before.stderr


def test_an_unknown_select_id_points_to_the_command_that_lists_rule_ids() -> None:
    ran = invoke("check", str(BJ), "--select", "dealer-stand-17", "-q")
    assert ran.code == 2
    (line,) = ran.stderr.splitlines()
    assert "did you mean fr/blackjack/dealer-stands-17" in line
    assert "`rules list --ids`" in line
    ids = invoke("rules", "list", "--ids")
    assert ids.code == 0
    assert "fr/blackjack/dealer-stands-17" in ids.stdout.splitlines()
    assert "hand-log/invalid-utf8" in ids.stdout.splitlines()


def test_an_unknown_format_is_one_line_listing_the_formats() -> None:
    ran = invoke("check", str(BJ), "--format", "xml")
    assert ran.code == 2
    assert ran.stderr.splitlines() == [
        "casino-validator: --format xml: choose one of text, jsonl, json, sarif, junit, github, gitlab, html"
    ]


def test_files_of_a_folder_that_are_not_logs_are_counted_and_named(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    shutil.copy(BJ, folder / "BJ-03.JSONL")  # upper case: read like any log
    (folder / "export.json").write_text("{}")
    (folder / "server.log").write_text("started\n")
    (folder / ".DS_Store").write_bytes(b"\0")  # hidden: not a file anybody meant as a log
    ran = invoke("check", str(folder), "-f", "json", "-q")
    assert ran.code == 0
    summary = json.loads(ran.stdout)["summary"]
    assert summary["files"] == 1 and summary["rounds"]["clean"] == 160
    assert (
        f"2 files in the folders given not read (not *.jsonl or *.jsonl.gz): "
        f"{folder / 'export.json'}, {folder / 'server.log'}"
    ) in summary["notes"]
