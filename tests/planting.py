"""Séances played with violations planted, and what `check` finds in them: shared by the planting
tests (tests/simulate/test_inject_every_rule.py, tests/properties/test_planted_violations.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from validator.dsl.ast import Ratio
from validator.dsl.model import Ruleset
from validator.findings.finding import Summary
from validator.logs.reader import read_records
from validator.replay.session import LogReplay
from validator.rulebook.registry import Registry
from validator.simulate.inject import Planted, inject
from validator.simulate.plan import default_limits
from validator.simulate.run import Seance, simulate
from validator.simulate.table import LAST_BOX
from validator.simulate.violations import Violations

Found = tuple[str, str | None, int | None]


def house_options(ruleset: Ruleset) -> dict[str, Any]:
    """The version's house defaults, with a blackjack payout where the house must choose one."""
    options = ruleset.house_defaults()
    if "blackjack_pays" in ruleset.options and options.get("blackjack_pays") is None:
        options["blackjack_pays"] = Ratio(3, 2)
    return options


def seance(
    ruleset: Ruleset,
    options: dict[str, Any],
    seed: int,
    rounds: int,
    violations: Violations | None = None,
    seats: int = LAST_BOX,
) -> Iterator[dict[str, Any]]:
    """The records of a séance of table T-1 of `seats` seats played at the version's default limits,
    from 20:00 on its first day (or a day of 2025), with the plan `violations` if any."""
    low, high = default_limits(ruleset)
    day = ruleset.valid_from.isoformat() if ruleset.valid_from else "2025-06-01"
    return simulate(
        ruleset,
        options,
        Seance(
            seed=seed,
            rounds=rounds,
            table_id="T-1",
            start=datetime.fromisoformat(f"{day}T20:00:00+01:00"),
            minimum=low,
            maximum=high,
            seats=seats,
        ),
        violations=violations,
    )


def planted_seance(
    ruleset: Ruleset,
    options: dict[str, Any],
    rules: list[str],
    rate: float,
    seed: int,
    rounds: int,
    seats: int = LAST_BOX,
) -> tuple[Iterator[dict[str, Any]], list[Planted]]:
    """The records of a séance played, at the version's default limits and at a table of `seats` seats,
    with the plan to break `rules` at `rate`, and the list the planter fills as the records are drawn."""
    plan = Violations(ruleset, rules, rate, seed)
    records = seance(ruleset, options, seed, rounds, plan, seats)
    planted: list[Planted] = []
    return inject(records, ruleset, rules, rate, seed, planted, house=options, violations=plan), planted


def write_log(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


def truth_of(planted: list[Planted]) -> dict[str | None, list[Found]]:
    """What `check` must find: each planted violation at its round (shoes and tables: round None), at
    its stake and at each of its other stakes (`also`)."""
    truth: dict[str | None, list[Found]] = {}
    for p in planted:
        truth.setdefault(p.round, []).extend((p.rule, stake, p.line) for stake in (p.stake, *p.also))
    return truth


def found_by_round(
    registry: Registry, ruleset: Ruleset, log: Path, options: dict[str, Any]
) -> dict[str | None, list[Found]]:
    """The findings of the log replayed under the version and the house options, by round."""
    replay = LogReplay(
        registry,
        str(log),
        Summary(),
        pinned=ruleset.version if ruleset.valid_from else ruleset.family,
        house=lambda _t, rs: {**rs.house_defaults(), **options},
    )
    found: dict[str | None, list[Found]] = {}
    for outcome in replay.replay(read_records(str(log))):
        for finding in outcome.findings:
            found.setdefault(finding.round, []).append((finding.rule, finding.stake, finding.line))
    return found
