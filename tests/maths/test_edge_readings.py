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
    # Issue 26: read as any pair of one rank table B gives the player 19.76 %; as the identical pair (the
    # default since issue 39) the house 17.64 %.
    assert round(float(lucky_ladies_table_b(False)) * 100, 2) == 19.76
    assert round(float(lucky_ladies_table_b(True)) * 100, 2) == -17.64


def edge_json(version: str, with_options: bool = False) -> dict:
    """What `edge --ruleset VERSION -f json` prints, checked against its JSON Schema."""
    printed = run(
        default_registry(), ruleset=version, house=None, table=None, fmt="json", with_options=with_options
    )
    data = json.loads(printed)
    jsonschema.validate(data, SCHEMA)
    return data


def figures_by_reading(data: dict) -> dict:
    """Each reading's figures: reading → figure → house edge (%) under each alternative."""
    return {
        reading["reading"]: {f["figure"]: f["house_edge_percent"] for f in reading["figures"]}
        for reading in data["readings"]
    }


@pytest.fixture(scope="module")
def edge_2019():
    return edge_json("fr/blackjack@2019-08-12", with_options=True)


def test_edge_2019_gives_the_dames_de_coeur_tables_under_both_readings(edge_2019):
    [reading] = edge_2019["readings"]
    assert (reading["reading"], reading["quote"], reading["applied"]) == (
        "pair-totalling-20",
        "Paire totalisant 20",
        "same-rank-and-suit",
    )
    # Each alternative's meaning in both languages, as the version writes it (« Deux cartes de même rang »).
    assert set(reading["meanings"]) == {"same-rank", "same-rank-and-suit"}
    assert reading["meanings"]["same-rank"]["fr"].startswith("Deux cartes de même rang (")
    assert reading["meanings"]["same-rank"]["en"].startswith("Two cards of the same rank (")
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
    by = figures_by_reading(edge_json("fr/blackjack@2020-05-25"))
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


# ---------------------------------------------------------------- Ontario: the figures of its readings
# An infinite deck: the chance of each card value 1 (ace) … 10.
CARD_CHANCES = [1 / 13] * 9 + [4 / 13]


def infinite_deck_dealer(up: int, any_17_with_an_ace: bool) -> dict[int, float]:
    """The dealer's final totals (17 … 21; 22: bust; 0: blackjack) from his first card `up`, on an infinite
    deck: he draws to 17 and on a soft 17, also on a hard 17 holding an ace when `any_17_with_an_ace`."""
    p = CARD_CHANCES
    out: dict[int, float] = {}

    def draw(hard: int, ace: bool, cards: int, q: float) -> None:
        soft = ace and hard + 10 <= 21
        total = hard + 10 if soft else hard
        if total > 21:
            out[22] = out.get(22, 0.0) + q
        elif total >= 17 and not (total == 17 and (soft or (any_17_with_an_ace and ace))):
            key = 0 if cards == 2 and total == 21 else total
            out[key] = out.get(key, 0.0) + q
        else:
            for v in range(1, 11):
                draw(hard + v, ace or v == 1, cards + 1, q * p[v - 1])

    draw(up, up == 1, 1, 1.0)
    return out


def infinite_deck_point(hard: int, ace: bool) -> int:
    return hard + 10 if ace and hard + 10 <= 21 else hard


def infinite_deck_player(outcomes: dict[int, float]) -> float:
    """The player's return against a dealer ending as `outcomes` say, on an infinite deck, every decision
    the best: hit, stand, double on two cards, split a pair once (split aces take one card each)."""
    p, point = CARD_CHANCES, infinite_deck_point

    def stand(total: int) -> float:
        won = sum(q for k, q in outcomes.items() if k == 22 or (k != 0 and total > k))
        lost = sum(q for k, q in outcomes.items() if k == 0 or (k != 22 and total < k))
        return won - lost

    memo: dict[tuple[int, bool], float] = {}

    def best(hard: int, ace: bool) -> float:
        if point(hard, ace) > 21:
            return -1.0
        if (hard, ace) not in memo:
            hit = sum(p[v - 1] * best(hard + v, ace or v == 1) for v in range(1, 11))
            memo[(hard, ace)] = max(stand(point(hard, ace)), hit)
        return memo[(hard, ace)]

    def double(hard: int, ace: bool) -> float:
        totals = [point(hard + v, ace or v == 1) for v in range(1, 11)]
        return 2 * sum(q * (-1.0 if t > 21 else stand(t)) for q, t in zip(p, totals, strict=True))

    def split(v: int) -> float:
        if v == 1:
            return 2 * sum(p[c - 1] * stand(point(1 + c, True)) for c in range(1, 11))
        return 2 * sum(p[c - 1] * max(best(v + c, c == 1), double(v + c, c == 1)) for c in range(1, 11))

    total = 0.0
    for a in range(1, 11):
        for b in range(1, 11):
            if {a, b} == {1, 10}:
                value = 1.5 * (1 - outcomes.get(0, 0.0))
            else:
                value = max(best(a + b, 1 in (a, b)), double(a + b, 1 in (a, b)))
                if a == b:
                    value = max(value, split(a))
            total += p[a - 1] * p[b - 1] * value
    return total


def infinite_deck_edge(any_17_with_an_ace: bool) -> float:
    """The house edge (%) of the Ontario game, computed here independently of the program, on an
    infinite deck: the dealer draws to 17 and on a soft 17 (section 10), also on a hard 17 holding an ace
    when `any_17_with_an_ace`; no hole card, every stake on the layout lost to his blackjack (section 9);
    a blackjack paid 3 for 2 and tied by his (the default reading of blackjack-against-two-card-21); the
    player hits, stands, doubles on two cards, and splits a pair once (split aces take one card, a split
    hand's 21 is not a blackjack), each decision the best by expectation. The program counts six decks
    of 312 cards, composition-dependent, with a second split: its figures differ from these by a few
    tenths of a point, but not in what one reading adds to the other."""
    p = CARD_CHANCES
    return -100 * sum(
        p[up - 1] * infinite_deck_player(infinite_deck_dealer(up, any_17_with_an_ace)) for up in range(1, 11)
    )


def test_edge_ontario_gives_each_reading_its_figure():
    by = figures_by_reading(edge_json("on/fair-blackjack"))
    # Issue 26: a player's blackjack tying the dealer's two-card 21 gives 0.73 %, beating it 0.41 %.
    tie = by["blackjack-against-two-card-21"]["main stake"]
    assert (round(float(tie["tie"]), 2), round(float(tie["beats"]), 2)) == (0.73, 0.41)
    # « 17 avec as »: a dealer who also draws on a hard 17 holding an ace (A-6-K) busts more often. The
    # independent infinite-deck computation above gives what that reading adds to the player's return:
    # 0.823 points; the program's six-deck figures must differ by as much, within 0.03 points (the
    # deck count and the second split).
    seventeen = by["dealer-17-with-an-ace"]["main stake"]
    assert float(seventeen["soft-17"]) == float(tie["tie"])
    program = float(seventeen["soft-17"]) - float(seventeen["any-17-with-an-ace"])
    independent = infinite_deck_edge(False) - infinite_deck_edge(True)
    assert round(independent, 3) == 0.823
    assert abs(program - independent) < 0.03
    # Under that reading the house edge is gone: the player has the edge.
    assert float(seventeen["any-17-with-an-ace"]) < 0 < float(seventeen["soft-17"])
