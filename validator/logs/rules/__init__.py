"""The rules of the hand-log/1 format the program applies itself (`hand-log/*`,
`ruleset/no-version-in-force`, and the table's money, `money/reconciliation`), one module per family: its
ids, their docs (checks, why, fails, passes) and the messages that can be built apart from the reading.
The reader and the replay check them where the reading and the replay meet them; their fixtures:
tests/fixtures/python-rules/. `DOCS` is their order, the order of `rules show`'s and SARIF's rule lists.
"""

from __future__ import annotations

from validator.findings.ruledoc import RuleDoc
from validator.logs.rules import files, lines, money, records, replayable, sequence, version

DOCS: tuple[RuleDoc, ...] = (
    *lines.DOCS,
    *files.DOCS,
    *records.DOCS,
    *sequence.DOCS,
    *replayable.DOCS,
    *version.DOCS,
    *money.DOCS,
)
