"""Lark parse tree → `ast` dataclasses (a Transformer, as in lark's examples/advanced/create_ast.py).

Only shape is handled here; meaning (unknown names, duplicates, dates) is the compiler's job.
"""

from __future__ import annotations

import ast as pyast
import warnings
from datetime import date
from decimal import Decimal
from typing import Any

from lark import Token, Transformer, v_args

from validator.dsl import ast
from validator.errors import RulesetError


def _pos(meta_or_token: Any) -> ast.Pos:
    return ast.Pos(getattr(meta_or_token, "line", 0) or 0, getattr(meta_or_token, "column", 0) or 0)


_KIND_OF: dict[type, str] = {
    ast.Parameter: "parameter",
    ast.Option: "option",
    ast.Fixed: "fixed",
    ast.SideBet: "side_bet",
    ast.RuleDecl: "rule",
}


# The most digits a number (or each side of a ratio) may have: a rule needs a handful; a number of
# thousands of digits is past what Python converts to and from text (4,300) and means nothing in law.
MAX_DIGITS = 30


class TokenProblem(Exception):
    """A token whose text cannot be a value (a bad escape, a ratio dividing by zero): the transformer
    turns it into a RulesetError at the token's place."""

    def __init__(self, token: Token, message: str) -> None:
        super().__init__(message)
        self.token = token
        self.message = message


def _string(token: Token) -> str:
    raw = str(token)
    if raw.startswith('"""'):
        return _dedent(raw[3:-3])
    try:
        with warnings.catch_warnings():
            # "\B" is no escape: Python warns and keeps the backslash; here it is an error.
            warnings.simplefilter("error")
            return pyast.literal_eval(raw)
    except (SyntaxError, ValueError, MemoryError, Warning) as exc:
        # Python's own words name the escape: "truncated \xXX escape", "unknown Unicode character name".
        detail = str(exc).split(": ", 1)[-1].split(" (<unknown>")[0]
        raise TokenProblem(token, f"bad escape in a string: {detail}") from None


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).strip("\n")


def _ratio(token: Token) -> ast.Ratio:
    num, den = str(token).split(":")
    if len(num) > MAX_DIGITS or len(den) > MAX_DIGITS:
        raise TokenProblem(token, f"a ratio's numbers have at most {MAX_DIGITS} digits")
    if int(den) == 0:
        raise TokenProblem(token, f"the ratio {num}:{den} divides by zero: its second number must not be 0")
    return ast.Ratio(int(num), int(den))


def _number(token: Token) -> Decimal:
    text = str(token)
    if len(text.split(".")[0]) > MAX_DIGITS or len(text) > 2 * MAX_DIGITS + 1:
        raise TokenProblem(token, f"a number has at most {MAX_DIGITS} digits (before and after the point)")
    return Decimal(text)


