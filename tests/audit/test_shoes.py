"""Each shoe's order tested for randomness and for an order reused from an earlier shoe
(`validator.audit.shoes`), on its own figures worked by hand and end to end in the report."""

from __future__ import annotations

import math
import random
import shutil
from pathlib import Path

import orjson
import pytest

from validator.audit.dataset.writer import DatasetRun
from validator.audit.query import build
from validator.audit.shoes import order_test, poisson_tail, reused
from validator.casino.cards import all_cards
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.rulebook.registry import default_registry
from validator.simulate.options import SimulateOptions
from validator.simulate.plan import prepare


def test_links_and_their_expectation_by_hand() -> None:
    """7♠ 8♠ 2♥ 3♦: one link (7♠ 8♠; 2♥ 3♦ are of two suits). Of these four cards, the ordered pairs that
    link are 7♠→8♠ and 8♠→7♠: L = 2, so a random order has λ = 2 ÷ 4 = 0.5 links on average, and at
    least one with probability 1 − e^−0.5."""
    found = order_test(["7S", "8S", "2H", "3D"])
    assert (found.cards, found.links) == (4, 1)
    assert found.expected == 0.5
    assert abs(found.p - (1 - math.exp(-0.5))) < 1e-15
    # The tail far out, summed upwards: P(X ≥ 3) for λ = 0.5 is 1 − e^−0.5 (1 + 0.5 + 0.125).
    assert abs(poisson_tail(3, 0.5) - (1 - math.exp(-0.5) * 1.625)) < 1e-15
    assert 0 < poisson_tail(200, 8.0) < 1e-150


def test_new_decks_unshuffled_and_a_short_shuffle_are_told_from_a_random_order() -> None:
    """Six new decks in their order (A♠ 2♠ … K♠ A♥ …): nearly every two cards in a row link. A random
    order of them has about 8 links in 240 cards."""
    new = all_cards() * 6
    assert order_test(new[:240]).p < 1e-100
    rng = random.Random(3)
    shoe = list(new)
    rng.shuffle(shoe)
    assert order_test(shoe[:240]).p > 1e-3


def test_a_shoe_holding_an_earlier_shoe_s_run_is_reused() -> None:
    rng = random.Random(5)
    first, second, third = all_cards() * 6, all_cards() * 6, all_cards() * 6
    for shoe in (first, second, third):
        rng.shuffle(shoe)
    # A third shoe's cards, with 40 of the first shoe's in their order from its 31st card on.
    replayed = third[:30] + first[100:140] + third[30:200]
    found = reused([(("T1", "a"), first[:240]), (("T1", "b"), second[:240]), (("T2", "c"), replayed)])
    assert [(r.shoe, r.earlier, r.at) for r in found] == [(("T2", "c"), ("T1", "a"), 30)]


def _log(path: Path, table: str, rounds: int, seed: int) -> list[dict]:  # type: ignore[type-arg]
    _chosen, records = prepare(
        default_registry(),
        SimulateOptions("fr/blackjack@2025-03-14", rounds=rounds, seed=seed, table=table, players="random"),
    )
    found = list(records)
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in found))
    return found


def _audit(logs: list[Path], folder: Path):  # type: ignore[no-untyped-def]
    registry = default_registry()
    shutil.rmtree(folder, ignore_errors=True)
    run = DatasetRun.start(str(folder), [str(p) for p in logs], {}, None)
    summary = Summary()
    for _ in run.writer().write_all(
        check_logs(registry, [str(p) for p in logs], summary=summary, collect=True)
    ):
        pass
    run.commit(summary)
    return build([str(folder)], theory={})  # the shoes need no figures


def test_the_report_flags_an_unshuffled_shoe_and_a_replayed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three tables: T-1 shuffled as the simulator shuffles; T-2's log is T-1's rounds dealt again (its
    shoes replay T-1's, card for card); T-3 deals new decks unshuffled. Only T-3's shoes are flagged for
    their order; T-2's reuse T-1's orders, and T-3's after its first reuse the first's (new decks' order,
    the same each time); T-1's are neither."""
    one = tmp_path / "t1.jsonl"
    records = _log(one, "T-1", 60, seed=2)
    two = tmp_path / "t2.jsonl"
    text = b"".join(orjson.dumps(r) + b"\n" for r in records).replace(b'"T-1', b'"T-2')
    two.write_bytes(text)
    with monkeypatch.context() as patched:
        patched.setattr(random.Random, "shuffle", lambda self, x: None)
        _log(tmp_path / "t3.jsonl", "T-3", 30, seed=3)
    audit = _audit([one, two, tmp_path / "t3.jsonl"], tmp_path / "ds")
    tested = audit.shoes_tested
    assert tested >= 5
    assert {s["table_id"] for s in audit.shoes_flagged} == {"T-3"}
    assert all(s["p"] < audit.shoe_threshold for s in audit.shoes_flagged)
    pairs = {(s["table_id"], s["earlier_table"]) for s in audit.shoes_reused}
    assert pairs == {("T-2", "T-1"), ("T-3", "T-3")}
    shoes_of_two = {r["shoe"] for r in records if r.get("type") == "round"}
    assert sum(1 for s in audit.shoes_reused if s["table_id"] == "T-2") == len(shoes_of_two)
