"""The on-disk cache of parsed rulesets: the same trees as parsing, found again only for the same text,
never a reason for a run to fail, and never keeping a ruleset with errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from validator.dsl import cache
from validator.dsl.parser import parse_ruleset
from validator.errors import RulesetError
from validator.rulebook.registry import load_all, ruleset_files, rulesets_dir

SIX_DECKS = Path(ruleset_files(rulesets_dir())[0])


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CASINO_VALIDATOR_NO_CACHE", raising=False)
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _counting_parser():
    calls: list[str] = []

    def parse(text: str, name: str):
        calls.append(name)
        return parse_ruleset(text, name)

    return parse, calls


def test_a_tree_is_parsed_once_then_read_back_equal(folder: Path) -> None:
    parse, calls = _counting_parser()
    text = SIX_DECKS.read_text(encoding="utf-8")
    first = cache.parsed(text, "r.rules", parse)
    second = cache.parsed(text, "r.rules", parse)
    assert calls == ["r.rules"]
    assert second == first == parse_ruleset(text, "r.rules")
    assert len(list((folder / cache.ENTRIES).glob("*.json"))) == 1


def test_another_text_or_name_is_parsed_anew(folder: Path) -> None:
    parse, calls = _counting_parser()
    text = SIX_DECKS.read_text(encoding="utf-8")
    cache.parsed(text, "r.rules", parse)
    cache.parsed(text + "\n# a comment\n", "r.rules", parse)
    cache.parsed(text, "other.rules", parse)  # names are in the tree's error positions
    assert calls == ["r.rules", "r.rules", "other.rules"]


def test_a_damaged_entry_is_parsed_again_and_replaced(folder: Path) -> None:
    parse, calls = _counting_parser()
    text = SIX_DECKS.read_text(encoding="utf-8")
    cache.parsed(text, "r.rules", parse)
    (entry,) = (folder / cache.ENTRIES).glob("*.json")
    entry.write_bytes(b"not a pickle")
    assert cache.parsed(text, "r.rules", parse) == parse_ruleset(text, "r.rules")
    assert cache.parsed(text, "r.rules", parse) == parse_ruleset(text, "r.rules")
    assert calls == ["r.rules", "r.rules"]


def test_a_ruleset_with_errors_is_never_kept(folder: Path) -> None:
    broken = SIX_DECKS.read_text(encoding="utf-8") + "\nrule {\n"
    for _ in range(2):
        with pytest.raises(RulesetError):
            cache.parsed(broken, "broken.rules", parse_ruleset)
    assert not list((folder / cache.ENTRIES).glob("*.json"))


def test_a_folder_that_cannot_be_written_only_means_parsing(tmp_path: Path, monkeypatch) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(blocked / "cache"))
    parse, calls = _counting_parser()
    text = SIX_DECKS.read_text(encoding="utf-8")
    assert cache.parsed(text, "r.rules", parse) == cache.parsed(text, "r.rules", parse)
    assert calls == ["r.rules", "r.rules"]


def test_no_cache_writes_nothing(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASINO_VALIDATOR_NO_CACHE", "1")
    load_all(ruleset_files(rulesets_dir()), rulesets_dir())
    assert not folder.exists()


def test_the_default_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CASINO_VALIDATOR_CACHE", raising=False)
    monkeypatch.delenv("CASINO_VALIDATOR_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "casino-validator"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.cache_dir() == Path(os.path.expanduser("~")) / ".cache" / "casino-validator"


def test_the_registry_loaded_from_the_cache_is_the_same(folder: Path) -> None:
    fresh = load_all(ruleset_files(rulesets_dir()), rulesets_dir())
    cached = load_all(ruleset_files(rulesets_dir()), rulesets_dir())
    assert len(list((folder / cache.ENTRIES).glob("*.json"))) == len(ruleset_files(rulesets_dir()))
    assert [r.version for r in cached.all()] == [r.version for r in fresh.all()]
    for a, b in zip(fresh.all(), cached.all(), strict=True):
        assert [(r.id, r.ref, r.line) for r in a.rules] == [(r.id, r.ref, r.line) for r in b.rules]
