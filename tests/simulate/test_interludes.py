"""The records the simulator writes between rounds besides the shoes (validator/simulate/interludes.py),
and the cards it plants out of a shoe, counted from the log itself rather than by the checker."""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson
import pytest
from planting import found_by_round, house_options, planted_seance, seance, write_log

from validator.casino.cards import normalize
from validator.rulebook.registry import default_registry
from validator.simulate.inject import injectable
from validator.simulate.violations import names_read

REGISTRY = default_registry()
VERSIONS = [rs.version for rs in REGISTRY.all()]
# The records written between rounds where a version has rules on their event.
RECORDS = {"limits": "limits", "dealer": "dealer_change"}


def _seance(version: str, rounds: int, seed: int = 4) -> list[dict[str, Any]]:
    ruleset = REGISTRY.pick(version)
    records = seance(ruleset, house_options(ruleset), seed, rounds)
    return [orjson.loads(orjson.dumps(r)) for r in records]


@pytest.mark.parametrize("version", VERSIONS)
def test_records_between_rounds_where_rules_read_them(version, tmp_path):
    """A clean séance of 60 rounds holds limits and dealer records if and only if the version has rules
    on them, now and then (not before every round), and checks clean: the limits restated, each new
    dealer's burn one the rules accept, its cards the shoe's."""
    ruleset = REGISTRY.pick(version)
    records = _seance(version, 60)
    kinds = Counter(r["type"] for r in records)
    for kind, event in RECORDS.items():
        if event in ruleset.checks_by_event:
            assert 1 <= kinds[kind] < kinds["round"] / 4, kind
        else:
            assert kinds[kind] == 0, kind
    rounds = [r for r in records if r["type"] == "round"]
    dealers = {r["dealer"] for r in records if r["type"] == "dealer"}
    assert dealers <= {r["dealer"] for r in rounds}  # each new dealer deals the rounds after
    log = write_log(tmp_path / "clean.jsonl", records)
    assert found_by_round(REGISTRY, ruleset, log, house_options(ruleset)) == {}


CARD_RULES = [
    (rs.version, rule)
    for rs in REGISTRY.all()
    for rule in injectable(rs)
    if any(c.event == "card" and "card.in_shoe" in names_read(c) for c in rs.rule(rule).checks)
]  # the rules on a card's copies (a card's face, hand-log/1.1, is planted by editing the round)


@pytest.mark.parametrize(("version", "rule"), CARD_RULES)
def test_a_card_planted_is_one_copy_more_than_the_shoe_holds(version, rule):
    """Counted from the records: in each shoe given a card out of it, the planted round deals one copy
    of a card past the decks' copies (the shoe's burn, new dealers' burns and the rounds before it
    included), and no card of the shoe comes out more often than that."""
    ruleset = REGISTRY.pick(version)
    records, planted = planted_seance(ruleset, house_options(ruleset), [rule], 1.0, 2, 60)
    kept = list(records)
    assert planted
    rounds = {p.round for p in planted}
    counts: Counter[str] = Counter()
    decks, planted_here = 0, False
    for record in kept:
        if record["type"] == "shoe":
            counts, decks = Counter(normalize(c) for c in record["burn"]), record["decks"]
            planted_here = False
        elif record["type"] == "dealer":
            counts.update(normalize(c) for c in record["burn"])
        elif record["type"] == "round":
            cards = [a[-1] for a in record["actions"] if a[0] in ("deal", "hit", "double", "burn", "discard")]
            counts.update(normalize(c) for c in cards)
            planted_here = planted_here or record["round"] in rounds
            over = {card: n for card, n in counts.items() if n > decks}
            assert len(over) == planted_here and set(over.values()) <= {decks + 1}, record["round"]
