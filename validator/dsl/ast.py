"""Syntax tree of a ruleset file: frozen dataclasses, each carrying where it was written.

The tree is declared once, here: a node built straight from a grammar rule says so with `@builds`
(the rule's name, which field each child of the parse tree fills, and the values the rule's name
implies), and `transformer.RulesTransformer` derives its methods from these declarations, as lark's
`examples/advanced/create_ast.py` derives a transformer from its AST classes. Checked and turned into a
usable `Ruleset` by `compiler`. Every node keeps its position so that every error points at
FILE:LINE:COL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

_Node = TypeVar("_Node", bound=type)


@dataclass(frozen=True, slots=True)
class Build:
    """How a grammar rule builds a node: `children` names the field each child fills, in order
    (`*f`: the remaining children, as a tuple; `f?`: a child the rule may omit); `fixed` gives the fields
    the rule's name implies (`pay` → verb "pay")."""

    node: type
    children: tuple[str, ...]
    fixed: tuple[tuple[str, Any], ...] = ()


# grammar rule → how it builds its node (filled by `@builds`).
BUILDS: dict[str, Build] = {}


def builds(rule: str, *children: str, **fixed: Any) -> Callable[[_Node], _Node]:
    def declare(cls: _Node) -> _Node:
        BUILDS[rule] = Build(cls, children, tuple(fixed.items()))
        return cls

    return declare


@dataclass(frozen=True, slots=True)
class Pos:
    line: int
    column: int


# ---- expressions ----


@dataclass(frozen=True, slots=True)
class Literal:
    pos: Pos
    value: Any  # Decimal, str, bool, None


@builds("name", "path")
@builds("local", "path")
@dataclass(frozen=True, slots=True)
class Name:
    pos: Pos
    path: str  # dotted: hand.total, house.surrender, param.decks


@builds("call", "function", "*args")
@dataclass(frozen=True, slots=True)
class Call:
    pos: Pos
    function: str
    args: tuple[Expr, ...]


@builds("list_expr", "*items")
@dataclass(frozen=True, slots=True)
class ListExpr:
    pos: Pos
    items: tuple[Expr, ...]


@builds("arith", "left", "op", "right")
@dataclass(frozen=True, slots=True)
class Arith:
    pos: Pos
    op: str  # + - * /
    left: Expr
    right: Expr


@builds("compare", "left", "op", "right")
@dataclass(frozen=True, slots=True)
class Compare:
    pos: Pos
    op: str  # == != < <= > >= in
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class BoolOp:
    pos: Pos
    op: str  # and / or
    items: tuple[Expr, ...]


@builds("not_", "item")
@dataclass(frozen=True, slots=True)
class Not:
    pos: Pos
    item: Expr


@builds("any_of", "var", "collection", "body")
@dataclass(frozen=True, slots=True)
class AnyOf:
    """`any m in param.limits.max_multiples: table.maximum == table.minimum * m`: the condition holds
    for one value of a parameter's list. Unrolled when the ruleset is compiled (dsl.fold)."""

    pos: Pos
    var: str
    collection: str  # param.… naming a list
    body: Expr


Expr = Literal | Name | Call | ListExpr | Arith | Compare | BoolOp | Not | AnyOf


def children(node: Expr) -> tuple[Expr, ...]:
    """The expressions directly inside `node`, in the order written (a name or a literal has none)."""
    # Tuples of classes, not `A | B`: a union is built anew at each call, and this runs for every node
    # of every expression the compiler walks.
    if isinstance(node, Call):
        return node.args
    if isinstance(node, (ListExpr, BoolOp)):
        return node.items
    if isinstance(node, (Arith, Compare)):
        return (node.left, node.right)
    if isinstance(node, Not):
        return (node.item,)
    if isinstance(node, AnyOf):
        return (node.body,)
    return ()


# ---- values (parameters, options) ----


