"""Expressions of the rules language → Python closures over the replay context.

A context is a mapping from namespace (`hand`, `dealer`, …) to an object whose attributes are the facts
of `vocabulary.NAMESPACES`; `param.*` is resolved when the ruleset is compiled, `house.*` from the
table's house options. Money and ratios are `Decimal`; nothing here touches a float.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any

from validator.casino.money import fmt
from validator.dsl import ast
from validator.dsl.functions import FUNCTIONS, EvaluationError
from validator.i18n import _

Context = Mapping[str, Any]
Compiled = Callable[[Context], Any]


def plain_value(value: Any) -> Any:
    """Ratios take part in arithmetic and comparisons by their factor (3:2 → 1.5)."""
    if isinstance(value, ast.Ratio):
        return value.factor
    if isinstance(value, tuple):
        return tuple(plain_value(v) for v in value)
    return value


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda a, b: a in b,
}

_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
}


def arithmetic(node: ast.Arith, a: Any, b: Any) -> Any:
    """`a op b` as the rules mean it: exact decimals (a count is made one), and no value unknown."""
    if a is None or b is None:
        raise EvaluationError(_("{expression}: a value is not known").format(expression=unparse(node)))
    try:
        return _ARITH[node.op](Decimal(a) if isinstance(a, int) else a, b)
    except ArithmeticError:
        # A division by a fact that is 0 in this round (a divisor always 0 is refused by `rules check`),
        # or a number too large: the rule cannot be judged here, which the summary says.
        raise EvaluationError(
            _("{expression}: cannot be computed with the round's values (a division by 0?)").format(
                expression=unparse(node)
            )
        ) from None


def compare(node: ast.Compare, a: Any, b: Any) -> bool:
    """`a op b` as the rules mean it: an ordering of an unknown value cannot be decided."""
    if node.op in ("<", "<=", ">", ">=") and (a is None or b is None):
        raise EvaluationError(_("{expression}: a value is not known").format(expression=unparse(node)))
    return _COMPARE[node.op](a, b)


def compile_expr(node: ast.Expr, params: Mapping[str, Any]) -> Compiled:
    """Compile once; the closure is what runs for every event of every round."""
    if isinstance(node, ast.Literal):
        value = plain_value(node.value)
        return lambda ctx: value
    if isinstance(node, ast.Name):
        return _compile_name(node.path, params)
    if isinstance(node, ast.ListExpr):
        items = [compile_expr(i, params) for i in node.items]
        return lambda ctx: tuple(f(ctx) for f in items)
    if isinstance(node, ast.Call):
        fn = FUNCTIONS[node.function].call
        args = [compile_expr(a, params) for a in node.args]
        return lambda ctx: fn(*(a(ctx) for a in args))
    if isinstance(node, ast.Arith):
        left, right = compile_expr(node.left, params), compile_expr(node.right, params)
        return lambda ctx: arithmetic(node, left(ctx), right(ctx))
    if isinstance(node, ast.Compare):
        return _compile_compare(node, params)
    if isinstance(node, ast.BoolOp):
        return _compile_bool(node, params)
    if isinstance(node, ast.Not):
        item = compile_expr(node.item, params)
        return lambda ctx: not item(ctx)
    # i18n: not shown (a bug of the program)
    raise TypeError(f"not an expression: {node!r}")  # pragma: no cover


def _compile_compare(node: ast.Compare, params: Mapping[str, Any]) -> Compiled:
    """`a op b`; an ordering of an unknown value cannot be decided (`compare`)."""
    cmp = _COMPARE[node.op]
    left, right = compile_expr(node.left, params), compile_expr(node.right, params)
    constant = _constant(node.right, params)
    ordering = node.op in ("<", "<=", ">", ">=")
    if constant is not _NOT_CONSTANT:
        # The usual shape, `fact OP constant`: one closure call instead of two.
        def compare_constant(ctx: Context) -> bool:
            a = left(ctx)
            if ordering and (a is None or constant is None):
                raise EvaluationError(
                    _("{expression}: a value is not known").format(expression=unparse(node))
                )
            return cmp(a, constant)

        return compare_constant

    def compare(ctx: Context) -> bool:
        a, b = left(ctx), right(ctx)
        if ordering and (a is None or b is None):
            raise EvaluationError(_("{expression}: a value is not known").format(expression=unparse(node)))
        return cmp(a, b)

    return compare


def _compile_bool(node: ast.BoolOp, params: Mapping[str, Any]) -> Compiled:
    """`and`/`or` of the items, each evaluated only while the answer is not known."""
    items = [compile_expr(i, params) for i in node.items]
    if node.op == "and":
        if len(items) == 2:
            first, second = items
            return lambda ctx: bool(first(ctx) and second(ctx))
        return lambda ctx: all(f(ctx) for f in items)
    if len(items) == 2:
        first, second = items
        return lambda ctx: bool(first(ctx) or second(ctx))
    return lambda ctx: any(f(ctx) for f in items)


_NOT_CONSTANT = object()


def _constant(node: ast.Expr, params: Mapping[str, Any]) -> Any:
    """The value of an expression that does not depend on the replay (a literal, a parameter)."""
    if isinstance(node, ast.Literal):
        return plain_value(node.value)
    if isinstance(node, ast.Name) and node.path.startswith("param."):
        return plain_value(params[node.path.partition(".")[2]])
    return _NOT_CONSTANT


def _compile_name(path: str, params: Mapping[str, Any]) -> Compiled:
    namespace, _unused, field = path.partition(".")
    if namespace == "param":
        value = plain_value(params[field])
        return lambda ctx: value
    if namespace == "house":

        def house(ctx: Context) -> Any:
            return plain_value(ctx["house"].get(field))

        return house
    getter = operator.attrgetter(field)

    def fact(ctx: Context) -> Any:
        return getter(ctx[namespace])

    return fact


def names_in(node: ast.Expr) -> list[ast.Name | ast.Call]:
    """Every name and call in an expression, for the compiler's checks."""
    found: list[ast.Name | ast.Call] = []
    stack: list[ast.Expr] = [node]
    children = ast.children
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Name):
            found.append(current)  # no expression inside
            continue
        if isinstance(current, ast.Call):
            found.append(current)
        elif isinstance(current, ast.AnyOf):
            found.append(ast.Name(current.pos, current.collection))
        elif isinstance(current, ast.Literal):
            continue
        stack.extend(children(current))
    return found


