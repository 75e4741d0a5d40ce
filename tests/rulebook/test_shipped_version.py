"""`edge --ruleset VERSION` compiles that version alone (`registry.shipped_version`): it is the version the
whole registry picks for the same words, and where it cannot stand for it (an unknown family, no
version in force, a malformed date, rulesets from outside) it gives way to the registry, which says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from validator.errors import ValidatorError
from validator.rulebook import sources
from validator.rulebook.registry import default_registry, shipped_version


@pytest.mark.parametrize(
    "spec",
    [
        "fr/blackjack",  # the latest: 2024-11-01
        "fr/blackjack@2015-06-01",  # in force then: 2013-12-15
        "fr/blackjack@2020-05-25",  # its first day
        "fr/blackjack@2024-10-31",  # 2020-05-25's last day
        "fr/bataille",
        "on/fair-blackjack@2025-01-01",  # undated: every day
    ],
)
def test_the_version_alone_is_the_one_the_registry_picks(spec: str) -> None:
    alone, picked = shipped_version(spec), default_registry().pick(spec)
    assert alone is not None
    assert (alone.version, alone.tree, alone.applied) == (picked.version, picked.tree, picked.applied)
    assert [r.id for r in alone.rules] == [r.id for r in picked.rules]
    assert alone.parameters == picked.parameters


@pytest.mark.parametrize("spec", ["fr/blackjack@1999-01-01", "nope", "fr/blackjack@2020-5-25", "fr/x@2020"])
def test_what_the_registry_refuses_is_left_to_it(spec: str) -> None:
    assert shipped_version(spec) is None
    with pytest.raises(ValidatorError):
        default_registry().pick(spec)


def test_rulesets_from_outside_take_the_whole_registry(tmp_path: Path) -> None:
    extra = tmp_path / "house-game.rules"
    extra.write_text("", encoding="utf-8")
    sources.use((extra,))
    try:
        assert shipped_version("fr/bataille") is None
    finally:
        sources.use(())
