"""`casino-validator lint`: what it finds, where (dotted path and YAML line), and the files it cannot read.

Expected findings come from docs/house-rules.md, docs/findings.md and the articles the rulesets encode:
art. 55-4 (seven boxes, the options of 1°, 3° and 5°), art. 55-5 as in force from 2024-11-01 (maximum 50,
100 or 200 times the minimum).
"""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from house_helpers import lint, write_house, write_text

from validator.house.load import load_house

HEADER = "format: house-rules/1\ncasino: Casino de test\ntables:\n"
TODAY_2025 = ("--date", "2025-06-24")  # fr/blackjack@2024-11-01 in force


def by_path(findings):
    return {f["path"]: f for f in findings}


# ---------------------------------------------------------------- unknown keys, side bets, fixed keys


def test_unknown_option_names_the_closest_known_key(tmp_path):
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"surender": True}}})
    status, findings, _ = lint(house, *TODAY_2025)
    assert status == 1
    [finding] = findings
    assert finding["rule"] == "house/unknown-key"
    assert finding["path"] == "tables.BJ-03.options.surender"
    assert "did you mean surrender?" in finding["message"]


def test_unknown_side_bet_setting_and_side_bet_name_their_closest(tmp_path):
    house = write_house(
        tmp_path,
        {
            "BJ-03": {
                "ruleset": "fr/blackjack",
                "side_bets": {
                    "lucky_ladies": {"paytabel": "A"},
                    "lucky_ladys": {"minimum": 1},
                },
            }
        },
    )
    status, findings, _ = lint(house, *TODAY_2025)
    found = by_path(findings)
    assert status == 1 and len(findings) == 2
    assert found["tables.BJ-03.side_bets.lucky_ladies.paytabel"]["rule"] == "house/unknown-key"
    assert "did you mean paytable?" in found["tables.BJ-03.side_bets.lucky_ladies.paytabel"]["message"]
    assert found["tables.BJ-03.side_bets.lucky_ladys"]["rule"] == "house/unknown-side-bet"
    assert "did you mean lucky_ladies?" in found["tables.BJ-03.side_bets.lucky_ladys"]["message"]


def test_a_side_bet_the_version_does_not_have(tmp_path):
    # Hyper black jack is 6° of the wording applied from 2020-05-25; the 2013 wording has lucky ladies only.
    house = write_house(
        tmp_path,
        {"BJ-03": {"ruleset": "fr/blackjack@2016-06-10", "side_bets": {"hyper_blackjack": {"minimum": 1}}}},
    )
    status, [finding], _ = lint(house)
    assert status == 1
    assert (finding["rule"], finding["path"]) == (
        "house/unknown-side-bet",
        "tables.BJ-03.side_bets.hyper_blackjack",
    )
    assert "fr/blackjack@2013-12-15" in finding["message"]


def test_option_written_at_the_wrong_level_says_where_it_belongs(tmp_path):
    house = write_house(
        tmp_path,
        {
            "BJ-03": {
                "ruleset": "fr/blackjack",
                "surrender": True,
                "options": {"lucky_ladies.paytable": "B", "jp1": True},
            }
        },
    )
    status, findings, _ = lint(house, *TODAY_2025)
    found = by_path(findings)
    assert status == 1 and len(findings) == 3
    assert "tables.BJ-03.options.surrender" in found["tables.BJ-03.surrender"]["message"]
    assert (
        "tables.BJ-03.side_bets.lucky_ladies.paytable"
        in found["tables.BJ-03.options.lucky_ladies.paytable"]["message"]
    )
    assert "tables.BJ-03.side_bets.jp1" in found["tables.BJ-03.options.jp1"]["message"]
    assert {f["rule"] for f in findings} == {"house/unknown-key"}


def test_fixed_blackjack_payout_is_an_error_citing_the_article(tmp_path):
    house = write_house(
        tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"blackjack_pays": "6:5"}}}
    )
    status, [finding], _ = lint(house, *TODAY_2025)
    assert status == 1
    assert finding["rule"] == "house/fixed-by-regulation"
    assert finding["ref"] == "Arrêté du 14 mai 2007, art. 55-4, 1°, al. 7"
    assert "the regulation fixes blackjack_pays at 3:2" in finding["message"]
    assert (finding["expected"], finding["actual"]) == ({"blackjack_pays": "3:2"}, {"blackjack_pays": "6:5"})


