"""Baselines: today's findings recorded by fingerprint, so a later run reports only new ones.

The file is JSON: `{"version": 1, "tool": "casino-validator", "findings": [{"fingerprint", "rule",
"file", "round", "stake", "path"}, …]}`; only `fingerprint` is used to match, the other fields are for
the reader. A fingerprint recorded n times absorbs n findings.

Reading one holds its text and its fingerprints, never its entries as objects (each is reduced to its
fingerprint as it is decoded): a baseline is refused past `MAX_BYTES` (about 600,000 findings as
`--write-baseline` writes them), and one nested deeper than the decoder follows is not a baseline.
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
from validator.i18n import _
from validator.outputs import replacing

VERSION = 1
MAX_BYTES = 128 << 20
_FINGERPRINT = "\x00fingerprint"  # an entry, as the decoder hands it on: its fingerprint, marked


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


def _entry_or_document(item: dict[str, Any]) -> Any:
    """Each JSON object as decoded: an entry becomes its marked fingerprint, the document stays whole."""
    if "findings" in item or "version" in item:
        return item
    value = item.get("fingerprint")
    return _FINGERPRINT + value if isinstance(value, str) else None


def read_baseline(path: Path) -> Counter[str]:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ValidatorError(
            _("--baseline {path}: {reason}").format(path=path, reason=exc.strerror or exc)
        ) from None
    if len(raw) > MAX_BYTES:
        raise ValidatorError(
            _("--baseline {path}: too large for a baseline (over {max:,} bytes)").format(
                path=path, max=MAX_BYTES
            )
        )
    try:
        document = json.loads(raw.decode("utf-8"), object_hook=_entry_or_document)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValidatorError(
            _("--baseline {path}: not a baseline (not JSON: {value})").format(path=path, value=exc)
        ) from None
    except RecursionError:
        raise ValidatorError(
            _("--baseline {path}: not a baseline (nested too deep)").format(path=path)
        ) from None
    del raw
    findings = document.get("findings") if isinstance(document, dict) else None
    if not isinstance(findings, list) or document.get("version") != VERSION:
        raise ValidatorError(
            _("--baseline {path}: not a casino-validator baseline of version {VERSION}").format(
                path=path, VERSION=VERSION
            )
        )
    prints: Counter[str] = Counter()
    for item in findings:
        if not isinstance(item, str) or not item.startswith(_FINGERPRINT):
            raise ValidatorError(_("--baseline {path}: an entry without a fingerprint").format(path=path))
        prints[item[len(_FINGERPRINT) :]] += 1
    return prints