@dataclass(frozen=True, slots=True)
class Value:
    pos: Pos
    value: Any  # Decimal, str, bool, None, Ratio, tuple[Any, ...]
    kind: str  # number, string, ratio, bool, none, symbol, list


@dataclass(frozen=True, slots=True)
class Ratio:
    """`3:2` — paid 3 for every 2 staked. Kept as the pair for display, `.factor` for arithmetic."""

    numerator: int
    denominator: int

    @property
    def factor(self) -> Decimal:
        return Decimal(self.numerator) / Decimal(self.denominator)

    def __str__(self) -> str:
        return f"{self.numerator}:{self.denominator}"


# ---- declarations ----


@builds("ref", "text")
@dataclass(frozen=True, slots=True)
class Ref:
    pos: Pos
    text: str


@builds("parameter", "name", "value", "ref", "note?")
@dataclass(frozen=True, slots=True)
class Parameter:
    pos: Pos
    name: str
    value: Value
    ref: Ref
    note: str | None


@dataclass(frozen=True, slots=True)
class Option:
    pos: Pos
    name: str
    type: str  # bool int decimal ratio choice
    allowed: tuple[Value, ...] | tuple[Decimal, Decimal] | None
    allowed_is_range: bool
    default: Value | None  # None when `required`
    required: bool
    ref: Ref | None
    doc: tuple[tuple[str, str], ...]
    aliases: tuple[str, ...] = ()  # the text's own words a house file may use for it (`alias "…"`)


@dataclass(frozen=True, slots=True)
class Fixed:
    pos: Pos
    name: str
    value: Value
    ref: Ref
    aliases: tuple[str, ...] = ()  # the text's own words a house file may use for it (`alias "…"`)


@dataclass(frozen=True, slots=True)
class PayLine:
    pos: Pos
    label: str
    pays: Ratio | str | Expr  # a ratio (N:1), a named prize (jackpot.main), or an amount's expression
    when: Expr


@builds("paytable", "name", "*lines")
@dataclass(frozen=True, slots=True)
class Paytable:
    pos: Pos
    name: str
    lines: tuple[PayLine, ...]


@dataclass(frozen=True, slots=True)
class SideBet:
    pos: Pos
    name: str
    title: str | None
    ref: Ref | None
    notes: tuple[str, ...]
    paytables: tuple[Paytable, ...]
    stake: str | None = None  # the name hand-log/1 gives its stakes, when not the block's name
    cases: tuple[str, ...] = ()  # the cases a stake names ("4:hyper:17"), when it names one
    aliases: tuple[str, ...] = ()  # the text's own words a house file may use for it (`alias "…"`)


@builds("severity", "value", key="severity")
@builds("kind", "value", key="kind")
@builds("message", "value", key="message")
@builds("message_lang", "lang", "value", key="message")
@builds("doc_field", "key", "value")
@builds("doc_field_lang", "key", "lang", "value")
@dataclass(frozen=True, slots=True)
class Field:
    """One of a rule's or an option's single fields: severity, kind, message, or a doc field (checks,
    why, fails, passes); a message or doc field in a language (`message fr "…"`; English unmarked)."""

    pos: Pos
    key: str
    value: str
    lang: str = "en"


@builds("default_value", "value", required=False)
@builds("default_required", value=None, required=True)
@dataclass(frozen=True, slots=True)
class Default:
    """An option's default: a value, or `required` (the house must choose)."""

    pos: Pos
    value: Value | None
    required: bool


@dataclass(frozen=True, slots=True)
class Allowed:
    """What an option allows: a list of values, or a range (its two ends)."""

    pos: Pos
    values: tuple[Any, ...]
    is_range: bool


@builds("check", "event", "guard?", "require")
@dataclass(frozen=True, slots=True)
class Check:
    pos: Pos
    event: str
    guard: Expr | None
    require: Expr


@builds("table_name", "name", by_option=False)
@builds("table_option", "name", by_option=True)
@dataclass(frozen=True, slots=True)
class TableRef:
    """A paytable a side bet's settlement reads: by its name, or by a house option naming it."""

    pos: Pos
    name: str  # `standard`, or the option's path `house.lucky_ladies.paytable`
    by_option: bool


