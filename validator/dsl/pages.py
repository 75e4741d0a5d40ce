"""What the pages of docs/ generated from the declarations and the rulesets share (the vocabulary,
`vocabulary_page`; the readings and the provisions, `rulebook.readings_page` and
`rulebook.provisions_page`): a table cell, the page as one text, and the `python -m …` that writes it
into the checkout it runs from."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path


def cell(text: str) -> str:
    """`text` in a Markdown table cell: its pipes escaped, on one line."""
    return text.replace("|", "\\|").replace("\n", " ")


def text(lines: Iterable[str]) -> str:
    """The page's lines as its text, ending with a newline."""
    return "\n".join(lines) + "\n"


def write(page: Path, content: str) -> int:
    """`python -m validator…_page`: `content` written to `page` (relative to the checkout); exit 0."""
    root = Path(__file__).resolve().parents[2]
    (root / page).write_text(content, encoding="utf-8")
    sys.stdout.write(f"wrote {page}\n")
    return 0
