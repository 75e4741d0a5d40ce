"""Each event's rules written out as one Python function: the replay's fast path.

The closures of `expr` cost a call per node, and a card dealt runs a dozen rules: most of `check`'s
time went there. Here all the rules listening to one event become the source of one function,
compiled once per ruleset version, that answers a single question: did every rule hold, with nothing
that could not be judged? Anything else — a rule broken, a fact missing, any exception at all — answers
no, and the judge then runs the closures, which alone write findings, notes and `explain`'s trace. So
there is one meaning of a rule (the closures'), and the fast path can only say "nothing to report" when
they would say it too; tests compare both on every fixture.

A table's house options are fixed for its judge: given them, the functions are written with their values
in place (`dsl.fold`, in its mode for the code), and what those values decide is decided once
(`house.no_hit_on_21` false: the rule it guards is not written at all). Each stake's settle clauses
likewise become one function that picks the clause and works out its amount.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from validator.dsl import ast
from validator.dsl.expr import Context, arithmetic, plain_value
from validator.dsl.fold import Mode, fold
from validator.dsl.functions import FUNCTIONS

AllHeld = Callable[[Context], bool]
# A stake's settlement: (what the clause gives, its amount) as `Settled` says, None when no clause
# holds, False when something could not be evaluated (then the closures run, and say why).
Settle = Callable[[Context], Any]

# The code of each function text compiled in this process, by its text and name: a text is compiled
# once. The versions of a family share most of their events' texts, and a version compiled under each
# of its readings' alternatives (`rules check`, the findings judged under readings) changes one or two
# (the values a text names are not in it: each function has its own scope).
_COMPILED: dict[tuple[str, str], Any] = {}

_OPERATORS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in"}


class _Source:
    """The text of one function, and the values its names stand for."""

    def __init__(self, params: Mapping[str, Any], house: Mapping[str, Any] | None = None) -> None:
        self.params = params
        self.house = house  # the judge's house options, written in as values; None: read from ctx
        self.values: dict[str, Any] = {
            "plain_value": plain_value,
            "_kept": (ast.Ratio, tuple),
            "_Decimal": Decimal,
            "_arithmetic": arithmetic,
        }
        self.namespaces: list[str] = []
        self.locals = 0
        self.repeated: set[str] = set()  # facts named more than once (`read_twice`)
        self.kept: dict[str, str] = {}  # facts already read into a local, by name

    def constant(self, value: Any) -> str:
        if value is None or value is True or value is False:
            return repr(value)
        name = f"_c{len(self.values)}"
        self.values[name] = value
        return name

    def namespace(self, name: str) -> str:
        if name not in self.namespaces:
            self.namespaces.append(name)
        return f"ns_{name}"

    def local(self) -> str:
        self.locals += 1
        return f"_v{self.locals}"

    def read_twice(self, nodes: Sequence[ast.Expr | None]) -> None:
        """The facts these expressions name more than once: each is read into a local the first time
        it is surely read, and taken from there afterwards (a fact is the same all through a call)."""
        seen: set[str] = set()
        stack = [node for node in nodes if node is not None]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Name):
                (self.repeated if node.path in seen else seen).add(node.path)
            else:
                stack.extend(ast.children(node))

    def expr(self, node: ast.Expr, *, truth: bool = False, sure: bool = False) -> str:
        """Python for the node; `truth`: only its truthiness is used, so `and`/`or` need no bool();
        `sure`: the node is evaluated whenever its statement is reached (no `and`/`or` may skip it), so a
        fact it reads may be kept for the statements after it."""
        if isinstance(node, ast.Literal):
            return self.constant(plain_value(node.value))
        if isinstance(node, ast.Name):
            return self.name(node, sure=sure)
        if isinstance(node, ast.ListExpr):
            items = "".join(f"{self.expr(item, sure=sure)}, " for item in node.items)
            return f"({items})"
        if isinstance(node, ast.Call):
            function = self.constant(FUNCTIONS[node.function].call)
            return f"{function}({', '.join(self.expr(arg, sure=sure) for arg in node.args)})"
        if isinstance(node, ast.Arith):
            return self.arith(node, sure=sure)
        if isinstance(node, ast.Compare):
            op = _OPERATORS[node.op]
            left = self.expr(node.left, sure=sure)
            if op in ("==", "!=") and _is_none(node.right):
                # `is` where the other side is none: the same answer for every value a fact takes.
                return f"({left} {'is' if op == '==' else 'is not'} None)"
            return f"({left} {op} {self.expr(node.right, sure=sure)})"
        if isinstance(node, ast.BoolOp):
            # Only the first item is sure to be evaluated.
            parts = [self.expr(item, truth=True, sure=sure and not i) for i, item in enumerate(node.items)]
            joined = f" {node.op} ".join(parts)
            return f"({joined})" if truth else f"bool({joined})"
        if isinstance(node, ast.Not):
            if truth and isinstance(node.item, ast.Not):  # `not not x` is as true as x
                return self.expr(node.item.item, truth=True, sure=sure)
            return f"(not {self.expr(node.item, truth=True, sure=sure)})"
        raise TypeError(f"not an expression: {node!r}")  # pragma: no cover

    def name(self, node: ast.Name, *, sure: bool) -> str:
        """A name: a parameter's value written in, a house option read from the context, a fact read
        from its namespace (kept in a local for the statements after it, where it is read again)."""
        namespace, _unused, field = node.path.partition(".")
        if namespace == "param":
            return self.constant(plain_value(self.params[field]))
        if namespace == "house":
            # plain_value only for the values it changes (ratios, lists): most house values are plain.
            value = f"{self.namespace('house')}.get({field!r})"
            return f"(_h if type(_h := {value}) not in _kept else plain_value(_h))"
        if not all(part.isidentifier() and not keyword.iskeyword(part) for part in field.split(".")):
            # The grammar allows no other names; a fact name goes into generated source, so make sure.
            raise ValueError(f"not a fact name: {node.path!r}")  # pragma: no cover
        kept = self.kept.get(node.path)
        if kept is not None:
            return kept
        read = f"{self.namespace(namespace)}.{field}"
        if sure and node.path in self.repeated:
            kept = self.kept[node.path] = self.local()
            return f"({kept} := {read})"
        return read

    def arith(self, node: ast.Arith, *, sure: bool) -> str:
        """`a op b`: the operator itself when both sides are decimals, else `arithmetic`."""
        # `arithmetic`'s work when both sides are decimals (as amounts and facts of money are),
        # written out for speed: the operator itself. Anything else goes through `arithmetic`.
        where, op = self.constant(node), node.op
        a = self.local()
        left = self.expr(node.left, sure=sure)
        if isinstance(node.right, ast.Literal) and type(plain_value(node.right.value)) is Decimal:
            b = self.expr(node.right)
            return f"({a} {op} {b} if type({a} := {left}) is _Decimal else _arithmetic({where}, {a}, {b}))"
        b = self.local()
        right = self.expr(node.right, sure=sure)
        both = f"(type({a} := {left}) is _Decimal) & (type({b} := {right}) is _Decimal)"
        return f"({a} {op} {b} if {both} else _arithmetic({where}, {a}, {b}))"


def all_held(
    conditions: Sequence[tuple[ast.Expr | None, ast.Expr]],
    params: Mapping[str, Any],
    name: str,
    house: Mapping[str, Any] | None = None,
) -> AllHeld:
    """One function for the (guard, require) pairs of an event, in order: True when every rule whose
    guard holds has its requirement hold, and nothing raised. With `house`, its values are written in
    and what they decide is left out (a guard that cannot hold, a requirement that always does)."""
    source = _Source(params, house)
    rules: list[tuple[ast.Expr | None, ast.Expr]] = []
    for guard, require in conditions:
        if guard is not None:
            guard = fold(guard, params, house=house, mode=Mode.CODE)
            if isinstance(guard, ast.Literal):
                if not guard.value:
                    continue  # the rule never applies
                guard = None
        rules.append((guard, fold(require, params, house=house, mode=Mode.CODE)))
    source.read_twice([node for rule in rules for node in rule])
    body: list[str] = []
    for guard, require in rules:
        # The guard first: it is evaluated first.
        test = source.expr(guard, truth=True, sure=True) if guard is not None else None
        if isinstance(require, ast.Literal):
            if require.value:
                if test is not None:  # the rule always holds, but its guard may raise
                    body.append(f"        if {test}:\n            pass\n")
                continue
            if test is None:  # broken whenever it is reached
                body.append("        return False\n")
                break
        else:
            if isinstance(require, ast.Not):  # `not (not x)`: x
                broken = source.expr(require.item, truth=True, sure=test is None)
            else:
                broken = f"not {source.expr(require, truth=True, sure=test is None)}"
            test = broken if test is None else f"{test} and {broken}"
        body.append(f"        if {test}:\n            return False\n")
    return _define(source, name, body, "True", "False")


# One settle clause: its guard (None: it always holds), its amount (an expression, a function of the
# context such as a side bet's paytables, or None), and what the function gives when it is chosen:
# `(given[0], given[1], amount)`.
Clause = tuple[ast.Expr | None, "ast.Expr | Callable[[Context], Any] | None", tuple[Any, Any]]


def settlement(
    clauses: Sequence[Clause], params: Mapping[str, Any], name: str, house: Mapping[str, Any] | None = None
) -> Settle:
    """One function for the settle clauses of a stake, in order: the first whose guard holds, as
    `(given[0], given[1], amount)`; None when none holds; False when a guard or the amount raised."""
    source = _Source(params, house)
    chosen: list[tuple[ast.Expr | None, ast.Expr | Callable[[Context], Any] | None, tuple[Any, Any]]] = []
    for guard, amount, given in clauses:
        if guard is not None:
            guard = fold(guard, params, house=house, mode=Mode.CODE)
            if isinstance(guard, ast.Literal):
                if not guard.value:
                    continue
                guard = None
        if isinstance(amount, ast.Expr):
            amount = fold(amount, params, house=house, mode=Mode.CODE)
        chosen.append((guard, amount, given))
        if guard is None:
            break  # the clauses after one that always holds are never reached
    source.read_twice([guard for guard, _amount, _given in chosen])  # an amount is read once, at the end
    body = []
    for guard, amount, given in chosen:
        test = source.expr(guard, truth=True, sure=True) if guard is not None else None
        if amount is None:
            result = source.constant((*given, None))
        elif isinstance(amount, ast.Expr):
            worked_out = source.expr(amount)
            result = f"({source.constant(given[0])}, {source.constant(given[1])}, {worked_out})"
        else:
            result = (
                f"({source.constant(given[0])}, {source.constant(given[1])}, {source.constant(amount)}(ctx))"
            )
        if test is None:
            body.append(f"        return {result}\n")
            break
        body.append(f"        if {test}:\n            return {result}\n")
    return _define(source, name, body, "None", "False")


def _is_none(node: ast.Expr) -> bool:
    return isinstance(node, ast.Literal) and node.value is None


def _define(
    source: _Source, name: str, body: list[str], otherwise: str, failed: str
) -> Callable[[Mapping[str, Any]], Any]:
    name = re.sub(r"\W", "_", name)  # a stake or event name, as a Python identifier
    # A namespace the event does not offer is a KeyError, which sends the question to the closures.
    fetch = "".join(f"        ns_{ns} = ctx[{ns!r}]\n" for ns in source.namespaces)
    text = (
        f"def {name}(ctx):\n"
        "    try:\n"
        f"{fetch}{''.join(body)}"
        f"        return {otherwise}\n"
        "    except Exception:\n"
        f"        return {failed}\n"
    )
    scope = dict(source.values)
    filename = f"<rules of {name}>"
    code = _COMPILED.get((text, filename))
    if code is None:
        code = _COMPILED[(text, filename)] = compile(text, filename, "exec")
    exec(code, scope)
    function: Callable[[Mapping[str, Any]], Any] = scope[name]
    function.source = text  # type: ignore[attr-defined]  # shown by `rules explain`
    return function