def test_required_option_missing(tmp_path):
    # The description "as played in France" gives no blackjack payout: the house rules must.
    house = write_house(tmp_path, {"US-01": {"ruleset": "fr/usage-blackjack", "minimum": 5, "maximum": 500}})
    status, [finding], _ = lint(house)
    assert status == 1
    assert (finding["rule"], finding["path"]) == (
        "house/required-option",
        "tables.US-01.options.blackjack_pays",
    )
    assert finding["line"] == 4  # the table's line: the key is missing


def test_unknown_ruleset_and_game_mismatch(tmp_path):
    house = write_house(
        tmp_path,
        {
            "BJ-03": {"ruleset": "fr/blackjak"},
            "BA-01": {"ruleset": "fr/bataille", "game": "blackjack"},
        },
    )
    status, findings, _ = lint(house)
    found = by_path(findings)
    assert status == 1
    assert found["tables.BJ-03.ruleset"]["rule"] == "house/unknown-ruleset"
    assert "did you mean fr/blackjack?" in found["tables.BJ-03.ruleset"]["message"]
    assert found["tables.BA-01.game"]["rule"] == "house/game-mismatch"


def test_schema_findings_missing_ruleset_wrong_format_unknown_top_key(tmp_path):
    text = "format: house-rules/2\ncasino: X\ncasnio: Y\ntables:\n  BJ-03:\n    minimum: 10\n"
    status, findings, _ = lint(write_text(tmp_path, text))
    found = by_path(findings)
    assert status == 1
    assert found["format"]["rule"] == "house/schema" and found["format"]["line"] == 1
    assert (
        found["tables.BJ-03"]["rule"] == "house/schema"
        and "ruleset is required" in found["tables.BJ-03"]["message"]
    )
    assert (
        found["casnio"]["rule"] == "house/unknown-key"
        and "did you mean casino?" in found["casnio"]["message"]
    )


@pytest.mark.parametrize("digits", [28, 29, 30, 60])
def test_an_option_of_many_digits_is_not_allowed(tmp_path, digits):
    # Art. 55-4, 3°: 2 to 8 hands. 29 digits and more went past Decimal's precision: a traceback.
    value = int("1" * digits)
    house = write_house(
        tmp_path, {"BJ-07": {"ruleset": "fr/blackjack", "options": {"max_split_hands": value}}}
    )
    status, [finding], stderr = lint(house, *TODAY_2025)
    assert status == 1 and "Traceback" not in stderr
    assert (finding["rule"], finding["path"]) == (
        "house/option-not-allowed",
        "tables.BJ-07.options.max_split_hands",
    )
    assert finding["message"].endswith(f"{value} is not allowed: the regulation allows 2 to 8")


def test_missing_format_and_tables_is_one_finding(tmp_path):
    # jsonschema gives one `required` error per missing key; each used to become the same finding.
    status, findings, _ = lint(write_text(tmp_path, "casino: X\n"))
    assert status == 1
    assert [(f["rule"], f["line"], f["message"]) for f in findings] == [
        ("house/schema", 1, "format and tables are required here")
    ]


def test_a_file_named_twice_is_linted_once(tmp_path):
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"surender": True}}})
    result = run_cli(
        "lint", str(house), str(house), str(tmp_path / "." / house.name), "--format", "json", *TODAY_2025
    )
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert [f["path"] for f in document["findings"]] == ["tables.BJ-03.options.surender"]
    assert document["summary"]["files"] == 1


# ---------------------------------------------------------------- limits and seats: the ruleset's own rules


def test_maximum_not_a_multiple_of_the_minimum_from_2024_11_01(tmp_path):
    house = write_house(
        tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "minimum": 10, "maximum": 750, "seats": 7}}
    )
    status, [finding], _ = lint(house, "--date", "2024-11-01")
    assert status == 1
    assert finding["rule"] == "fr/blackjack/max-multiple-of-minimum"
    assert finding["ref"] == "Arrêté du 14 mai 2007, art. 55-5, al. 4"
    assert (finding["kind"], finding["path"], finding["line"]) == ("house", "tables.BJ-03.maximum", 7)
    # Art. 55-5's earlier wording is not encoded: the day before, no version has the rule.
    assert lint(house, "--date", "2024-10-31")[:2] == (0, [])


@pytest.mark.parametrize("maximum", [500, 1000, 2000])
def test_maximum_50_100_or_200_times_the_minimum_is_clean(tmp_path, maximum):
    house = write_house(
        tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "minimum": 10, "maximum": maximum, "seats": 7}}
    )
    assert lint(house, *TODAY_2025)[:2] == (0, [])


