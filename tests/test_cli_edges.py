"""The command line's edges (issue 13, point 5): help that reads cleanly, -h, --format as a choice,
`rules test` from any folder, simulate's start day and default limits, progress with a total and an
ETA on a clock that starts with the run."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from validator.checking import progress
from validator.cli import Format, app
from validator.findings.finding import RoundOutcome
from validator.formats import REPORTERS

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = [
    [],
    ["check"],
    ["lint"],
    ["explain"],
    ["simulate"],
    ["schema"],
    ["rules"],
    ["rules", "show"],
    ["rules", "test"],
    ["rules", "check"],
    ["rules", "diff"],
]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args), terminal_width=100)
    return result.exit_code, result.output


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "top")
def test_help_is_clean_and_h_works(command: list[str]) -> None:
    status, text = invoke(*command, "-h")
    assert status == 0
    assert text == invoke(*command, "--help")[1]
    assert "<" not in text.replace("<stdin>", "") and "{" not in text, text
    assert "list[" not in text and "╭" not in text
    assert text.startswith("Usage: ")
    if "Commands:" in text:  # no command's summary is cut short with an ellipsis
        commands = text.split("Commands:")[1].splitlines()
        assert not [line for line in commands if line.endswith("...")], text


def test_usage_lines_name_the_arguments() -> None:
    assert invoke("check", "-h")[1].splitlines()[0].endswith("check [OPTIONS] LOG...")
    assert invoke("lint", "-h")[1].splitlines()[0].endswith("lint [OPTIONS] HOUSE.yaml...")
    assert invoke("rules", "test", "-h")[1].splitlines()[0].endswith("test [OPTIONS] [DIR]")


def test_format_is_a_choice_listing_the_formats() -> None:
    assert [f.value for f in Format] == list(REPORTERS)
    assert "--format [text|jsonl|json|sarif|junit|github|gitlab|html]" in invoke("check", "-h")[1]
    status, text = invoke("check", "x.jsonl", "--format", "xml")
    assert status == 2
    assert "xml" in text and "sarif" in text


def test_rules_test_finds_the_project_fixtures_from_another_folder(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-P", "-m", "validator", "rules", "test", "does-not-matter-here"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2  # a folder that is not there is named, not guessed
    # From a folder outside the project, the fixtures beside the package of a checkout (as PYTHONPATH
    # or an editable install imports it; a wheel installed from PyPI has none beside it).
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; "
            "from validator.checking.fixtures import default_fixture_dir; "
            "print(default_fixture_dir(Path(sys.argv[1])))",
            str(tmp_path),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.stdout.strip() == str(ROOT / "tests" / "fixtures" / "rules"), found.stderr


def test_rules_test_says_what_to_pass_when_there_are_no_fixtures(monkeypatch, tmp_path: Path) -> None:
    import validator.checking.fixtures as fixtures

    monkeypatch.setattr(fixtures, "FIXTURES", Path("no") / "such" / "fixtures")
    monkeypatch.chdir(tmp_path)
    status, text = invoke("rules", "test")
    assert status == 2
    assert "pass the folder, as in `casino-validator rules test DIR`" in text


def first_records(*args: str) -> list[dict]:
    status, text = invoke("simulate", *args, "--rounds", "2", "-q")
    assert status == 0, text
    return [json.loads(line) for line in text.splitlines()]


def test_simulate_starts_the_seance_on_the_pinned_date() -> None:
    table, shoe, *rounds = first_records("--ruleset", "fr/blackjack@2021-03-04")
    assert table["at"].startswith("2021-03-04T") and shoe["at"].startswith("2021-03-04T")
    assert all(r["at"].startswith("2021-03-04T") for r in rounds if r["type"] == "round")
    table = first_records("--ruleset", "fr/blackjack")[0]
    assert table["at"].startswith("2024-11-01T")  # the version's first day when no date is pinned


def test_simulate_takes_the_limits_the_version_allows() -> None:
    # The Ontario licence, section 1: « La mise maximale est de cinq dollars (5 $). La mise minimale
    # est de un dollar (1 $) »: with no limits given, the table opens at 1 to 5.
    table = first_records("--ruleset", "on/fair-blackjack")[0]
    assert (table["minimum"], table["maximum"]) == (1, 5)
    table = first_records("--ruleset", "fr/blackjack@2025-01-01")[0]
    assert (table["minimum"], table["maximum"]) == (10, 1000)


def test_progress_text_has_the_total_and_an_eta() -> None:
    text = progress.describe(12_000, 2, 4.0, done=3_000_000, total=12_000_000)
    assert text == (
        "12,000 rounds · 3,000 rounds/s · 2 file(s) · 3.0 MB of 12.0 MB (25 %) · 0:04 elapsed, ETA 0:12"
    )
    assert progress.describe(10, 1, 2.0) == "10 rounds · 5 rounds/s · 1 file(s) · 0:02 elapsed"


def _shown(monkeypatch, run) -> str:
    monkeypatch.setattr(progress, "DELAY", 0.0)
    master, slave = pty.openpty()
    terminal = os.fdopen(slave, "w")
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("COLUMNS", "200")
    try:
        run()
        terminal.flush()
        os.set_blocking(master, False)
        chunks = []
        try:
            while chunk := os.read(master, 65536):
                chunks.append(chunk)
        except BlockingIOError:
            pass
        return b"".join(chunks).decode("utf-8", "replace")
    finally:
        terminal.close()
        os.close(master)


def test_progress_clock_starts_with_the_run(monkeypatch) -> None:
    outcomes = (RoundOutcome("a.jsonl", n, f"r{n}", (), "clean") for n in range(1, 1001))
    # The progress line's clock stands still at 1,000 s: the command began 62 s before (the planner of
    # --jobs, say), whatever the machine's load does to the wall clock while the test runs.
    monkeypatch.setattr(progress.time, "monotonic", lambda: 1000.0)
    started = 1000.0 - 62
    shown = _shown(
        monkeypatch,
        lambda: list(
            progress.with_progress(outcomes, enabled=True, started=started, total=1000, position=lambda: 250)
        ),
    )
    assert "1:02 elapsed, ETA 3:0" in shown and "(25 %)" in shown


def test_simulate_progress_counts_rounds_of_the_total(monkeypatch) -> None:
    records = [{"type": "table"}] + [{"type": "round"}] * 400
    shown = _shown(
        monkeypatch,
        lambda: list(
            progress.with_count(
                records,
                total=400,
                counts=lambda r: r["type"] == "round",
                enabled=True,
                started=time.monotonic(),
            )
        ),
    )
    assert "400 of 400 rounds (100 %)" in shown and "ETA 0:00" in shown


def test_lint_speaks_of_files_tables_and_findings() -> None:
    import xml.etree.ElementTree as ET

    files = [str(ROOT / "samples/house/mistakes.yaml"), str(ROOT / "samples/house/trouville.yaml")]
    status, text = invoke("lint", *files, "--date", "2025-06-24", "--format", "junit")
    assert status == 1
    suite = ET.fromstring(text.split("\n", 1)[1]).find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    # mistakes.yaml has 4 table entries, trouville.yaml 5: one test case each, clean ones included.
    assert len(cases) == 9
    assert {c.get("name") for c in cases} >= {"tables.BJ-11", "tables.BJ-03", "tables.BA-01"}
    assert sum(1 for c in cases if c.find("failure") is not None) == 4
    _, text = invoke("lint", *files, "--date", "2025-06-24", "--format", "json")
    summary = json.loads(text)["summary"]
    assert summary["tables"] == {"checked": 9, "clean": 5, "with_findings": 4}
    assert "rounds" not in summary and "money" not in summary
    _, text = invoke("lint", *files, "--date", "2025-06-24")
    assert "  tables:      9 (4 with findings)" in text and "round" not in text.split("summary")[1]


def test_rules_show_one_rule_with_its_reference_docs_and_versions() -> None:
    status, text = invoke("rules", "show", "fr/blackjack/dealer-stands-17")
    assert status == 0
    lines = text.splitlines()
    assert lines[0] == "fr/blackjack/dealer-stands-17 (procedure, error)"
    assert lines[1] == "  ref: Arrêté du 14 mai 2007, art. 55-4, 1°"
    assert any(line.startswith("  why: « S'il a 17 points ou plus") for line in lines)
    versions = [line.split()[0] for line in lines if line.startswith("    fr/blackjack@")]
    assert versions == [
        "fr/blackjack@2013-12-15",
        "fr/blackjack@2019-08-12",
        "fr/blackjack@2020-05-25",
        "fr/blackjack@2024-11-01",
    ]
    status, text = invoke("rules", "show", "house/unknown-key")
    assert status == 0 and "checks: Every key of a table entry is one the ruleset declares." in text
    assert invoke("rules", "show", "fr/blackjack/no-such-rule")[0] == 2
