"""Hold against theoretical on simulated séances: a séance played the best the rules allow (the strategy
`edge` computes, as `validator.simulate.simcheck` plays it) keeps a hold on the main stake inside the 95 %
band around the theoretical edge; the same séance with one dealer overpaying (a lost main stake written
as a push, a fifth of the time: the house gives the stake back) falls outside it.

The band is theoretical ± z·√V/Σ staked, V from the variance and the covariance of a round's boxes, z
Bonferroni over every hold line of the report (docs/audit.md); with a fixed seed the séance is
the same on every run, so this is not a test that can pass by luck one day and fail the next."""

from __future__ import annotations

import math
import random
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from statistics import NormalDist
from typing import Any

import orjson
import pytest

from validator.audit.dataset.writer import DatasetRun
from validator.audit.query import Filters, build, connect
from validator.audit.theory import theory
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.games.blackjack.maths import main_game
from validator.games.blackjack.strategy import Strategy
from validator.maths.edge import house_for
from validator.maths.probe import Probe
from validator.rulebook.registry import default_registry
from validator.simulate.run import Seance, simulate

ROUNDS = 1500


def _best_play(path: Path, seed: int) -> None:
    registry = default_registry()
    ruleset = registry.in_force("fr/blackjack", date(2025, 3, 14))
    values = house_for(ruleset, None)
    records = simulate(
        ruleset,
        values,
        Seance(
            seed=seed,
            rounds=ROUNDS,
            table_id="BJ-01",
            start=datetime.fromisoformat("2025-03-14T20:00:00+01:00"),
            minimum=Decimal(10),
            maximum=Decimal(100),
            strategy=Strategy(main_game(Probe(ruleset, values))),
        ),
    )
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))


def _overpaying(source: Path, target: Path, dealer: str, rate: float) -> int:
    """The séance with `dealer` giving back a lost main stake (`lose` written `push`) at `rate`."""
    rng = random.Random(7)
    changed = 0
    lines = []
    for line in source.read_bytes().splitlines():
        record = orjson.loads(line)
        if record.get("type") == "round" and record.get("dealer") == dealer:
            for action in record["actions"]:
                if action[0] == "lose" and ":" not in action[1] and action[1] != "D" and rng.random() < rate:
                    action[0] = "push"
                    del action[2:]
                    changed += 1
        lines.append(orjson.dumps(record))
    target.write_bytes(b"\n".join(lines) + b"\n")
    return changed


def _audit(log: Path, dataset: Path) -> Any:
    registry = default_registry()
    run = DatasetRun.start(str(dataset), [str(log)], {}, None)
    summary = Summary()
    for _ in run.writer().write_all(check_logs(registry, [str(log)], summary=summary, collect=True)):
        pass
    run.commit(summary)
    return build([str(dataset)], theory=theory(connect([str(dataset)], Filters())))


def _hold(log: Path, dataset: Path) -> dict:
    (row,) = _audit(log, dataset).hold
    return row


@pytest.fixture(scope="module")
def seance(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("band") / "best.jsonl"
    _best_play(path, seed=11)
    return path


def test_best_play_holds_inside_the_band(seance: Path, tmp_path: Path) -> None:
    row = _hold(seance, tmp_path / "ds")
    assert row["theoretical"] is not None and row["low"] is not None
    assert row["rounds"] == ROUNDS
    assert row["low"] <= float(row["hold_main"]) <= row["high"], row
    assert row["outside"] is False
    # The band is not so wide that it says nothing: a few points around an edge under 1 %.
    assert row["high"] - row["low"] < 0.2


def test_an_overpaying_dealer_falls_outside(seance: Path, tmp_path: Path) -> None:
    dealers = {orjson.loads(line).get("dealer") for line in seance.read_bytes().splitlines()} - {None}
    dealer = sorted(dealers)[0]
    planted = tmp_path / "overpaid.jsonl"
    assert _overpaying(seance, planted, dealer, rate=0.2) > 20
    row = _hold(planted, tmp_path / "ds")
    assert float(row["hold_main"]) < row["low"], row
    assert row["outside"] is True


def test_one_z_for_every_hold_line_of_the_report(seance: Path, tmp_path: Path) -> None:
    """The chance that a clean report flags any hold line by luck is held under 5 % over the whole report
    (docs/audit.md): the table's line, its gaming days, the month and the year to date and each bet of
    its own all take the z of Bonferroni over every line tested, 5 % ÷ (2 × lines), not 1.96 for the
    table's line alone (a list of one) and another z for each list."""
    audit = _audit(seance, tmp_path / "ds")
    main = [*audit.hold, *audit.hold_periods]
    bets = [row for row in audit.hold_bets if row["theoretical"] is not None]
    tested = sum(1 for row in main if row["theoretical"] is not None) + len(bets)
    assert len(main) >= 4  # the table; its gaming day(s); the month and the year to date
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * tested))
    assert {(row["z"], row["tested"]) for row in main} == {(z, tested)}
    for row in bets:
        half = z * math.sqrt(row["variance"]) / float(row["wagered"])
        assert math.isclose(row["high"] - float(row["theoretical"]), half), row