@v_args(meta=True)
class RulesTransformer(Transformer):
    def __init__(self, file: str, text: str) -> None:
        super().__init__()
        self.file = file
        self.text = text

    def _error(self, pos: ast.Pos, message: str) -> RulesetError:
        return RulesetError(self.file, pos.line, pos.column, message)

    # ---- file ----
    def start(self, meta, children):
        header, *items = children
        family, family_pos = header
        buckets: dict[type, list[Any]] = {
            ast.Header: [],
            ast.Parameter: [],
            ast.Option: [],
            ast.Fixed: [],
            ast.SideBet: [],
            ast.RuleDecl: [],
            ast.Amends: [],
            ast.Amendment: [],
        }
        for item in items:
            buckets[type(item)].append(item)
        return ast.RulesetFile(
            file=self.file,
            family=family,
            family_pos=family_pos,
            headers=tuple(buckets[ast.Header]),
            parameters=tuple(buckets[ast.Parameter]),
            options=tuple(buckets[ast.Option]),
            fixed=tuple(buckets[ast.Fixed]),
            side_bets=tuple(buckets[ast.SideBet]),
            rules=tuple(buckets[ast.RuleDecl]),
            source_text=self.text,
            amends=buckets[ast.Amends][0] if buckets[ast.Amends] else None,
            amendments=tuple(buckets[ast.Amendment]),
        )

    # ---- amendments ----
    def amends(self, meta, children):
        family, day = children
        return ast.Amends(_pos(meta), str(family), self._date(day))

    def amendment(self, meta, children):
        citation, *changes = children
        return ast.Amendment(_pos(meta), _string(citation), tuple(changes))

    def replace(self, meta, children):
        (item,) = children
        return ast.Change(_pos(meta), "replace", _KIND_OF[type(item)], item.name, item)

    def add(self, meta, children):
        item, *after = children
        anchor = str(after[0]) if after else None
        return ast.Change(_pos(meta), "add", _KIND_OF[type(item)], item.name, item, anchor)

    def _repeal(self, meta, kind: str, children) -> ast.Change:
        return ast.Change(_pos(meta), "repeal", kind, str(children[0]), None)

    def repeal_parameter(self, meta, children):
        return self._repeal(meta, "parameter", children)

    def repeal_option(self, meta, children):
        return self._repeal(meta, "option", children)

    def repeal_fixed(self, meta, children):
        return self._repeal(meta, "fixed", children)

    def repeal_side_bet(self, meta, children):
        return self._repeal(meta, "side_bet", children)

    def repeal_rule(self, meta, children):
        return self._repeal(meta, "rule", children)

    def header(self, meta, children):
        (family,) = children
        return str(family), _pos(family)

    def title(self, meta, children):
        return ast.Header(_pos(meta), "title", _string(children[0]))

    def source(self, meta, children):
        return ast.Header(_pos(meta), "source", _string(children[0]))

    def game(self, meta, children):
        return ast.Header(_pos(meta), "game", str(children[0]))

    def note(self, meta, children):
        return ast.Header(_pos(meta), "note", _string(children[0]))

    def in_force(self, meta, children):
        start = self._date(children[0])
        end = children[1] if len(children) > 1 else None
        return ast.Header(_pos(meta), "in_force", (start, end))

    def undated(self, meta, children):
        # A text that carries no date (a licence's rules, a popular description) applies to every log.
        return ast.Header(_pos(meta), "in_force", (None, None))

    def until(self, meta, children):
        return self._date(children[0])

    def _date(self, token: Token) -> date:
        try:
            return date.fromisoformat(str(token))
        except ValueError:
            raise self._error(_pos(token), f"{token} is not a date of the calendar") from None

    # ---- declarations ----
    def ref(self, meta, children):
        return ast.Ref(_pos(meta), _string(children[0]))

    def doc_field(self, meta, children):
        key, text = children
        return ("doc", str(key), _string(text))

    def parameter(self, meta, children):
        name, value, ref, *rest = children
        note = rest[0].value if rest else None
        return ast.Parameter(_pos(meta), str(name), _as_value(value), ref, note)

    def option(self, meta, children):
        name, type_, *rest = children
        allowed = None
        is_range = False
        if rest and isinstance(rest[0], tuple) and rest[0][0] == "allowed":
            _, allowed, is_range = rest.pop(0)
        default_kind, default = rest.pop(0)
        ref = None
        doc = []
        for item in rest:
            if isinstance(item, ast.Ref):
                ref = item
            else:
                doc.append((item[1], item[2]))
        return ast.Option(
            pos=_pos(meta),
            name=str(name),
            type=str(type_),
            allowed=allowed,
            allowed_is_range=is_range,
            default=default,
            required=default_kind == "required",
            ref=ref,
            doc=tuple(doc),
        )

    def allowed(self, meta, children):
        (inner,) = children
        if isinstance(inner, tuple) and inner and inner[0] == "range":
            return ("allowed", (inner[1], inner[2]), True)
        return ("allowed", inner.value, False)

    def range(self, meta, children):
        low, high = children
        return ("range", _number(low), _number(high))

    def default_value(self, meta, children):
        return ("value", _as_value(children[0]))

    def default_required(self, meta, children):
        return ("required", None)

    def fixed(self, meta, children):
        name, value, ref = children
        return ast.Fixed(_pos(meta), str(name), _as_value(value), ref)

    def side_bet(self, meta, children):
        name, *items = children
        title = None
        ref = None
        notes: list[str] = []
        tables: list[ast.Paytable] = []
        stake, cases = None, ()
        for item in items:
            if isinstance(item, ast.Header) and item.key == "stake":
                stake, cases = item.value
            elif isinstance(item, ast.Header) and item.key == "title":
                title = item.value
            elif isinstance(item, ast.Header) and item.key == "note":
                notes.append(item.value)
            elif isinstance(item, ast.Ref):
                ref = item
            else:
                tables.append(item)
        return ast.SideBet(_pos(meta), str(name), title, ref, tuple(notes), tuple(tables), stake, cases)

    def side_stake(self, meta, children):
        name, *cases = children
        return ast.Header(_pos(meta), "stake", (str(name), tuple(_string(c) for c in cases)))

    def paytable(self, meta, children):
        name, *lines = children
        return ast.Paytable(_pos(meta), str(name), tuple(lines))

    def pay_line(self, meta, children):
        label, pays, when = children
        pays_value = _ratio(pays) if isinstance(pays, Token) else pays
        return ast.PayLine(_pos(meta), _string(label), pays_value, _as_expr(when))

    def pay_named(self, meta, children):
        return str(children[0])

    def pay_expr(self, meta, children):
        return _as_expr(children[0])

    # ---- rules ----
    def rule(self, meta, children):
        name, *items = children
        refs, severities, messages, checks, settles, doc, kinds = [], [], [], [], [], [], []
        for item in items:
            if isinstance(item, ast.Ref):
                refs.append(item)
            elif isinstance(item, ast.Check):
                checks.append(item)
            elif isinstance(item, ast.Settle):
                settles.append(item)
            elif item[0] == "severity":
                severities.append((item[1], item[2]))
            elif item[0] == "kind":
                kinds.append((item[1], item[2]))
            elif item[0] == "message":
                messages.append((item[1], item[2]))
            else:
                doc.append((item[1], item[2]))
        return ast.RuleDecl(
            pos=_pos(meta),
            name=str(name),
            refs=tuple(refs),
            severities=tuple(severities),
            messages=tuple(messages),
            checks=tuple(checks),
            settles=tuple(settles),
            doc=tuple(doc),
            kinds=tuple(kinds),
        )

    def kind(self, meta, children):
        return ("kind", _pos(meta), str(children[0]))

    def severity(self, meta, children):
        return ("severity", _pos(meta), str(children[0]))

    def message(self, meta, children):
        return ("message", _pos(meta), _string(children[0]))

    def check(self, meta, children):
        event, *rest = children
        guard = rest[0] if len(rest) == 2 else None
        return ast.Check(_pos(meta), str(event), guard, _as_expr(rest[-1]))

    def guard(self, meta, children):
        return _as_expr(children[0])

    def settle(self, meta, children):
        stake, *rest = children
        guard = rest[0] if len(rest) == 2 else None
        return ast.Settle(_pos(meta), str(stake), guard, rest[-1])

    def pay(self, meta, children):
        return ast.Outcome(_pos(meta), "pay", _as_expr(children[0]))

    def lose(self, meta, children):
        return ast.Outcome(_pos(meta), "lose", _as_expr(children[0]) if children else None)

    def push(self, meta, children):
        return ast.Outcome(_pos(meta), "push", None)

    def by_paytable(self, meta, children):
        return ast.Outcome(_pos(meta), "paytable", None, tuple(children))

    def table_name(self, meta, children):
        return ast.TableRef(_pos(meta), str(children[0]), False)

    def table_option(self, meta, children):
        return ast.TableRef(_pos(meta), str(children[0]), True)

    # ---- values and expressions share literal rules; the parent decides which it wants ----
    def number(self, meta, children):
        return _Lit(_pos(meta), _number(children[0]), "number")

    def string(self, meta, children):
        return _Lit(_pos(meta), _string(children[0]), "string")

    def ratio(self, meta, children):
        return _Lit(_pos(meta), _ratio(children[0]), "ratio")

    def true(self, meta, children):
        return _Lit(_pos(meta), True, "bool")

    def false(self, meta, children):
        return _Lit(_pos(meta), False, "bool")

    def none(self, meta, children):
        return _Lit(_pos(meta), None, "none")

    def symbol(self, meta, children):
        return _Lit(_pos(meta), str(children[0]), "symbol")

    def value_list(self, meta, children):
        items = tuple(_as_value(c) for c in children)
        return ast.Value(_pos(meta), tuple(i.value for i in items), "list")

    def name(self, meta, children):
        return ast.Name(_pos(meta), str(children[0]))

    def call(self, meta, children):
        function, *args = children
        return ast.Call(_pos(meta), str(function), tuple(_as_expr(a) for a in args))

    def list_expr(self, meta, children):
        return ast.ListExpr(_pos(meta), tuple(_as_expr(c) for c in children))

    def compare(self, meta, children):
        left, op, right = children
        return ast.Compare(_pos(meta), str(op), _as_expr(left), _as_expr(right))

    def arith(self, meta, children):
        left, op, right = children
        return ast.Arith(_pos(meta), str(op), _as_expr(left), _as_expr(right))

    def and_(self, meta, children):
        return _flatten("and", _pos(meta), children)

    def or_(self, meta, children):
        return _flatten("or", _pos(meta), children)

    def not_(self, meta, children):
        return ast.Not(_pos(meta), _as_expr(children[0]))

    def __default__(self, data, children, meta):  # pragma: no cover - every rule has a method
        raise NotImplementedError(data)


class _Lit:
    """A literal before its parent says whether it is a value (parameter, option) or an expression."""

    __slots__ = ("kind", "pos", "value")

    def __init__(self, pos: ast.Pos, value: Any, kind: str) -> None:
        self.pos, self.value, self.kind = pos, value, kind


def _flatten(op: str, pos: ast.Pos, children: list[Any]) -> ast.BoolOp:
    left, right = (_as_expr(c) for c in children)
    items = left.items if isinstance(left, ast.BoolOp) and left.op == op else (left,)
    return ast.BoolOp(pos, op, (*items, right))


def _as_value(item: Any) -> ast.Value:
    if isinstance(item, ast.Value):
        return item
    return ast.Value(item.pos, item.value, item.kind)


def _as_expr(item: Any) -> ast.Expr:
    if isinstance(item, _Lit):
        return ast.Literal(item.pos, item.value)
    return item
