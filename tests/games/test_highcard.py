"""A game registered from outside the package (tests/games/highcard, a minimal banking card game with a
two-rule ruleset) is checked, simulated and linted with no file of `validator/` changed: it registers as
a distribution does, through the entry point group `casino_validator.games`.

Each command runs in a process of its own (the registries are derived once, when the package is first
imported), with the game's folder and a distribution's metadata naming its entry point on PYTHONPATH:
what `pip install` of a package declaring `[project.entry-points."casino_validator.games"]` leaves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parent
HIGHCARD = GAMES / "highcard"
RULES = HIGHCARD / "rules"
LOG = HIGHCARD / "seance.jsonl"
HOUSE = HIGHCARD / "house.yaml"


@pytest.fixture(scope="module")
def plugged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a Python where the high card distribution is installed: its package importable,
    its metadata (`*.dist-info/entry_points.txt`) naming `highcard = highcard:GAME` in the group."""
    site = tmp_path_factory.mktemp("site")
    info = site / "casino_validator_highcard-0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: casino-validator-highcard\nVersion: 0.0\n")
    (info / "entry_points.txt").write_text("[casino_validator.games]\nhighcard = highcard:GAME\n")
    path = os.pathsep.join([str(GAMES), str(site)])
    return {**os.environ, "PYTHONPATH": path, "CASINO_VALIDATOR_LANG": "en"}


def _run(env: dict[str, str], *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "validator", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        check=False,
    )


def test_the_game_registers_through_its_entry_point(plugged):
    shown = subprocess.run(
        [sys.executable, "-P", "-c", "from validator.games import GAMES; print(' '.join(GAMES))"],
        capture_output=True,
        text=True,
        env=plugged,
        check=True,
    )
    assert shown.stdout.split() == ["blackjack", "bataille", "highcard"]


def test_without_its_distribution_the_game_is_unknown_where_the_ruleset_names_it():
    ran = _run(
        {**os.environ, "CASINO_VALIDATOR_LANG": "en"},
        "check",
        "-q",
        "--no-config",
        "--rules",
        str(RULES),
        str(LOG),
    )
    assert ran.returncode == 2
    assert "highcard.rules:8:1: unknown game 'highcard': choose one of blackjack, bataille" in ran.stderr


def test_check_finds_the_wrong_settlements_and_leaves_the_clean_round(plugged):
    """The séance (seance.jsonl), by hand, ace high, even money, a tie a push:
    round 1: box 1 K (13) against the dealer's 9 wins 20 on 20, paid 20; box 3 7 against 9 loses,
    collected: clean. Round 2: box 5 Q (12) against 7 wins 30 on 30, the log pays 15 (higher-card-wins);
    box 2 7 against 7 pushes, returned. Round 3: box 4 A against A ties, the log collects the 50
    (tie-pushes). Underpaid to the players: 15 + 50 = 65."""
    ran = _run(plugged, "check", "-q", "--no-config", "--format", "json", "--rules", str(RULES), str(LOG))
    assert ran.returncode == 1, ran.stderr
    report = json.loads(ran.stdout)
    found = [(f["rule"], f["round"], f["stake"], f["expected"], f["actual"]) for f in report["findings"]]
    assert found == [
        ("zz/highcard/higher-card-wins", "HC-01/2025-03-01/1/2", "5", {"pay": "30"}, {"pay": "15"}),
        ("zz/highcard/tie-pushes", "HC-01/2025-03-01/1/3", "4", {"push": "50"}, {"lose": "50"}),
    ]
    assert report["summary"]["rounds"]["clean"] == 1
    assert report["summary"]["money"]["underpaid_to_players"] == "65"


def test_a_simulated_seance_checks_clean_and_every_planted_violation_is_found(plugged, tmp_path):
    clean = tmp_path / "clean.jsonl"
    rules = ("--rules", str(RULES), "--ruleset", "zz/highcard")
    made = _run(plugged, "simulate", "-q", *rules, "--rounds", "40", "--seed", "3", "-o", str(clean))
    assert made.returncode == 0, made.stderr
    checked = _run(
        plugged, "check", "-q", "--no-config", "--format", "json", "--rules", str(RULES), str(clean)
    )
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["findings"] == []
    planted = tmp_path / "planted.jsonl"
    both = "zz/highcard/higher-card-wins,zz/highcard/tie-pushes"
    made = _run(
        plugged,
        "simulate",
        "-q",
        *rules,
        "--rounds",
        "60",
        "--seed",
        "3",
        "--inject",
        both,
        "--rate",
        "0.3",
        "-o",
        str(planted),
    )
    assert made.returncode == 0, made.stderr
    truth = json.loads((tmp_path / "planted.planted.json").read_text(encoding="utf-8"))["planted"]
    assert {p["rule"] for p in truth} == set(both.split(","))
    checked = _run(
        plugged, "check", "-q", "--no-config", "--format", "json", "--rules", str(RULES), str(planted)
    )
    assert checked.returncode == 1
    found = [(f["rule"], f["round"], f["stake"]) for f in json.loads(checked.stdout)["findings"]]
    assert found == [(p["rule"], p["round"], p["stake"]) for p in truth]


def test_its_house_file_lints_clean_and_a_table_of_another_game_is_found(plugged, tmp_path):
    lint = ("lint", "--no-config", "--format", "json", "--date", "2025-06-24", "--rules", str(RULES))
    ran = _run(plugged, *lint, str(HOUSE))
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["findings"] == []
    other = tmp_path / "house.yaml"
    other.write_text(
        HOUSE.read_text(encoding="utf-8").replace("game: highcard", "game: bataille"), encoding="utf-8"
    )
    ran = _run(plugged, *lint, str(other))
    assert ran.returncode == 1
    assert [f["rule"] for f in json.loads(ran.stdout)["findings"]] == ["house/game-mismatch"]


def test_its_words_are_its_own_and_edge_says_it_has_no_mathematics(plugged, tmp_path):
    """hand.rank is bataille's and high card's: a blackjack ruleset that reads it is refused, naming both."""
    ran = _run(plugged, "edge", "--rules", str(RULES), "--ruleset", "zz/highcard")
    assert ran.returncode == 2
    assert "the game highcard declares no mathematics" in ran.stderr
    rules = (RULES / "highcard.rules").read_text(encoding="utf-8").replace("game highcard", "game blackjack")
    (tmp_path / "zz").mkdir()
    (tmp_path / "zz" / "highcard.rules").write_text(rules, encoding="utf-8")
    ran = _run(plugged, "rules", "list", "--rules", str(tmp_path / "zz"))
    assert ran.returncode == 2
    assert "hand.rank is a bataille or highcard fact: a blackjack round never sets it" in ran.stderr