@builds("pay", "amount", verb="pay")
@builds("lose", "amount?", verb="lose")
@builds("push", verb="push", amount=None)
@builds("by_paytable", "*tables", verb="paytable", amount=None)
@dataclass(frozen=True, slots=True)
class Outcome:
    pos: Pos
    verb: str  # pay / lose / push / paytable
    amount: Expr | None
    tables: tuple[TableRef, ...] = ()


@builds("settle", "stake", "guard?", "outcome")
@dataclass(frozen=True, slots=True)
class Settle:
    pos: Pos
    stake: str  # main, insurance, war, egalite, …
    guard: Expr | None
    outcome: Outcome


@builds("same_check", "family", "on?", "rule")
@dataclass(frozen=True, slots=True)
class SameCheck:
    """`same check as fr/blackjack@2024-11-01 rule six-decks`: the rule runs the clauses (`on … require`,
    `settle`) of another text's rule, under its own id, reference, severity, message and docs.

    As written: the family, the date whose version is cited (None: the family's undated version) and the
    rule's name. The loader (`dsl.cite`) fills in what it found: the version cited (ID@DATE as the
    registry names it), the file and line that wrote the rule, and its clauses, which it puts in the
    citing rule's `checks` and `settles`. `version` stays empty until then."""

    pos: Pos
    family: str
    on: date | None
    rule: str
    version: str = ""
    file: str = ""
    line: int = 0

    @property
    def cited(self) -> str:
        """The citation as written: `fr/blackjack@2024-11-01 rule six-decks`."""
        at = f"@{self.on.isoformat()}" if self.on is not None else ""
        return f"{self.family}{at} rule {self.rule}"


@dataclass(frozen=True, slots=True)
class RuleDecl:
    pos: Pos
    name: str
    refs: tuple[Ref, ...]
    severities: tuple[tuple[Pos, str], ...]
    messages: tuple[tuple[Pos, str], ...]
    checks: tuple[Check, ...]
    settles: tuple[Settle, ...]
    doc: tuple[tuple[str, str], ...]
    kinds: tuple[tuple[Pos, str], ...] = ()
    # The message and docs in another language than English: (language, field, text, where written).
    translations: tuple[tuple[str, str, str, Pos], ...] = ()
    # `same check as …`: the rule takes its clauses from another rule (one expected; `checks` and
    # `settles` are then the cited rule's, once `dsl.cite` has found it).
    same_checks: tuple[SameCheck, ...] = ()


@builds("title", "value", key="title")
@builds("source", "value", key="source")
@builds("game", "value", key="game")
@builds("note", "value", key="note")
@dataclass(frozen=True, slots=True)
class Header:
    pos: Pos
    key: str  # title, source, game, note, in_force
    value: Any


@dataclass(frozen=True, slots=True)
class Address:
    """`address "https://…"`: the source text's official address; `address none "why"` (with its French,
    `fr "…"`) where the text has none."""

    url: str | None
    reason: str | None = None
    translations: tuple[tuple[str, str], ...] = ()  # (language, the reason in it)
    file: str | None = None  # where it is written, when not in the file compiled (an amended version's)


@dataclass(frozen=True, slots=True)
class Provision:
    """`provision "art. 55-4, 1°, al. 2" quote "…"`: one numbered provision of the source text, named as a
    `ref` cites it (`dsl.provisions`), with the text's words; `out of scope "…"` says why nothing encodes it
    (what a log cannot show, another article's matter), with its French (`fr "…"`)."""

    pos: Pos
    name: str
    quote: str
    reason: str | None = None
    translations: tuple[tuple[str, str], ...] = ()  # (language, the reason in it)


@builds("define", "name", "body", "ref")
@dataclass(frozen=True, slots=True)
class Define:
    """`define NAME = condition ref "…"`: a clause of the text written once, cited by name."""

    pos: Pos
    name: str
    body: Expr
    ref: Ref


