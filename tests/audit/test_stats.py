"""The report's two statistics against published figures."""

from __future__ import annotations

import pytest

from validator.audit.stats import fisher_greater, wilson


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
        # methods", Statistics in Medicine 17 (1998) 857–872, table II, method 3 (Wilson score, no
        # continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_without_trials() -> None:
    assert wilson(0, 0) == (0.0, 0.0)


def test_fisher_lady_tasting_tea() -> None:
    # R. A. Fisher, The Design of Experiments (1935), ch. II: 3 of 4 cups right, P = 17/70.
    assert fisher_greater(3, 1, 1, 3) == pytest.approx(17 / 70, rel=1e-12)
    # all four right: 1/70
    assert fisher_greater(4, 0, 0, 4) == pytest.approx(1 / 70, rel=1e-12)


def test_fisher_no_excess_is_not_significant() -> None:
    assert fisher_greater(0, 100, 5, 95) == 1.0
    assert fisher_greater(5, 95, 5, 95) > 0.5
