"""Messages show receivers of cards and side bets in words (vocabulary.SHOWN_AS), never their codes."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from conftest import FIXTURES, run_cli

from validator.dsl.messages import receiver_words, shown, side_bet_words


@pytest.mark.parametrize(
    ("code", "words"),
    [("D", "the dealer"), ("dealer", "the dealer"), ("3", "box 3"), ("3/2", "box 3, hand 2"), ("x", "x")],
)
def test_a_receiver_in_words(code, words):
    assert receiver_words(code) == words


def test_a_side_bet_by_its_title_else_its_name_in_words():
    titles = {"lucky_ladies": "Dames de cœur", "jp1": "JP1 jackpot"}
    assert side_bet_words("lucky_ladies", titles) == "dames de cœur"
    assert side_bet_words("jp1", titles) == "JP1 jackpot"  # an acronym keeps its capitals
    assert side_bet_words("two_plus_one", {}) == "two plus one"
    assert shown("bet.side", "lucky_ladies", titles) == "dames de cœur"
    assert shown("hand.total", 17, titles) is None  # shown as its value


def test_no_rule_fixture_message_shows_a_code():
    # Every fixture log in one run (539 logs: one run each took most of this test's time): each file is
    # replayed on its own all the same, and the messages are those of one run per log, in the same order.
    logs = sorted(Path(FIXTURES / "rules").rglob("*.jsonl"))
    result = run_cli("check", *map(str, logs), "-f", "jsonl", "--fail-level", "warning")
    assert result.returncode == 1, result.stderr  # findings, and no file refused
    found = [orjson.loads(line)["message"] for line in result.stdout.splitlines() if line.strip()]
    assert len(found) > 200
    codes = re.compile(r"\bto D\b|\(D\)|\b[a-z]+_[a-z_]+ bet\b|belonged to \d")
    assert [m for m in found if codes.search(m)] == []
    assert any(m == "Card dealt to the dealer out of order: the next card belonged to box 3." for m in found)
