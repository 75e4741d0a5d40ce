"""A finding's fingerprint: the same finding gets the same fingerprint on every run and every machine.

It is built from what identifies the finding in the game, not where it sits in the file: the rule, the
log's path (as the caller gives it, relative to the project root for SARIF and baselines), the round id,
the stake and, for house files, the key path. The line number is left out on purpose: it moves when a log
is re-exported with other records around the round. A finding outside any round (an unreadable line, a
table record) has no round id; its message, which names what was wrong, stands in for it. A round id
the log gives twice (`hand-log/repeated-round`) is told apart by which time it is (`Finding.occurrence`):
the findings of the second record never share the first one's fingerprints, and the first one's are the
same as in a log without the repeat.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import replace

from validator.findings.finding import Finding
from validator.findings.project_root import find_root, fingerprint_file

VERSION = "1"


def fingerprint(finding: Finding, file: str | None = None) -> str:
    """32 hex digits; `file` replaces `finding.file` (e.g. the path relative to the repository root)."""
    where = finding.round if finding.round is not None else f"message:{finding.message}"
    if finding.occurrence != 1:
        where = f"{where}\x1e{finding.occurrence}"
    parts = (
        VERSION,
        finding.rule,
        finding.file if file is None else file,
        where,
        finding.stake or "",
        finding.path or "",
    )
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]


def renumbered(findings: Iterable[Finding], occurrence: int) -> tuple[Finding, ...]:
    """The findings of a round whose id the log gave before, as its `occurrence`-th record: each with
    that occurrence, and a consequence's `caused_by` naming its cause's new fingerprint (computed as the
    replay computes it: the file relative to the project root)."""
    root = find_root()
    keys: dict[str, str] = {}
    out = []
    for finding in findings:
        again = replace(finding, occurrence=occurrence)
        if finding.caused_by is not None:
            again = replace(again, caused_by=keys.get(finding.caused_by, finding.caused_by))
        file = fingerprint_file(finding.file, root)
        keys[fingerprint(finding, file)] = fingerprint(again, file)
        out.append(again)
    return tuple(out)