def test_limits_the_entry_leaves_out_are_not_judged(tmp_path):
    # No maximum: art. 55-5's multiple cannot be judged (none is not a limit), and the summary says so.
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "minimum": 10}})
    assert lint(house, *TODAY_2025)[:2] == (0, [])
    text = run_cli("lint", str(house), *TODAY_2025).stdout
    assert "tables.BJ-03 gives no maximum or seats" in text
    assert "fr/blackjack/max-multiple-of-minimum" in text and "not judged" in text


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("minimum", "1e400", '"1e400" is not a decimal number'),
        ("minimum", "-10", '"-10" is not a decimal number'),
        ("maximum", -1000, "-1000 is below 0"),
    ],
)
def test_a_refused_limit_is_not_judged_by_the_rules(tmp_path, key, value, words):
    # The schema refuses the value; art. 55-5's multiple must not then be judged with it (1e400 was read
    # as 10^400 and reported again as "not 50, 100 or 200 times the minimum").
    entry = {"ruleset": "fr/blackjack", "minimum": 10, "maximum": 1000, "seats": 7, key: value}
    house = write_house(tmp_path, {"BJ-03": entry})
    status, findings, _ = lint(house, *TODAY_2025)
    assert status == 1
    assert [(f["rule"], f["path"]) for f in findings] == [("house/schema", f"tables.BJ-03.{key}")]
    assert words in findings[0]["message"]
    text = run_cli("lint", str(house), *TODAY_2025).stdout
    assert f"tables.BJ-03 gives no valid {key}: fr/blackjack/max-multiple-of-minimum not judged" in text


@pytest.mark.parametrize(
    ("minimum", "maximum", "path", "expected", "actual"),
    [
        (
            10,
            100,
            "tables.ON-01.maximum",
            {"maximum main bet shown at the table": "5 or less"},
            {"maximum main bet shown at the table": "100"},
        ),
        (
            "0.50",
            5,
            "tables.ON-01.minimum",
            {"minimum main bet shown at the table": "1 or more"},
            {"minimum main bet shown at the table": "0.5"},
        ),
    ],
)
def test_ontario_limits_beyond_the_licence(tmp_path, minimum, maximum, path, expected, actual):
    # Section 1 of the licence: « La mise maximale est de cinq dollars (5 $). La mise minimale est de un
    # dollar (1 $) ». A table posting wider limits offers bets the licence forbids.
    house = write_house(
        tmp_path, {"ON-01": {"ruleset": "on/fair-blackjack", "minimum": minimum, "maximum": maximum}}
    )
    status, [finding], _ = lint(house)
    assert status == 1
    assert finding["rule"] == "on/fair-blackjack/table-limits-within-licence"
    assert (finding["path"], finding["expected"], finding["actual"]) == (path, expected, actual)


@pytest.mark.parametrize(("minimum", "maximum"), [(1, 5), (2, 5), (1, 3)])
def test_ontario_limits_within_the_licence_are_clean(tmp_path, minimum, maximum):
    house = write_house(
        tmp_path, {"ON-01": {"ruleset": "on/fair-blackjack", "minimum": minimum, "maximum": maximum}}
    )
    assert lint(house)[:2] == (0, [])


@pytest.mark.parametrize("ruleset", ["fr/blackjack@2016-06-10", "fr/blackjack@2025-06-24", "fr/bataille"])
def test_eight_seats_break_the_seven_box_rule(tmp_path, ruleset):
    house = write_house(tmp_path, {"T-01": {"ruleset": ruleset, "seats": 8}})
    status, [finding], _ = lint(house)
    assert status == 1
    assert finding["rule"].endswith("/max-seven-seats")
    assert finding["path"] == "tables.T-01.seats"


def test_date_picks_the_version(tmp_path):
    house = write_house(
        tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"no_standing_when_seats_free": True}}}
    )
    # The option came with the arrêté du 6 mai 2020 (fr/blackjack@2020-05-25).
    status, [finding], _ = lint(house, "--date", "2020-05-24")
    assert (status, finding["rule"]) == (1, "house/unknown-key")
    assert lint(house, "--date", "2020-05-25")[:2] == (0, [])


def test_a_date_no_version_covers_is_a_finding(tmp_path):
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack"}})
    status, [finding], _ = lint(house, "--date", "2010-01-01")
    assert (status, finding["rule"], finding["path"]) == (
        1,
        "house/no-version-in-force",
        "tables.BJ-03.ruleset",
    )


