"""Parsing ruleset text: the Lark parser is built once; Lark's errors become one `RulesetError`
with the line, the column and a caret under the place, as poetry-core does for its grammars."""

from __future__ import annotations

from functools import cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from validator.dsl.ast import RulesetFile
from validator.dsl.resources import grammar_path
from validator.dsl.transformer import RulesTransformer, TokenProblem
from validator.errors import RulesetError
from validator.i18n import N_, _

# What a reader should see instead of Lark's terminal names in "expected …" lists.
_TOKEN_WORDS = {
    "STRING": N_("a quoted string"),
    "NUMBER": N_("a number"),
    "DATE": N_("a date (YYYY-MM-DD)"),
    "RATIO": N_("a ratio such as 3:2"),
    "NAME": N_("a name"),
    "DOTTED": N_("a dotted name such as hand.total"),
    "RULE_NAME": N_("a rule name in kebab-case"),
    "FAMILY": N_("a ruleset family such as fr/blackjack"),
    "SEVERITY": N_("error or warning"),
    "TYPE": N_("a type (bool, int, decimal, ratio, choice)"),
    "COMP_OP": N_("a comparison"),
    "DOC_KEY": N_("checks, why, fails or passes"),
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "EQUAL": "'='",
    "COLON": "':'",
    "ADD_OP": N_("+ or -"),
    "MUL_OP": N_("* or /"),
    "OPTION_NAME": N_("an option name"),
    "ANCHOR": N_("the name of the item it follows"),
    "KIND": N_("procedure or payout"),
    "$END": N_("end of file"),
    "COMMA": "','",
}


@cache
def _parser() -> Lark:
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
    )


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_(_TOKEN_WORDS[t]) if t in _TOKEN_WORDS else _keyword(t) for t in expected})
    if len(words) > 8:
        words = [*words[:8], "…"]
    return ", ".join(words)


def _keyword(terminal: str) -> str:
    # Lark names anonymous keyword terminals after their text in upper case (RULE, SETTLE, …).
    return f"'{terminal.lower()}'" if terminal.isalpha() else terminal


def parse_tree(text: str, file: str) -> Tree[Token]:
    try:
        return _parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, file) from None


def _syntax_error(exc: UnexpectedInput, text: str, file: str) -> RulesetError:
    line = getattr(exc, "line", -1)
    column = getattr(exc, "column", -1)
    if isinstance(exc, UnexpectedEOF) or line in (-1, None):
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        message = _("unexpected end of file; expected {expected}").format(
            expected=_describe_expected(set(getattr(exc, "expected", ())))
        )
    elif isinstance(exc, UnexpectedToken):
        shown = repr(exc.token.value) if exc.token.type != "$END" else _("end of file")
        message = _("unexpected {token}; expected {expected}").format(
            token=shown, expected=_describe_expected(exc.accepts or exc.expected)
        )
    elif isinstance(exc, UnexpectedCharacters):
        if exc.allowed:
            message = _("unexpected character {char!r}; expected {expected}").format(
                char=exc.char, expected=_describe_expected(exc.allowed)
            )
        else:
            message = _("unexpected character {char!r}").format(char=exc.char)
    else:  # pragma: no cover - Lark has no other UnexpectedInput
        message = str(exc)
    context = _caret(text, line, column)
    return RulesetError(file, line, column, _("syntax error: {message}").format(message=message), context)


def _caret(text: str, line: int, column: int) -> str:
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    source = lines[line - 1].expandtabs(1)
    # A line of thousands of characters (a generated chain) is shown around the place only.
    start = max(column - 60, 0)
    if len(source) > 120:
        source = source[start : start + 120]
        column -= start
    return f"    {source}\n    {' ' * max(column - 1, 0)}^"


# How deep the parse tree may nest. Lark's transformer, the compiler and the generated Python all walk
# an expression by recursion: `a and b and …` or `1 + 1 + …` a few thousand long would exhaust Python's
# stack (and Python's own parser stops at 200 nested parentheses). The rulesets shipped nest under 20.
MAX_NESTING = 100


def _too_deep(tree: Tree[Token]) -> Tree[Token] | None:
    """The first subtree found deeper than MAX_NESTING, walked without recursion; None if there is none."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))
    return None


def parse_ruleset(text: str, file: str) -> RulesetFile:
    """Text of a `.rules` file → its syntax tree, or a RulesetError at FILE:LINE:COL."""
    tree = parse_tree(text, file)
    deep = _too_deep(tree)
    if deep is not None:
        line = getattr(deep.meta, "line", 1) if not deep.meta.empty else 1
        column = getattr(deep.meta, "column", 1) if not deep.meta.empty else 1
        raise RulesetError(
            file,
            line,
            column,
            _(
                "the expression nests more than {count} levels deep (a long chain of 'and', 'or', "
                "'not', '+' or '*' counts one level per operator): split it into several rules or conditions"
            ).format(count=MAX_NESTING),
            _caret(text, line, column),
        )
    # lark wraps what a named method raises in VisitError, but not what `__default__` (the nodes
    # built from ast.py's declarations) raises: both ways lead to the same one-line error.
    try:
        return RulesTransformer(file, text).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulesetError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, TokenProblem):
            raise _token_error(file, text, exc.orig_exc) from None
        raise
    except TokenProblem as problem:
        raise _token_error(file, text, problem) from None


def _token_error(file: str, text: str, problem: TokenProblem) -> RulesetError:
    line, column = problem.token.line or 1, problem.token.column or 1
    return RulesetError(file, line, column, problem.message, _caret(text, line, column))
