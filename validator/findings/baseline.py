"""Baselines: today's findings recorded by fingerprint, so a later run reports only new ones.

The file is JSON: `{"version": 1, "tool": "casino-validator", "findings": [{"fingerprint", "rule",
"file", "round", "stake", "path"}, …]}`; only `fingerprint` is used to match, the other fields are for
the reader. A fingerprint recorded n times absorbs n findings.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.findings.fingerprint import fingerprint
from validator.findings.project_root import fingerprint_file
from validator.outputs import replacing

VERSION = 1


def entry(finding: Finding, root: str) -> dict[str, Any]:
    file = fingerprint_file(finding.file, root)
    return {
        "fingerprint": fingerprint(finding, file),
        "rule": finding.rule,
        "file": file,
        "round": finding.round,
        "stake": finding.stake,
        "path": finding.path,
    }


def write_baseline(path: Path, entries: Iterable[dict[str, Any]]) -> int:
    items = list(entries)
    document = {"version": VERSION, "tool": "casino-validator", "findings": items}
    with replacing(path) as handle:
        handle.write(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    return len(items)


def read_baseline(path: Path) -> Counter[str]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValidatorError(f"--baseline {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidatorError(f"--baseline {path}: not a baseline (not JSON: {exc})") from None
    findings = document.get("findings") if isinstance(document, dict) else None
    if not isinstance(findings, list) or document.get("version") != VERSION:
        raise ValidatorError(f"--baseline {path}: not a casino-validator baseline of version {VERSION}")
    prints: Counter[str] = Counter()
    for item in findings:
        if not isinstance(item, dict) or not isinstance(item.get("fingerprint"), str):
            raise ValidatorError(f"--baseline {path}: an entry without a fingerprint")
        prints[item["fingerprint"]] += 1
    return prints
