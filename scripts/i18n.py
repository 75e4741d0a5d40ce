"""The French catalog of the program's texts: extract, merge, compile, check.

    python scripts/i18n.py            # extract every marked text, merge it into the .po, compile the .mo
    python scripts/i18n.py --check    # exit 1 naming each text without its French, or a stale .mo

The texts are those marked in the package (`_("…")`, `N_("…")`, `ngettext("…", "…", n)`, read by
Babel's extractor) and the CLI's help, read from the command tree itself (every command's help and
short help, every parameter's help): a help text written without a mark is still found. A new text
gets an empty French translation in the .po, to be written there; `--check` (and the test suite,
tests/test_i18n.py) fails until it is. Needs Babel (the `test` extra).
"""

from __future__ import annotations

import ast
import gettext
import inspect
import io
import re
import string
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "validator"
PO = PACKAGE / "locale" / "fr" / "LC_MESSAGES" / "casino-validator.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}

Message = str | tuple[str, str]


def marked() -> Iterator[tuple[Message, str]]:
    """Every marked text of the package, with where it is written."""
    method_map = [("**.py", "python"), ("**/templates/**.j2", "jinja2.ext:babel_extract")]
    options = {
        "**/templates/**.j2": {"extensions": "jinja2.ext.i18n", "trim_blocks": "1", "lstrip_blocks": "1"}
    }
    for filename, _lineno, message, _comments, _context in extract_from_dir(
        str(PACKAGE), method_map=method_map, options_map=options, keywords=KEYWORDS, comment_tags=()
    ):
        if message:
            # The file only, not the line: a catalog whose references move with every edit above a text
            # conflicts in every merge of two branches that touch one module.
            yield message, f"validator/{filename}"


def cli_help() -> Iterator[tuple[Message, str]]:
    """Every help text of the command line, as the help shows it (validator/cli_help.py translates
    these when it writes the help)."""
    import typer.main

    from validator.cli import app

    def walk(command, path: str) -> Iterator[tuple[Message, str]]:
        if command.help:
            text = inspect.cleandoc(command.help).partition("\f")[0]
            yield text, f"help of `{path}`"
        if getattr(command, "short_help", None):
            yield command.short_help, f"short help of `{path}`"
        for param in command.params:
            if getattr(param, "help", None):
                yield param.help, f"help of `{path}` {param.opts[0] if param.opts else param.name}"
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, f"{path} {name}")

    yield from walk(typer.main.get_command(app), "casino-validator")


def vocabulary() -> Iterator[tuple[Message, str]]:
    """The vocabulary's words, as a finding's expected and actual values show them (dsl/wording.py
    translates them where it shows them): each fact's and parameter's description, each namespace."""
    from validator.dsl.vocabulary import NAMESPACES, PARAMETERS

    for namespace, facts in NAMESPACES.items():
        yield namespace.replace("_", " "), f"vocabulary: namespace {namespace}"
        for name, description in facts.items():
            yield description, f"vocabulary: {namespace}.{name}"
    for name, spec in PARAMETERS.items():
        yield spec.doc, f"vocabulary: param.{name}"


def texts() -> dict[Message, list[str]]:
    found: dict[Message, list[str]] = {}
    for message, where in [*marked(), *cli_help(), *vocabulary()]:
        found.setdefault(message, []).append(where)
    return found


def read_catalog() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle, locale="fr", domain="casino-validator")


def _key(message: Message) -> str:
    return message[0] if isinstance(message, tuple) else message


def missing(catalog: Catalog, found: dict[Message, list[str]]) -> list[str]:
    """Each text the French catalog lacks, or has with an empty translation, and where it is written."""
    problems = []
    for message, where in found.items():
        entry = catalog.get(_key(message))
        strings = entry.string if entry is not None else ""
        empty = any(not s for s in strings) if isinstance(strings, tuple | list) else not strings
        if entry is None or empty:
            problems.append(f"{where[0]}: no French for {message!r}")
    return problems


