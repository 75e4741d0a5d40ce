"""The ruleset cache keeps one entry per ruleset file: a new version of a file (or of the tool) replaces
the entries of the old ones instead of piling up in the user's cache folder. It removes nothing else: a
folder named by CASINO_VALIDATOR_CACHE holds the user's files too, and before issue 42 those that looked
like entries (`package.json`, `model.pickle`) were deleted."""

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
    return {p.name for p in (folder / cache.ENTRIES).iterdir()}


def test_a_new_version_of_a_file_replaces_the_old_entry(folder: Path) -> None:
    cache.parsed(ruleset("one"), "x.rules", parse_ruleset)
    cache.parsed(ruleset("other file"), "y.rules", parse_ruleset)
    first = entries(folder)
    assert len(first) == 2 and all(name.endswith(cache.SUFFIX) for name in first)
    cache.parsed(ruleset("two"), "x.rules", parse_ruleset)
    after = entries(folder)
    assert len(after) == 2 and len(after & first) == 1  # y's entry kept, x's old one gone
    assert cache.parsed(ruleset("two"), "x.rules", parse_ruleset).headers  # found again


def test_nothing_but_its_own_entries_is_removed_from_a_folder_the_user_names(folder: Path) -> None:
    folder.mkdir(mode=0o700)
    theirs = {
        "package.json": b"{}",
        "model.pickle": b"weights",
        "0" * 64 + cache.SUFFIX: b"{}",  # named as this cache's entries of an earlier release were
        "1" * 16 + "-" + "2" * 64 + ".pickle": b"also",
        "notes.txt": b"mine",
    }
    for name, data in theirs.items():
        (folder / name).write_bytes(data)
    cache.parsed(ruleset("one"), "x.rules", parse_ruleset)
    cache.parsed(ruleset("two"), "x.rules", parse_ruleset)
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == theirs
    # In its own folder too, a file not named as an entry stays.
    (folder / cache.ENTRIES / "README").write_bytes(b"not an entry")
    cache.parsed(ruleset("three"), "x.rules", parse_ruleset)
    assert len(entries(folder)) == 2 and "README" in entries(folder)


def test_the_default_folder_loses_the_entries_of_earlier_layouts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default folder is this cache's own: the entries earlier releases wrote directly in it
    (unprefixed JSON, pickles) are removed; a file not named as an entry is left."""
    monkeypatch.delenv("CASINO_VALIDATOR_CACHE", raising=False)
    monkeypatch.delenv("CASINO_VALIDATOR_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    own = tmp_path / "casino-validator"
    own.mkdir(mode=0o700)
    (own / ("0" * 64 + cache.SUFFIX)).write_bytes(b"{}")
    (own / ("1" * 16 + "-" + "2" * 64 + ".pickle")).write_bytes(b"an entry of the pickle layout")
    (own / "kept.txt").write_bytes(b"not an entry")
    cache.parsed(ruleset("three"), "x.rules", parse_ruleset)
    assert sorted(p.name for p in own.iterdir()) == sorted([cache.ENTRIES, "kept.txt"])
