"""A finding's fingerprint: the same finding gets the same fingerprint on every run and every machine.

It is built from what identifies the finding in the game, not where it sits in the file: the rule, the
log's path (as the caller gives it, relative to the project root for SARIF and baselines), the round id,
the stake and, for house files, the key path. The line number is left out on purpose: it moves when a log
is re-exported with other records around the round. A finding outside any round (an unreadable line, a
table record) has no round id; its message, which names what was wrong, stands in for it.
"""

from __future__ import annotations

import hashlib

from validator.findings.finding import Finding

VERSION = "1"


def fingerprint(finding: Finding, file: str | None = None) -> str:
    """32 hex digits; `file` replaces `finding.file` (e.g. the path relative to the repository root)."""
    where = finding.round if finding.round is not None else f"message:{finding.message}"
    parts = (
        VERSION,
        finding.rule,
        finding.file if file is None else file,
        where,
        finding.stake or "",
        finding.path or "",
    )
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]