@dataclass(frozen=True, slots=True)
class Alternative:
    """One answer to a reading's question: what it means, and what it changes in the version as written
    (the changes an amendment makes; none for the default, which is the version as written)."""

    pos: Pos
    name: str
    meaning: str
    changes: tuple[Change, ...]
    has_block: bool = False  # written with `{ … }` (the default may not be)
    # The meaning in another language: (lang, text), written `alternative NAME "…" fr "…"`.
    translations: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Reading:
    """`reading ID { … }`: a question the text leaves open, the sentence it reads, its alternatives and the
    one a run applies unless told otherwise (with why)."""

    pos: Pos
    name: str
    refs: tuple[Ref, ...]
    quotes: tuple[str, ...]
    questions: tuple[str, ...]
    alternatives: tuple[Alternative, ...]
    defaults: tuple[tuple[Pos, str, str], ...]  # (where, alternative, because): one expected
    # The question and the reason for the default in another language: (lang, "question" or "because",
    # text, where).
    translations: tuple[tuple[str, str, str, Pos], ...] = ()


AMENDABLE = {
    "parameter": "parameters",
    "provision": "provisions",
    "define": "defines",
    "option": "options",
    "fixed": "fixed",
    "side_bet": "side_bets",
    "rule": "rules",
    "reading": "readings",
}


@dataclass(frozen=True, slots=True)
class Change:
    """One change an amending text makes: `add`, `replace` (the whole item, as written anew) or `repeal`."""

    pos: Pos
    verb: str  # add, replace, repeal
    kind: str  # parameter, option, fixed, side_bet, rule
    name: str
    item: Any  # the new Parameter, Option, Fixed, SideBet or RuleDecl; None for a repeal
    after: str | None = None  # an added item's place: after this item of its kind (else at the end)


@dataclass(frozen=True, slots=True)
class Amendment:
    """The changes one amending text made, cited as a lawyer cites it."""

    pos: Pos
    citation: str
    changes: tuple[Change, ...]


@builds("amends", "family", "on?")
@dataclass(frozen=True, slots=True)
class Amends:
    """`amends FAMILY@DATE`: the version in force on `on`; `amends FAMILY` (`on` None): the family's one
    version, whatever its dates (a family with several must be given the date)."""

    pos: Pos
    family: str
    on: date | None

    @property
    def named(self) -> str:
        """As written: FAMILY@DATE, or FAMILY alone."""
        return self.family if self.on is None else f"{self.family}@{self.on.isoformat()}"


@dataclass(frozen=True, slots=True)
class RulesetFile:
    file: str
    family: str
    family_pos: Pos
    headers: tuple[Header, ...]
    parameters: tuple[Parameter, ...]
    options: tuple[Option, ...]
    fixed: tuple[Fixed, ...]
    side_bets: tuple[SideBet, ...]
    rules: tuple[RuleDecl, ...]
    source_text: str
    defines: tuple[Define, ...] = ()
    readings: tuple[Reading, ...] = ()
    provisions: tuple[Provision, ...] = ()
    amends: Amends | None = None
    amendments: tuple[Amendment, ...] = ()
    # Items a consolidated version inherited: (kind, name, the file that wrote them). Items not listed
    # were written in `file`.
    origins: tuple[tuple[str, str, str], ...] = ()
    # A version compiled under readings other than its defaults (dsl.readings.chosen): reading →
    # alternative. Its readings were checked on the version as written.
    chosen: tuple[tuple[str, str], ...] = ()
    # The SHA-256 of the bytes `file` was read from (set by whoever read them: `rulebook.registry`), so
    # that a run records the encoding it judged with, not what the file holds later.
    sha256: str = ""

    def file_of(self, kind: str, name: str) -> str:
        for k, n, file in self.origins:
            if k == kind and n == name:
                return file
        return self.file
