"""Property tests: logs the simulator plays by each ruleset version check clean, and random damage
to valid records never causes a traceback and never loses a round."""

from __future__ import annotations

import io
import json
from datetime import datetime
from decimal import Decimal

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.findings.finding import Summary
from validator.logs.reader import read_records
from validator.replay.session import LogReplay
from validator.rulebook.registry import default_registry
from validator.simulate.run import Seance, simulate

REGISTRY = default_registry()
VERSIONS = [r for r in REGISTRY.all()]
# Parametrized by name: a ruleset object would make hypothesis print the whole ruleset on failure.
NAMES = [r.version for r in VERSIONS]
BY_NAME = {r.version: r for r in VERSIONS}


def _house(ruleset):
    options = ruleset.house_defaults()
    if options.get("blackjack_pays") is None and "blackjack_pays" in ruleset.options:
        from validator.dsl.ast import Ratio

        options["blackjack_pays"] = Ratio(3, 2)
    return options


def _limits(ruleset):
    low = ruleset.parameters.get("limits.minimum")
    high = ruleset.parameters.get("limits.maximum")
    if low is not None and low.value is not None and high is not None and high.value is not None:
        return Decimal(low.value), Decimal(high.value)
    return Decimal(10), Decimal(1000)


def _start(ruleset) -> datetime:
    day = ruleset.valid_from.isoformat() if ruleset.valid_from else "2025-06-01"
    return datetime.fromisoformat(f"{day}T20:00:00+01:00")


def play(ruleset, seed: int, rounds: int) -> list[dict]:
    low, high = _limits(ruleset)
    return list(
        simulate(
            ruleset,
            _house(ruleset),
            Seance(
                seed=seed, rounds=rounds, table_id="T-1", start=_start(ruleset), minimum=low, maximum=high
            ),
        )
    )


def check(records: list[dict] | bytes, tmp_path, ruleset) -> tuple[list, Summary]:
    path = tmp_path / "log.jsonl"
    if isinstance(records, bytes):
        path.write_bytes(records)
    else:
        path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    summary = Summary()
    options = _house(ruleset)
    replay = LogReplay(
        REGISTRY,
        str(path),
        summary,
        pinned=ruleset.version if ruleset.valid_from else ruleset.family,
        house=lambda _t, rs: {**rs.house_defaults(), **options},
    )
    outcomes = list(replay.replay(read_records(str(path))))
    return outcomes, summary


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_simulated_logs_check_clean(name, seed, tmp_path):
    ruleset = BY_NAME[name]
    records = play(ruleset, seed, 40)
    outcomes, summary = check(records, tmp_path, ruleset)
    found = [f for o in outcomes for f in o.findings]
    assert found == [], found[:3]
    assert summary.rounds_clean == 40


MUTATIONS = ("drop", "duplicate", "swap", "corrupt_field", "delete_field", "garble_line")


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), data=st.data())
def test_damaged_logs_never_crash_and_every_round_is_accounted_for(name, seed, data, tmp_path):
    ruleset = BY_NAME[name]
    records = play(ruleset, seed, 12)
    lines = [orjson.dumps(r) for r in records]
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(MUTATIONS))
        i = data.draw(st.integers(0, len(lines) - 1))
        if kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap" and len(lines) > 1:
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind in ("corrupt_field", "delete_field"):
            try:
                record = json.loads(lines[i])
            except ValueError:
                continue  # already garbled by an earlier mutation
            target = _pick_container(record, data)
            if isinstance(target, dict) and target:
                key = data.draw(st.sampled_from(sorted(target)))
                if kind == "delete_field":
                    del target[key]
                else:
                    target[key] = data.draw(_junk)
            elif isinstance(target, list) and target:
                k = data.draw(st.integers(0, len(target) - 1))
                target[k] = data.draw(_junk)
            lines[i] = json.dumps(record).encode()
        elif kind == "garble_line":
            cut = data.draw(st.integers(0, max(len(lines[i]) - 1, 0)))
            lines[i] = lines[i][:cut]
    text = b"\n".join(lines) + b"\n"
    round_lines = sum(1 for line in lines if b'"type":"round"' in line or b'"type": "round"' in line)
    outcomes, summary = check(text, tmp_path, ruleset)
    assert summary.rounds_read >= round_lines - sum(1 for line in lines if not line.strip())
    assert summary.rounds_read == sum(1 for o in outcomes if o.status in ("clean", "findings", "unreadable"))


_junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 100),
    st.text(max_size=4),
    st.just("AS"),
    st.just("7"),
    st.lists(st.integers(0, 3), max_size=3),
    st.just({}),
    st.just(["deal", "9", "ZZ"]),
)


def _pick_container(record, data):
    node = record
    for _ in range(data.draw(st.integers(0, 3))):
        if isinstance(node, dict) and node:
            child = node[data.draw(st.sampled_from(sorted(node)))]
        elif isinstance(node, list) and node:
            child = node[data.draw(st.integers(0, len(node) - 1))]
        else:
            break
        if not isinstance(child, dict | list):
            break
        node = child
    return node


def test_same_seed_same_file():
    ruleset = VERSIONS[0]
    first = io.BytesIO()
    second = io.BytesIO()
    from validator.simulate.table import write_records

    write_records(iter(play(ruleset, 5, 30)), first)
    write_records(iter(play(ruleset, 5, 30)), second)
    assert first.getvalue() == second.getvalue()
