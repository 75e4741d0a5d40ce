"""The documentation site's generated pages: one reference page per rule, as ruff and sqlfluff publish
theirs, and the index of them all. A MkDocs hook (mkdocs.yml, `hooks:`): `mkdocs build` makes the pages
in memory from the rulesets, the Python-side rules' docs and the rule fixtures, so they are never
committed and cannot fall behind (`.ci/run` builds the site with `--strict`: a broken link fails it).
`python scripts/docs_site.py OUT` writes them to OUT instead, to read them without MkDocs.

A ruleset rule's page gives its kind and severity, its `ref`, its message and its docs (checks, why,
fails, passes) in English and in French as the ruleset writes them, the versions that have it (dates,
reference, file and line) with the clauses each wording runs, and its failing and passing fixtures
(`tests/fixtures/rules/<rule id>/`). A Python-side rule's (`hand-log/*`, `ruleset/*`, `house/*`:
`validator.catalogue.builtin_docs.py`) gives the same from its module, its French from the catalog, and
its fixtures (`tests/fixtures/python-rules/<rule id>/`).
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RULE_FIXTURES = ROOT / "tests" / "fixtures" / "rules"
PYTHON_FIXTURES = ROOT / "tests" / "fixtures" / "python-rules"
RULES_DIR = "rules"  # the pages' folder in the site: rules/fr/blackjack/dealer-stands-17.md
INDEX = f"{RULES_DIR}/index.md"
SHOWN_BYTES = 32_000  # a fixture longer than this is named with its size, not printed (none is, yet)
DOC_FIELDS = (
    ("checks", "What it checks"),
    ("why", "Why (the text)"),
    ("fails", "What fails"),
    ("passes", "What passes"),
)


@dataclass(frozen=True, slots=True)
class RulePage:
    rule_id: str
    path: str  # in the site: rules/<rule id>.md
    summary: str  # one line for the index (the English message, or what it checks)
    text: str


def page_path(rule_id: str) -> str:
    return f"{RULES_DIR}/{rule_id}.md"


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def _fence(text: str, language: str = "") -> list[str]:
    fence = "````" if "```" in text else "```"
    return [f"{fence}{language}", text.rstrip("\n"), fence]


def _in_both(label: str, english: str, french: str) -> Iterator[str]:
    """A text in both languages, English first; one line where they are the same (a `why` quoting the
    French text). A missing French is said: tests of the rulesets and of the catalog fail on one."""
    yield f"**{label}**"
    yield ""
    if french == english:  # the words of a French text, quoted as they are
        yield f"- English and French: {english}"
    else:
        yield f"- English: {english or '(none)'}"
        yield f"- Français : {french or '(none)'}"
    yield ""


def _fixture_lines(path: Path, root: Path) -> Iterator[str]:
    data = path.read_bytes()
    if path.suffix == ".gz":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError):
            size = path.stat().st_size
            yield f"`{path.relative_to(root)}`: a gzip stream cut short on purpose ({size} bytes)."
            yield ""
            return
    name = path.relative_to(root).as_posix()
    if len(data) > SHOWN_BYTES:
        yield f"`{name}`: {len(data):,} bytes (decompressed), too long to print here."
        yield ""
        return
    text = data.decode("utf-8", errors="replace")
    language = "yaml" if path.suffix in (".yaml", ".yml") else "json" if path.suffix == ".json" else "text"
    yield f"`{name}`:"
    yield ""
    yield from _fence(text, language)
    yield ""


def _ruleset_fixtures(rule_id: str) -> Iterator[str]:
    folder = RULE_FIXTURES / rule_id
    cases = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
    yield "## Fixtures"
    yield ""
    if not cases:
        yield f"No fixture in `tests/fixtures/rules/{rule_id}/`."
        return
    yield (
        f"`casino-validator rules test tests/fixtures/rules/{rule_id}` runs them: each log must give "
        "exactly the findings its `.expect.json` lists (worked out from the text, never copied from the "
        'program\'s output); `"findings": []` is a passing case.'
    )
    yield ""
    for kind, title in (("fails", "Failing"), ("passes", "Passing")):
        for log in (case for case in cases if case.name.startswith(kind)):
            yield f"### {title}: `{log.stem}`"
            yield ""
            expect = log.with_name(log.stem + ".expect.json")
            if expect.is_file():
                yield from _fixture_lines(expect, ROOT)
            yield from _fixture_lines(log, ROOT)


def _python_fixtures(rule_id: str) -> Iterator[str]:
    folder = PYTHON_FIXTURES / rule_id
    yield "## Fixtures"
    yield ""
    if not folder.is_dir():
        yield f"No fixture in `tests/fixtures/python-rules/{rule_id}/`."
        return
    yield (
        "`tests/test_python_rules.py` runs them: the failing file gives this rule (and, where an `also` "
        "file names them, its companions), the passing one does not."
    )
    yield ""
    args = folder / "args"
    if args.is_file():
        yield f"Run with `{args.read_text(encoding='utf-8').strip()}`."
        yield ""
    also = folder / "also"
    if also.is_file():
        companions = ", ".join(f"`{rule}`" for rule in also.read_text(encoding="utf-8").split())
        yield f"The failing case also gives {companions}."
        yield ""
    for kind, title in (("fails", "Failing"), ("passes", "Passing")):
        for case in sorted(folder.glob(f"{kind}.*")):
            yield f"### {title}"
            yield ""
            yield from _fixture_lines(case, ROOT)


def _ruleset_page(rule_id: str, found: list[tuple[Any, Any]]) -> RulePage:
    from validator.catalogue.view import check_lines, source_line

    ruleset, latest = found[-1]
    lines = [f"# `{rule_id}`", ""]
    lines += [
        "| | |",
        "|---|---|",
        f"| kind | {latest.kind} |",
        f"| severity | {latest.severity} |",
        f"| ref | {_cell(latest.ref)} |",
        f"| game | {ruleset.game} |",
        f"| versions | {', '.join(f'`{r.version}`' for r, _ in found)} |",
        "",
    ]
    lines += _in_both("Message", latest.text("message", "en"), latest.text("message", "fr"))
    lines += ["## Docs", ""]
    for key, label in DOC_FIELDS:
        lines += _in_both(label, latest.text(key, "en"), latest.text(key, "fr"))
    lines += ["## Versions", "", "| version | in force | ref | written in |", "|---|---|---|---|"]
    for version, rule in found:
        lines.append(
            f"| `{version.version}` | {version.dates()} | {_cell(rule.ref)} | `{rule.file}:{rule.line}` |"
        )
    lines.append("")
    lines += ["## What it runs", ""]
    wordings: list[tuple[list[str], list[str]]] = []
    for version, rule in found:
        cited = source_line(rule, where=False)
        text = [*([cited] if cited else []), *check_lines(rule)]
        for versions, written in wordings:
            if written == text:
                versions.append(version.version)
                break
        else:
            wordings.append(([version.version], text))
    for versions, written in wordings:
        lines.append(f"In {', '.join(f'`{v}`' for v in versions)}:")
        lines.append("")
        lines += _fence("\n".join(written) or "(no clause)", "text")
        lines.append("")
    lines += _ruleset_fixtures(rule_id)
    return RulePage(rule_id, page_path(rule_id), latest.text("message", "en"), "\n".join(lines) + "\n")


def _python_page(rule_id: str) -> RulePage:
    from validator.catalogue.builtin_docs import BUILTIN
    from validator.i18n import _, current, use

    doc = BUILTIN[rule_id]
    previous = current()
    try:
        use("fr")
        french = {key: _(getattr(doc, key)) for key, _label in DOC_FIELDS}
    finally:
        use(previous)
    lines = [f"# `{rule_id}`", ""]
    lines += [
        "| | |",
        "|---|---|",
        f"| kind | {doc.kind} |",
        f"| severity | {doc.severity} |",
        f"| ref | {_cell(doc.ref)} |",
        "| versions | every version: applied by casino-validator itself |",
        "",
    ]
    if doc.kind == "format":
        where = "the reader (`validator/logs/rules/`)"
    else:
        where = "the linter (`validator/house/rules/`)"
    lines += [
        f"A rule of {where}: its message is written with the case's facts (the line, the field, the value), "
        "in the language of the run; its docs are these.",
        "",
        "## Docs",
        "",
    ]
    for key, label in DOC_FIELDS:
        lines += _in_both(label, getattr(doc, key), french[key])
    lines += _python_fixtures(rule_id)
    return RulePage(rule_id, page_path(rule_id), doc.checks, "\n".join(lines) + "\n")


def rule_pages() -> list[RulePage]:
    """Every rule's page: the rulesets' rules in the registry's order (family, then each rule as its
    latest version lists it), then the Python-side rules by id."""
    from validator.catalogue.builtin_docs import BUILTIN
    from validator.dsl.model import Ruleset
    from validator.rulebook.registry import alternatives, default_registry

    by_id: dict[str, list[tuple[Any, Any]]] = {}
    for ruleset in default_registry().all():
        for rule in ruleset.rules:
            by_id.setdefault(rule.id, []).append((ruleset, rule))
    # A rule that only a reading's alternative adds (usage-decks' six-as-the-arrete, say) has fixtures
    # too, chosen by the reading their .expect.json names: its page comes from the version as read so.
    for ruleset in default_registry().all():
        own = {rule.id for rule in ruleset.rules}
        for _reading, _alternative, outcome in alternatives(ruleset):
            if isinstance(outcome, Ruleset):
                for rule in outcome.rules:
                    if rule.id not in own and rule.id not in by_id:
                        by_id.setdefault(rule.id, []).append((outcome, rule))
    pages = [_ruleset_page(rule_id, found) for rule_id, found in by_id.items()]
    pages += [_python_page(rule_id) for rule_id in sorted(BUILTIN)]
    return pages


def index_page(pages: list[RulePage]) -> str:
    lines = [
        "# Rules",
        "",
        "Every rule casino-validator applies, one page each, generated from the rulesets and the "
        "Python-side rules' docs when the site is built (`scripts/docs_site.py`): its message and docs in "
        "English and French, its reference, the versions that have it and what each runs, and its failing "
        "and passing fixtures. `casino-validator rules show RULE-ID` prints the same in a terminal; "
        "`--select` and `--ignore` take these ids or a prefix (`fr/blackjack/`, `house/`).",
    ]
    family = None
    for page in pages:
        head = page.rule_id.rsplit("/", 1)[0]
        if head != family:
            family = head
            lines += ["", f"## `{family}`", "", "| rule | what it says |", "|---|---|"]
        link = page.path.removeprefix(f"{RULES_DIR}/")
        lines.append(f"| [`{page.rule_id}`]({link}) | {_cell(page.summary)} |")
    return "\n".join(lines) + "\n"


def site_pages() -> dict[str, str]:
    """Every generated page by its path in the site."""
    pages = rule_pages()
    return {INDEX: index_page(pages), **{page.path: page.text for page in pages}}


def rules_nav(pages: list[RulePage]) -> list[Any]:
    """The rules' section of the site's navigation: the index, then each family's pages under it."""
    families: dict[str, list[dict[str, str]]] = {}
    for page in pages:
        family, name = page.rule_id.rsplit("/", 1)
        families.setdefault(family, []).append({name: page.path})
    return [INDEX, *({family: entries} for family, entries in families.items())]