def unparse(node: ast.Expr) -> str:
    """The expression as the ruleset spells it (for `rules show`, `explain` and findings)."""
    if isinstance(node, ast.Literal):
        return format_value(node.value)
    if isinstance(node, ast.Name):
        return node.path
    if isinstance(node, ast.Call):
        return f"{node.function}({', '.join(unparse(a) for a in node.args)})"
    if isinstance(node, ast.ListExpr):
        return "[" + ", ".join(unparse(i) for i in node.items) + "]"
    if isinstance(node, ast.Arith | ast.Compare):
        return f"{_wrap(node.left)} {node.op} {_wrap(node.right)}"
    if isinstance(node, ast.BoolOp):
        return f" {node.op} ".join(_wrap(i) for i in node.items)
    if isinstance(node, ast.Not):
        return f"not {_wrap(node.item)}"
    if isinstance(node, ast.AnyOf):
        return f"any {node.var} in {node.collection}: {unparse(node.body)}"
    raise TypeError(node)  # pragma: no cover


def _wrap(node: ast.Expr) -> str:
    text = unparse(node)
    return f"({text})" if isinstance(node, ast.BoolOp | ast.Arith | ast.AnyOf) else text


def format_value(value: Any) -> str:
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    return str(value)


def explain_failure(
    node: ast.Expr, ctx: Context, params: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """For a failed requirement, what the rule expected and what the log showed.

    A comparison `a op b` reports `a` as seen and `op b` as expected; a conjunction reports its first
    failing part; anything else reports the condition itself as the expectation.
    """
    if isinstance(node, ast.BoolOp) and node.op == "and":
        for item in node.items:
            if not compile_expr(item, params)(ctx):
                return explain_failure(item, ctx, params)
    if isinstance(node, ast.Compare):
        key = unparse(node.left)
        actual = _json_value(compile_expr(node.left, params)(ctx))
        right = compile_expr(node.right, params)(ctx)
        if isinstance(actual, int) and not isinstance(actual, bool) and isinstance(right, Decimal):
            # A count compared with a whole-number parameter: show both as numbers, not "6" against 6.
            right = int(right) if right == right.to_integral_value() else right
        expected: Any = _json_value(right) if node.op == "==" else f"{node.op} {_shown(right)}"
        return {key: expected}, {key: actual}
    if isinstance(node, ast.Not):
        key = unparse(node.item)
        return {key: False}, {key: True}
    if isinstance(node, ast.Name):
        return {node.path: True}, {node.path: _json_value(compile_expr(node, params)(ctx))}
    # A disjunction or a call has no single side to blame: show the facts it read, as the log had them.
    seen: dict[str, Any] = {}
    for name in _names(node):
        if name.path not in seen:
            try:
                seen[name.path] = _json_value(compile_expr(name, params)(ctx))
            except EvaluationError:
                seen[name.path] = None
    return {"condition": unparse(node)}, seen or {"condition": False}


def _names(node: ast.Expr) -> Iterator[ast.Name]:
    if isinstance(node, ast.Name):
        yield node
    elif isinstance(node, ast.Compare | ast.Arith):
        yield from _names(node.left)
        yield from _names(node.right)
    elif isinstance(node, ast.BoolOp | ast.ListExpr):
        for item in node.items:
            yield from _names(item)
    elif isinstance(node, ast.Call):
        for arg in node.args:
            yield from _names(arg)
    elif isinstance(node, ast.Not):
        yield from _names(node.item)


def _shown(value: Any) -> str:
    if isinstance(value, Decimal):
        return fmt(value) or ""
    return format_value(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, tuple):
        # Lists in rulesets are counts (decks per back colour, ranks): whole numbers shown as numbers.
        return [
            int(v) if isinstance(v, Decimal) and v == v.to_integral_value() else _json_value(v) for v in value
        ]
    if isinstance(value, ast.Ratio):
        return str(value)
    return value
