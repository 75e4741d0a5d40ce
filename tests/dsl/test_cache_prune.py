"""The ruleset cache keeps one entry per ruleset file: a new version of a file (or of the tool) replaces
the entries of the old ones instead of piling up in the user's cache folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.dsl import cache
from validator.dsl.parser import parse_ruleset


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CASINO_VALIDATOR_NO_CACHE", raising=False)
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def ruleset(title: str) -> str:
    return "\n".join(
        [
            "ruleset fr/test",
            f'title "{title}"',
            'source "Test text"',
            "game blackjack",
            "in force undated",
            "",
        ]
    )


def test_a_new_version_of_a_file_replaces_the_old_entry(folder: Path) -> None:
    cache.parsed(ruleset("one"), "x.rules", parse_ruleset)
    cache.parsed(ruleset("other file"), "y.rules", parse_ruleset)
    assert len(list(folder.glob("*.pickle"))) == 2
    first = {p.name for p in folder.glob("*.pickle")}
    cache.parsed(ruleset("two"), "x.rules", parse_ruleset)
    after = {p.name for p in folder.glob("*.pickle")}
    assert len(after) == 2 and len(after & first) == 1  # y's entry kept, x's old one gone
    (folder / ("0" * 64 + ".pickle")).write_bytes(b"an entry of the old layout")
    cache.parsed(ruleset("three"), "x.rules", parse_ruleset)
    assert len(list(folder.glob("*.pickle"))) == 2
    assert cache.parsed(ruleset("three"), "x.rules", parse_ruleset).headers  # found again
