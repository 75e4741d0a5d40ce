"""Issue 15, "Measured": house-rules files that gave tracebacks through `lint` and `check --house`. Each
is now `FILE:LINE:COL: message` and exit 2, at the value's own place."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from inprocess import invoke

HEAD = "format: house-rules/1\ntables:\n  BJ-03:\n    ruleset: fr/blackjack\n    minimum: 10\n"
CLEAN_LOG = SAMPLES / "logs" / "clean" / "BJ-03-2016-06-10.jsonl"


@pytest.mark.parametrize(
    ("value", "message"),
    [
        # PyYAML's own conversions raised ValueError, KeyError, AttributeError outside the handling.
        ("2025-13-45", "'2025-13-45' is not a valid date or time"),
        ("!!float abc", "'abc' is not a valid number"),
        ("!!int abc", "'abc' is not a valid whole number"),
        ("!!bool maybe", "'maybe' is not a valid boolean"),
        ("!!timestamp nope", "'nope' is not a valid date or time"),
        # Over Python's 4,300-digit int-to-string limit: in decimal, hexadecimal, YAML 1.1's base 60.
        ("9" * 5000, "is not a valid whole number"),
        ("0x" + "f" * 5000, "a number over 100 digits"),
        (":".join(["59"] * 3000), "a number over 100 digits"),
    ],
)
def test_a_value_yaml_cannot_convert_is_refused_at_its_place(tmp_path, value, message):
    house = tmp_path / "house.yaml"
    house.write_text(HEAD + f"    maximum: {value}\n", encoding="utf-8")
    for args in (
        ["lint", str(house), "--date", "2025-03-14"],
        ["check", str(CLEAN_LOG), "--house", str(house)],
    ):
        ran = invoke(*args)
        assert ran.code == 2, ran.stderr
        assert f"{house}:6:14: " in ran.stderr
        assert message in ran.stderr
        assert len(ran.stderr) < 400  # a 5,000-digit value is not echoed whole


def test_a_control_character_is_refused_with_its_line_and_column(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(HEAD + "    maximum: 1\x010\n", encoding="utf-8")
    ran = invoke("lint", str(house))
    assert ran.code == 2
    assert f"{house}:6:15: YAML: the control character U+0001 is not allowed" in ran.stderr


def test_the_other_files_are_still_linted(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + "    maximum: !!int abc\n", encoding="utf-8")
    good = SAMPLES / "house" / "trouville.yaml"
    ran = invoke("lint", str(bad), str(good), "--date", "2025-03-14", "-f", "json")
    assert ran.code == 2
    assert f"{bad}:6:14: YAML: 'abc' is not a valid whole number" in ran.stderr
    assert '"files": 1' in ran.stdout  # trouville.yaml was linted


def test_a_number_of_sixty_digits_is_still_read(tmp_path):
    # The bound (100 digits) is far above any amount; the linter's own findings still apply under it.
    house = tmp_path / "house.yaml"
    house.write_text(HEAD + f"    maximum: {'1' * 60}\n", encoding="utf-8")
    ran = invoke("lint", str(house), "--date", "2025-03-14")
    assert ran.code == 1, ran.stderr
