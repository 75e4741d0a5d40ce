"""docs/converting-logs.md's worked example checks as the page says: its log (the `json` block) gives
exactly the findings of its `findings` block."""

from __future__ import annotations

import json
import re
from pathlib import Path

from inprocess import invoke

PAGE = Path(__file__).resolve().parents[2] / "docs" / "converting-logs.md"


def _block(text: str, language: str) -> str:
    (found,) = re.findall(rf"```{language}\n(.*?)```", text, flags=re.DOTALL)
    return found


def test_the_worked_example_gives_the_findings_the_page_lists(tmp_path):
    text = PAGE.read_text(encoding="utf-8")
    log = tmp_path / "converted.jsonl"
    log.write_text(_block(text, "json"), encoding="utf-8")
    ran = invoke("check", str(log), "--format", "jsonl", "--no-config")
    found = [json.loads(line)["rule"] for line in ran.stdout.splitlines()]
    assert found == _block(text, "findings").split()
    assert ran.code == (1 if found else 0)
