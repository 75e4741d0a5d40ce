"""What the language server says of a ruleset being written, with no protocol in it: the problems `rules
check` finds in its text as it stands (saved or not), what a word means (hover), where a name is written
(definition), and the words that may come next (completion). `validator.lsp.server` speaks LSP with these.

A document is read with the shipped rulesets and those from outside (`--rules`), as `rules check` reads a
file: a document of a shipped family takes the place of the installed file of the version it states.
Positions are 0-based lines and columns (LSP's); the rules language's own are 1-based.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from validator.dsl import ast
from validator.dsl.facts import FACT_CLASSES, facts_of
from validator.dsl.functions import FUNCTIONS
from validator.dsl.model import Rule, Ruleset
from validator.dsl.resources import rulesets_dir
from validator.dsl.vocabulary import EVENTS, PARAMETERS
from validator.errors import RulesetError, RulesetErrors, ValidatorError
from validator.i18n import _, current
from validator.rulebook import sources
from validator.rulebook.registry import (
    Registry,
    alternative_errors,
    compile_trees,
    read_tree,
    ruleset_files,
    tree_version,
)


def keywords() -> list[str]:
    """The words of the language, as the grammar spells them (`rule`, `settle`, `require`, …)."""
    from validator.dsl.resources import grammar_path  # start-up: loaded when this part runs

    return sorted(set(re.findall(r'"([a-z_]+)"', grammar_path().read_text(encoding="utf-8"))))


@dataclass(frozen=True, slots=True)
class Problem:
    line: int  # 0-based
    column: int  # 0-based
    message: str


@dataclass(frozen=True, slots=True)
class Place:
    """Where a name is written: a file and a 0-based line."""

    path: Path
    line: int


@dataclass(slots=True)
class Document:
    """A ruleset being written: its text, and what was made of it when it last compiled."""

    path: Path
    text: str
    registry: Registry | None = None
    version: Ruleset | None = None
    tree: ast.RulesetFile | None = None


def real_path(file: str) -> Path:
    """A ruleset's file as the registry names it (`rulesets/fr/…` for a shipped one) → its path."""
    if file.startswith("rulesets/"):
        return rulesets_dir() / file.removeprefix("rulesets/")
    return Path(file)


def analyse(document: Document) -> list[Problem]:
    """The problems `rules check` finds in the document's text, and what it compiles to (kept in the
    document for hover and definition; the last good one stays when the text does not compile)."""
    from validator.dsl.compiler import untranslated  # start-up: loaded when this part runs
    from validator.dsl.parser import parse_ruleset

    name = str(document.path)
    try:
        tree = parse_ruleset(document.text, name)
    except RulesetError as exc:
        return [_problem(exc)]
    given = [(document.path, tree)]
    mine = os.path.realpath(document.path)
    version = tree_version(tree)
    root = rulesets_dir()
    for path in [*ruleset_files(root), *_extra()]:
        if os.path.realpath(path) == mine:
            continue
        try:
            other = read_tree(
                path, f"rulesets/{path.relative_to(root)}" if path.is_relative_to(root) else None
            )
        except ValidatorError:
            continue
        if other.family == tree.family and tree_version(other) == version:
            continue  # the document is a candidate for this version: it takes its place
        given.append((path, other))
    try:
        made = compile_trees(given)
    except RulesetErrors as exc:
        return [_problem(e) for e in exc.errors if e.file == name]
    except RulesetError as exc:
        return [_problem(exc)] if exc.file == name else []
    try:
        registry = Registry(made)
    except RulesetErrors as exc:
        return [_problem(e) for e in exc.errors if e.file == name]
    document.registry, document.tree = registry, tree
    document.version = next((r for r in made if r.file == name), None)
    problems: list[Problem] = []
    if document.version is not None:
        problems += [_problem(e) for e in alternative_errors(document.version) if e.file == name]
        for rule in document.version.rules:
            problems += [p for p in map(_parsed, untranslated(rule)) if p is not None and rule.file == name]
    return problems


def _extra() -> list[Path]:
    found: list[Path] = []
    for path in sources.extra():
        found += sorted(path.rglob("*.rules")) if path.is_dir() else [path]
    return found


def _problem(error: RulesetError) -> Problem:
    return Problem(max(error.line - 1, 0), max(error.column - 1, 0), error.detail)


_LOCATED = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<column>\d+): (?P<message>.*)$", re.S)


def _parsed(text: str) -> Problem | None:
    match = _LOCATED.match(text)
    if match is None:
        return None
    return Problem(int(match["line"]) - 1, int(match["column"]) - 1, match["message"])


_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/@]*")


