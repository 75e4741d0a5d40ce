"""Each event's rules written out as one Python function: the replay's fast path.

The closures of `expr` cost a call per node, and a card dealt runs a dozen rules: most of `check`'s
time went there. Here all the rules listening to one event become the source of one function,
compiled once per ruleset version, that answers a single question: did every rule hold, with nothing
that could not be judged? Anything else — a rule broken, a fact missing, any exception at all — answers
no, and the judge then runs the closures, which alone write findings, notes and `explain`'s trace. So
there is one meaning of a rule (the closures'), and the fast path can only say "nothing to report" when
they would say it too; tests compare both on every fixture.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from validator.dsl import ast
from validator.dsl.expr import Context, arithmetic, plain_value
from validator.dsl.functions import FUNCTIONS

AllHeld = Callable[[Context], bool]
FirstHolding = Callable[[Context], "int | None"]

# The code of each function text compiled in this process, by its text and name: a text is compiled
# once. The versions of a family share most of their events' texts, and a version compiled under each
# of its readings' alternatives (`rules check`, the findings judged under readings) changes one or two
# (the values a text names are not in it: each function has its own scope).
_COMPILED: dict[tuple[str, str], Any] = {}

_OPERATORS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "in": "in"}


class _Source:
    """The text of one function, and the values its names stand for."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = params
        self.values: dict[str, Any] = {"plain_value": plain_value, "_kept": (ast.Ratio, tuple)}
        self.namespaces: list[str] = []

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

    def expr(self, node: ast.Expr, *, truth: bool = False) -> str:
        """Python for the node; `truth`: only its truthiness is used, so `and`/`or` need no bool()."""
        if isinstance(node, ast.Literal):
            return self.constant(plain_value(node.value))
        if isinstance(node, ast.Name):
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
            return f"{self.namespace(namespace)}.{field}"
        if isinstance(node, ast.ListExpr):
            items = "".join(f"{self.expr(item)}, " for item in node.items)
            return f"({items})"
        if isinstance(node, ast.Call):
            function = self.constant(FUNCTIONS[node.function].call)
            return f"{function}({', '.join(self.expr(arg) for arg in node.args)})"
        if isinstance(node, ast.Arith):
            apply, where = self.constant(arithmetic), self.constant(node)
            return f"{apply}({where}, {self.expr(node.left)}, {self.expr(node.right)})"
        if isinstance(node, ast.Compare):
            return f"({self.expr(node.left)} {_OPERATORS[node.op]} {self.expr(node.right)})"
        if isinstance(node, ast.BoolOp):
            joined = f" {node.op} ".join(self.expr(item, truth=True) for item in node.items)
            return f"({joined})" if truth else f"bool({joined})"
        if isinstance(node, ast.Not):
            return f"(not {self.expr(node.item, truth=True)})"
        raise TypeError(f"not an expression: {node!r}")  # pragma: no cover


def all_held(
    conditions: Sequence[tuple[ast.Expr | None, ast.Expr]], params: Mapping[str, Any], name: str
) -> AllHeld:
    """One function for the (guard, require) pairs of an event, in order: True when every rule whose
    guard holds has its requirement hold, and nothing raised."""
    source = _Source(params)
    body: list[str] = []
    for guard, require in conditions:
        test = f"not {source.expr(require, truth=True)}"
        if guard is not None:
            test = f"{source.expr(guard, truth=True)} and {test}"
        body.append(f"        if {test}:\n            return False\n")
    return _define(source, name, body, "True", "False")


def first_holding(guards: Sequence[ast.Expr | None], params: Mapping[str, Any], name: str) -> FirstHolding:
    """One function for the guards of a stake's settle clauses, in order: the index of the first that
    holds (a clause with no guard always holds), -1 when none does, None when a guard raised."""
    source = _Source(params)
    body = []
    for index, guard in enumerate(guards):
        if guard is None:
            body.append(f"        return {index}\n")
            break
        body.append(f"        if {source.expr(guard, truth=True)}:\n            return {index}\n")
    return _define(source, name, body, "-1", "None")


def _define(source: _Source, name: str, body: list[str], otherwise: str, failed: str) -> Any:
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
    function = scope[name]
    function.source = text
    return function
