"""Property test for `simulate --inject`: every violation planted in a simulated log is found, with its
rule id and stake, and no other finding appears in that round or in any round left clean. Every
injectable rule of the version is in the plan, the simulator breaking while it plays what it can (the
decisions, the dealer's drawing, the deal, the shoes, the bets) and `inject` editing the rounds for the
rest, as `simulate --inject` does; at a table of seven seats or of five (where a bet can be placed on a
box off the layout)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from planting import found_by_round, house_options, planted_seance, truth_of, write_log

from validator.rulebook.registry import default_registry
from validator.simulate.inject import injectable

REGISTRY = default_registry()
NAMES = [r.version for r in REGISTRY.all()]


def test_every_ruleset_has_rules_the_simulator_can_break():
    for ruleset in REGISTRY.all():
        assert len(injectable(ruleset)) >= 5, ruleset.version


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), rate=st.sampled_from([0.2, 0.5, 1.0]), seats=st.sampled_from([5, 7]))
def test_planted_violations_are_found_and_nothing_else(name, seed, rate, seats, tmp_path):
    ruleset = REGISTRY.pick(name)
    options = house_options(ruleset)
    records, planted = planted_seance(ruleset, options, injectable(ruleset), rate, seed, 60, seats)
    log = write_log(tmp_path / "planted.jsonl", list(records))
    assert planted, "a rate this high plants at least one violation in 60 rounds"
    # A round has one; the shoes (round None) one each.
    assert found_by_round(REGISTRY, ruleset, log, options) == truth_of(planted)
