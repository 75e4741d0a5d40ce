"""`casino-validator rules fmt`: the one layout of the rules language.

The layout keeps what the author chose to say with it, as gofmt does: the line breaks (an item per
line, a long condition broken where the author broke it) and the comments, each where it was. It decides
everything else:

- indentation: four spaces per block (`rule … {`, `side_bet`, `paytable`, `reading`, `amendment`, an
  alternative's changes); a line that continues the item above it (a `ref` under a `define`, the second
  line of a long condition) four more;
- spacing inside a line: one space between words and around operators (`==`, `=>`, `=`, `+`, …); none
  after `(` and `[`, before `)`, `]`, `,` and `:`, around `@` and between a function's name and its `(`;
  two spaces before a comment that ends a line;
- columns: the lines of a paytable aligned (label, three spaces, `pays`, the amount — ratios with ratios,
  amounts written as expressions with each other —, `when`); the `ref`
  of a one-line `parameter` or `fixed` at column 43 (two spaces after what precedes it when longer);
- blank lines: at most one in a row, none just inside a block's braces, none at the start; the file ends
  with one newline and no line ends with spaces.

Strings (with their own spaces and newlines) and tokens are kept as written: formatting only moves the
space between tokens, so the formatted file parses to the same syntax tree (`format_text` checks it and
refuses otherwise) and formatting it again changes nothing.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

from validator.dsl import ast

INDENT = "    "

_TOKEN = re.compile(
    r'(?P<string>"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*")'
    r"|(?P<comment>#[^\n]*)"
    r"|(?P<newline>\n)"
    r"|(?P<space>[ \t\r\f]+)"
    r"|(?P<op>=>|==|!=|<=|>=|[<>=+*/{}()\[\],:@-])"
    r"|(?P<word>\d+:\d+|[A-Za-z0-9_][A-Za-z0-9_.\-/]*)"
    r"|(?P<other>.)"
)
# Words after which `(` opens a group, not a function's arguments.
_KEYWORDS = frozenset(
    {"and", "or", "not", "in", "when", "require", "pay", "lose", "pays", "any", "as", "is", "=", "=>"}
)
_NO_SPACE_BEFORE = frozenset({")", "]", ",", ":"})
_NO_SPACE_AFTER = frozenset({"(", "["})
# The words that start an item in each kind of block (anything else continues the item above).
_STARTS = {
    "top": frozenset(
        {
            "ruleset",
            "amends",
            "title",
            "source",
            "game",
            "in",
            "note",
            "parameter",
            "option",
            "fixed",
            "side_bet",
            "side_bets",  # side_bets alias "…": the block's name in the text's words
            "rule",
            "define",
            "reading",
            "amendment",
            "add",
            "replace",
            "repeal",
        }
    ),
    "rule": frozenset(
        {"ref", "severity", "kind", "message", "on", "settle", "same", "checks", "why", "fails", "passes"}
    ),
    "side_bet": frozenset({"title", "ref", "note", "stake", "paytable", "alias"}),
    "reading": frozenset({"ref", "quote", "question", "alternative", "default", "because"}),
    "paytable": frozenset(),
}
_BLOCKS = {
    "rule": "rule",
    "side_bet": "side_bet",
    "paytable": "paytable",
    "reading": "reading",
    "amendment": "top",
    "alternative": "top",
}


@dataclass(slots=True)
class _Token:
    kind: str
    text: str


@dataclass(slots=True)
class _Line:
    tokens: list[_Token]
    blank_before: bool
    depth: int = 0
    continued: bool = False
    block: str = "top"
    text: str = ""


class FormatError(Exception):
    """The text could not be laid out without changing what it says (a bug of the formatter)."""


def _lines(text: str) -> list[_Line]:
    lines: list[_Line] = []
    current: list[_Token] = []
    newlines = 0
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        if kind == "space":
            continue
        if kind == "newline":
            if current:
                lines.append(_Line(current, newlines > 1 and bool(lines)))
                current, newlines = [], 0
            newlines += 1
            continue
        current.append(_Token(kind, match.group()))
    if current:
        lines.append(_Line(current, newlines > 1 and bool(lines)))
    return lines


def _joined(tokens: list[_Token]) -> str:
    out = ""
    previous: _Token | None = None
    for token in tokens:
        if previous is not None:
            out += _space(previous, token)
        out += token.text
        previous = token
    return out


def _space(previous: _Token, token: _Token) -> str:
    if token.kind == "comment":
        return "  "
    if token.text == "@" or previous.text == "@":
        return ""
    if token.text in _NO_SPACE_BEFORE or previous.text in _NO_SPACE_AFTER:
        return ""
    if token.text == "(" and previous.kind == "word" and previous.text not in _KEYWORDS:
        return ""  # a function's arguments: total(player.first_two)
    if token.text == "[" and previous.text in ("(", "["):
        return ""
    return " "


def _structure(lines: list[_Line]) -> None:
    """Each line's depth, its block's kind, and whether it continues the item above."""
    stack: list[str] = []
    for line in lines:
        first = line.tokens[0]
        closing = first.text == "}"
        depth = len(stack) - (1 if closing else 0)
        block = stack[-1] if stack and not closing else (stack[-2] if len(stack) > 1 and closing else "top")
        line.depth = max(depth, 0)
        line.block = block
        if first.kind == "comment" or closing:
            line.continued = False
        elif block == "paytable":
            line.continued = first.kind != "string"
        else:
            line.continued = first.text not in _STARTS[block]
        words = [t.text for t in line.tokens if t.kind == "word"]
        for token in line.tokens:
            if token.text == "{":
                opener = words[0] if words else ""
                if opener in ("add", "replace") and len(words) > 1:
                    opener = words[1]
                stack.append(_BLOCKS.get(opener, "top"))
            elif token.text == "}" and stack:
                stack.pop()


def _comment_depths(lines: list[_Line]) -> None:
    """A comment on a line of its own takes the indentation of the code line after it (in its block)."""
    following: _Line | None = None
    for line in reversed(lines):
        if line.tokens[0].kind == "comment":
            if following is not None and following.depth >= line.depth:
                line.depth, line.continued = following.depth, following.continued
        else:
            following = line


def _align_paytables(lines: list[_Line]) -> None:
    run: list[_Line] = []
    for line in [*lines, None]:
        if (
            line is not None
            and line.block == "paytable"
            and not line.continued
            and line.tokens[0].kind == "string"
        ):
            run.append(line)
            continue
        if run:
            _align_run(run)
            run = []


def _align_run(run: list[_Line]) -> None:
    shaped = [r for r in run if len(r.tokens) >= 3 and r.tokens[1].text == "pays"]
    if not shaped:
        return
    amounts = {id(r): _joined(r.tokens[2 : _when(r.tokens)]) for r in shaped}
    label = max(len(r.tokens[0].text) for r in shaped)
    # Ratios are aligned with ratios, amounts written as expressions with each other.
    widths: dict[bool, int] = {}
    for text in amounts.values():
        widths[text.startswith("(")] = max(widths.get(text.startswith("("), 0), len(text))
    for r in shaped:
        text = amounts[id(r)]
        head = f"{r.tokens[0].text.ljust(label)}   pays {text.ljust(widths[text.startswith('(')])}"
        rest = _joined(r.tokens[_when(r.tokens) :])
        r.text = f"{head} {rest}".rstrip() if rest else head.rstrip()


def _when(tokens: list[_Token]) -> int:
    """Where a paytable line's condition starts (its `when`), or its end."""
    return next((i for i, t in enumerate(tokens) if t.text == "when" and t.kind == "word"), len(tokens))