def _put_rules_in(nav: list[Any], section: list[Any]) -> bool:
    """Replace the nav's entry naming the rules' index (mkdocs.yml: `Rules: rules/index.md`) by the
    whole section; False if the nav names no such entry."""
    for number, entry in enumerate(nav):
        if isinstance(entry, dict):
            ((title, value),) = entry.items()
            if value == INDEX:
                nav[number] = {title: section}
                return True
            if isinstance(value, list) and _put_rules_in(value, section):
                return True
    return False


# The MkDocs hook. The pages are made once per build (on_config), listed in the navigation under the
# rules' index (which mkdocs.yml names), and added to the site's files (on_files).
_GENERATED: dict[str, str] = {}


def on_config(config: Any) -> Any:
    pages = rule_pages()
    _GENERATED.clear()
    _GENERATED.update({INDEX: index_page(pages), **{page.path: page.text for page in pages}})
    if config["nav"] is not None and not _put_rules_in(config["nav"], rules_nav(pages)):
        raise ValueError(f"mkdocs.yml's nav names no {INDEX}: the rules' pages would be left out")
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, text in _GENERATED.items():
        files.append(File.generated(config, path, content=text))
    return files


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python scripts/docs_site.py OUT\n")
        return 2
    out = Path(argv[0])
    pages = site_pages()
    for path, text in pages.items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {len(pages)} pages under {out}\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    raise SystemExit(main(sys.argv[1:]))