def _fields(text: str) -> set[str]:
    """The named fields of a `str.format` template (`{name}`, `{name!r}`, `{name:,}`; `{{` is no field)."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def mismatched(catalog: Catalog, found: dict[Message, list[str]]) -> list[str]:
    """Each French translation whose fields are not its English's: `.format` would raise, or drop a value."""
    problems = []
    for message, where in found.items():
        entry = catalog.get(_key(message))
        if entry is None or not entry.string:
            continue
        english = message if isinstance(message, tuple) else (message,)
        french = entry.string if isinstance(entry.string, tuple | list) else (entry.string,)
        try:
            wanted = _fields(english[-1])
        except (
            ValueError
        ):  # a brace left open: the English is no template (a JSON example), nor is the French
            continue
        try:
            same = all(_fields(f) == wanted for f in french if f)
        except ValueError:
            same = False
        if not same:
            problems.append(f"{where[0]}: the French of {_key(message)!r} has other fields than the English")
    return problems


# --- texts written without a mark ---------------------------------------------------------------------
#
# A text a person reads has words: two words of letters in a row ("no such file", "is not"), in a string or
# in the literal parts of an f-string. Each such string of the package must be marked (`_`, `N_`,
# `ngettext`), or be one no user reads as a message: a docstring, a help text of the CLI (read from the
# command tree by `cli_help`), SQL, or a module or line listed here with why. A line that writes such a
# text on purpose says so on it or on the line above: `# i18n: not shown (why)`.
PROSE = re.compile(r"[A-Za-z]{2,}[,;:]? [a-z]{2,}")
SQL = re.compile(r"^\s*(SELECT|WITH|CREATE|UNION|ORDER BY|FROM|WHERE|GROUP BY|SET|AND)\b")
PRAGMA = "i18n: not shown"
NOT_SHOWN = {
    "validator/logs/fastcheck.py": "generates the Python source of the schema's fast checks",
    "validator/dsl/codegen.py": "generates the Python source of the compiled rules",
    "validator/dsl/facts.py": "the vocabulary's descriptions: `vocabulary()` reads them for the catalog",
    "validator/dsl/vocabulary.py": "the vocabulary's descriptions: `vocabulary()` reads them for the catalog",
    "validator/dsl/vocabulary_page.py": "writes docs/vocabulary.md, a document of the repository (English)",
    "validator/rulebook/readings_page.py": "writes docs/readings.md, a document of the repository (English)",
    "validator/logs/patterns.py": "refuses a pattern of the shipped schema itself: a bug of the program",
    "validator/formats/schema.py": "the findings' JSON Schema (`schema findings`): a schema document",
    "validator/audit/dataset/columns.py": (
        "the dataset's data dictionary: a schema document, English like the JSON Schemas `schema` prints "
        "and the Parquet metadata it describes"
    ),
    "validator/simulate/inject.py": (
        "descriptions of the violations planted, written into the truth file beside the log: a data file, "
        "the same bytes for the same seed whatever the language"
    ),
    "validator/simulate/table.py": "the planted violations' descriptions (the truth file, as inject.py)",
    "validator/simulate/interludes.py": "the planted violations' descriptions (the truth file, as inject.py)",
    "validator/simulate/bets_against.py": "the planted violations' descriptions (the truth file)",
    "validator/simulate/boxes_against.py": "the planted violations' descriptions (the truth file)",
    "validator/simulate/late_against.py": "the planted violations' descriptions (the truth file)",
    "validator/simulate/offered_against.py": "the planted violations' descriptions (the truth file)",
    "validator/games/blackjack/late_insurance.py": "the planted violations' descriptions (the truth file)",
    "validator/games/blackjack/simulator.py": "the planted violations' descriptions (the truth file)",
    "validator/games/bataille/simulator.py": "the planted violations' descriptions (the truth file)",
    "validator/games/blackjack/inject.py": "the planted violations' descriptions (the truth file)",
    "validator/games/bataille/inject.py": "the planted violations' descriptions (the truth file)",
    "validator/games/blackjack/vocabulary.py": "the game's words: `vocabulary()` reads them for the catalog",
    "validator/games/bataille/vocabulary.py": "the game's words: `vocabulary()` reads them for the catalog",
}


