"""One folder of conditions (validator/dsl/fold.py), in its two modes: the wording the findings show and the
code the fast path runs. Each expected result is worked out by hand in the test's comment."""

from __future__ import annotations

from decimal import Decimal

from validator.dsl import ast
from validator.dsl.expr import unparse
from validator.dsl.fold import Mode, fold, specialize

AT = ast.Pos(1, 1)


def name(path: str) -> ast.Name:
    return ast.Name(AT, path)


def value(v: object) -> ast.Literal:
    return ast.Literal(AT, v)


def cmp(left: ast.Expr, op: str, right: ast.Expr) -> ast.Compare:
    return ast.Compare(AT, op, left, right)


def group(op: str, *items: ast.Expr) -> ast.BoolOp:
    return ast.BoolOp(AT, op, items)


# The module's example: `dealer.total <= param.dealer.stands_on - 1 or (param.dealer.hits_soft_17 and
# dealer.total == param.dealer.stands_on and dealer.soft)`.
DEALER_DRAWS = group(
    "or",
    cmp(name("dealer.total"), "<=", ast.Arith(AT, "-", name("param.dealer.stands_on"), value(Decimal(1)))),
    group(
        "and",
        name("param.dealer.hits_soft_17"),
        cmp(name("dealer.total"), "==", name("param.dealer.stands_on")),
        name("dealer.soft"),
    ),
)


def test_the_wording_under_the_french_and_the_ontario_texts():
    # French text: stands on 17, no soft-17 hit: 17 - 1 = 16; `false and …` is false, dropped from the `or`,
    # which is left with one part: `dealer.total <= 16`.
    french = {"dealer.stands_on": Decimal(17), "dealer.hits_soft_17": False}
    assert unparse(specialize(DEALER_DRAWS, french)) == "dealer.total <= 16"
    # Ontario: soft 17 hit: `true` drops out of the `and`, 17 is written in.
    ontario = {"dealer.stands_on": Decimal(17), "dealer.hits_soft_17": True}
    assert unparse(specialize(DEALER_DRAWS, ontario)) == (
        "dealer.total <= 16 or (dealer.total == 17 and dealer.soft)"
    )


def test_a_condition_that_is_not_a_group_reads_as_written():
    # Its finding shows the parameter's name and the value it had; a guard (fold) is folded whole.
    decks = cmp(name("shoe.decks"), "==", name("param.shoe.decks"))
    assert specialize(decks, {"shoe.decks": Decimal(6)}) == decks
    assert unparse(fold(decks, {"shoe.decks": Decimal(6)})) == "shoe.decks == 6"


def test_a_deciding_part_ends_the_group_in_both_modes_but_only_the_code_keeps_what_came_before():
    # `hand.total > 21 or param.x`, x true: the wording is `true` (the part that decides replaces its group);
    # the code keeps `hand.total > 21`, evaluated first, which may raise (a missing fact), then `true`.
    condition = group("or", cmp(name("hand.total"), ">", value(Decimal(21))), name("param.x"))
    assert fold(condition, {"x": True}) == value(True)
    coded = fold(condition, {"x": True}, mode=Mode.CODE)
    assert unparse(coded) == "hand.total > 21 or true"
    # A part that decides nothing drops out in both (x false in an `or`); the code keeps the group's shape.
    assert unparse(fold(condition, {"x": False})) == "hand.total > 21"
    kept = fold(condition, {"x": False}, mode=Mode.CODE)
    assert isinstance(kept, ast.BoolOp) and unparse(kept) == "hand.total > 21"


def test_values_as_the_version_gives_them_or_as_the_code_computes_with_them():
    # A ratio reads 3:2 in a finding (unparse puts arithmetic inside a comparison in parentheses); the
    # generated code multiplies by its factor, 1.5.
    payout = cmp(name("stake.paid"), "==", ast.Arith(AT, "*", name("stake.amount"), name("param.pays")))
    three_to_two = ast.Ratio(Decimal(3), Decimal(2))
    assert unparse(fold(payout, {"pays": three_to_two})) == "stake.paid == (stake.amount * 3:2)"
    coded = fold(payout, {"pays": three_to_two}, mode=Mode.CODE)
    assert coded.right.right == value(Decimal("1.5"))  # type: ignore[union-attr]
    # A list of values becomes the tuple the code compares with; the wording keeps the list.
    listed = cmp(name("hand.total"), "in", ast.ListExpr(AT, (name("param.a"), value(Decimal(11)))))
    assert fold(listed, {"a": Decimal(10)}, mode=Mode.CODE).right == value((Decimal(10), Decimal(11)))  # type: ignore[union-attr]
    assert isinstance(fold(listed, {"a": Decimal(10)}).right, ast.ListExpr)  # type: ignore[union-attr]


def test_only_a_truth_value_decides_in_the_wording_any_value_in_the_code():
    # `not house.x` with x unset (None): the code reads None as false, so `not` gives true; the wording
    # has no house values and leaves it (and a non-boolean value is the replay's to report).
    condition = ast.Not(AT, name("house.x"))
    assert fold(condition, {}, house={}, mode=Mode.CODE) == value(True)
    assert fold(condition, {}) == condition
    assert fold(ast.Not(AT, value(None)), {}) == ast.Not(AT, value(None))


def test_what_raises_is_left_to_raise_when_run():
    # An ordering of an unknown value cannot be decided: it stays as written, in both modes.
    unknown = cmp(name("param.x"), "<", value(Decimal(3)))
    assert unparse(fold(unknown, {"x": None})) == "none < 3"
    assert unparse(fold(unknown, {"x": None}, mode=Mode.CODE)) == "none < 3"


def test_any_of_a_list_is_unrolled():
    # `any m in param.multiples: table.maximum == table.minimum * m`, multiples (2, 5): the `or` of both.
    body = cmp(name("table.maximum"), "==", ast.Arith(AT, "*", name("table.minimum"), name("m")))
    condition = ast.AnyOf(AT, "m", "param.multiples", body)
    folded = fold(condition, {"multiples": (Decimal(2), Decimal(5))})
    assert unparse(folded) == ("table.maximum == (table.minimum * 2) or table.maximum == (table.minimum * 5)")
