"""`casino-validator simulate` checks every option before it writes anything: a run it cannot make stops
with one clear message and exit 2 and leaves --output unwritten; a run it makes writes valid hand-log/1,
at limits the version's own rules allow, that `check` finds clean (or finds exactly what was planted)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

VERSION = "fr/blackjack@2025-01-01"  # the version in force from 2024-11-01
FAIR = "on/fair-blackjack"
TROUVILLE = "samples/house/trouville.yaml"
FAIR_LIMITS = (
    "  on/fair-blackjack/table-limits-within-licence: The table's limits ({low} to {high}) go beyond the "
    "licence's (1 $ to 5 $). (Licence d'activité de jeu durant une foire ou une exposition, règles de jeu - "
    "blackjack, section 1)\n"
    "give limits it allows with --minimum and --maximum"
)


def refused(cli, tmp_path, *args: str) -> str:
    """Run simulate with -o; it must refuse (exit 2, no traceback) and write nothing. Its message."""
    out = tmp_path / "refused.jsonl"
    result = cli("simulate", "--rounds", "5", *args, "-o", str(out))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert not out.exists() and not (tmp_path / "refused.planted.json").exists()
    assert all(p.suffix == ".yaml" for p in tmp_path.iterdir())  # only the test's own house files
    assert result.stderr.startswith("casino-validator: ") and result.stderr.endswith("\n")
    return result.stderr.removeprefix("casino-validator: ").removesuffix("\n")


def records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ---------------------------------------------------------------- bad options


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--minimum", "nan"], "--minimum nan: not an amount; give a number such as 10 or 7.50"),
        (["--minimum", "inf"], "--minimum inf: not an amount; give a number such as 10 or 7.50"),
        (["--maximum", "-Infinity"], "--maximum -Infinity: not an amount; give a number such as 10 or 7.50"),
        (["--minimum", "ten"], "--minimum ten: not an amount; give a number such as 10 or 7.50"),
        (
            ["--minimum", "1e400"],
            "--minimum 1e400: too large; the simulator plays limits up to 1000000000000",
        ),
        (
            ["--maximum", "1" * 32],
            f"--maximum {'1' * 32}: too large; the simulator plays limits up to 1000000000000",
        ),
        (["--minimum", "0"], "--minimum 0: a table limit must be more than 0"),
        (["--minimum", "-5"], "--minimum -5: a table limit must be more than 0"),
        (["--minimum", "7.505"], "--minimum 7.505: more than 2 decimals; a table limit is in cents at most"),
        (
            ["--minimum", "100", "--maximum", "50"],
            "--maximum 50 is below --minimum 100: give a maximum at least the minimum",
        ),
        (
            ["--minimum", "5000"],
            "the default maximum 1000 is below --minimum 5000: give a maximum at least the minimum",
        ),
        (
            ["--start", "2025-01-01T20:00:00"],
            "--start 2025-01-01T20:00:00: no UTC offset; hand-log/1 times carry one, "
            "such as 2025-03-14T20:00:00+01:00",
        ),
        (
            ["--start", "tomorrow"],
            "--start tomorrow: not an ISO 8601 time; give one with its UTC offset, "
            "such as 2025-03-14T20:00:00+01:00",
        ),
        (
            ["--start", "2025-01-01T20:00:00+01:00:30"],
            "--start: not valid in a hand-log/1 table record: at: '2025-01-01T20:00:00+01:00:30' is not a "
            'time in ISO 8601 with a UTC offset, e.g. "2025-03-14T21:05:09+01:00"',
        ),
        (
            ["--table", ""],
            "--table: not valid in a hand-log/1 table record: table: '' is not an identifier "
            "(a non-empty string)",
        ),
        (
            ["--start", "2010-01-01T20:00:00+01:00"],
            "--start 2010-01-01T20:00:00+01:00: 2010-01-01 is outside the dates of fr/blackjack@2024-11-01, "
            "from 2024-11-01 (in force); `check` judges each round by the version in force on its day: "
            "start within its dates; fr/blackjack has no version in force that day",
        ),
        (
            ["--start", "2016-06-10T20:00:00+02:00"],
            "--start 2016-06-10T20:00:00+02:00: 2016-06-10 is outside the dates of fr/blackjack@2024-11-01, "
            "from 2024-11-01 (in force); `check` judges each round by the version in force on its day: "
            "start within its dates, or play the version of that day with --ruleset fr/blackjack@2016-06-10",
        ),
        (
            ["--start", "9999-12-31T23:59:00+00:00"],
            "a séance of 5 rounds opening at 9999-12-31T23:59:00+00:00 would run past the year 9999: "
            "start earlier or play fewer rounds",
        ),
    ],
)
def test_a_bad_option_is_refused_before_anything_is_written(cli, tmp_path, args, message):
    assert refused(cli, tmp_path, "--ruleset", VERSION, *args) == message


def test_refused_on_stdout_too_with_nothing_printed(cli):
    # The tester's case: a table record was printed before the traceback.
    result = cli("simulate", "--ruleset", VERSION, "--rounds", "5", "--minimum", "nan")
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        result.stderr == "casino-validator: --minimum nan: not an amount; give a number such as 10 or 7.50\n"
    )


def test_a_seance_running_past_the_year_9999_is_refused_at_once(cli, tmp_path):
    message = refused(cli, tmp_path, "--ruleset", VERSION, "--rounds", "100000000000")
    assert message == (
        "a séance of 100000000000 rounds opening at 2025-01-01T20:00:00+01:00 would run past the year 9999: "
        "start earlier or play fewer rounds"
    )


def test_a_seance_must_end_within_the_version_it_plays(cli, tmp_path):
    spec = "fr/blackjack@2024-10-31"  # the version of 2020-05-25, in force until 2024-10-31
    message = refused(
        cli, tmp_path, "--ruleset", spec, "--start", "2024-10-31T23:00:00+01:00", "--rounds", "100"
    )
    assert message == (
        "a séance of 100 rounds opening at 2024-10-31T23:00:00+01:00 would run past 2024-10-31, the last day "
        "of fr/blackjack@2020-05-25, and `check` judges each round by the version in force on its day: "
        "start earlier or play fewer rounds"
    )
    # Four hours before midnight, 100 rounds may or may not fit: the séance is played to know, and fits.
    out = tmp_path / "fits.jsonl"
    args = ("--ruleset", spec, "--start", "2024-10-31T20:00:00+01:00", "--rounds", "100", "-o", str(out))
    assert cli("simulate", *args).returncode == 0
    assert {r["at"][:10] for r in records(out)} == {"2024-10-31"}
    assert cli("check", str(out)).returncode == 0


def test_a_seance_that_only_playing_shows_runs_past_the_year_9999_is_refused(cli, tmp_path):
    # 200 rounds from 20:00 may end before midnight or not: the séance is played, unwritten, to know.
    message = refused(
        cli, tmp_path, "--ruleset", VERSION, "--start", "9999-12-31T20:00:00+00:00", "--rounds", "200"
    )
    assert message == (
        "a séance of 200 rounds opening at 9999-12-31T20:00:00+00:00 would run past the year 9999: "
        "start earlier or play fewer rounds"
    )


def test_a_time_just_before_the_year_10000_still_checks_clean(cli, tmp_path):
    out = tmp_path / "late.jsonl"
    result = cli(
        "simulate",
        "--ruleset",
        VERSION,
        "--start",
        "9999-12-31T20:00:00-05:00",
        "--rounds",
        "20",
        "-o",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    assert cli("check", str(out)).returncode == 0


# ---------------------------------------------------------------- limits


def test_limits_the_ruleset_does_not_allow_are_refused_naming_the_rule(cli, tmp_path):
    # With no limits given, the licence's own 1 $ to 5 $ are taken (tests/test_cli_edges.py); wider ones
    # asked for are refused.
    assert refused(cli, tmp_path, "--ruleset", FAIR, "--maximum", "10") == (
        "the table would open with limits 1 to 10 (the default minimum, --maximum), which "
        "on/fair-blackjack does not allow:\n" + FAIR_LIMITS.format(low=1, high=10)
    )
    assert refused(cli, tmp_path, "--ruleset", VERSION, "--minimum", "10", "--maximum", "700") == (
        "the table would open with limits 10 to 700 (--minimum, --maximum), which fr/blackjack@2024-11-01 "
        "does not allow:\n"
        "  fr/blackjack/max-multiple-of-minimum: The maximum per box (700) must be 50, 100 or 200 times the "
        "minimum (10). (Arrêté du 14 mai 2007, art. 55-5, al. 4)\n"
        "give limits it allows with --minimum and --maximum"
    )


def test_the_licence_limits_given_the_seance_checks_clean(cli):
    result = cli("simulate", "--ruleset", FAIR, "--minimum", "1", "--maximum", "5", "--rounds", "200")
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout.splitlines()[0])
    assert (table["minimum"], table["maximum"]) == (1, 5)
    checked = cli("check", "-", "--format", "json", stdin=result.stdout)
    assert checked.returncode == 0, checked.stdout
    assert json.loads(checked.stdout)["summary"]["rounds"]["clean"] == 200


def _planted_and_found(cli, log, *args: str) -> tuple[list, list]:
    result = cli("simulate", *args, "-o", str(log))
    assert result.returncode == 0, result.stderr
    planted = json.loads(log.with_name(log.name.removesuffix(".jsonl") + ".planted.json").read_text())[
        "planted"
    ]
    checked = cli("check", str(log), "--format", "json")
    found = [(f["rule"], f["round"], f["line"], f["stake"]) for f in json.loads(checked.stdout)["findings"]]
    return [(p["rule"], p["round"], p["line"], p["stake"]) for p in planted], found


def test_violations_planted_at_the_licence_limits_are_found_exactly(cli, tmp_path):
    listing = cli(
        "simulate", "--ruleset", FAIR, "--minimum", "1", "--maximum", "5", "--inject", "?", "-o", "x"
    )
    rules = listing.stderr.strip().rpartition("it can break:\n")[2].split()
    assert f"{FAIR}/bet-within-limits" in rules and len(rules) >= 5
    planted, found = _planted_and_found(
        cli,
        tmp_path / "fair.jsonl",
        *("--ruleset", FAIR, "--minimum", "1", "--maximum", "5", "--rounds", "200", "--seed", "2"),
        *("--inject", ",".join(rules), "--rate", "0.2"),
    )
    assert planted and found == planted


def test_a_stake_planted_past_narrower_table_limits_also_breaks_the_licence(cli, tmp_path):
    # At a table of 1 $ to 4 $, a stake of 5 $ passes the table's maximum but not the licence's, which is
    # what the rule reads: the planted stake must go past both, or the truth lists a finding never given.
    planted, found = _planted_and_found(
        cli,
        tmp_path / "narrow.jsonl",
        *("--ruleset", FAIR, "--minimum", "1", "--maximum", "4", "--rounds", "300", "--seed", "1"),
        *("--inject", f"{FAIR}/bet-within-limits", "--rate", "0.3"),
    )
    assert len(planted) > 50 and found == planted


@pytest.mark.parametrize(
    ("spec", "low", "high"),
    [
        (VERSION, "2.5", "250"),
        (VERSION, "0.01", "2"),
        ("fr/bataille", "0.5", "50"),
        (FAIR, "2", "3"),
        (FAIR, "1.25", "5"),
        (FAIR, "5", "5"),
        (VERSION, "10000000000", "1000000000000"),
    ],
)
def test_the_bets_placed_stay_within_the_limits_written(cli, tmp_path, spec, low, high):
    out = tmp_path / "bets.jsonl"
    args = ("--ruleset", spec, "--minimum", low, "--maximum", high, "--rounds", "300", "--seed", "5")
    assert cli("simulate", *args, "-o", str(out)).returncode == 0
    table, *rest = records(out)
    assert (Decimal(str(table["minimum"])), Decimal(str(table["maximum"]))) == (Decimal(low), Decimal(high))
    for record in rest:
        if record["type"] != "round":
            continue
        boxes: dict[str, Decimal] = {}
        for bet in record["bets"]:
            if ":" not in bet["stake"]:
                boxes[bet["stake"]] = boxes.get(bet["stake"], Decimal(0)) + Decimal(str(bet["amount"]))
        assert all(Decimal(low) <= stake <= Decimal(high) for stake in boxes.values()), record["round"]
    assert cli("check", str(out)).returncode == 0


# ---------------------------------------------------------------- limits from the house entry


@pytest.mark.parametrize(
    ("table", "spec", "limits"),
    [("US-01", "fr/usage-blackjack", (5, 500)), ("ON-01", FAIR, (1, 5)), ("BA-01", "fr/bataille", (5, 500))],
)
def test_the_house_entry_limits_are_played_when_none_are_given(cli, tmp_path, table, spec, limits):
    out = tmp_path / "house.jsonl"
    args = ("--ruleset", spec, "--house", TROUVILLE, "--table", table, "--rounds", "100", "-o", str(out))
    result = cli("simulate", *args)
    assert result.returncode == 0, result.stderr
    first = records(out)[0]
    assert (first["table"], first["minimum"], first["maximum"]) == (table, *limits)
    assert cli("check", str(out), "--house", TROUVILLE).returncode == 0


def test_options_override_the_house_entry_limits(cli, tmp_path):
    out = tmp_path / "house.jsonl"
    args = ("--ruleset", FAIR, "--house", TROUVILLE, "--table", "ON-01", "--minimum", "2", "--maximum", "4")
    assert cli("simulate", *args, "--rounds", "50", "-o", str(out)).returncode == 0
    assert (records(out)[0]["minimum"], records(out)[0]["maximum"]) == (2, 4)


HOUSE = """\
format: house-rules/1
casino: Test
tables:
  US-01:
    ruleset: fr/usage-blackjack
    minimum: "0.001"
    maximum: 500
    options:
      blackjack_pays: "3:2"
  US-02:
    ruleset: fr/usage-blackjack
    minimum: 25
    options:
      blackjack_pays: "3:2"
