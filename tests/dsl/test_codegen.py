"""The generated functions (dsl.codegen) must answer as the rules' closures do: "all held" exactly when
the closures, run one by one, would report nothing, and the same settle clause and amount as the closures
give (or "ask the closures" when one of them cannot be evaluated): on every rule fixture and sample log,
both the functions that read the house options from the context and those with a table's options
written in (`Ruleset.under_house`)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import FIXTURES, ROOT

from validator.checking.fixtures import find_fixtures, run_fixture
from validator.checking.serial import check_logs
from validator.dsl import ast
from validator.dsl.codegen import all_held, settlement
from validator.dsl.expr import EvaluationError
from validator.dsl.model import HouseChecks, Ruleset, folded_checks
from validator.replay import judge as judge_module
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


def _closures_settle(pairs: tuple[Any, ...], ctx: dict[str, Any]) -> Any:
    """What the judge's closures give a stake: (rule, clause, amount), None when no clause holds, False
    when a guard or the amount cannot be evaluated."""
    for rule, settle in pairs:
        try:
            if settle.guard is not None and not settle.guard(ctx):
                continue
            return rule, settle, settle.amount(ctx) if settle.amount is not None else None
        except (EvaluationError, TypeError):
            return False
    return None


def _checked(made: HouseChecks, ruleset: Ruleset, seen: Counter[tuple[str, bool]]) -> HouseChecks:
    """Functions that run the generated ones made for a table's options, those that read the options
    from the context (`all_held_by_event`, `settlement_by_stake`) and the closures, and compare."""
    checks = {
        event: _three_ways(
            fast,
            ruleset.all_held_by_event[event],
            functools.partial(_closures_say_all_held, ruleset.checks_by_event[event]),
            f"{ruleset.version} on {event}",
            event,
            seen,
        )
        for event, fast in made.all_held.items()
    }
    settles = {
        stake: _three_ways(
            decide,
            ruleset.settlement_by_stake[stake],
            functools.partial(_closures_settle, ruleset.settles_by_stake[stake]),
            f"{ruleset.version} settling {stake}",
            f"settle {stake}",
            seen,
            to_the_digit=True,
        )
        for stake, decide in made.settlement.items()
    }
    return HouseChecks(checks, settles)


def _three_ways(
    generated: Callable[[dict[str, Any]], Any],
    reading: Callable[[dict[str, Any]], Any],
    closures: Callable[[dict[str, Any]], Any],
    where: str,
    label: str,
    seen: Counter[tuple[str, bool]],
    *,
    to_the_digit: bool = False,
) -> Callable[[dict[str, Any]], Any]:
    """A function giving what `generated` gives, once it agrees with `reading` and `closures` on the
    context (with `to_the_digit`, a settlement's amount written the same by all three); counted in `seen`."""

    def compared(ctx: dict[str, Any]) -> Any:
        answer, read, expected = generated(ctx), reading(ctx), closures(ctx)
        assert answer == read == expected, f"{where}: generated {answer} and {read}, closures {expected}"
        if to_the_digit and answer:  # the same amount to the digit: a report shows it as it is
            assert repr(answer[2]) == repr(read[2]) == repr(expected[2]), where
        seen[(label, bool(answer))] += 1
        return answer

    return compared


@pytest.fixture(scope="module")
def compared() -> Iterator[tuple[Any, Counter[tuple[str, bool]]]]:
    """A registry of its own whose judges' generated functions also run the closures and compare."""
    registry = load_all(ruleset_files(rulesets_dir()), rulesets_dir())
    seen: Counter[tuple[str, bool]] = Counter()
    under_house = Ruleset.under_house

    def checked_under_house(ruleset: Ruleset, house: dict[str, Any]) -> HouseChecks:
        return _checked(under_house(ruleset, house), ruleset, seen)

    def checked_folded(
        checks_by_event: dict[str, Any], events: tuple[str, str], params: Any, house: Any
    ) -> Callable[[dict[str, Any]], Any] | None:
        # Two events' rules as one function (what the replay asks for the initial deal's cards and for
        # a hit or a stand after the turn): "all held" exactly when the closures of both say so.
        made = folded_checks(checks_by_event, events, params, house)
        if made is None:
            return None
        first, then = (checks_by_event.get(event, ()) for event in events)

        def both(ctx: dict[str, Any]) -> bool:
            return _closures_say_all_held(first, ctx) and _closures_say_all_held(then, ctx)

        return _three_ways(made, both, both, f"{events[0]} then {events[1]}", " then ".join(events), seen)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Ruleset, "under_house", checked_under_house)
        patch.setattr(judge_module, "folded_checks", checked_folded)
        yield registry, seen