def test_bad_date_is_a_usage_error(tmp_path):
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack"}})
    status, _, stderr = lint(house, "--date", "14/03/2025")
    assert status == 2 and "YYYY-MM-DD" in stderr


# ---------------------------------------------------------------- lines


FLOW = (
    HEADER
    + """\
  BJ-03:
    ruleset: fr/blackjack@2025-06-24
    options:
      surrender: maybe
    side_bets:
      lucky_ladies: {paytable: C, minimum: 1, seated_only: "yes"}
      two_plus_one: {
        minimum: 1,
        maximum: -5
      }
"""
)


def test_lines_of_nested_keys_block_and_flow_style(tmp_path):
    status, findings, _ = lint(write_text(tmp_path, FLOW))
    lines = {f["path"]: f["line"] for f in findings}
    assert status == 1
    assert lines == {
        "tables.BJ-03.options.surrender": 7,
        "tables.BJ-03.side_bets.lucky_ladies.paytable": 9,
        "tables.BJ-03.side_bets.lucky_ladies.seated_only": 9,
        "tables.BJ-03.side_bets.two_plus_one.maximum": 12,
    }


def test_every_key_has_its_line_and_column(tmp_path):
    house = load_house(write_text(tmp_path, FLOW))
    places = {".".join(map(str, path)): place for path, place in house.places.items() if path}
    assert places["tables"] == (3, 1)
    assert places["tables.BJ-03"] == (4, 3)
    assert places["tables.BJ-03.side_bets.lucky_ladies"] == (9, 7)
    assert places["tables.BJ-03.side_bets.lucky_ladies.paytable"] == (9, 22)
    assert places["tables.BJ-03.side_bets.lucky_ladies.minimum"] == (9, 35)
    assert places["tables.BJ-03.side_bets.two_plus_one.minimum"] == (11, 9)


# ---------------------------------------------------------------- unreadable files: exit 2, FILE:LINE:COL


def assert_unreadable(result, where: str, words: str):
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"casino-validator: {where}: "), result.stderr
    assert words in result.stderr


# The `tables:` part of the file (after HEADER), the LINE:COL the error names, words of its message.
@pytest.mark.parametrize(
    ("tables", "place", "words"),
    [
        pytest.param(
            "  BJ-03:\n    ruleset: fr/blackjack\n    options: {surrender: true\n",
            "7:1",
            "expected ',' or '}'",
            id="broken-yaml",
        ),
        pytest.param(
            "  BJ-03:\n    ruleset: fr/blackjack\n    options:\n      - surrender\n",
            "6:5",
            "tables.BJ-03.options: a list where a mapping belongs",
            id="list-where-a-mapping-belongs",
        ),
        pytest.param(
            "  BJ-03:\n    ruleset: 2024\n",
            "5:5",
            "tables.BJ-03.ruleset: a number where text belongs",
            id="number-where-text-belongs",
        ),
        pytest.param(
            "  01:\n    ruleset: fr/blackjack\n", "4:3", 'quote it ("01")', id="table-id-read-as-a-number"
        ),
        pytest.param(
            "  US-01:\n    ruleset: fr/usage-blackjack\n    options:\n      blackjack_pays: 3:2\n",
            "7:23",
            'the number 182 (base 60), not as text: quote it ("3:2")',
            id="unquoted-ratio-is-base-60-in-yaml",
        ),
        pytest.param(
            "  BJ-03:\n    ruleset: fr/blackjack\n    ruleset: fr/bataille\n",
            "6:5",
            "tables.BJ-03.ruleset is written twice (first on line 5)",
            id="duplicate-key",
        ),
        pytest.param("  BJ-03: {ruleset: fr/blackjack}\n  BJ-04: *x\n", "5:10", "alias *x", id="alias-alone"),
        # 500 lists deep exhausted PyYAML's recursion (300 deep gave the type error): refused where the
        # 33rd level opens (the file, tables, BJ-03 and options are the first four).
        pytest.param(
            "  BJ-03:\n    ruleset: fr/blackjack\n    options:\n      surrender: "
            + "[" * 500
            + "]" * 500
            + "\n",
            f"7:{18 + 28}",
            "nested too deeply: over 32 levels of lists and mappings",
            id="value-nested-500-deep",
        ),
        pytest.param(
            "  BJ-03:\n    ruleset: fr/blackjack\n    options:\n      surrender: "
            + "{a: " * 600
            + "1"
            + "}" * 600
            + "\n",
            f"7:{18 + 4 * 28}",
            "nested too deeply",
            id="mapping-nested-600-deep",
        ),
    ],
)
def test_unreadable_file_gives_line_and_column(tmp_path, tables, place, words):
    path = write_text(tmp_path, HEADER + tables)
    assert_unreadable(run_cli("lint", str(path)), f"{path}:{place}", words)


