"""The generated functions (dsl.codegen) must answer as the rules' closures do: "all held" exactly when
the closures, run one by one, would report nothing, and the same settle clause as the closures pick
(or "ask the closures" when one of them cannot be evaluated): on every rule fixture and sample log."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import FIXTURES, ROOT

from validator.checking.serial import check_logs
from validator.dsl import ast
from validator.dsl.codegen import all_held
from validator.dsl.expr import EvaluationError
from validator.rulebook.fixtures import find_fixtures, run_fixture
from validator.rulebook.registry import load_all, ruleset_files, rulesets_dir

RULE_FIXTURES = FIXTURES / "rules"


def _closures_say_all_held(pairs: tuple[Any, ...], ctx: dict[str, Any]) -> bool:
    for _rule, check in pairs:
        try:
            if check.guard is not None and not check.guard(ctx):
                continue
            if not check.require(ctx):
                return False
        except (EvaluationError, TypeError):
            return False
    return True


def _closures_pick(pairs: tuple[Any, ...], ctx: dict[str, Any]) -> int | None:
    for index, (_rule, settle) in enumerate(pairs):
        try:
            if settle.guard is None or settle.guard(ctx):
                return index
        except (EvaluationError, TypeError):
            return None
    return -1


@pytest.fixture(scope="module")
def compared() -> tuple[Any, Counter[tuple[str, bool]]]:
    """A registry of its own whose fast functions also run the closures and compare."""
    registry = load_all(ruleset_files(rulesets_dir()), rulesets_dir())
    seen: Counter[tuple[str, bool]] = Counter()
    for ruleset in registry.all():
        for event, fast in list(ruleset.all_held_by_event.items()):
            pairs = ruleset.checks_by_event[event]

            def both(
                ctx: dict[str, Any], fast=fast, pairs=pairs, event=event, version=ruleset.version
            ) -> bool:
                answer = fast(ctx)
                expected = _closures_say_all_held(pairs, ctx)
                assert answer == expected, f"{version} on {event}: generated {answer}, closures {expected}"
                seen[(event, answer)] += 1
                return answer

            ruleset.all_held_by_event[event] = both
        for stake, first in list(ruleset.first_settle_by_stake.items()):
            clauses = ruleset.settles_by_stake[stake]

            def same_pick(ctx: dict[str, Any], first=first, clauses=clauses, stake=stake) -> int | None:
                answer = first(ctx)
                expected = _closures_pick(clauses, ctx)
                assert answer == expected, f"settling {stake}: generated {answer}, closures {expected}"
                seen[(f"settle {stake}", answer is not None and answer >= 0)] += 1
                return answer

            ruleset.first_settle_by_stake[stake] = same_pick
    return registry, seen


def test_generated_functions_agree_with_closures_on_every_fixture(compared) -> None:
    registry, seen = compared
    for expect in find_fixtures(RULE_FIXTURES):
        for result in run_fixture(registry, expect, RULE_FIXTURES):
            assert result.ok, result.problems
    # Both answers were given many times, on many events: the comparison was not vacuous.
    assert sum(n for (_, answer), n in seen.items() if not answer) > 300
    assert len({event for event, answer in seen if answer}) >= 15
    assert seen[("settle main", True)] > 100


def test_generated_functions_agree_with_closures_on_the_samples(compared) -> None:
    registry, seen = compared
    before = sum(seen.values())
    outcomes = list(check_logs(registry, [str(ROOT / "samples" / "logs")]))
    assert outcomes and sum(seen.values()) - before > 10_000


def _names(**namespaces: Any) -> dict[str, Any]:
    return {"house": {}, **{k: SimpleNamespace(**v) for k, v in namespaces.items()}}


def _compare(left: ast.Expr, op: str, right: ast.Expr) -> ast.Compare:
    return ast.Compare(ast.Pos(1, 1), op, left, right)


def _name(path: str) -> ast.Name:
    return ast.Name(ast.Pos(1, 1), path)


def _number(value: str) -> ast.Literal:
    return ast.Literal(ast.Pos(1, 1), Decimal(value))


def test_a_fact_that_is_not_known_is_not_all_held() -> None:
    # `hand.total < 21` with no total: the closures raise (not judged), so the answer must be "run them".
    fast = all_held([(None, _compare(_name("hand.total"), "<", _number("21")))], {}, "rules_on_hit")
    assert fast(_names(hand={"total": 20}))
    assert not fast(_names(hand={"total": 21}))
    assert not fast(_names(hand={"total": None}))
    assert not fast({"house": {}})  # no hand at all


def test_a_guard_that_does_not_hold_skips_its_rule() -> None:
    guard = _name("house.no_hit_on_21")
    fast = all_held([(guard, _compare(_name("hand.total"), "<", _number("21")))], {}, "rules_on_hit")
    context = _names(hand={"total": 21})
    assert fast(context)
    context["house"] = {"no_hit_on_21": True}
    assert not fast(context)


def test_the_source_is_kept_for_reading() -> None:
    fast = all_held(
        [(None, _compare(_name("card.in_shoe"), "==", ast.Literal(ast.Pos(1, 1), True)))], {}, "x"
    )
    assert "ns_card.in_shoe == True" in fast.source  # type: ignore[attr-defined]
