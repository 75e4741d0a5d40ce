"""`edge` under every reading: the figures each alternative of a reading gives, and the option whose
value turns the house edge to the other side of zero. The expected figures are worked out by hand from
the paytables of the text (six decks, 312 cards) and agree with those issue 26 quotes."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import jsonschema
import pytest

from validator.maths.summary import run
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "edge.schema.json").read_text(encoding="utf-8"))


def lucky_ladies_table_b(identical_pair: bool) -> Fraction:
    """The player's expected return per unit on lucky ladies, table B, counted by hand over the
    comb(312, 2) = 48516 pairs of first cards: the pair of queens of hearts (15 pairs; 1000 for 1 with the
    dealer's black jack, an ace and a ten among his first two cards from the 310 left: 2 × 24 × 94 /
    (310 × 309); else 200), « Paire totalisant 20 » (25), a suited 20 (10), any 20 (4)."""
    pairs = comb(312, 2)
    queens = comb(6, 2)
    dealer_bj = Fraction(2 * 24 * 94, 310 * 309)
    twenties = 24 * 24 + comb(96, 2)  # A-9, and two ten-valued cards
    same_rank = 4 * comb(24, 2) - queens  # K-K, Q-Q, … in any suits
    identical = 4 * 4 * comb(6, 2) - queens  # K♠-K♠, …: same rank and suit
    suited = 4 * 6 * 6 + 4 * (
        comb(24, 2) - 4 * comb(6, 2)
    )  # A-9 of a suit, two ten-values of a suit not identical
    pair = identical if identical_pair else same_rank
    any_20 = twenties - queens - pair - suited
    won = queens * (dealer_bj * 1000 + (1 - dealer_bj) * 200) + pair * 25 + suited * 10 + any_20 * 4
    return (won - (pairs - twenties)) / pairs


def test_hand_count_agrees_with_the_issue():
    # Issue 26: under today's reading table B gives the player 19.76 %; under the other the house 17.64 %.
    assert round(float(lucky_ladies_table_b(False)) * 100, 2) == 19.76
    assert round(float(lucky_ladies_table_b(True)) * 100, 2) == -17.64


@pytest.fixture(scope="module")
def edge_2019():
    return json.loads(
        run(
            default_registry(),
            ruleset="fr/blackjack@2019-08-12",
            house=None,
            table=None,
            fmt="json",
            with_options=True,
        )
    )


def test_edge_2019_gives_the_dames_de_coeur_tables_under_both_readings(edge_2019):
    jsonschema.validate(edge_2019, SCHEMA)
    [reading] = edge_2019["readings"]
    assert (reading["reading"], reading["quote"], reading["applied"]) == (
        "pair-totalling-20",
        "Paire totalisant 20",
        "same-rank",
    )
    figures = {f["figure"]: f["house_edge_percent"] for f in reading["figures"]}
    table_b = figures["lucky_ladies (lucky_ladies.paytable B)"]
    for alternative, identical in (("same-rank", False), ("same-rank-and-suit", True)):
        by_hand = -lucky_ladies_table_b(identical) * 100
        assert abs(float(table_b[alternative]) - float(by_hand)) < 1e-4, alternative
    assert set(figures) == {
        "lucky_ladies (lucky_ladies.paytable A)",
        "lucky_ladies (lucky_ladies.paytable B)",
    }


def test_edge_options_flags_surrender_turning_the_edge_to_the_player(edge_2019):
    # 2019 wording: surrender « avant tout tirage supplémentaire à la table », half the stake: offering
    # it turns the main stake's 0.46 % house edge into the player's.
    [flag] = edge_2019["edge_changes_side"]
    assert (flag["option"], flag["from"], flag["to"]) == ("surrender", "false", "true")
    assert float(flag["house_edge_percent_before"]) > 0 > float(flag["house_edge_percent_after"])


def test_edge_2020_gives_jp1_and_two_plus_one_under_each_reading():
    data = json.loads(
        run(
            default_registry(),
            ruleset="fr/blackjack@2020-05-25",
            house=None,
            table=None,
            fmt="json",
            with_options=False,
        )
    )
    jsonschema.validate(data, SCHEMA)
    by = {
        r["reading"]: {f["figure"]: f["house_edge_percent"] for f in r["figures"]} for r in data["readings"]
    }
    # Issue 26: an ace at either end, at one end, or also K-A-2: 13.39 %, 16.66 %, 10.12 %.
    ace = by["two-plus-one-ace"]["two_plus_one"]
    assert {k: round(float(v), 2) for k, v in ace.items()} == {
        "low-or-high": 13.39,
        "low-only": 16.66,
        "high-only": 16.66,
        "wrapping": 10.12,
    }
    # JP1: 35.58 % with the stake returned, 50.39 % kept. Keeping the stake costs one unit on every
    # winning stake: the difference is the chance of a seven among the first two cards,
    # 1 - (288 × 287) / (312 × 311) = 14.815 %.
    jp1 = by["jp1-stake"]["jp1"]
    assert (round(float(jp1["returned"]), 2), round(float(jp1["kept"]), 2)) == (35.58, 50.39)
    seven = 1 - Fraction(288 * 287, 312 * 311)
    assert abs(float(jp1["kept"]) - float(jp1["returned"]) - float(seven) * 100) < 1e-3
    # « 30 fois la mise » read as the whole return takes one unit off every winning stake too.
    assert set(by["two-plus-one-fois"]["two_plus_one"]) == {"winnings", "whole-return"}
