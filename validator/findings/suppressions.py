"""Inline suppressions in house-rules YAML: `# casino-validator: ignore[RULE-ID] reason`.

A comment after a key suppresses that rule's findings on its own line; a comment alone on its line
suppresses them on the next line that holds something other than a comment. `ignore[A,B]` names
several rules. A suppression is matched by rule id (exactly, or as a prefix ending in `/`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_COMMENT = re.compile(r"#\s*casino-validator:\s*ignore\[([^\]]*)\]\s*(.*)$")


@dataclass(frozen=True, slots=True)
class Suppression:
    file: str
    line: int  # the comment's own line
    target: int  # the line whose findings it suppresses
    rules: tuple[str, ...]
    reason: str

    def matches(self, rule: str, file: str, line: int | None) -> bool:
        if file != self.file or line != self.target:
            return False
        return any(rule == r or (r.endswith("/") and rule.startswith(r)) for r in self.rules)


def read_suppressions(path: Path | str) -> list[Suppression]:
    """The suppressions of one file; a file that cannot be read has none (the linter reports it)."""
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    found: list[Suppression] = []
    for number, text in enumerate(lines, start=1):
        match = _COMMENT.search(text)
        if match is None:
            continue
        rules = tuple(r.strip() for r in match.group(1).split(",") if r.strip())
        target = number
        if not text[: match.start()].strip():  # alone on its line: the next line with content
            target = next(
                (
                    n
                    for n in range(number + 1, len(lines) + 1)
                    if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#")
                ),
                number,
            )
        found.append(Suppression(str(path), number, target, rules, match.group(2).strip()))
    return found
