"""A simulated table as a casino runs one (issue 29): a team of dealers relieving one another
(`--dealers`), players from a pool who sit down and leave (`--players-pool`), the casino's opening
hours (`--hours`, or the house file's `hours`) with shoes named by the gaming day. Each séance is
driven through the command and its log read back: what was asked is what the log shows, and `check`
finds it clean (or finds exactly what was planted)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from conftest import run_cli

VERSION = "fr/blackjack@2025-01-01"
OPEN, CLOSE = 20, 2  # --hours 20:00-02:00


def _play(tmp_path, *args: str, name: str = "seance.jsonl") -> list[dict]:
    log = tmp_path / name
    result = run_cli("simulate", *args, "-o", str(log), "-q")
    assert result.returncode == 0, result.stderr
    checked = run_cli("check", str(log))
    assert checked.returncode == 0, checked.stdout
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _at(record: dict) -> datetime:
    return datetime.fromisoformat(record["at"])


def test_a_team_of_dealers_deals_in_turn_and_pool_players_come_and_go(tmp_path):
    records = _play(
        tmp_path,
        *("--ruleset", VERSION, "--rounds", "500", "--seed", "4"),
        *("--dealers", "3", "--players-pool", "12", "--hours", "00:00-00:00"),  # one séance
    )
    rounds = [r for r in records if r["type"] == "round"]
    team = ["D-101", "D-102", "D-103"]
    # Every dealer of the team deals, and nobody else.
    assert {r["dealer"] for r in rounds} == set(team)
    # Each relief is the next dealer of the team (the one dealing goes on break), after a stint of 20
    # to 40 minutes (the relief comes at the first round after it: a round or two later at most, or a
    # few where the shoe is near its stop card and the burn waits for the next shoe).
    changes = [r for r in records if r["type"] == "dealer"]
    assert len(changes) >= 5
    dealing, since = "D-101", _at(records[0])
    for change in changes:
        assert change["dealer"] == team[(team.index(dealing) + 1) % 3]
        stint = _at(change) - since
        assert timedelta(minutes=20) <= stint <= timedelta(minutes=50), (change, stint)
        dealing, since = change["dealer"], _at(change)
    # Each round is dealt by the dealer the last `dealer` record put at the table.
    dealing = "D-101"
    for record in records:
        if record["type"] == "dealer":
            dealing = record["dealer"]
        elif record["type"] == "round":
            assert record["dealer"] == dealing
    # More than four players, all of the pool; a player keeps his box while he stays, and leaves.
    players = {b["player"] for r in rounds for b in r["bets"]}
    assert len(players) > 4 and players <= {f"P{k}" for k in range(1, 13)}
    seated_at: dict[str, set[str]] = {}
    present: list[set[str]] = []
    for r in rounds:
        here = {b["player"] for b in r["bets"] if b["seated"]}
        present.append(here)
        for bet in r["bets"]:
            if bet["seated"] and len(here) > 1:
                seated_at.setdefault(bet["player"], set()).add(bet["stake"])
    left = [p for i in range(1, len(present)) for p in present[i - 1] - present[i]]
    assert left, "nobody ever left the table"
    # Between rounds a player's boxes stay his: nobody else is seated on a box a present player holds.
    for r in rounds:
        owners: dict[str, set[str]] = {}
        for bet in r["bets"]:
            if bet["seated"]:
                owners.setdefault(bet["stake"], set()).add(bet["player"])
        assert all(len(who) == 1 for who in owners.values())
    # A standing player behind a box is a member of the pool not seated at the table.
    for r in rounds:
        seated = {b["player"] for b in r["bets"] if b["seated"]}
        assert all(b["player"] not in seated for b in r["bets"] if not b["seated"])


def test_a_seance_keeps_the_casino_hours_and_names_shoes_by_the_gaming_day(tmp_path):
    records = _play(
        tmp_path,
        *("--ruleset", "fr/bataille", "--rounds", "900", "--seed", "2"),
        *("--dealers", "2", "--players-pool", "6", "--hours", "20:00-02:00"),
    )
    # Nothing is dealt while the casino is closed (between 02:00 and 20:00 on the table's clock).
    for record in records:
        if "at" in record:
            hour = _at(record).hour
            assert hour >= OPEN or hour < CLOSE, record
    # The séance runs over several openings: a new table record (new cards) at each, at 20:00.
    tables = [r for r in records if r["type"] == "table"]
    assert len(tables) >= 2
    assert all(_at(t).time().isoformat() == "20:00:00" and t["new_cards"] for t in tables)
    # After each table record its avance initiale (the carnet: simulate.carnet), then a new shoe opens;
    # the players of the night before have left (the first round of an opening has one player, the one
    # who sat down at the empty table).
    for i, record in enumerate(records):
        if record["type"] == "table":
            assert (records[i + 1]["type"], records[i + 1]["entry"]) == ("money", "avance_initiale")
            assert records[i + 2]["type"] == "shoe" and records[i + 2]["reason"] == "open"
            first = next(r for r in records[i:] if r["type"] == "round")
            assert len({b["player"] for b in first["bets"] if b["seated"]}) == 1
    # Bataille's dealers: D-201 onwards.
    assert {r["dealer"] for r in records if r["type"] == "round"} == {"D-201", "D-202"}
    # A shoe opened after midnight belongs to the gaming day before (06:00 when the house names none).
    after_midnight = [r for r in records if r["type"] == "shoe" and _at(r).hour < CLOSE]
    assert after_midnight
    for shoe in after_midnight:
        day = (_at(shoe) - timedelta(days=1)).date().isoformat()
        assert shoe["shoe"].split("/")[1] == day, shoe


HOUSE = """format: house-rules/1
casino: Casino de Trouville
timezone: Europe/Paris
hours: "14:00-03:00"
gaming_day_start: "05:00"
tables:
  BJ-09:
    ruleset: fr/blackjack
    minimum: 10
    maximum: 1000
