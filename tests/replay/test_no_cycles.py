"""A judged round leaves no reference cycle behind: its hands, boxes, side bets and the round itself
are freed by their reference counts as soon as the session is done with them. Cycles made every
round kept Python's cycle collector walking some 35 objects a round, an eighth of a `check`'s time
(benchmarks/bench_check.py measures it); this keeps them from coming back."""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import SAMPLES, run_cli

LOGS = sorted(
    path for path in (SAMPLES / "logs").rglob("*.jsonl*") if path.name.endswith((".jsonl", ".jsonl.gz"))
)


@contextmanager
def _garbage() -> Iterator[list[object]]:
    """What became cyclic garbage while the block ran (kept, not freed, to be counted). What exists
    before it, garbage or not, is frozen (`gc.freeze`): the collection after the block walks only what
    the block made, not the test process's whole heap (nine tenths of this test's time)."""
    gc.disable()
    gc.freeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    garbage: list[object] = []
    try:
        yield garbage
    finally:
        gc.collect()
        garbage.extend(gc.garbage)
        gc.garbage.clear()
        gc.set_debug(0)
        gc.unfreeze()
        gc.enable()


@pytest.mark.parametrize("log", LOGS, ids=lambda path: path.name)
def test_a_judged_round_leaves_no_cycle(log: Path) -> None:
    run_cli("check", str(log), "--format", "json", "--quiet")  # rulesets parsed and cached first
    with _garbage() as garbage:
        result = run_cli("check", str(log), "--format", "json", "--quiet")
    assert result.returncode in (0, 1), result.stderr
    left = Counter(
        type(thing).__qualname__
        for thing in garbage
        if type(thing).__module__.startswith("validator.replay")
        or type(thing).__module__.startswith("validator.casino")
    )
    assert not left, f"reference cycles left by the replay of {log.name}: {dict(left)}"
