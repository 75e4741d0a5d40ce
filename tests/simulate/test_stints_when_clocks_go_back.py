"""A dealer's stint and a player's stay are lengths of time elapsed (validator/simulate/pool.py), not of
the clock on the wall: the night the clocks go back (Europe/Paris, Sunday 25 October 2026, 03:00 summer
time becomes 02:00 winter time), a stint begun before the change lasts its 20 to 40 minutes, not an
hour more (issue 40: a stint of 93 minutes that night, measured on the local clock)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from conftest import run_cli

from validator.simulate.pool import STINT_MINUTES, DealerTeam, Roster

PARIS = ZoneInfo("Europe/Paris")


def test_a_stint_begun_before_the_clocks_go_back_ends_after_its_length_of_time():
    # 02:40 summer time (UTC+2) is 00:40 UTC; the stint drawn is `length` minutes; the clock then runs
    # on in UTC (as the séance's does), shown at the zone's offset of each moment.
    begun = datetime(2026, 10, 25, 2, 40, tzinfo=PARIS, fold=0)
    assert begun.utcoffset() == timedelta(hours=2)
    team = DealerTeam(["D-101", "D-102"], random.Random(3))
    team.start_stint(begun)
    length = random.Random(3).randint(*STINT_MINUTES)  # the same draw
    minutes = 0
    clock = begun
    while not team.relief_due(clock):
        minutes += 1
        clock = (begun.astimezone(UTC) + timedelta(minutes=minutes)).astimezone(PARIS)
    assert minutes == length
    # The wall clock shows an earlier time than the stint began at: the relief came in winter time.
    assert clock.utcoffset() == timedelta(hours=1) and clock.replace(tzinfo=None) < begun.replace(tzinfo=None)


def test_a_players_stay_is_elapsed_time_too():
    roster = Roster(4, random.Random(1))
    begun = datetime(2026, 10, 25, 2, 30, tzinfo=PARIS, fold=0)
    (player,) = roster.before_round(begun, seats=7, per_player=1)
    stay = player.leaves_at - begun  # aware times of two zones: elapsed time
    assert timedelta(minutes=15) <= stay <= timedelta(minutes=150)

    def after(minutes: timedelta) -> datetime:  # the séance's clock, run on in UTC
        return (begun.astimezone(UTC) + minutes).astimezone(PARIS)

    assert player in roster.before_round(after(stay - timedelta(minutes=1)), seats=7, per_player=1)
    assert player not in roster.before_round(after(stay), seats=7, per_player=1)


def test_a_seance_across_the_change_keeps_every_stint_within_its_length(tmp_path):
    log = tmp_path / "night.jsonl"
    result = run_cli(
        "simulate",
        *("--ruleset", "fr/blackjack@2025-01-01", "--rounds", "320", "--seed", "11"),
        *("--start", "2026-10-24T22:30:00+02:00", "--timezone", "Europe/Paris", "--dealers", "3"),
        *("-o", str(log), "-q"),
    )
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    times = [datetime.fromisoformat(r["at"]) for r in records if "at" in r]
    assert times[0].utcoffset() == timedelta(hours=2) and times[-1].utcoffset() == timedelta(hours=1)
    changes = [datetime.fromisoformat(r["at"]) for r in records if r["type"] == "dealer"]
    since = times[0]
    for change in changes:
        # As tests/simulate/test_table_life.py bounds a stint: 20 to 40 minutes, the relief at the first
        # round after it (a few rounds later at most).
        assert timedelta(minutes=20) <= change - since <= timedelta(minutes=50), (change, change - since)
        since = change
    assert any(c.utcoffset() == timedelta(hours=2) for c in changes)
    assert any(c.utcoffset() == timedelta(hours=1) for c in changes)
