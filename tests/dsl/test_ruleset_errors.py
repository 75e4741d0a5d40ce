"""Every error of `rules check`, each with a fixture file and its exact message (as poetry-core tests
its grammar errors): syntax errors point at line and column with a caret, meaning errors at the
place that is wrong."""

from __future__ import annotations

import pytest
from conftest import FIXTURES

RULESETS = FIXTURES / "rulesets"

CASES = {
    "syntax-missing-brace.rules": (
        "syntax-missing-brace.rules:10:35: syntax error: unexpected end of file; expected"
    ),
    "syntax-bad-operator.rules": "syntax-bad-operator.rules:10:34: syntax error: unexpected '='",
    "unknown-parameter.rules": "unknown-parameter.rules:6:1: unknown parameter 'shoe.deks'; did you mean 'shoe.decks'?",
    "duplicate-rule.rules": "duplicate-rule.rules:12:1: duplicate rule id 'xx/broken/six-decks' (first on line 6)",
    "option-without-ref.rules": "option-without-ref.rules:6:1: option 'surrender' has no legal reference: add ref \"…\"",
    "bad-date-range.rules": (
        "bad-date-range.rules:5:1: bad date range: in force until 2019-12-31 before it starts on 2020-01-01"
    ),
    "impossible-date.rules": "impossible-date.rules:5:15: 2020-02-30 is not a date of the calendar",
    "unknown-fact.rules": "unknown-fact.rules:10:28: dealer.totl: 'dealer' has no fact 'totl'; did you mean 'total'?",
    "fact-not-offered.rules": (
        "fact-not-offered.rules:10:21: hand.total: event 'shoe' offers no 'hand' (it offers table, param, house, shoe)"
    ),
    "unknown-event.rules": "unknown-event.rules:10:5: unknown event 'dealer_drew'; did you mean 'dealer_draw'?",
    "undeclared-option.rules": (
        "undeclared-option.rules:11:26: house.surender: no such house option in this ruleset; did you mean 'surrender'?"
    ),
    "parameter-wrong-type.rules": "parameter-wrong-type.rules:6:24: parameter 'shoe.decks' must be a whole number, not 3:2",
    "parameter-not-set.rules": "parameter-not-set.rules:10:35: param.shoe.decks: not set in this ruleset",
    "unread-parameter.rules": (
        "unread-parameter.rules:8:1: parameter 'shoe.burn' is read by no rule of this version and by no game "
        "mechanics: a rule must apply it (param.shoe.burn), or it goes (what the text says lives in the rule "
        "that states it)"
    ),
    "fact-not-reachable.rules": (
        "fact-not-reachable.rules:11:20: round.live_hands is set only at event 'dealer_stand', a settle clause "
        "of a main, insurance or war stake: event 'hit' never provides it"
    ),
    "rule-without-ref.rules": "rule-without-ref.rules:6:1: rule 'xx/broken/six-decks' has no ref",
    "missing-header.rules": "missing-header.rules:1:9: the ruleset does not say its 'source'",
    # The vocabulary is scoped by game (each game's package declares the events and facts only its rounds
    # give, validator/games/*/__init__.py): a blackjack round never goes to war, nor ties as bataille does.
    "foreign-event.rules": (
        "foreign-event.rules:10:5: event 'war' is a bataille event: a blackjack round never gives it"
    ),
    "foreign-fact.rules": (
        "foreign-fact.rules:10:22: box.bataille_tie is a bataille fact: a blackjack round never sets it"
    ),
    "foreign-fact-bataille.rules": (
        "foreign-fact-bataille.rules:10:20: hand.soft is a blackjack fact: a bataille round never sets it"
    ),
    "unknown-game.rules": "unknown-game.rules:4:1: unknown game 'baccarat': choose one of blackjack, bataille",
    "default-not-allowed.rules": (
        "default-not-allowed.rules:6:49: option 'min_boxes_single_player': default 3 is not an allowed value"
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rules_check_reports_the_error_at_its_place(cli, name):
    result = cli("rules", "check", str(RULESETS / name))
    assert result.returncode == 2
    first_line = result.stderr.splitlines()[0]
    assert first_line.startswith(str(RULESETS / CASES[name].split(":")[0]) + ":")
    assert (
        first_line.endswith(CASES[name].split(".rules", 1)[1])
        or CASES[name].split(".rules", 1)[1] in first_line
    )


def test_syntax_error_shows_the_line_and_a_caret(cli):
    result = cli("rules", "check", str(RULESETS / "syntax-bad-operator.rules"))
    lines = result.stderr.splitlines()
    assert lines[1] == "        on shoe require shoe.decks === 6"
    assert lines[2] == " " * 37 + "^"


def test_a_valid_file_passes(cli):
    result = cli("rules", "check", str(RULESETS / "valid-minimal.rules"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("ok — xx/minimal@2020-01-01, 1 rules")


def test_overlapping_versions_of_one_family_are_an_error(cli):
    result = cli("rules", "check", str(RULESETS / "overlap-a.rules"), str(RULESETS / "overlap-b.rules"))
    assert result.returncode == 2
    assert "overlap-b.rules:1:1: xx/overlap: the version in force from 2020-06-01 overlaps" in result.stderr


def test_every_error_of_a_file_is_reported_not_only_the_first(tmp_path, cli):
    bad = tmp_path / "two.rules"
    bad.write_text(
        (RULESETS / "unknown-parameter.rules").read_text(encoding="utf-8")
        + "option surrender: bool = false\n",
        encoding="utf-8",
    )
    result = cli("rules", "check", str(bad))
    assert result.returncode == 2
    assert [line.split(": ", 1)[0] for line in result.stderr.splitlines()] == [f"{bad}:6:1", f"{bad}:7:1"]


def test_a_missing_file_is_exit_2(cli):
    result = cli("rules", "check", "no/such.rules")
    assert result.returncode == 2
    assert "no/such.rules: no such file or directory" in result.stderr


def test_a_file_named_twice_is_checked_once(cli):
    valid = RULESETS / "valid-minimal.rules"
    result = cli("rules", "check", str(valid), str(valid), str(RULESETS / "." / "valid-minimal.rules"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{valid}: ok — xx/minimal@2020-01-01, 1 rules\n"


def test_two_undated_versions_overlap_without_a_none_date(tmp_path, cli):
    text = (RULESETS / "valid-minimal.rules").read_text(encoding="utf-8")
    undated = text.replace("in force from 2020-01-01 until 2020-12-31", "in force undated")
    assert undated != text
    (tmp_path / "a.rules").write_text(undated, encoding="utf-8")
    (tmp_path / "b.rules").write_text(undated, encoding="utf-8")
    result = cli("rules", "check", str(tmp_path / "a.rules"), str(tmp_path / "b.rules"))
    assert result.returncode == 2
    assert result.stderr == (
        f"{tmp_path / 'b.rules'}:1:1: xx/minimal: the undated version, which applies to every date, "
        f"overlaps the one of {tmp_path / 'a.rules'}, undated (applies to every date)\n"
    )


def test_a_folder_without_rules_files_is_exit_2(tmp_path, cli):
    (tmp_path / "notes.txt").write_text("no rules here\n", encoding="utf-8")
    (tmp_path / "sub.rules").mkdir()  # a folder, not a ruleset file
    result = cli("rules", "check", str(tmp_path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"casino-validator: {tmp_path}: no ruleset file (*.rules) in this folder\n"


def test_a_byte_order_mark_at_the_start_is_accepted(tmp_path, cli):
    bom = tmp_path / "bom.rules"
    bom.write_bytes(b"\xef\xbb\xbf" + (RULESETS / "valid-minimal.rules").read_bytes())
    result = cli("rules", "check", str(bom))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{bom}: ok — xx/minimal@2020-01-01, 1 rules\n"


@pytest.mark.parametrize(
    "name",
    [
        "unread-parameter.rules",
        "fact-not-reachable.rules",
        "foreign-event.rules",
        "foreign-fact.rules",
        "foreign-fact-bataille.rules",
        "unknown-game.rules",
    ],
)
def test_the_whole_message_names_the_file_the_line_and_the_name(cli, name):
    result = cli("rules", "check", str(RULESETS / name))
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == f"{RULESETS}/{CASES[name]}"
