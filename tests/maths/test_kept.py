"""`edge`'s figures kept between runs (validator/maths/kept.py), the time `edge` prints (the whole
command's), and its probabilities (none printed as 0.00000000)."""

from __future__ import annotations

import json
import os
import time
from decimal import Decimal

import pytest

from validator.maths import kept
from validator.maths.edge import house_for, main_return, probability
from validator.maths.summary import run
from validator.rulebook.registry import default_registry


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(folder))
    monkeypatch.delenv("CASINO_VALIDATOR_NO_CACHE", raising=False)
    return folder


def _edge(registry, version: str = "fr/bataille", **more: object) -> dict:
    arguments = {"ruleset": version, "house": None, "table": None, "fmt": "json", "with_options": False}
    return json.loads(run(registry, **{**arguments, **more}))  # type: ignore[arg-type]


def _figures_of(data: dict) -> dict:
    return {k: v for k, v in data.items() if k not in ("seconds", "cpu_seconds", "kept")}


def test_a_second_run_reads_the_figures_the_first_kept(cache, monkeypatch):
    registry = default_registry()
    first = _edge(registry)
    assert first["kept"] is False
    assert len(list(cache.glob("edge-*.json"))) == 1

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("computed again")

    monkeypatch.setattr("validator.maths.summary.figures", refused)
    second = _edge(registry)
    assert second["kept"] is True and _figures_of(second) == _figures_of(first)
    # Other options (here: asking --options) are other figures: computed, kept beside.
    monkeypatch.undo()
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(cache))
    with_options = _edge(registry, with_options=True)
    assert with_options["kept"] is False and "options" in with_options
    assert len(list(cache.glob("edge-*.json"))) == 2


def test_another_text_of_a_version_is_another_entry(cache):
    import dataclasses

    registry = default_registry()
    version = registry.pick("fr/bataille")
    assert version.tree is not None
    edited = dataclasses.replace(version, tree=dataclasses.replace(version.tree, source_text="another text"))
    one, other = kept.key(version, None, None, ()), kept.key(edited, None, None, ())
    assert one is not None and other is not None
    assert one[0] == other[0] and one[1] != other[1]  # the same entry name's prefix, another key
    kept.keep(one, {"ruleset": "x"})
    assert kept.read(one) == {"ruleset": "x"} and kept.read(other) is None
    kept.keep(other, {"ruleset": "y"})  # the newer text's entry replaces the older one
    assert kept.read(one) is None and kept.read(other) == {"ruleset": "y"}


def test_a_run_in_another_language_is_another_entry(cache):
    """The figures carry prose in the language of the run (blackjack's « non exact : … » lines): a French
    run's entry is never read back by an English run, nor the other way; both are kept."""
    from validator import i18n

    version = default_registry().pick("fr/bataille")
    english = kept.key(version, None, None, ())
    i18n.use("fr")
    try:
        french = kept.key(version, None, None, ())
        assert french is not None and english is not None and french[0] != english[0]
        kept.keep(french, {"ruleset": "fr"})
    finally:
        i18n.use("en")
    kept.keep(english, {"ruleset": "en"})
    assert kept.read(english) == {"ruleset": "en"} and kept.read(french) == {"ruleset": "fr"}


def test_an_entry_others_may_write_is_not_read(cache):
    registry = default_registry()
    entry = kept.key(registry.pick("fr/bataille"), None, None, ())
    kept.keep(entry, {"ruleset": "x"})
    [path] = cache.glob("edge-*.json")
    os.chmod(path, 0o666)
    assert kept.read(entry) is None
    os.chmod(path, 0o600)
    path.write_text("{not json", encoding="utf-8")
    assert kept.read(entry) is None


def test_the_cache_turned_off_keeps_nothing(cache, monkeypatch):
    monkeypatch.setenv("CASINO_VALIDATOR_NO_CACHE", "1")
    registry = default_registry()
    assert _edge(registry)["kept"] is False and _edge(registry)["kept"] is False
    assert not cache.exists() or not list(cache.glob("edge-*"))


def test_the_time_printed_is_the_whole_commands(cache):
    """The processor time `edge` prints is the process's since it started, not the figures' alone."""
    registry = default_registry()
    before = time.process_time()
    data = _edge(registry)
    assert float(data["cpu_seconds"]) >= before - 0.01
    assert "the whole command" in run(
        registry, ruleset="fr/bataille", house=None, table=None, fmt="text", with_options=True
    )


@pytest.mark.xdist_group("edge-fr-blackjack-2024-11-01")  # its main game computed once (test_edge.py)
def test_no_probability_prints_as_zero():
    """Issue 40: the distribution printed lines of probability 0.00000000 (a box split into eight hands,
    all doubled and won: net 16, about 1e-11). A probability too small for the places printed is given
    to two significant digits."""
    assert probability(1.0028672708505418e-11) == "0.000000000010"
    assert probability(6.4e-9) == "0.0000000064"
    assert probability(0.33394549300374193) == "0.33394549"
    assert probability(5e-11, 10) == "0.000000000050"
    version = default_registry().pick("fr/blackjack@2024-11-01")
    _ev, main_json, _game = main_return(version, house_for(version, None))
    assert all(Decimal(line["probability"]) > 0 for line in main_json["lines"])
    assert any(line["outcome"] == "net 16" for line in main_json["lines"])


def test_a_tables_main_statistics_are_kept_and_a_damaged_entry_computed_again(cache, monkeypatch):
    """`main_statistics` (the report's bands, a table priced by its rules) keeps its figures as `edge`
    does: a later process (here: the in-process memo emptied) reads them back instead of computing the
    main game again; an entry that does not hold them is computed again and replaced."""
    from datetime import date

    from validator.maths import api

    monkeypatch.setattr(api, "_MAIN", {})
    first = api.main_statistics("fr/bataille", date(2025, 1, 31))
    assert first.house_edge == Decimal("0.03424211")  # as tests/maths/test_edge.py's house_edge
    [entry] = cache.glob("edge-*.json")
    assert json.loads(entry.read_bytes())["figures"] == {
        "house_edge": "0.03424211",
        "variance": str(first.variance),
    }

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("computed again")

    monkeypatch.setattr(api, "_MAIN", {})
    monkeypatch.setattr(api, "main_return", refused)
    assert api.main_statistics("fr/bataille", date(2025, 1, 31)) == first
    monkeypatch.undo()
    monkeypatch.setenv("CASINO_VALIDATOR_CACHE", str(cache))
    monkeypatch.setattr(api, "_MAIN", {})
    data = json.loads(entry.read_bytes())
    entry.write_bytes(json.dumps({**data, "figures": {"house_edge": "a lot"}}).encode())
    assert api.main_statistics("fr/bataille", date(2025, 1, 31)) == first
    assert json.loads(entry.read_bytes())["figures"]["house_edge"] == "0.03424211"
