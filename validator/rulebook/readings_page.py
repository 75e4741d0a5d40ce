"""docs/readings.md, generated from the rulesets: every reading of every version — the sentence it reads,
its question, each alternative with what it changes, the default and why — grouped by reading, with the
versions that have it. `python -m validator.rulebook.readings_page` writes it; a test holds the page in
docs/ to what this prints, so the page cannot fall behind the rulesets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from validator.dsl.pages import cell, text, write
from validator.dsl.readings import ReadingInfo
from validator.rulebook.registry import Registry, default_registry

PAGE = Path("docs") / "readings.md"


def lines(registry: Registry) -> Iterator[str]:
    yield "# Readings: where the texts are ambiguous"
    yield ""
    yield (
        "Generated from the rulesets by `python -m validator.rulebook.readings_page`; do not edit. A "
        "reading is a question a version's text leaves open: the sentence it reads, its alternatives "
        "(each with what it changes in the version as written: the `add`, `replace` and `repeal` of an "
        "amendment), and the alternative applied unless a run chooses another (`--reading "
        "ID=ALTERNATIVE`, `readings` in the configuration file or in a house file's table entry). `check"
        " --all-readings` judges each round under every alternative; `edge` gives the figures each "
        "alternative changes. How a reading is written: docs/rules-language.md."
    )
    by_reading = registry.readings()
    yield ""
    yield "| reading | versions | sentence | default |"
    yield "|---|---|---|---|"
    for name in sorted(by_reading):
        versions = ", ".join(f"`{r.version}`" for r, _ in by_reading[name])
        first = by_reading[name][-1][1]
        yield f"| [`{name}`](#{name}) | {versions} | « {cell(first.quote)} » | `{first.default}` |"
    for name in sorted(by_reading):
        yield ""
        yield f"## {name}"
        shown: list[ReadingInfo] = []
        for _, reading in by_reading[name]:
            if reading in shown:
                continue
            shown.append(reading)
            same = [r.version for r, other in by_reading[name] if other == reading]
            yield ""
            yield f"In {', '.join(f'`{v}`' for v in same)} ({reading.ref}; written in `{reading.file}`):"
            yield ""
            yield f"> « {reading.quote} »"
            yield ""
            yield f"**{reading.question}**"
            yield ""
            yield "| alternative | meaning | what it changes |"
            yield "|---|---|---|"
            for alt in reading.alternatives:
                mark = " (default)" if alt.name == reading.default else ""
                changes = ", ".join(f"{verb} {kind} `{item}`" for verb, kind, item in alt.changes)
                said = changes or "nothing: the version as written"
                yield f"| `{alt.name}`{mark} | {cell(alt.meaning)} | {said} |"
            yield ""
            yield f"Default `{reading.default}`, because: {reading.because}"


def render(registry: Registry | None = None) -> str:
    return text(lines(registry or default_registry()))


if __name__ == "__main__":
    raise SystemExit(write(PAGE, render()))
