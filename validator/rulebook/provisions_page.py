"""docs/provisions.md, generated from the rulesets: for every version, where its source text is published
and each numbered provision of it (article, alinéa, section) with its words, the rules, parameters,
options, side bets, named conditions and readings that encode it, or why it is out of scope — what
`casino-validator rules coverage FAMILY[@DATE]` prints, as one page. `python -m
validator.rulebook.provisions_page` writes it; a test holds the page in docs/ to what this prints.

The law's coverage (`rulebook.text_coverage`), not the fixtures' (which rules a fixture log breaks)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from validator.dsl.model import Ruleset
from validator.dsl.pages import cell, text, write
from validator.rulebook.registry import Registry, default_registry
from validator.rulebook.text_coverage import coverage

PAGE = Path("docs") / "provisions.md"


def lines(registry: Registry) -> Iterator[str]:
    yield "# The texts' provisions, and what encodes each"
    yield ""
    yield (
        "Generated from the rulesets by `python -m validator.rulebook.provisions_page`; do not edit. For "
        "each version, every numbered provision of its source text (declared in the ruleset: `provision "
        '"…" quote "…"`, docs/rules-language.md) with the items whose `ref` cites it, or the reason it is '
        "out of scope. `casino-validator rules coverage FAMILY[@DATE]` prints one version's, and exits 1 "
        "when a provision is neither encoded nor out of scope; `rules show` lists them too. How the "
        "provisions are numbered: docs/sources.md."
    )
    rulesets = registry.all()
    yield ""
    yield "| version | provisions | encoded | out of scope only | the text |"
    yield "|---|---|---|---|---|"
    reports = [(ruleset, coverage(ruleset)) for ruleset in rulesets]
    for ruleset, report in reports:
        encoded = sum(1 for p in report.provisions if p.encoded_by)
        scoped = sum(1 for p in report.provisions if not p.encoded_by and p.definition.reason)
        yield (
            f"| [`{ruleset.version}`](#{_anchor(ruleset.version)}) | {len(report.provisions)} | {encoded} "
            f"| {scoped} | {_address(ruleset)} |"
        )
    for ruleset, report in reports:
        yield ""
        yield f"## {ruleset.version}"
        yield ""
        yield f"{ruleset.source}. The text: {_address(ruleset)}."
        yield ""
        yield "| provision | the text | encoded by | out of scope |"
        yield "|---|---|---|---|"
        for p in report.provisions:
            items = ", ".join(f"`{item}`" for item in p.encoded_by) or "—"
            reason = cell(p.definition.reason) if p.definition.reason else ""
            yield f"| {p.definition.name} | « {cell(p.definition.quote)} » | {items} | {reason} |"
        for item in report.stray:
            yield ""
            yield f"{item.label} cites a provision the text does not have: {item.ref}"


def _address(ruleset: Ruleset) -> str:
    address = ruleset.address
    if address is None:
        return "not named"
    if address.url:
        return f"<{address.url}>"
    return f"no official address ({address.reason})"


def _anchor(version: str) -> str:
    # GitHub's heading anchors: lower case, punctuation other than - and _ dropped.
    return "".join(c for c in version.lower() if c.isalnum() or c in "-_")


def render(registry: Registry | None = None) -> str:
    return text(lines(registry or default_registry()))


if __name__ == "__main__":
    raise SystemExit(write(PAGE, render()))
