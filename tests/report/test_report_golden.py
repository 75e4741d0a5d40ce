"""Every format, byte for byte, against a golden file checked by hand against docs/findings.md.

`UPDATE_GOLDEN=1 pytest tests/report` rewrites the goldens; read the diff before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from report_fixtures import render_clean, render_full

from validator.formats import REPORTERS

GOLDEN = Path(__file__).parent / "golden"
EXTENSIONS = {
    "text": "txt",
    "jsonl": "jsonl",
    "json": "json",
    "sarif": "sarif",
    "junit": "xml",
    "github": "txt",
    "gitlab": "json",
}
SCENARIOS: dict[str, Callable[[str], str]] = {"": render_full, "-clean": render_clean}


def test_every_format_has_a_golden() -> None:
    # `html` is the audit report: it says when it was made, so its figures are tested in tests/audit
    # against the json summary instead of bytes against a golden.
    assert set(EXTENSIONS) == set(REPORTERS) - {"html"}


@pytest.mark.parametrize("suffix", SCENARIOS)
@pytest.mark.parametrize("name", list(EXTENSIONS))
def test_golden(name: str, suffix: str) -> None:
    path = GOLDEN / f"{name}{suffix}.{EXTENSIONS[name]}"
    output = SCENARIOS[suffix](name)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(output.encode("utf-8"))
    assert path.exists(), f"no golden {path.name}: run with UPDATE_GOLDEN=1, then read it"
    # Bytes, not text mode: a golden checked out with CRLF, or output with a stray \r, must not match.
    assert output == path.read_bytes().decode("utf-8")
