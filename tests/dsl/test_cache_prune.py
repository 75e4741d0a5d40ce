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


def entries(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_a_new_version_of_a_file_replaces_the_old_entry(folder: Path) -> None:
    cache.parsed(ruleset("one"), "x.rules", parse_ruleset)
    cache.parsed(ruleset("other file"), "y.rules", parse_ruleset)
    first = entries(folder)
    assert len(first) == 2 and all(name.endswith(cache.SUFFIX) for name in first)
    cache.parsed(ruleset("two"), "x.rules", parse_ruleset)
    after = entries(folder)
    assert len(after) == 2 and len(after & first) == 1  # y's entry kept, x's old one gone
    # Entries of earlier layouts: unprefixed ones, and the pickles this cache wrote before it kept JSON.
    (folder / ("0" * 64 + cache.SUFFIX)).write_bytes(b"{}")
    (folder / ("1" * 16 + "-" + "2" * 64 + ".pickle")).write_bytes(b"an entry of the pickle layout")
    cache.parsed(ruleset("three"), "x.rules", parse_ruleset)
    assert len(entries(folder)) == 2
    assert not any(name.endswith(".pickle") for name in entries(folder))
    assert cache.parsed(ruleset("three"), "x.rules", parse_ruleset).headers  # found again
