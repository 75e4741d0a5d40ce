"""Lark parse tree → `ast` dataclasses (a Transformer, as in lark's examples/advanced/create_ast.py).

Only shape is handled here; meaning (unknown names, duplicates, dates) is the compiler's job.
"""

from __future__ import annotations

import ast as pyast
import dataclasses
import textwrap
import warnings
from datetime import date
from decimal import Decimal
from typing import Any, cast

from lark import Token, Transformer, v_args
from lark.tree import Meta

from validator.dsl import ast
from validator.errors import RulesetError
from validator.i18n import _


def _pos(meta_or_token: Any) -> ast.Pos:
    return ast.Pos(getattr(meta_or_token, "line", 0) or 0, getattr(meta_or_token, "column", 0) or 0)


_KIND_OF: dict[type, str] = {
    ast.Parameter: "parameter",
    ast.Option: "option",
    ast.Fixed: "fixed",
    ast.SideBet: "side_bet",
    ast.RuleDecl: "rule",
    ast.Define: "define",
    ast.Reading: "reading",
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
            return cast(str, pyast.literal_eval(raw))  # the grammar's STRING is a string literal
    except (SyntaxError, ValueError, MemoryError, Warning) as exc:
        # Python's own words name the escape: "truncated \xXX escape", "unknown Unicode character name".
        detail = str(exc).split(": ", 1)[-1].split(" (<unknown>")[0]
        raise TokenProblem(token, _("bad escape in a string: {detail}").format(detail=detail)) from None


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")


def _ratio(token: Token) -> ast.Ratio:
    num, den = str(token).split(":")
    if len(num) > MAX_DIGITS or len(den) > MAX_DIGITS:
        raise TokenProblem(token, _("a ratio's numbers have at most {count} digits").format(count=MAX_DIGITS))
    if int(den) == 0:
        raise TokenProblem(
            token,
            _("the ratio {num}:{den} divides by zero: its second number must not be 0").format(
                num=num, den=den
            ),
        )
    return ast.Ratio(int(num), int(den))


def _number(token: Token) -> Decimal:
    text = str(token)
    if len(text.split(".")[0]) > MAX_DIGITS or len(text) > 2 * MAX_DIGITS + 1:
        raise TokenProblem(
            token,
            _("a number has at most {count} digits (before and after the point)").format(count=MAX_DIGITS),
        )
    return Decimal(text)


@v_args(meta=True)
class RulesTransformer(Transformer[Token, ast.RulesetFile]):
    """Parse tree → syntax tree. A rule that builds one node (`ast.BUILDS`, declared beside the node in
    `ast.py`) needs no method here: `__default__` builds it, each child converted to the type of the
    field it fills. The methods below are the rules that gather children into a bigger node (a file, a
    rule, an option, a side bet), a literal, or the flattening of `and`/`or`."""

    def __init__(self, file: str, text: str) -> None:
        super().__init__()
        self.file = file
        self.text = text

    def _error(self, pos: ast.Pos, message: str) -> RulesetError:
        return RulesetError(self.file, pos.line, pos.column, message)

    # ---- the nodes declared in ast.py ----
    def __default__(self, data: Any, children: list[Any], meta: Meta) -> Any:
        build = ast.BUILDS.get(str(data))
        if build is None:  # pragma: no cover - every rule of the grammar builds something
            raise NotImplementedError(data)
        hints = _HINTS[build.node]
        kwargs: dict[str, Any] = {"pos": _pos(meta), **dict(build.fixed)}
        optional = sum(1 for f in build.children if f.endswith("?"))
        required = sum(1 for f in build.children if not f.endswith("?") and not f.startswith("*"))
        given = len(children) - required  # how many of the optional children the rule matched
        rest = list(children)
        for spec in build.children:
            if spec.startswith("*"):
                name = spec[1:]
                item_hint = hints[name].removeprefix("tuple[").split(",")[0]
                kwargs[name] = tuple(self._convert(child, item_hint) for child in rest)
                rest = []
            elif spec.endswith("?"):
                name = spec[:-1]
                take = given > 0 and optional > 0
                kwargs[name] = self._convert(rest.pop(0), hints[name]) if take and rest else None
                given -= 1 if take else 0
            else:
                kwargs[spec] = self._convert(rest.pop(0), hints[spec])
        return build.node(**kwargs)

    def _convert(self, child: Any, hint: str) -> Any:
        """A child of the parse tree as the field it fills wants it."""
        if isinstance(child, Token):
            if child.type == "STRING":
                return _string(child)
            if child.type == "DATE":
                return self._date(child)
            return str(child)
        if "Value" in hint:
            return _as_value(child)
        if "Expr" in hint:
            return _as_expr(child)
        if isinstance(child, ast.Header) and hint.startswith("str"):
            return child.value  # a parameter's note
        return child

    def _date(self, token: Token) -> date:
        try:
            return date.fromisoformat(str(token))
        except ValueError:
            raise self._error(
                _pos(token), _("{date} is not a date of the calendar").format(date=token)
            ) from None

    # ---- file ----
    def start(self, meta: Meta, children: list[Any]) -> ast.RulesetFile:
        header, *items = children
        buckets: dict[type, list[Any]] = {
            ast.Header: [],
            ast.Parameter: [],
            ast.Option: [],
            ast.Fixed: [],
            ast.SideBet: [],
            ast.RuleDecl: [],
            ast.Amends: [],
            ast.Amendment: [],
            ast.Define: [],
            ast.Reading: [],
        }
        for item in items:
            buckets[type(item)].append(item)
        return ast.RulesetFile(
            file=self.file,
            family=header.value,
            family_pos=header.pos,
            headers=tuple(buckets[ast.Header]),
            parameters=tuple(buckets[ast.Parameter]),
            options=tuple(buckets[ast.Option]),
            fixed=tuple(buckets[ast.Fixed]),
            side_bets=tuple(buckets[ast.SideBet]),
            rules=tuple(buckets[ast.RuleDecl]),
            source_text=self.text,
            amends=buckets[ast.Amends][0] if buckets[ast.Amends] else None,
            amendments=tuple(buckets[ast.Amendment]),
            defines=tuple(buckets[ast.Define]),
            readings=tuple(buckets[ast.Reading]),
        )

    def header(self, meta: Meta, children: list[Any]) -> ast.Header:
        (family,) = children
        return ast.Header(_pos(family), "ruleset", str(family))  # errors about the file point at its name

    def in_force(self, meta: Meta, children: list[Any]) -> ast.Header:
        start = self._date(children[0])
        end = children[1] if len(children) > 1 else None
        return ast.Header(_pos(meta), "in_force", (start, end))

    def undated(self, meta: Meta, children: list[Any]) -> ast.Header:
        # A text that carries no date (a licence's rules, a popular description) applies to every log.
        return ast.Header(_pos(meta), "in_force", (None, None))

    def until(self, meta: Meta, children: list[Any]) -> date:
        return self._date(children[0])

    # ---- amendments ----
    def amendment(self, meta: Meta, children: list[Any]) -> ast.Amendment:
        citation, *changes = children
        return ast.Amendment(_pos(meta), _string(citation), tuple(changes))

    def replace(self, meta: Meta, children: list[Any]) -> ast.Change:
        (item,) = children
        return ast.Change(_pos(meta), "replace", _KIND_OF[type(item)], item.name, item)

    def add(self, meta: Meta, children: list[Any]) -> ast.Change:
        item, *after = children
        anchor = str(after[0]) if after else None
        return ast.Change(_pos(meta), "add", _KIND_OF[type(item)], item.name, item, anchor)

    def _repeal(self, meta: Meta, kind: str, children: list[Any]) -> ast.Change:
        return ast.Change(_pos(meta), "repeal", kind, str(children[0]), None)

    def repeal_parameter(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "parameter", children)

    def repeal_option(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "option", children)

    def repeal_fixed(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "fixed", children)

    def repeal_side_bet(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "side_bet", children)

    def repeal_rule(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "rule", children)

    def repeal_define(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "define", children)

    def repeal_reading(self, meta: Meta, children: list[Any]) -> ast.Change:
        return self._repeal(meta, "reading", children)

    # ---- readings ----
    def reading(self, meta: Meta, children: list[Any]) -> ast.Reading:
        name, *items = children
        return ast.Reading(
            pos=_pos(meta),
            name=str(name),
            refs=tuple(i for i in items if isinstance(i, ast.Ref)),
            quotes=tuple(i.value for i in items if isinstance(i, ast.Header) and i.key == "quote"),
            questions=tuple(i.value for i in items if isinstance(i, ast.Header) and i.key == "question"),
            alternatives=tuple(i for i in items if isinstance(i, ast.Alternative)),
            defaults=tuple(i.value for i in items if isinstance(i, ast.Header) and i.key == "default"),
            translations=tuple(
                (i.value[0], i.key.partition(" ")[2], i.value[1], i.pos)
                for i in items
                if isinstance(i, ast.Header) and i.key.startswith("translated ")
            ),
        )

    def reading_quote(self, meta: Meta, children: list[Any]) -> ast.Header:
        return ast.Header(_pos(meta), "quote", _string(children[0]))

    def reading_question(self, meta: Meta, children: list[Any]) -> ast.Header:
        return ast.Header(_pos(meta), "question", _string(children[0]))

    def note_lang(self, meta: Meta, children: list[Any]) -> ast.Header:
        lang, text = children
        return ast.Header(_pos(meta), "note_lang", (str(lang), _string(text)))

    def reading_question_lang(self, meta: Meta, children: list[Any]) -> ast.Header:
        lang, text = children
        # i18n: not shown (a key of the syntax tree)
        return ast.Header(_pos(meta), "translated question", (str(lang), _string(text)))

    def reading_because_lang(self, meta: Meta, children: list[Any]) -> ast.Header:
        lang, text = children
        # i18n: not shown (a key of the syntax tree)
        return ast.Header(_pos(meta), "translated because", (str(lang), _string(text)))

    def alternative_lang(self, meta: Meta, children: list[Any]) -> ast.Header:
        lang, text = children
        # i18n: not shown (a key of the syntax tree)
        return ast.Header(_pos(meta), "translated meaning", (str(lang), _string(text)))

    def reading_default(self, meta: Meta, children: list[Any]) -> ast.Header:
        name, because = children
        return ast.Header(_pos(meta), "default", (_pos(name), str(name), _string(because)))

    def alternative(self, meta: Meta, children: list[Any]) -> ast.Alternative:
        name, meaning, *rest = children
        translated = tuple(h.value for h in rest if isinstance(h, ast.Header))
        block = [c for c in rest if not isinstance(c, ast.Header)]
        changes = tuple(block[0]) if block else ()
        return ast.Alternative(_pos(meta), str(name), _string(meaning), changes, bool(block), translated)

    def alternative_changes(self, meta: Meta, children: list[Any]) -> list[Any]:
        return list(children)

    # ---- declarations that gather their children ----
    def option(self, meta: Meta, children: list[Any]) -> ast.Option:
        name, type_, *rest = children
        allowed = next((c for c in rest if isinstance(c, ast.Allowed)), None)
        default = next(c for c in rest if isinstance(c, ast.Default))
        ref = next((c for c in rest if isinstance(c, ast.Ref)), None)
        doc = tuple((f.key, f.value) for f in rest if isinstance(f, ast.Field) and f.lang == "en")
        aliases = next((h.value for h in rest if isinstance(h, ast.Header) and h.key == "alias"), ())
        return ast.Option(
            pos=_pos(meta),
            name=str(name),
            type=str(type_),
            allowed=allowed.values if allowed is not None else None,
            allowed_is_range=allowed is not None and allowed.is_range,
            default=default.value,
            required=default.required,
            ref=ref,
            doc=doc,
            aliases=aliases,
        )

    def allowed(self, meta: Meta, children: list[Any]) -> ast.Allowed:
        (inner,) = children
        if isinstance(inner, ast.Allowed):
            return inner
        return ast.Allowed(_pos(meta), inner.value, False)

    def range(self, meta: Meta, children: list[Any]) -> ast.Allowed:
        low, high = children
        return ast.Allowed(_pos(meta), (_number(low), _number(high)), True)

    def side_bet(self, meta: Meta, children: list[Any]) -> ast.SideBet:
        name, *items = children
        headers = [i for i in items if isinstance(i, ast.Header)]
        title = next((h.value for h in headers if h.key == "title"), None)
        stake, cases = next((h.value for h in headers if h.key == "stake"), (None, ()))
        return ast.SideBet(
            _pos(meta),
            str(name),
            title,
            next((i for i in items if isinstance(i, ast.Ref)), None),
            tuple(h.value for h in headers if h.key == "note"),
            tuple(i for i in items if isinstance(i, ast.Paytable)),
            stake,
            cases,
            next((h.value for h in headers if h.key == "alias"), ()),
        )

    def alias(self, meta: Meta, children: list[Any]) -> ast.Header:
        return ast.Header(_pos(meta), "alias", tuple(_string(c) for c in children))

    def fixed(self, meta: Meta, children: list[Any]) -> ast.Fixed:
        name, value, ref, *alias = children
        aliases = alias[0].value if alias else ()
        return ast.Fixed(_pos(meta), str(name), _as_value(value), ref, aliases)

    def side_bets_alias(self, meta: Meta, children: list[Any]) -> ast.Header:
        (alias,) = children
        # i18n: not shown (a key of the syntax tree)
        return ast.Header(_pos(meta), "side_bets_alias", alias.value)

    def side_stake(self, meta: Meta, children: list[Any]) -> ast.Header:
        name, *cases = children
        return ast.Header(_pos(meta), "stake", (str(name), tuple(_string(c) for c in cases)))

    def pay_line(self, meta: Meta, children: list[Any]) -> ast.PayLine:
        label, pays, when = children
        pays_value = _ratio(pays) if isinstance(pays, Token) else pays
        return ast.PayLine(_pos(meta), _string(label), pays_value, _as_expr(when))

    def pay_named(self, meta: Meta, children: list[Any]) -> str:
        return str(children[0])

    def pay_expr(self, meta: Meta, children: list[Any]) -> ast.Expr:
        return _as_expr(children[0])

    def rule(self, meta: Meta, children: list[Any]) -> ast.RuleDecl:
        name, *items = children
        every = [i for i in items if isinstance(i, ast.Field)]
        fields = [f for f in every if f.lang == "en"]

        def single(key: str) -> tuple[tuple[ast.Pos, str], ...]:
            return tuple((f.pos, f.value) for f in fields if f.key == key)

        return ast.RuleDecl(
            pos=_pos(meta),
            name=str(name),
            refs=tuple(i for i in items if isinstance(i, ast.Ref)),
            severities=single("severity"),
            messages=single("message"),
            checks=tuple(i for i in items if isinstance(i, ast.Check)),
            settles=tuple(i for i in items if isinstance(i, ast.Settle)),
            doc=tuple((f.key, f.value) for f in fields if f.key in _DOC_KEYS),
            kinds=single("kind"),
            translations=tuple((f.lang, f.key, f.value, f.pos) for f in every if f.lang != "en"),
            same_checks=tuple(i for i in items if isinstance(i, ast.SameCheck)),
        )

    # ---- values and expressions share literal rules; the parent decides which it wants ----
    def number(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), _number(children[0]), "number")

    def string(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), _string(children[0]), "string")

    def ratio(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), _ratio(children[0]), "ratio")

    def true(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), True, "bool")

    def false(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), False, "bool")

    def none(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), None, "none")

    def symbol(self, meta: Meta, children: list[Any]) -> _Lit:
        return _Lit(_pos(meta), str(children[0]), "symbol")

    def value_list(self, meta: Meta, children: list[Any]) -> ast.Value:
        items = tuple(_as_value(c) for c in children)
        return ast.Value(_pos(meta), tuple(i.value for i in items), "list")

    def and_(self, meta: Meta, children: list[Any]) -> ast.BoolOp:
        return _flatten("and", _pos(meta), children)

    def or_(self, meta: Meta, children: list[Any]) -> ast.BoolOp:
        return _flatten("or", _pos(meta), children)


_DOC_KEYS = ("checks", "why", "fails", "passes")
# Each declared node's fields and the type each is written with (`Expr`, `Value | None`, `str`, …).
_HINTS: dict[type, dict[str, str]] = {
    build.node: {f.name: str(f.type) for f in dataclasses.fields(build.node)} for build in ast.BUILDS.values()
}


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
    return cast(ast.Expr, item)  # every other child of an expression is a node of ast.Expr