def test_generated_functions_agree_with_closures_on_every_fixture(compared) -> None:
    registry, seen = compared
    for expect in find_fixtures(RULE_FIXTURES):
        for result in run_fixture(registry, expect, RULE_FIXTURES):
            assert result.ok, result.problems
    # Both answers were given many times, on many events: the comparison was not vacuous.
    assert sum(n for (_, answer), n in seen.items() if not answer) > 300
    assert len({event for event, answer in seen if answer}) >= 15
    assert seen[("settle main", True)] > 100
    # The events asked in one call: each answer given, on the fixtures of the turn and the deal.
    for folded in ("card then deal", "turn then hit", "turn then stand"):
        assert seen[(folded, True)] > 20 and seen[(folded, False)] > 0, folded


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


def test_house_options_written_in_leave_out_what_they_decide() -> None:
    # `when house.no_hit_on_21 require hand.total < 21`: off at this table, the rule is not written at all
    # (nor is the house read); on, only the requirement is left.
    rule = (_name("house.no_hit_on_21"), _compare(_name("hand.total"), "<", _number("21")))
    off = all_held([rule], {}, "rules_on_hit", {"no_hit_on_21": False})
    assert "house" not in off.source and "hand" not in off.source  # type: ignore[attr-defined]
    assert off(_names(hand={"total": 21}))
    on = all_held([rule], {}, "rules_on_hit", {"no_hit_on_21": True})
    assert "house" not in on.source  # type: ignore[attr-defined]
    assert on(_names(hand={"total": 20}))
    assert not on(_names(hand={"total": 21}))


def test_a_house_option_that_cannot_be_compared_still_asks_the_closures() -> None:
    # `house.max_boxes_per_player < 3` with a text where a number belongs: Python cannot compare them,
    # so the comparison stays in the function, raises there, and the closures say why.
    rule = (None, _compare(_name("house.max_boxes_per_player"), "<", _number("3")))
    fast = all_held([rule], {}, "rules_on_box", {"max_boxes_per_player": "two"})
    assert not fast(_names())
    assert all_held([rule], {}, "rules_on_box", {"max_boxes_per_player": Decimal(2)})(_names())


def test_a_requirement_the_house_breaks_is_broken_whenever_its_guard_holds() -> None:
    guarded = (_name("hand.split"), _name("house.double_after_split"))
    fast = all_held([guarded], {}, "rules_on_double", {"double_after_split": False})
    assert fast(_names(hand={"split": False}))
    assert not fast(_names(hand={"split": True}))


def test_the_settle_function_gives_the_clause_and_its_amount() -> None:
    # `settle main when hand.blackjack => pay stake.amount * 1.5`, then `settle main => lose`.
    pays = ast.Arith(ast.Pos(1, 1), "*", _name("stake.amount"), _number("1.5"))
    clauses = [(_name("hand.blackjack"), pays, ("pay", "rule 1")), (None, None, ("lose", "rule 2"))]
    decide = settlement(clauses, {}, "settle_main")
    assert decide(_names(hand={"blackjack": True}, stake={"amount": Decimal("10")})) == (
        "pay",
        "rule 1",
        Decimal("15.0"),
    )
    # A whole number is made a decimal first, as `arithmetic` does.
    assert repr(decide(_names(hand={"blackjack": True}, stake={"amount": 10}))[2]) == "Decimal('15.0')"
    assert decide(_names(hand={"blackjack": False}, stake={"amount": None})) == ("lose", "rule 2", None)
    # An amount that is not known: the closures are asked, and say why.
    assert decide(_names(hand={"blackjack": True}, stake={"amount": None})) is False
    only = settlement(clauses[:1], {}, "settle_main")
    assert only(_names(hand={"blackjack": False}, stake={"amount": Decimal("10")})) is None  # none holds


def test_two_events_folded_into_one_function_once_and_never_while_tracing() -> None:
    """`Judge.folded`: the card's and the deal's rules as one function, made once per judge, with every
    test of both events' own functions (the same house options written in); none while `explain` traces
    (each event is then asked alone, so every rule runs) and none where no rule listens to either."""
    from validator.replay.judge import Judge
    from validator.rulebook.registry import default_registry

    ruleset = default_registry().pick("fr/blackjack@2016-06-10")
    judge = Judge(ruleset, ruleset.house_defaults(), "folded.jsonl")
    folded = judge.folded("card", "deal")
    assert folded is not None and judge.folded("card", "deal") is folded
    assert judge.folded("no-such-event", "nor-this-one") is None
    judge.trace = []
    assert judge.folded("card", "deal") is None

    def tests(text: str) -> int:
        return text.count("        if ")

    def own(event: str) -> str:
        conditions = [(c.applied_guard, c.applied_require) for _r, c in ruleset.checks_by_event[event]]
        made = all_held(conditions, judge.params, event, judge.house)
        return str(made.source)  # type: ignore[attr-defined]

    both = folded_checks(ruleset.checks_by_event, ("card", "deal"), judge.params, judge.house)
    assert both is not None
    assert tests(both.source) == tests(own("card")) + tests(own("deal")) > 2  # type: ignore[attr-defined]