def word_at(text: str, line: int, column: int) -> str:
    """The word under a 0-based position (a dotted name, a rule name, a family with its date)."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return ""
    for match in _WORD.finditer(lines[line]):
        if match.start() <= column <= match.end():
            return match.group()
    return ""


def _rule_around(document: Document, line: int) -> Rule | None:
    """The rule whose block holds the 0-based line."""
    version = document.version
    if version is None:
        return None
    lines = document.text.splitlines()
    for number in range(min(line, len(lines) - 1), -1, -1):
        match = re.match(r"\s*(?:(?:add|replace)\s+)?rule\s+([a-z0-9-]+)", lines[number])
        if match:
            return next((r for r in version.rules if r.name == match.group(1)), None)
    return None


def hover(document: Document, line: int, column: int) -> str | None:
    """What the word under the position means, in Markdown: a parameter, a fact, a function, a named
    condition, an event; on anything else in a rule, the rule: its reference and its docs."""
    word = word_at(document.text, line, column)
    version = document.version
    if word.startswith("param."):
        name = word.removeprefix("param.")
        spec = PARAMETERS.get(name)
        parts = [f"**parameter `{name}`**"]
        if version is not None and name in version.parameters:
            value = version.parameters[name]
            parts.append(f"= `{value.value}` — {value.ref}")
        if spec is not None:
            parts.append(f"{spec.type}: {spec.doc}")
        return "\n\n".join(parts)
    namespace, _dot, fact = word.partition(".")
    if fact and namespace in FACT_CLASSES:
        doc = facts_of(FACT_CLASSES[namespace]).get(fact)
        if doc is not None:
            return f"**fact `{word}`**\n\n{doc}"
    if word in FUNCTIONS:
        function = FUNCTIONS[word]
        return f"**function `{word}({', '.join(function.arguments)})`**\n\n{function.doc}"
    if version is not None and word in version.conditions:
        condition = version.conditions[word]
        said = _("named condition")
        return f"**{said} `{word}`** — {condition.ref}\n\n`{condition.source}`"
    if word in EVENTS:
        offered = ", ".join(("table", "param", "house", *EVENTS[word]))
        return _("**event `{word}`**: offers {namespaces}").format(word=word, namespaces=offered)
    rule = _rule_around(document, line)
    if rule is None:
        return None
    lang = current()
    parts = [
        f"**rule `{rule.id}`** ({rule.kind}, {rule.severity})",
        _("Reference: {ref}").format(ref=rule.ref),
        rule.text("message", lang),
    ]
    parts += [
        f"*{key}*: {rule.text(key, lang)}"
        for key in ("checks", "why", "fails", "passes")
        if rule.doc.get(key)
    ]
    if rule.same_check is not None:
        source = rule.same_check
        parts.append(
            _("Same check as {cited} ({file}:{line})").format(
                cited=source.cited, file=source.file, line=source.line
            )
        )
    return "\n\n".join(parts)


def definition(document: Document, line: int, column: int) -> Place | None:
    """Where the name under the position is written: the version `amends` or `same check as` names (the
    rule, for the latter), a parameter, a named condition."""
    registry, version = document.registry, document.version
    if registry is None or version is None:
        return None
    word = word_at(document.text, line, column)
    text_line = document.text.splitlines()[line] if line < len(document.text.splitlines()) else ""
    cited = re.search(r"same\s+check\s+as\s+(\S+)\s+rule\s+([a-z0-9-]+)", text_line)
    if cited and (word in cited.group(0) or not word):
        rule = _cited_rule(registry, cited.group(1), cited.group(2))
        if rule is not None:
            return Place(real_path(rule.file), max(rule.line - 1, 0))
    if re.match(r"\s*amends\s", text_line) and "/" in word:
        return _version_place(registry, word)
    if word.startswith("param."):
        name = word.removeprefix("param.")
        parameter = version.parameters.get(name)
        if parameter is not None and version.tree is not None:
            return Place(real_path(version.tree.file_of("parameter", name)), max(parameter.line - 1, 0))
    if word in version.conditions:
        condition = version.conditions[word]
        return Place(real_path(condition.file), max(condition.line - 1, 0))
    return None


def _cited_rule(registry: Registry, spec: str, name: str) -> Rule | None:
    try:
        cited = registry.pick(spec)
    except ValidatorError:
        return None
    return next((r for r in cited.rules if r.name == name), None)


def _version_place(registry: Registry, spec: str) -> Place | None:
    try:
        cited = registry.pick(spec)
    except ValidatorError:
        return None
    tree = cited.tree
    line = tree.family_pos.line - 1 if tree is not None else 0
    return Place(real_path(cited.file), max(line, 0))


def completions(document: Document, line: int, column: int) -> list[tuple[str, str]]:
    """The words that may be written at the position, each with what it is: after `param.` the
    parameters, after a namespace and a dot its facts, after `on` the events, else the language's words,
    the functions, the namespaces, the named conditions and the house options."""
    lines = document.text.splitlines()
    before = lines[line][:column] if line < len(lines) else ""
    word = re.search(r"[A-Za-z0-9_.]*$", before)
    typed = word.group() if word else ""
    if typed.startswith("param."):
        return [(f"param.{name}", spec.doc) for name, spec in sorted(PARAMETERS.items())]
    if typed.startswith("house.") and document.version is not None:
        return [(f"house.{name}", option.type) for name, option in sorted(document.version.options.items())]
    namespace, dot, _rest = typed.partition(".")
    if dot and namespace in FACT_CLASSES:
        return [(f"{namespace}.{fact}", doc) for fact, doc in facts_of(FACT_CLASSES[namespace]).items()]
    if re.search(r"\b(on|settle)\s+\w*$", before):
        return [(event, _("event")) for event in EVENTS]
    items = [(keyword, _("a word of the language")) for keyword in keywords()]
    items += [(name, function.doc) for name, function in sorted(FUNCTIONS.items())]
    items += [(f"{namespace}.", _("facts")) for namespace in sorted(FACT_CLASSES)]
    items += [("param.", _("parameters")), ("house.", _("house options"))]
    if document.version is not None:
        items += [(name, _("named condition")) for name in sorted(document.version.conditions)]
    return items