"""


def test_house_entry_limits_the_simulator_cannot_play_are_refused_with_their_line(cli, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    base = ("--ruleset", "fr/usage-blackjack", "--house", str(house))
    assert refused(cli, tmp_path, *base, "--table", "US-01") == (
        f"{house}:6: tables.US-01.minimum 0.001: more than 2 decimals; a table limit is in cents at most"
    )
    assert refused(cli, tmp_path, *base, "--table", "US-02", "--maximum", "20") == (
        f"--maximum 20 is below {house}:12: tables.US-02.minimum 25: give a maximum at least the minimum"
    )
    # Only the minimum declared: the default maximum completes it.
    out = tmp_path / "us.jsonl"
    assert cli("simulate", *base, "--table", "US-02", "--rounds", "20", "-o", str(out)).returncode == 0
    assert (records(out)[0]["minimum"], records(out)[0]["maximum"]) == (25, 1000)


# ---------------------------------------------------------------- seats


def _boxes(path) -> set[int]:
    """The boxes bet on in the séance's rounds (main and side stakes)."""
    return {
        int(bet["stake"].split(":")[0].split("/")[0])
        for record in records(path)
        if record["type"] == "round"
        for bet in record["bets"]
    }


@pytest.mark.parametrize(("spec", "seats"), [(VERSION, "5"), ("fr/bataille", "3"), (FAIR, "1")])
def test_a_table_of_fewer_seats_is_played_on_its_boxes_and_checks_clean(cli, tmp_path, spec, seats):
    out = tmp_path / "seats.jsonl"
    args = ("--ruleset", spec, "--seats", seats, "--rounds", "150", "--seed", "3", "-o", str(out))
    assert cli("simulate", *args).returncode == 0
    assert records(out)[0]["seats"] == int(seats)
    # Every box bet on is marked on the layout (box-on-layout), and some are bet on in 150 rounds.
    assert _boxes(out) == set(range(1, int(seats) + 1))
    assert cli("check", str(out)).returncode == 0