# Where the `ref` of a one-line parameter or fixed value starts (counting the indentation), unless what
# comes before it is longer: then two spaces after it.
REF_COLUMN = 42
_VALUE_ITEMS = frozenset({"parameter", "fixed"})


def _align_refs(lines: list[_Line]) -> None:
    for line in lines:
        words = [t.text for t in line.tokens[:2] if t.kind == "word"]
        if line.continued or not words:
            continue
        kind = words[1] if words[0] in ("add", "replace") and len(words) > 1 else words[0]
        if kind not in _VALUE_ITEMS or not any(t.text == "ref" and t.kind == "word" for t in line.tokens):
            continue
        at = _index(line.tokens, "ref")
        head = INDENT * line.depth + _joined(line.tokens[:at])
        room = max(REF_COLUMN - len(head), 2)
        line.text = f"{head[len(INDENT) * line.depth :]}{' ' * room}{_joined(line.tokens[at:])}"


def _index(tokens: list[_Token], word: str) -> int:
    return next(i for i, t in enumerate(tokens) if t.text == word and t.kind == "word")


def layout(text: str) -> str:
    """The text in the canonical layout (not checked: `format_text` checks it)."""
    lines = _lines(text)
    _structure(lines)
    _comment_depths(lines)
    for line in lines:
        line.text = _joined(line.tokens)
    _align_paytables(lines)
    _align_refs(lines)
    out: list[str] = []
    for index, line in enumerate(lines):
        opens_block = index > 0 and lines[index - 1].tokens[-1].text == "{"
        if line.blank_before and out and not opens_block and line.tokens[0].text != "}":
            out.append("")
        indent = INDENT * (line.depth + (1 if line.continued else 0))
        out.append(indent + line.text)
    return "\n".join(out) + "\n" if out else ""


def format_text(text: str, file: str = "<text>") -> str:
    """`text` laid out canonically; a text that does not parse raises its `RulesetError`. The result is
    parsed again and must give the same syntax tree (positions aside), else `FormatError`."""
    from validator.dsl.parser import parse_ruleset

    before = parse_ruleset(text, file)
    formatted = layout(text)
    after = parse_ruleset(formatted, file)
    if without_positions(before) != without_positions(after):
        # i18n: not shown (a bug of the formatter, reported as an internal error)
        raise FormatError(f"{file}: the layout would change what the file says")
    return formatted


_NOWHERE = ast.Pos(0, 0)


def without_positions(node: Any) -> Any:
    """A syntax tree (or a value holding some) with every position the same: trees that differ only in
    where they were written compare equal."""
    if isinstance(node, ast.Pos):
        return _NOWHERE
    if isinstance(node, tuple):
        return tuple(without_positions(item) for item in node)
    if isinstance(node, ast.RulesetFile):
        node = dataclasses.replace(node, source_text="")
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return dataclasses.replace(
            node,
            **{f.name: without_positions(getattr(node, f.name)) for f in dataclasses.fields(node) if f.init},
        )
    return node
