"""A side bet's figure re-read from a figure of the same shape (validator/maths/content.py) is the figure
its own enumeration gives, to the bit; a bet whose deals are settled otherwise is enumerated anew."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import validator.maths.content as content
from validator.dsl.resources import rulesets_dir
from validator.maths.edge import house_for, side_returns
from validator.maths.probe import Probe
from validator.maths.sidebets import side_bets
from validator.rulebook.registry import default_registry, load_all, under_readings


def _edited(tmp: Path, old: str, new: str):
    """fr/bataille with `old` replaced by `new` in its text."""
    root = tmp / "rulesets"
    shutil.copytree(rulesets_dir(), root)
    [path] = (root / "fr" / "bataille").glob("*.rules")
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return load_all(sorted(root.rglob("*.rules")), root).pick("fr/bataille")


def _fresh(version):
    """The bet's figures from its own enumeration, nothing kept."""
    return side_bets(Probe(version, house_for(version, None)))


@pytest.fixture
def counted(monkeypatch):
    """The enumerations made (the figures kept in the process emptied first)."""
    import validator.maths.edge as edge_module

    monkeypatch.setattr(content, "_KEPT", {})
    monkeypatch.setattr(edge_module, "_SIDE", {})
    made: list[str] = []
    original = edge_module.side_tallies

    def tallies(probe, only=None):
        made.extend(sorted(only or ()))
        return original(probe, only)

    monkeypatch.setattr(edge_module, "side_tallies", tallies)
    return made


def test_a_line_paying_otherwise_is_re_read_from_the_kept_tally(tmp_path, counted):
    """Égalité at 10 for 1, then at 11 for 1: the same deals pay by the same line, so the second figure is
    re-read, not enumerated, and is 12 p - 1 with p = 23/311 (a tie from six decks: 23 of the 311 cards
    left match the dealer's rank), exactly what its own enumeration gives."""
    registry = default_registry()
    before = registry.pick("fr/bataille")
    after = _edited(tmp_path, "pays 10:1 when", "pays 11:1 when")
    first = side_returns(before, house_for(before, None))
    second = side_returns(after, house_for(after, None))
    assert counted == ["egalite"], "the second figure is re-read"
    assert second == _fresh(after)
    assert second[0].ev == pytest.approx(12 * 23 / 311 - 1, abs=1e-12)
    assert first[0].ev == pytest.approx(11 * 23 / 311 - 1, abs=1e-12)


def test_a_line_paying_other_deals_is_enumerated(tmp_path, counted):
    """A tie read otherwise (a rank above the dealer's) settles other deals: enumerated again."""
    before = default_registry().pick("fr/bataille")
    after = _edited(tmp_path, "when hand.rank == dealer.rank", "when hand.rank != dealer.rank")
    side_returns(before, house_for(before, None))
    second = side_returns(after, house_for(after, None))
    assert counted == ["egalite", "egalite"]
    assert second == _fresh(after)
    # Not a tie: 288 of the 311 cards left (6 decks less the tie's 23), at 10 for 1.
    assert second[0].ev == pytest.approx(11 * 288 / 311 - 1, abs=1e-12)


def test_readings_the_enumeration_cannot_tell_apart_share_one_figure(counted):
    """jp1-consolation per-box reads `player.other_jackpot_main` where per-player reads
    `player.other_player_jackpot_main`: the enumeration, one player at the table, holds both false, so
    the consolation lines hold for no deal under either and the figure is the default's (50.3945 % to
    the house, as the reading jp1-stake's reason in fr/blackjack@2020-05-25 states it)."""
    version = default_registry().pick("fr/blackjack@2020-05-25")
    house = house_for(version, None)
    default = side_returns(version, house, only={"jp1"})
    per_box = under_readings(version, {"jp1-consolation": "per-box"})
    assert side_returns(per_box, house, only={"jp1"}) == default
    assert counted == ["jp1"]
    shape = content.shape(Probe(version, house), "jp1", version.side_bets["jp1"], [None])
    other = content.shape(Probe(per_box, house), "jp1", per_box.side_bets["jp1"], [None])
    assert shape is not None and other is not None and shape.key == other.key
    assert round(-default[0].ev * 100, 4) == 50.3945
