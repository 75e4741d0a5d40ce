"""Conditions folded by what is known before a log is read: one folder, for the findings' wording and for
the fast path's generated code.

Parameters are constants of a version, so a condition that reads one is decided, in part, before any
log is read. `dealer.total <= param.dealer.stands_on - 1 or (param.dealer.hits_soft_17 and
dealer.total == param.dealer.stands_on and dealer.soft)` is, under the French text (17, no soft-17
hit), `dealer.total <= 16`; under Ontario's (17, soft 17 hit), `dealer.total <= 16 or
(dealer.total == 17 and dealer.soft)`. The replay, `explain` and the findings all work on the
specialised condition, so changing a parameter changes what is checked and how a finding reads.

What is folded:
- `any NAME in param.LIST: condition` is unrolled into the `or` of the condition for each value, a named
  condition (`define`) replaced by its condition where it is cited (`unroll`);
- a parameter is replaced by its value (and, for the generated code, a house option by the table's);
- arithmetic and comparisons of two values are computed (unless they raise: then they stay, to be
  reported, or to raise, when run); `not` of a value is its opposite;
- inside `and` and `or`, parts that are always true (in `and`) or always false (in `or`) are dropped, and
  a part that decides the whole (false in `and`, true in `or`) ends it.

Two modes, where the wording and the generated code must differ (`Mode`):
- `WORDING` (what the compiler keeps, and a finding shows): values as the version gives them (a ratio
  reads `3:2`, a list as written); only a truth value decides; the deciding part replaces its whole
  group, a group of one part is that part, nested groups of one operator are flattened. `specialize`
  leaves a condition that is not a group as written (`shoe.decks == param.shoe.decks`: its finding
  shows the parameter's name and the value it had); a guard, which no finding shows, is folded whole.
- `CODE` (`dsl.codegen`, which writes the fast path from what `WORDING` left): values as the generated
  code computes with them (ratios by their factor, lists as tuples), truth as Python's; the parts before
  a deciding one are kept, and the deciding value after them, since they may raise (which sends the
  rule to the closures); a group keeps its shape (the code makes a group a `bool`).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from validator.dsl import ast
from validator.dsl.expr import arithmetic, compare, plain_value

Defines = Mapping[str, ast.Expr]
_NONE: Defines = {}


class Mode(Enum):
    WORDING = "wording"
    CODE = "code"


def specialize(node: ast.Expr, params: Mapping[str, Any], defines: Defines = _NONE) -> ast.Expr:
    """The condition as it reads under these parameter values (see the module's doc)."""
    node = unroll(node, params, {}, defines)
    if isinstance(node, ast.BoolOp | ast.Not):
        return _fold(node, params, None, Mode.WORDING)
    return node


def fold(
    node: ast.Expr,
    params: Mapping[str, Any],
    defines: Defines = _NONE,
    *,
    house: Mapping[str, Any] | None = None,
    mode: Mode = Mode.WORDING,
) -> ast.Expr:
    """Folded whole, the root included (a guard, whose text no finding shows; the generated code); with
    `house` (`Mode.CODE`), the table's house options in place too."""
    return _fold(unroll(node, params, {}, defines), params, house, mode)


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
    if isinstance(node, ast.Arith | ast.Compare):
        left, right = unroll(node.left, params, bound, defines), unroll(node.right, params, bound, defines)
        return type(node)(node.pos, node.op, left, right)
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


def _truth(node: ast.Expr, mode: Mode) -> bool | None:
    """What a folded part says of its group: its truth when it is a value that decides (`WORDING`: a
    truth value; `CODE`: any value, as Python reads it), else None."""
    if not isinstance(node, ast.Literal):
        return None
    if mode is Mode.CODE:
        return bool(node.value)
    return node.value if isinstance(node.value, bool) else None


def _fold(node: ast.Expr, params: Mapping[str, Any], house: Mapping[str, Any] | None, mode: Mode) -> ast.Expr:
    code = mode is Mode.CODE
    if isinstance(node, ast.Name):
        return _fold_name(node, params, house, code)
    if isinstance(node, ast.Literal):
        return node
    if isinstance(node, ast.Call):
        return ast.Call(node.pos, node.function, tuple(_fold(a, params, house, mode) for a in node.args))
    if isinstance(node, ast.ListExpr):
        items = tuple(_fold(i, params, house, mode) for i in node.items)
        if code and all(isinstance(item, ast.Literal) for item in items):
            return ast.Literal(node.pos, tuple(plain_value(item.value) for item in items))  # type: ignore[union-attr]
        return ast.ListExpr(node.pos, items)
    if isinstance(node, ast.Arith | ast.Compare):
        return _fold_binary(node, params, house, mode)
    if isinstance(node, ast.Not):
        item = _fold(node.item, params, house, mode)
        truth = _truth(item, mode)
        return ast.Not(node.pos, item) if truth is None else ast.Literal(node.pos, not truth)
    if isinstance(node, ast.BoolOp):
        return _fold_group(node, params, house, mode)
    # i18n: not shown (a bug of the program)
    raise TypeError(f"not an expression: {node!r}")  # pragma: no cover


def _fold_name(
    node: ast.Name, params: Mapping[str, Any], house: Mapping[str, Any] | None, code: bool
) -> ast.Expr:
    """A parameter's value, or a house option's when the house is given; a fact stays a name."""
    namespace, _unused, field = node.path.partition(".")
    if namespace == "param":
        value = params[field]
        return ast.Literal(node.pos, plain_value(value) if code else value)
    if namespace == "house" and house is not None:
        return ast.Literal(node.pos, plain_value(house.get(field)))
    return node


def _fold_binary(
    node: ast.Arith | ast.Compare, params: Mapping[str, Any], house: Mapping[str, Any] | None, mode: Mode
) -> ast.Expr:
    """`a op b` computed when both sides fold to values (and it can be: else left for the replay)."""
    left, right = _fold(node.left, params, house, mode), _fold(node.right, params, house, mode)
    rebuilt = type(node)(node.pos, node.op, left, right)
    if not (isinstance(left, ast.Literal) and isinstance(right, ast.Literal)):
        return rebuilt
    a, b = plain_value(left.value), plain_value(right.value)
    try:
        value = arithmetic(rebuilt, a, b) if isinstance(rebuilt, ast.Arith) else compare(rebuilt, a, b)
    except Exception:  # left for the replay to report (or to raise when run), as if not folded
        return rebuilt
    return ast.Literal(node.pos, value)


def _fold_group(
    node: ast.BoolOp, params: Mapping[str, Any], house: Mapping[str, Any] | None, mode: Mode
) -> ast.Expr:
    """`and`/`or`: a part that decides the group ends it, a part that cannot is dropped."""
    code = mode is Mode.CODE
    decides = node.op == "or"  # the value that decides the group: true for `or`, false for `and`
    kept: list[ast.Expr] = []
    changed: list[bool] = []
    for original in node.items:
        item = _fold(original, params, house, mode)
        truth = _truth(item, mode)
        if truth is None:
            kept.append(item)
            changed.append(item != original)
        elif truth is decides:
            if not code or not kept:
                return ast.Literal(node.pos, decides)
            kept.append(ast.Literal(node.pos, decides))  # after the parts that may raise first
            break
    if not kept:
        return ast.Literal(node.pos, not decides)
    if code:
        return ast.BoolOp(node.pos, node.op, tuple(kept))
    return kept[0] if len(kept) == 1 else _flat(node, kept, changed)
