"""`simulate --inject`, one rule at a time, over every injectable rule of every ruleset version: each
violation planted in a simulated séance is found by `check` with exactly its rule, round and stake, and
nothing else is found anywhere in the séance.

The séances offer every side bet of the version (limits, a fixed stake or `offered`, whichever options
the version has), so that side-bet payouts can be planted too; one séance per version and seed serves
all its rules. Each rule must be planted at least once over the seeds tried: a rule that a séance of
this length never gives a chance to break fails the test rather than passing it unseen.
"""

from __future__ import annotations

import functools
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson
import pytest

from validator.dsl.ast import Ratio
from validator.findings import Summary
from validator.logs.reader import read_records
from validator.registry import default_registry
from validator.replay.session import LogReplay
from validator.simulate.inject import Planted, inject, injectable
from validator.simulate.run import simulate

REGISTRY = default_registry()
CASES = [(rs.version, rule) for rs in REGISTRY.all() for rule in injectable(rs)]
SEEDS = (1, 2, 3, 4)
ROUNDS = 100


def _options(ruleset: Any) -> dict[str, Any]:
    """The version's defaults, every yes-or-no choice of the game made yes, every side bet offered, a
    blackjack payout where the house must give one."""
    options = ruleset.house_defaults()
    for name, option in ruleset.options.items():
        bet, _, key = name.partition(".")
        if bet not in ruleset.side_bets:
            if option.type == "bool":
                options[name] = True  # what the house may allow, allowed (surrender …), so it is played
            continue
        if key == "offered":
            options[name] = True
        elif key == "minimum":
            options[name] = Decimal(1)
        elif key == "maximum":
            options[name] = Decimal(50)
        elif key == "stake":
            options[name] = Decimal(1)
    if "blackjack_pays" in ruleset.options and options.get("blackjack_pays") is None:
        options["blackjack_pays"] = Ratio(3, 2)
    return options


def _limits(ruleset: Any) -> tuple[Decimal, Decimal]:
    low, high = ruleset.parameters.get("limits.minimum"), ruleset.parameters.get("limits.maximum")
    if low is not None and high is not None and low.value is not None and high.value is not None:
        return Decimal(low.value), Decimal(high.value)
    return Decimal(10), Decimal(1000)


@functools.cache
def _seance(version: str, seed: int) -> tuple[dict[str, Any], ...]:
    ruleset = REGISTRY.pick(version)
    low, high = _limits(ruleset)
    day = ruleset.valid_from.isoformat() if ruleset.valid_from else "2025-06-01"
    records = simulate(
        ruleset,
        _options(ruleset),
        seed=seed,
        rounds=ROUNDS,
        table_id="T-1",
        start=datetime.fromisoformat(f"{day}T20:00:00+01:00"),
        minimum=low,
        maximum=high,
    )
    return tuple(orjson.loads(orjson.dumps(r)) for r in records)


def _found(version: str, log: Any) -> dict[str, list[tuple[str, str | None, int | None]]]:
    ruleset = REGISTRY.pick(version)
    options = _options(ruleset)
    replay = LogReplay(
        REGISTRY,
        str(log),
        Summary(),
        pinned=ruleset.version if ruleset.valid_from else ruleset.family,
        house=lambda _t, rs: {**rs.house_defaults(), **options},
    )
    found: dict[str, list[tuple[str, str | None, int | None]]] = {}
    for outcome in replay.replay(read_records(str(log))):
        for finding in outcome.findings:
            found.setdefault(finding.round, []).append((finding.rule, finding.stake, finding.line))
    return found


def test_the_clean_seances_are_clean(tmp_path):
    for version in sorted({v for v, _ in CASES}):
        log = tmp_path / "clean.jsonl"
        log.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in _seance(version, SEEDS[0])))
        assert _found(version, log) == {}, version


@pytest.mark.parametrize(("version", "rule"), CASES, ids=[rule for _, rule in CASES])
def test_each_planted_rule_is_found_exactly(version, rule, tmp_path):
    ruleset = REGISTRY.pick(version)
    planted: list[Planted] = []
    for seed in SEEDS:
        records = [orjson.loads(orjson.dumps(r)) for r in _seance(version, seed)]
        these: list[Planted] = []
        edited = list(inject(iter(records), ruleset, [rule], 1.0, seed, these, house=_options(ruleset)))
        if not these:
            continue
        log = tmp_path / f"planted-{seed}.jsonl"
        log.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in edited))
        truth: dict[str, list[tuple[str, str | None, int | None]]] = {}
        for p in these:
            truth.setdefault(p.round, []).append((p.rule, p.stake, p.line))
        assert _found(version, log) == truth
        planted += these
        break
    assert planted, f"{rule}: no round of {len(SEEDS)} séances of {ROUNDS} rounds let it be planted"
