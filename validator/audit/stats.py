"""The two statistics the audit report names: Wilson's score interval for a dealer's error rate, and a
one-sided Fisher exact test for a player–dealer pair's overpayments against the dealer's other players."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the normal quantile of 97.5 %: a two-sided 95 % interval


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (E. B. Wilson, 1927); (0, 0) when there are no trials."""
    if trials <= 0:
        return 0.0, 0.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_greater(a: int, b: int, c: int, d: int) -> float:
    """One-sided Fisher exact test of the 2×2 table [[a, b], [c, d]]: the probability, with the margins
    fixed, of `a` or more (the pair's overpaid rounds `a` of `a + b`, the dealer's other player-rounds
    `c` of `c + d`). Sums the hypergeometric upper tail in log space."""
    row, col, total = a + b, a + c, a + b + c + d
    if a <= 0 or total == 0:
        return 1.0
    base = _log_choose(total, row)
    top = min(row, col)
    log_terms = [_log_choose(col, x) + _log_choose(total - col, row - x) - base for x in range(a, top + 1)]
    peak = max(log_terms)
    return min(1.0, math.exp(peak) * sum(math.exp(t - peak) for t in log_terms))
