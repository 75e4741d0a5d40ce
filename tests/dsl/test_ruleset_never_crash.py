"""Issue 15, "Measured": rulesets that gave tracebacks through `rules check`. Each is now an error at its
FILE:LINE:COL and exit 2; and a message placeholder can name only the vocabulary."""

from __future__ import annotations

from decimal import Decimal

import pytest
from conftest import FIXTURES
from inprocess import invoke

MINIMAL = (FIXTURES / "rulesets" / "valid-minimal.rules").read_text(encoding="utf-8")
REQUIRE = "on shoe require shoe.decks == param.shoe.decks"


def _check(tmp_path, text: str):
    path = tmp_path / "x.rules"
    path.write_text(text, encoding="utf-8")
    return path, invoke("rules", "check", str(path))


@pytest.mark.parametrize(
    ("condition", "column", "message"),
    [
        ("shoe.decks == 1:0", 35, "the ratio 1:0 divides by zero: its second number must not be 0"),
        ("shoe.decks == 0:0", 35, "the ratio 0:0 divides by zero"),
        ("shoe.decks == " + "9" * 5000, 35, "a number has at most 30 digits"),
        ("shoe.decks == 1:" + "9" * 5000, 35, "a ratio's numbers have at most 30 digits"),
        ('"\\N{NOPE}" == "a"', 21, "bad escape in a string: unknown Unicode character name"),
        ('"\\x" == "a"', 21, "bad escape in a string: truncated \\xXX escape"),
        ('"\\u12" == "a"', 21, "bad escape in a string: truncated \\uXXXX escape"),
    ],
)
def test_a_value_that_cannot_be_read_is_an_error_at_its_place(tmp_path, condition, column, message):
    path, ran = _check(tmp_path, MINIMAL.replace(REQUIRE, f"on shoe require {condition}"))
    assert ran.code == 2
    assert ran.stderr.startswith(f"{path}:12:{column}: {message}")


@pytest.mark.parametrize(
    "condition",
    [
        " and ".join(["shoe.decks == 6"] * 3000),
        "shoe.decks == " + " + ".join(["1"] * 3000),
        "shoe.decks == " + " * ".join(["1"] * 3000),
        "not " * 3000 + "true",
    ],
)
def test_a_chain_thousands_long_is_an_error_not_a_recursion(tmp_path, condition):
    path, ran = _check(tmp_path, MINIMAL.replace(REQUIRE, f"on shoe require {condition}"))
    assert ran.code == 2
    assert ran.stderr.startswith(f"{path}:12:")
    assert "nests more than 100 levels deep" in ran.stderr
    assert len(ran.stderr) < 1000  # the 50,000-character line is shown around the place only


def test_a_parameter_ratio_dividing_by_zero_is_refused(tmp_path):
    text = MINIMAL + 'parameter pays.even = 1:0 ref "x"\n'
    path, ran = _check(tmp_path, text)
    assert ran.code == 2
    assert f"{path}:15:23: the ratio 1:0 divides by zero" in ran.stderr


@pytest.mark.parametrize(
    ("placeholder", "message"),
    [
        ("{hand.__class__.__init__.__globals__}", "'hand' has no fact '__class__.__init__.__globals__'"),
        ("{shoe.__class__}", "'shoe' has no fact '__class__'"),
        ("{shoe.decks.real}", "'shoe' has no fact 'decks.real'"),
        ("{hand.total}", "the rule's events offer no 'hand'"),
        ("{param.nope}", "{param.nope} is not a parameter of this ruleset"),
        ("{house.nope}", "{house.nope} is not a house option of this ruleset"),
        ("{nowhere.x}", "no namespace 'nowhere' in the vocabulary"),
    ],
)
def test_a_message_placeholder_outside_the_vocabulary_is_refused(tmp_path, placeholder, message):
    text = MINIMAL.replace(
        'message "Six decks, not {shoe.decks}."', f'message "Six decks, not {placeholder}."'
    )
    path, ran = _check(tmp_path, text)
    assert ran.code == 2, ran.stdout
    assert f"{path}:11:5: message: " in ran.stderr
    assert message in ran.stderr


def test_at_replay_a_placeholder_is_resolved_from_the_vocabulary_only():
    # Even a message that never went through `rules check` cannot reach an object's attributes.
    from validator.games.blackjack.hands import BlackjackBox, BlackjackHand
    from validator.replay.judge import _formatter

    hand = BlackjackHand("1", BlackjackBox(1), Decimal(10), split_counts=False)
    for card in ("TS", "7H"):
        hand.add(card)
    render = _formatter("total {hand.total}; {hand.__class__.__init__.__globals__}; {param.x}")
    text = render({"house": {}, "hand": hand}, {"x": 1})
    assert text == "total 17; {hand.__class__.__init__.__globals__}; 1"


@pytest.mark.parametrize("escape", ["\\N{NOPE}", "\\x", "\\u12"])
def test_a_bad_escape_in_a_declared_string_is_an_error_at_its_place(tmp_path, escape):
    """Strings outside conditions (a parameter's reference) are built from ast.py's declarations,
    which lark does not wrap in its VisitError: the fuzzer found the traceback."""
    text = MINIMAL + f'parameter pays.even = 1:1 ref "{escape}"\n'
    path, ran = _check(tmp_path, text)
    assert ran.code == 2
    assert ran.stderr.startswith(f"{path}:15:")
    assert "bad escape in a string" in ran.stderr