def test_anchor_bomb_is_refused_without_expanding(tmp_path):
    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        levels.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
    path = write_text(tmp_path, "format: house-rules/1\n" + "\n".join(levels) + "\ntables: *i\n")
    assert_unreadable(run_cli("lint", str(path)), f"{path}:2:4", "anchors and aliases are not allowed")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "the file is empty"),
        ("- a\n- b\n", "the file: a list where a mapping belongs"),
        (
            "a: !!python/object/apply:os.system ['true']\n",
            "the tag tag:yaml.org,2002:python/object/apply:os.system",
        ),
        ("a: !!python/name:os.system ''\n", "could not determine a constructor"),
        ("format: house-rules/1\n---\nformat: house-rules/1\n", "expected a single document"),
        (
            HEADER + "  BJ-03:\n    ruleset: fr/blackjack\n    options:\n      <<: {surrender: true}\n",
            "merge keys",
        ),
        (
            HEADER + "  BJ-03:\n    ruleset: fr/blackjack\n    seats: seven\n",
            "text where a whole number belongs",
        ),
        (
            HEADER + "  BJ-03:\n    ruleset: fr/blackjack\n    side_bets:\n      jp1: [1]\n",
            "a list where a mapping",
        ),
    ],
)
def test_other_unreadable_files(tmp_path, text, words):
    path = write_text(tmp_path, text)
    result = run_cli("lint", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"casino-validator: {path}:"), result.stderr
    assert words in result.stderr


def test_not_utf8_and_missing_file(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(HEADER.encode() + "  BJ-03:\n    ruleset: fr/blackjack # \xe9\n".encode("latin-1"))
    assert_unreadable(run_cli("lint", str(path)), f"{path}:5:29", "not UTF-8")
    missing = run_cli("lint", str(tmp_path / "none.yaml"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_an_unreadable_file_does_not_stop_the_others(tmp_path):
    good = write_house(
        tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"surender": True}}}, "good.yaml"
    )
    bad = write_text(tmp_path, "a: [1\n", "bad.yaml")
    result = run_cli("lint", str(bad), str(good), "--format", "jsonl", *TODAY_2025)
    assert result.returncode == 2
    assert [json.loads(line)["path"] for line in result.stdout.splitlines()] == [
        "tables.BJ-03.options.surender"
    ]
    assert f"{bad}:2:1" in result.stderr


# ---------------------------------------------------------------- formats


@pytest.mark.parametrize("fmt", ["text", "json", "jsonl", "sarif", "junit", "github"])
def test_every_format_names_the_path(tmp_path, fmt):
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "options": {"surender": True}}})
    result = run_cli("lint", str(house), "--format", fmt, *TODAY_2025)
    assert result.returncode == 1, result.stderr
    assert "tables.BJ-03.options.surender" in result.stdout


def test_json_summary_and_output_file(tmp_path):
    house = write_house(tmp_path, {"BJ-03": {"ruleset": "fr/blackjack", "seats": 8}})
    out = tmp_path / "report.json"
    result = run_cli("lint", str(house), "--format", "json", "--output", str(out), *TODAY_2025)
    assert result.returncode == 1 and result.stdout == ""
    document = json.loads(out.read_text(encoding="utf-8"))
    [finding] = document["findings"]
    assert finding["path"] == "tables.BJ-03.seats" and finding["kind"] == "house"
    assert document["summary"]["findings"]["by_kind"] == {"house": 1}
    assert document["summary"]["rulesets"] == ["fr/blackjack@2024-11-01"]


def test_clean_file_exits_0(tmp_path):
    house = write_house(
        tmp_path,
        {
            "BJ-03": {
                "ruleset": "fr/blackjack",
                "minimum": 10,
                "maximum": 1000,
                "seats": 7,
                "options": {"surrender": True},
            }
        },
    )
    result = run_cli("lint", str(house), *TODAY_2025)
    assert result.returncode == 0, result.stdout
    assert "findings:    none" in result.stdout
    assert "tables:      1 (0 with findings)" in result.stdout


def test_schema_command_prints_the_shipped_schema():
    result = run_cli("schema", "house-rules")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    assert schema["properties"]["format"]["const"] == "house-rules/1"
    assert schema["$defs"]["table"]["required"] == ["ruleset"]
