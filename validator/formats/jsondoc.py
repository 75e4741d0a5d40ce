"""`json`: `{"version": 1, "findings": [...], "summary": {...}}`, indented by 2 (`formats/schema.py`).

The document is streamed: each finding is written as it comes, indented exactly as
`json.dumps(document, indent=2)` would place it, so a run over millions of rounds keeps flat memory and
still produces the same bytes as building the whole document.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from typing import Any

from validator.findings.finding import RoundOutcome, RuleInfo, Summary
from validator.formats.base import Repeats, Reporter, json_default
from validator.formats.schema import DOCUMENT_VERSION

_HEAD = f'{{\n  "version": {DOCUMENT_VERSION},\n'
_ITEM_INDENT = " " * 4  # a finding sits two levels deep: the document, then the "findings" array


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False, default=json_default)


class JsonReporter(Reporter):
    name = "json"

    _started = False
    _repeats: Repeats | None = None

    def round(self, outcome: RoundOutcome) -> None:
        if not outcome.findings:
            return  # a clean round (most of them): nothing to write, nothing that repeats
        if self._repeats is None:
            self._repeats = Repeats()
        self._repeats.add(outcome)
        for finding in outcome.findings:
            # JSON strings never hold a raw newline, so indenting every line is exact.
            item = textwrap.indent(_dumps(finding.as_dict()), _ITEM_INDENT)
            self.out.write((",\n" if self._started else _HEAD + '  "findings": [\n') + item)
            self._started = True

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        head = "\n  ],\n" if self._started else _HEAD + '  "findings": [],\n'
        document = summary.as_dict()
        repeated = self._repeats.items(summary.rounds_checked) if self._repeats is not None else []
        if repeated and summary.subject != "house":
            document["repeated"] = repeated  # only where a rule was found in two rounds or more
        body = textwrap.indent(_dumps(document), "  ").lstrip()
        self.out.write(f'{head}  "summary": {body}\n}}\n')