def _skipped_nodes(tree: ast.AST) -> set[int]:
    """The ids of the strings no user reads as a message: docstrings and other bare strings (attribute
    docs), what a mark already holds, and the help texts of the CLI's options."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS:
            skip.update(id(sub) for arg in node.args for sub in ast.walk(arg))
        elif isinstance(node, ast.keyword) and node.arg in ("help", "short_help", "epilog"):
            skip.update(id(sub) for sub in ast.walk(node.value))
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(part) for part in node.values)
    return skip


def unmarked(files: Iterable[Path] | None = None) -> list[str]:
    """`FILE:LINE: text` for each string with words that no mark holds and nothing here excuses."""
    problems = []
    for path in sorted(files if files is not None else PACKAGE.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.as_posix()
        if name in NOT_SHOWN:
            continue
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        skip = _skipped_nodes(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FormattedValue):
                inside = [n for n in ast.walk(node.value) if isinstance(n, ast.Call)]
                literal = [c for c in inside if c.args and isinstance(c.args[0], ast.Constant)]
                if any(isinstance(c.func, ast.Name) and c.func.id in KEYWORDS for c in literal):
                    # Babel's extractor does not read into an f-string: the text would have no French.
                    problems.append(f"{name}:{node.lineno}: a mark inside an f-string is not extracted")
            if id(node) in skip:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            elif isinstance(node, ast.JoinedStr):
                text = "".join(p.value if isinstance(p, ast.Constant) else "{}" for p in node.values)
            else:
                continue
            if not PROSE.search(text) or SQL.match(text):
                continue
            end = node.end_lineno or node.lineno
            if any(PRAGMA in line for line in lines[max(node.lineno - 2, 0) : end + 1]):
                continue
            problems.append(f"{name}:{node.lineno}: not marked for translation: {text[:80]!r}")
    return problems


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def update() -> None:
    found = texts()
    old = read_catalog() if PO.exists() else Catalog(locale="fr")
    new = Catalog(
        locale="fr",
        domain="casino-validator",
        project="casino-validator",
        version="",
        copyright_holder="",
        msgid_bugs_address="",
        fuzzy=False,
        # The header keeps its date: a date rewritten at each run conflicts in every merge.
        creation_date=old.creation_date,
    )
    for message, where in found.items():
        entry = old.get(_key(message))
        string: str | tuple[str, ...] = ("", "") if isinstance(message, tuple) else ""
        if entry is not None and entry.string:
            string = entry.string
        new.add(message, string, locations=[(w, None) for w in where[:1]])
    PO.parent.mkdir(parents=True, exist_ok=True)
    with PO.open("wb") as handle:
        # Sorted by text: texts added by two branches land in different places of the file, not both
        # at its end (fewer conflicts when branches merge).
        write_po(handle, new, width=0, omit_header=False, sort_output=True, include_lineno=False)
    MO.write_bytes(compiled(read_catalog()))
    left = missing(read_catalog(), found)
    print(f"{PO.relative_to(ROOT)}: {len(found)} texts, {len(left)} without French")


def as_read(mo: bytes) -> dict[object, str]:
    """What gettext reads from a compiled catalog: its messages and its header, but for the header's
    "Generated-By" line, which names the Babel release that compiled it (a .mo compiled by another
    release of Babel says the same)."""
    catalog = dict(gettext.GNUTranslations(io.BytesIO(mo))._catalog)  # type: ignore[attr-defined]
    catalog[""] = re.sub(r"(?m)^Generated-By: .*\n", "", catalog.get("", ""))
    return catalog


def check() -> int:
    catalog = read_catalog()
    found = texts()
    problems = missing(catalog, found) + mismatched(catalog, found) + unmarked()
    if not MO.exists() or as_read(MO.read_bytes()) != as_read(compiled(catalog)):
        problems.append(f"{MO.relative_to(ROOT)}: not compiled from the .po (run python scripts/i18n.py)")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(check() if "--check" in sys.argv[1:] else update())