"""


def test_the_house_file_hours_are_kept_and_a_start_when_closed_is_refused(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE, encoding="utf-8")
    common = ("--ruleset", VERSION, "--house", str(house), "--table", "BJ-09")
    records = _play(tmp_path, *common, "--rounds", "30", "--start", "2025-02-03T14:30:00+01:00")
    assert records[0]["casino"] == "Casino de Trouville" and records[0]["at"] == "2025-02-03T14:30:00+01:00"
    # --hours outranks the house file's: a start at 12:00 is then within them.
    noon = "2025-02-03T12:00:00+01:00"
    records = _play(tmp_path, *common, "--rounds", "5", "--start", noon, "--hours", "11:00-23:00")
    assert records[0]["at"] == noon
    refused = run_cli("simulate", *common, "--rounds", "5", "--start", noon)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        f"casino-validator: --start {noon}: the casino is closed then (its hours: 14:00-03:00); "
        "start while it is open\n"
    )
    for hours, message in (
        ("8pm-2am", "--hours '8pm-2am': not opening hours; give them as HH:MM-HH:MM, such as 20:00-04:00"),
        (
            "20:00-20:30",
            "--hours 20:00-20:30: open less than an hour a day; the simulator plays at least an hour",
        ),
    ):
        bad = run_cli("simulate", "--ruleset", VERSION, "--rounds", "5", "--hours", hours)
        assert bad.returncode == 2 and bad.stderr == f"casino-validator: {message}\n", bad.stderr
    # 0 is none (one dealer; each round's players drawn afresh): a negative count is refused.
    for option, given, most in (("--dealers", "-1", 1000), ("--players-pool", "100001", 100000)):
        bad = run_cli("simulate", "--ruleset", VERSION, "--rounds", "5", option, given)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr == f"casino-validator: {option} {given}: give 0 to {most}\n", bad.stderr


def test_violations_planted_at_a_table_with_a_team_and_a_pool_are_found_exactly(tmp_path):
    """The plants work the same with the team, the pool and the hours: a new dealer's burn (Ontario's
    licence asks one card), a player on too many boxes, the payouts."""
    log = tmp_path / "planted.jsonl"
    rules = ["dealer-change-burn", "deal-order", "lower-total-loses"]
    result = run_cli(
        *("simulate", "--ruleset", "on/fair-blackjack", "--rounds", "400", "--seed", "6", "-q"),
        *("--dealers", "4", "--players-pool", "10", "--hours", "18:00-01:00"),
        *("-o", str(log), "--inject", ",".join(f"on/fair-blackjack/{r}" for r in rules), "--rate", "0.1"),
    )
    assert result.returncode == 0, result.stderr
    planted = json.loads((tmp_path / "planted.planted.json").read_text())["planted"]
    assert {p["rule"] for p in planted} == {f"on/fair-blackjack/{r}" for r in rules}
    checked = run_cli("check", str(log), "--format", "json")
    found = [(f["rule"], f["round"], f["line"], f["stake"]) for f in json.loads(checked.stdout)["findings"]]
    assert found == [(p["rule"], p["round"], p["line"], p["stake"]) for p in planted]


def test_a_seance_is_credible_by_default(tmp_path):
    """Issue 38, item 7: without options, a French table is a casino's: four dealers in turn, players of a
    pool of forty coming and going, the jurisdiction's usual evening (20:00-04:00) with a new séance each
    opening, and real UTC offsets: a séance opening on Friday 28 March 2025 (the day named, at 20:00 in
    Paris, +01:00) crosses the change to summer time on Sunday 30 March, 02:00, and its later records
    carry +02:00."""
    records = _play(
        tmp_path,
        *("--ruleset", "fr/blackjack@2025-03-28", "--rounds", "900", "--seed", "3"),
    )
    rounds = [r for r in records if r["type"] == "round"]
    assert {r["dealer"] for r in rounds} == {"D-101", "D-102", "D-103", "D-104"}
    seated = [{b["player"] for b in r["bets"] if b["seated"]} for r in rounds]
    players = set().union(*seated)
    assert 8 < len(players) <= 40 and players <= {f"P{n}" for n in range(1, 41)}
    # Players come and go: someone seated at the first round is gone by the last.
    assert seated[0] - seated[-1]
    for record in records:
        if "at" in record:
            assert _at(record).hour >= 20 or _at(record).hour < 4, record
    tables = [r for r in records if r["type"] == "table"]
    assert len(tables) >= 3 and all(_at(t).time().isoformat() == "20:00:00" for t in tables)
    offsets = [r["at"][-6:] for r in records if "at" in r]
    assert offsets[0] == "+01:00" and offsets[-1] == "+02:00"
    assert offsets == sorted(offsets)  # once summer time comes, it stays


def test_a_start_at_the_jurisdictions_offset_follows_its_zone(tmp_path):
    # 29 March 2025, 22:00 at +01:00 is Paris's winter offset that day: the séance follows Paris, and
    # its rounds after 02:00 on the 30th (summer time) carry +02:00. At +05:00 it keeps +05:00.
    args = (
        "--ruleset",
        "fr/blackjack@2025-03-29",
        "--rounds",
        "250",
        "--seed",
        "2",
        "--hours",
        "20:00-04:00",
    )
    paris = _play(tmp_path, *args, "--start", "2025-03-29T22:00:00+01:00", name="paris.jsonl")
    assert {r["at"][-6:] for r in paris if "at" in r} == {"+01:00", "+02:00"}
    fixed = _play(tmp_path, *args, "--start", "2025-03-29T22:00:00+05:00", name="fixed.jsonl")
    assert {r["at"][-6:] for r in fixed if "at" in r} == {"+05:00"}
