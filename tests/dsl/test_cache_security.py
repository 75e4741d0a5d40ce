"""Issue 15: "The parse cache runs code." An entry is data now (JSON, rebuilt into the syntax tree's own
classes only), and a cache folder that someone else could write to is not used at all."""

from __future__ import annotations

import os
import pickle
import stat
from pathlib import Path

import orjson
import pytest
from inprocess import invoke

from validator.dsl import cache
from validator.dsl.parser import parse_ruleset
from validator.rulebook.registry import registry_with, ruleset_files, rulesets_dir

SIX_DECKS = Path(ruleset_files(rulesets_dir())[0])


class _Payload:
    """What a poisoned pickle does when loaded: create a file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("CASINO_VALIDATOR_NO_CACHE", raising=False)
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _counting():
    calls: list[str] = []

    def parse(text: str, name: str):
        calls.append(name)
        return parse_ruleset(text, name)

    return parse, calls


def test_a_poisoned_pickle_in_the_cache_never_runs(folder: Path, tmp_path: Path) -> None:
    text = SIX_DECKS.read_text(encoding="utf-8")
    parse, calls = _counting()
    cache.parsed(text, "r.rules", parse)
    (entry,) = (folder / cache.ENTRIES).glob("*.json")
    marker = tmp_path / "ran"
    poison = pickle.dumps(_Payload(marker))
    assert pickle.loads(poison) is None and marker.exists()  # the payload works when unpickled...
    marker.unlink()
    entry.write_bytes(poison)
    entry.with_suffix(".pickle").write_bytes(poison)  # ...and under the name the old cache used
    assert cache.parsed(text, "r.rules", parse) == parse_ruleset(text, "r.rules")
    assert not marker.exists()
    assert calls == ["r.rules", "r.rules"]  # the entry was not used: parsed again, and replaced
    assert orjson.loads(entry.read_bytes())["c"] == "RulesetFile"


def test_every_shipped_ruleset_poisoned_in_the_cache_then_rules_list(folder: Path, tmp_path: Path) -> None:
    # The attack as measured: entries dropped into a shared cache folder, then `rules list`. The
    # registry is kept for the process's life: forgotten here so that each command reads the folder.
    registry_with.cache_clear()
    assert invoke("rules", "list").code == 0
    marker = tmp_path / "ran"
    entries = sorted((folder / cache.ENTRIES).glob("*.json"))
    assert len(entries) == len(ruleset_files(rulesets_dir()))
    for entry in entries:
        entry.write_bytes(pickle.dumps(_Payload(marker)))
    registry_with.cache_clear()
    ran = invoke("rules", "list")
    registry_with.cache_clear()
    assert ran.code == 0 and "fr/blackjack" in ran.stdout
    assert not marker.exists()


@pytest.mark.parametrize(
    "entry",
    [
        {"c": "system", "v": ["touch ran"]},  # a name that is not one of the tree's classes
        {"c": "Pos", "v": [1]},  # the wrong number of fields
        {"c": "RulesetFile", "v": [], "x": 1},
        {"d": 5},
        ["not", "a", "tree"],
        "RulesetFile",
    ],
)
def test_json_that_is_not_a_syntax_tree_is_a_miss(folder: Path, entry) -> None:
    text = SIX_DECKS.read_text(encoding="utf-8")
    parse, calls = _counting()
    cache.parsed(text, "r.rules", parse)
    (path,) = (folder / cache.ENTRIES).glob("*.json")
    path.write_bytes(orjson.dumps(entry))
    assert cache.parsed(text, "r.rules", parse) == parse_ruleset(text, "r.rules")
    assert calls == ["r.rules", "r.rules"]


def test_an_entry_for_another_text_is_a_miss(folder: Path) -> None:
    # An entry is checked against the text it is for, even under the right name.
    text = SIX_DECKS.read_text(encoding="utf-8")
    parse, calls = _counting()
    cache.parsed(text, "r.rules", parse)
    (path,) = (folder / cache.ENTRIES).glob("*.json")
    other = parse_ruleset(text.replace("ruleset fr/", "ruleset xx/", 1), "r.rules")
    path.write_bytes(orjson.dumps(cache.encode(other)))
    assert cache.parsed(text, "r.rules", parse).family == parse_ruleset(text, "r.rules").family
    assert calls == ["r.rules", "r.rules"]


def test_a_folder_others_can_write_is_not_used(folder: Path) -> None:
    folder.mkdir(mode=0o700)
    folder.chmod(0o777)
    text = SIX_DECKS.read_text(encoding="utf-8")
    parse, calls = _counting()
    cache.parsed(text, "r.rules", parse)
    cache.parsed(text, "r.rules", parse)
    assert calls == ["r.rules", "r.rules"]
    assert not list(folder.iterdir())  # nothing written there either


def test_a_folder_of_another_user_is_not_used(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = SIX_DECKS.read_text(encoding="utf-8")
    parse, calls = _counting()
    cache.parsed(text, "r.rules", parse)  # made and filled by this user
    monkeypatch.setattr(os, "getuid", lambda: os.stat(folder).st_uid + 1)  # now it is someone else's
    cache.parsed(text, "r.rules", parse)
    assert calls == ["r.rules", "r.rules"]


def test_an_entry_others_can_write_is_not_read(folder: Path) -> None:
    text = SIX_DECKS.read_text(encoding="utf-8")
    parse, calls = _counting()
    cache.parsed(text, "r.rules", parse)
    (path,) = (folder / cache.ENTRIES).glob("*.json")
    path.chmod(0o666)
    cache.parsed(text, "r.rules", parse)
    assert calls == ["r.rules", "r.rules"]


def test_a_new_folder_is_private(folder: Path) -> None:
    cache.parsed(SIX_DECKS.read_text(encoding="utf-8"), "r.rules", parse_ruleset)
    assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0
