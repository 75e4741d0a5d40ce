"""Property test for `simulate --inject`: every violation planted in a simulated log is found, with its
rule id and stake, and no other finding appears in that round or in any round left clean. Every
injectable rule of the version is in the plan, the simulator breaking while it plays what it can (the
decisions, the dealer's drawing, the deal, the shoes, the bets) and `inject` editing the rounds for the
rest, as `simulate --inject` does."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.dsl.ast import Ratio
from validator.findings import Summary
from validator.logs.reader import read_records
from validator.registry import default_registry
from validator.replay.session import LogReplay
from validator.simulate.inject import Planted, inject, injectable
from validator.simulate.run import simulate
from validator.simulate.violations import Violations

REGISTRY = default_registry()
NAMES = [r.version for r in REGISTRY.all()]


def _options(ruleset) -> dict:
    options = ruleset.house_defaults()
    if "blackjack_pays" in ruleset.options and options.get("blackjack_pays") is None:
        options["blackjack_pays"] = Ratio(3, 2)
    return options


def _limits(ruleset) -> tuple[Decimal, Decimal]:
    low, high = ruleset.parameters.get("limits.minimum"), ruleset.parameters.get("limits.maximum")
    if low is not None and high is not None and low.value is not None and high.value is not None:
        return Decimal(low.value), Decimal(high.value)
    return Decimal(10), Decimal(1000)


def test_every_ruleset_has_rules_the_simulator_can_break():
    for ruleset in REGISTRY.all():
        assert len(injectable(ruleset)) >= 5, ruleset.version


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), rate=st.sampled_from([0.2, 0.5, 1.0]))
def test_planted_violations_are_found_and_nothing_else(name, seed, rate, tmp_path):
    ruleset = REGISTRY.pick(name)
    options = _options(ruleset)
    low, high = _limits(ruleset)
    day = ruleset.valid_from.isoformat() if ruleset.valid_from else "2025-06-01"
    rules = injectable(ruleset)
    plan = Violations(ruleset, rules, rate, seed)
    records = simulate(
        ruleset,
        options,
        seed=seed,
        rounds=60,
        table_id="T-1",
        start=datetime.fromisoformat(f"{day}T20:00:00+01:00"),
        minimum=low,
        maximum=high,
        violations=plan,
    )
    planted: list[Planted] = []
    log = tmp_path / "planted.jsonl"
    log.write_bytes(
        b"".join(
            orjson.dumps(r) + b"\n"
            for r in inject(records, ruleset, rules, rate, seed, planted, options, plan)
        )
    )
    assert planted, "a rate this high plants at least one violation in 60 rounds"

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
    truth: dict[str | None, list[tuple[str, str | None, int | None]]] = {}
    for p in planted:  # a round has one; the shoes (round None) one each
        truth.setdefault(p.round, []).append((p.rule, p.stake, p.line))
    assert found == truth