SEATS_HOUSE = """\
format: house-rules/1
casino: Test
tables:
  US-05:
    ruleset: fr/usage-blackjack
    seats: 5
    options:
      blackjack_pays: "3:2"
  US-09:
    ruleset: fr/usage-blackjack
    seats: 9
    options:
      blackjack_pays: "3:2"
"""


def test_the_house_entry_seats_are_played_unless_seats_is_given(cli, tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(SEATS_HOUSE, encoding="utf-8")
    base = ("--ruleset", "fr/usage-blackjack", "--house", str(house), "--rounds", "60")
    # hand-log/1 names boxes 1 to 7: a table of more seats cannot be played on all its boxes.
    assert refused(cli, tmp_path, *base, "--table", "US-09") == (
        f"{house}:11: tables.US-09.seats 9: the simulator plays tables of 1 to 7 seats, "
        "the boxes hand-log/1 names (1 to 7)"
    )
    out = tmp_path / "us.jsonl"
    assert cli("simulate", *base, "--table", "US-05", "-o", str(out)).returncode == 0
    assert records(out)[0]["seats"] == 5 and max(_boxes(out)) <= 5
    assert cli("check", str(out), "--house", str(house)).returncode == 0
    assert cli("simulate", *base, "--table", "US-05", "--seats", "2", "-o", str(out)).returncode == 0
    assert records(out)[0]["seats"] == 2 and _boxes(out) == {1, 2}


LONE_HOUSE = """\
format: house-rules/1
casino: Test
tables:
  T-1:
    ruleset: fr/blackjack
    options:
      min_boxes_single_player: 2
"""


def test_a_table_too_small_for_a_player_alone_is_refused(cli, tmp_path):
    # The house asks a player alone to play two boxes (art. 55-4, 1°, al. 2): one seat cannot hold them.
    house = tmp_path / "house.yaml"
    house.write_text(LONE_HOUSE, encoding="utf-8")
    base = ("--ruleset", VERSION, "--house", str(house), "--table", "T-1")
    assert refused(cli, tmp_path, *base, "--seats", "1") == (
        "a table of 1 seat: the rules have a player alone play on more boxes than it has; "
        "give more seats with --seats"
    )
    out = tmp_path / "two.jsonl"
    assert cli("simulate", *base, "--seats", "2", "--rounds", "40", "-o", str(out)).returncode == 0
    assert _boxes(out) == {1, 2}
    assert cli("check", str(out), "--house", str(house)).returncode == 0


@pytest.mark.parametrize("seats", ["0", "8"])
def test_seats_the_simulator_cannot_play_are_refused(cli, tmp_path, seats):
    assert refused(cli, tmp_path, "--ruleset", VERSION, "--seats", seats) == (
        f"--seats {seats}: the simulator plays tables of 1 to 7 seats, the boxes hand-log/1 names (1 to 7)"
    )


def test_a_bet_past_the_seats_is_planted_at_a_table_of_fewer_seats(cli, tmp_path):
    rule = f"{FAIR}/box-on-layout"
    planted, found = _planted_and_found(
        cli,
        tmp_path / "seats.jsonl",
        *("--ruleset", FAIR, "--seats", "5", "--rounds", "100", "--inject", rule, "--rate", "0.1"),
    )
    assert planted and found == planted
    assert {(rule, "6")} == {(p[0], p[3]) for p in planted}
