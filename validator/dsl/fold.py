"""A rule as its version's parameters make it: conditions specialised when the ruleset is compiled.

Parameters are constants of a version, so a condition that reads one is decided, in part, before any
log is read. `dealer.total <= param.dealer.stands_on - 1 or (param.dealer.hits_soft_17 and
dealer.total == param.dealer.stands_on and dealer.soft)` is, under the French text (17, no soft-17
hit), `dealer.total <= 16`; under Ontario's (17, soft 17 hit), `dealer.total <= 16 or
(dealer.total == 17 and dealer.soft)`. The replay, `explain` and the findings all work on the
specialised condition, so changing a parameter changes what is checked and how a finding reads.

What is folded, and only that:
- inside `and`, `or` and `not`: a parameter is replaced by its value, arithmetic and comparisons of
  values are computed, parts that are always true (in `and`) or always false (in `or`) are dropped, a
  part that decides the whole (false in `and`, true in `or`) replaces it, a group of one part is that
  part, and nested groups of the same operator are flattened;
- `any NAME in param.LIST: condition` is unrolled into the `or` of the condition for each value.
A condition that is not a group (`shoe.decks == param.shoe.decks`) is left as written: its finding
shows the parameter's name and the value it had.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from validator.dsl import ast
from validator.dsl.expr import EvaluationError, arithmetic, compare, plain_value

_NOT_FOLDED = object()


Defines = Mapping[str, ast.Expr]
_NONE: Defines = {}


def specialize(node: ast.Expr, params: Mapping[str, Any], defines: Defines = _NONE) -> ast.Expr:
    """The condition as it reads under these parameter values (see the module's doc)."""
    node = unroll(node, params, {}, defines)
    if isinstance(node, ast.BoolOp | ast.Not):
        return _fold(node, params)
    return node


def fold(node: ast.Expr, params: Mapping[str, Any], defines: Defines = _NONE) -> ast.Expr:
    """Folded whole, the root included: for a guard, whose text no finding shows."""
    return _fold(unroll(node, params, {}, defines), params)


def unroll(
    node: ast.Expr, params: Mapping[str, Any], bound: Mapping[str, Any], defines: Defines = _NONE
) -> ast.Expr:
    """`any m in param.X: c` → `c[m := x1] or c[m := x2] …`; a bound name → the value it stands for;
    a named condition (`define`) → its condition, in the place it is cited."""
    if isinstance(node, ast.AnyOf):
        values = params[node.collection.removeprefix("param.")]
        items = tuple(unroll(node.body, params, {**bound, node.var: v}, defines) for v in values or ())
        if not items:
            return ast.Literal(node.pos, False)
        if len(items) == 1:
            return items[0]
        return _flat(ast.BoolOp(node.pos, "or", items), list(items), [True] * len(items))
    if isinstance(node, ast.Name):
        if node.path in bound:
            return ast.Literal(node.pos, bound[node.path])
        if node.path in defines:
            return unroll(defines[node.path], params, bound, defines)
        return node
    if isinstance(node, ast.Literal):
        return node
    if isinstance(node, ast.Call):
        return ast.Call(node.pos, node.function, tuple(unroll(a, params, bound, defines) for a in node.args))
    if isinstance(node, ast.ListExpr):
        return ast.ListExpr(node.pos, tuple(unroll(i, params, bound, defines) for i in node.items))
    if isinstance(node, ast.Arith):
        return ast.Arith(
            node.pos,
            node.op,
            unroll(node.left, params, bound, defines),
            unroll(node.right, params, bound, defines),
        )
    if isinstance(node, ast.Compare):
        return ast.Compare(
            node.pos,
            node.op,
            unroll(node.left, params, bound, defines),
            unroll(node.right, params, bound, defines),
        )
    if isinstance(node, ast.BoolOp):
        # A named condition cited in a group of its own operator joins the group, as if written there.
        unrolled = [unroll(i, params, bound, defines) for i in node.items]
        return _flat(node, unrolled, [isinstance(i, ast.Name) and i.path in defines for i in node.items])
    if isinstance(node, ast.Not):
        return ast.Not(node.pos, unroll(node.item, params, bound, defines))
    # i18n: not shown (a bug of the program)
    raise TypeError(f"not an expression: {node!r}")  # pragma: no cover


def _flat(node: ast.BoolOp, items: list[ast.Expr], join: list[bool]) -> ast.BoolOp:
    """`node`'s group with these items; those marked `join` that are groups of the same operator are
    spliced in (a group written in parentheses by hand stays as written)."""
    flat: list[ast.Expr] = []
    for item, spliced in zip(items, join, strict=True):
        if spliced and isinstance(item, ast.BoolOp) and item.op == node.op:
            flat.extend(item.items)
        else:
            flat.append(item)
    return ast.BoolOp(node.pos, node.op, tuple(flat))


def _fold(node: ast.Expr, params: Mapping[str, Any]) -> ast.Expr:
    if isinstance(node, ast.Name) and node.path.startswith("param."):
        return ast.Literal(node.pos, params[node.path.removeprefix("param.")])
    if isinstance(node, ast.Literal | ast.Name):
        return node
    if isinstance(node, ast.Call):
        return ast.Call(node.pos, node.function, tuple(_fold(a, params) for a in node.args))
    if isinstance(node, ast.ListExpr):
        return ast.ListExpr(node.pos, tuple(_fold(i, params) for i in node.items))
    if isinstance(node, ast.Arith | ast.Compare):
        left, right = _fold(node.left, params), _fold(node.right, params)
        rebuilt: ast.Arith | ast.Compare
        if isinstance(node, ast.Arith):
            rebuilt = ast.Arith(node.pos, node.op, left, right)
        else:
            rebuilt = ast.Compare(node.pos, node.op, left, right)
        value = _value_of(rebuilt)
        return rebuilt if value is _NOT_FOLDED else ast.Literal(node.pos, value)
    if isinstance(node, ast.Not):
        item = _fold(node.item, params)
        if isinstance(item, ast.Literal) and isinstance(item.value, bool):
            return ast.Literal(node.pos, not item.value)
        return ast.Not(node.pos, item)
    if isinstance(node, ast.BoolOp):
        decides = node.op == "or"  # the value that decides the group: true for `or`, false for `and`
        kept: list[ast.Expr] = []
        changed: list[bool] = []
        for original in node.items:
            item = _fold(original, params)
            if isinstance(item, ast.Literal) and isinstance(item.value, bool):
                if item.value is decides:
                    return ast.Literal(node.pos, decides)
                continue
            kept.append(item)
            changed.append(item != original)
        if not kept:
            return ast.Literal(node.pos, not decides)
        return kept[0] if len(kept) == 1 else _flat(node, kept, changed)
    # i18n: not shown (a bug of the program)
    raise TypeError(f"not an expression: {node!r}")  # pragma: no cover


def _value_of(node: ast.Arith | ast.Compare) -> Any:
    """The value of an operation on two values, or _NOT_FOLDED when a side depends on the replay."""
    if not (isinstance(node.left, ast.Literal) and isinstance(node.right, ast.Literal)):
        return _NOT_FOLDED
    left, right = plain_value(node.left.value), plain_value(node.right.value)
    try:
        if isinstance(node, ast.Arith):
            return arithmetic(node, left, right)
        return compare(node, left, right)
    except (EvaluationError, ArithmeticError, TypeError):
        # Left for the replay to report, as it would have been unfolded (none in an ordering…).
        return _NOT_FOLDED
