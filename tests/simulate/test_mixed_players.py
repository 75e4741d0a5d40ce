"""`simulate --players mix` with a pool of players (issue 29): the skill is the player's, drawn once from
the séance's seed and his name (`validator.simulate.players.skill_of`), so that each player's decisions,
read back from the log across all the rounds he played, are those of one level: a player drawn `best`
never leaves the strategy `edge --strategy` prints, one drawn `errors` leaves it only by the casual
errors the module lists, at about their rate; the séance is clean under `check`. Over a large pool the
levels are drawn in the documented proportions."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict

import pytest
from conftest import run_cli

from validator.casino.cards import BJ_VALUE
from validator.games.blackjack.chart import NAMES, chart
from validator.maths.edge import house_for, main_return
from validator.rulebook.registry import default_registry
from validator.simulate.players import ERROR_RATE, MIX, skill_of

VERSION = "fr/blackjack@2025-01-01"
SEED = 3
LETTERS = {"hit": "H", "stand": "S", "double": "D", "split": "P", "surrender": "R"}


def _seance(tmp_path, *args: str) -> list[dict]:
    log = tmp_path / "mix.jsonl"
    result = run_cli("simulate", *args, "--players", "mix", "--seed", str(SEED), "-q", "-o", str(log))
    assert result.returncode == 0, result.stderr
    checked = run_cli("check", str(log))
    assert checked.returncode == 0, checked.stdout  # a mixed table plays only legal decisions
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]


def _index(card: str) -> int:
    return BJ_VALUE[card[0]] - 1  # the chart's NAMES: A23456789T


def _planned(strategy: dict, cards: list[str], up: str) -> tuple[str, int, bool]:
    """The chart's letter for a first decision on two cards against `up` (the hands the chart lists as
    exceptions to their row included; "P/S": identical pairs split, the others stand), the hand's total
    (an ace counted 11 where that makes no more than 21) and whether it holds an ace so counted."""
    low, high = sorted(_index(c) for c in cards)
    if low == high:
        table, row = "pairs", f"{NAMES[low]},{NAMES[low]}"
    elif low == 0:
        table, row = "soft", str(low + high + 12)
    else:
        table, row = "hard", str(low + high + 2)
    column = NAMES[_index(up)]
    letter = strategy[table][row][column]
    for exception in strategy["exceptions"]:
        if exception["hand"] == f"{NAMES[low]},{NAMES[high]}" and exception["dealer"] == column:
            letter = exception["play"]
    if letter == "P/S":
        letter = "P" if cards[0][0] == cards[1][0] else "S"
    hard = low + high + 2
    return letter, hard + 10 if low == 0 and hard <= 11 else hard, low == 0


def _first_decisions(records: list[dict]):
    """(player, the box's two first cards, the dealer's first card, the first decision's letter) for each
    seated box played in the log (a black jack takes none)."""
    for record in records:
        if record["type"] != "round":
            continue
        seated = {bet["stake"]: bet["player"] for bet in record["bets"] if bet["seated"]}
        cards: dict[str, list[str]] = defaultdict(list)
        up = None
        first: dict[str, str] = {}
        for action in record["actions"]:
            if action[0] == "deal" and action[1] == "D":
                up = up or action[2]
            elif action[0] == "deal":
                cards[action[1]].append(action[2])
            elif action[0] in LETTERS and action[1] in seated and action[1] not in first:
                first[action[1]] = LETTERS[action[0]]
        for box, letter in first.items():
            yield seated[box], cards[box][:2], up, letter


# The casual errors of validator/simulate/players.py, as the chart sees a first decision: a hard 12 to
# 16 stood on where the chart hits, a hit where it doubles, a hit (below 12) or a stand where it splits
# (a pair of aces, 12 with an ace counted 11, is stood on).
def _occasion(planned: str, total: int, soft: bool) -> bool:
    return planned in "DP" or (planned == "H" and not soft and 12 <= total <= 16)


def _an_error(planned: str, taken: str, total: int, soft: bool) -> bool:
    if planned == "H":
        return taken == "S" and not soft and 12 <= total <= 16
    if planned == "D":
        return taken == "H"
    if planned == "P":
        return taken == ("H" if total < 12 else "S")
    return False


def test_each_pool_player_plays_one_skill_level_all_seance(tmp_path):
    records = _seance(tmp_path, "--ruleset", VERSION, "--rounds", "1500", "--players-pool", "60")
    version = default_registry().pick(VERSION)
    # What `edge --ruleset fr/blackjack@2025-01-01 --strategy` prints (validator/maths/summary.py: the
    # chart of the main game `edge` computed), asked of the same computation without the side bets.
    strategy = chart(main_return(version, house_for(version, None))[2])
    decisions: dict[str, Counter] = defaultdict(Counter)  # level → decisions, deviations, by kind
    errors_by_player: dict[str, set[str]] = defaultdict(set)  # player → the kinds of his deviations
    for player, cards, up, taken in _first_decisions(records):
        level = skill_of(SEED, player)
        planned, total, soft = _planned(strategy, cards, up)
        decisions[level]["decisions"] += 1
        decisions[level]["occasions"] += _occasion(planned, total, soft)  # one an `errors` player may miss
        if taken == planned:
            continue
        decisions[level]["deviations"] += 1
        kind = "error" if _an_error(planned, taken, total, soft) else "other"
        decisions[level][kind] += 1
        errors_by_player[player].add(kind)
    players = {bet["player"] for r in records if r["type"] == "round" for bet in r["bets"]}
    levels = Counter(skill_of(SEED, player) for player in players)
    # Standing bettors were there, and decided nothing: no decision names its bettors (hand-log/1.1
    # `by`), each is the seated player's, whose level the séance keeps.
    rounds = [r for r in records if r["type"] == "round"]
    assert any(not bet["seated"] for r in rounds for bet in r["bets"])
    assert not any(a[0] in LETTERS and isinstance(a[-1], list) for r in rounds for a in r["actions"])
    assert all(levels[level] >= 3 for level, _share in MIX), levels  # every level seated, several times
    # A player drawn `best` never leaves the chart, across every round he played.
    assert decisions["best"]["decisions"] > 1000 and decisions["best"]["deviations"] == 0, decisions["best"]
    # A player drawn `errors` leaves it only by the casual errors, at about their rate: one occasion in
    # four (ERROR_RATE), within four binomial standard errors of the occasions counted.
    mistakes = decisions["errors"]
    assert mistakes["other"] == 0 and mistakes["error"] > 0, mistakes
    occasions = mistakes["occasions"]
    rate = mistakes["error"] / occasions
    bound = 4 * math.sqrt(ERROR_RATE * (1 - ERROR_RATE) / occasions)
    assert abs(rate - ERROR_RATE) <= bound, (rate, occasions)
    # A player drawn `random` leaves it in ways no casual error does (so the three levels differ), and
    # the players whose deviations are of both kinds are all drawn `random`.
    assert decisions["random"]["other"] > 0, decisions["random"]
    assert all(skill_of(SEED, p) == "random" for p, kinds in errors_by_player.items() if "other" in kinds)


def test_the_levels_are_drawn_in_the_documented_proportions():
    """Over a pool of 20,000 players each level's share is within four binomial standard errors of its
    documented share (60/30/10: at most ±0.0139, ±0.0130, ±0.0085): a fair draw misses this with a
    probability below 1 in 10,000, a draw of 55/35/10 or 60/35/5 misses it. The level of a player
    depends on the séance's seed and his name alone."""
    n = 20_000
    for seed in (1, SEED):
        counts = Counter(skill_of(seed, f"P{k}") for k in range(1, n + 1))
        for level, share in MIX:
            assert abs(counts[level] / n - share) <= 4 * math.sqrt(share * (1 - share) / n), (seed, counts)
    assert skill_of(SEED, "P7") == skill_of(SEED, "P7")
    assert [skill_of(SEED, f"P{k}") for k in range(1, 41)] != [skill_of(1, f"P{k}") for k in range(1, 41)]


@pytest.mark.parametrize("pool", [None, "8"])
def test_bataille_players_take_the_tie_as_their_level_plays_it(tmp_path, pool):
    """Bataille's one decision, a tie's war or surrender: players drawn `best` or `errors` (the casual
    errors are blackjack's) always play it as `edge` computes (`main.tie`); the séance is clean, with a
    pool and without (each round's players, and their levels, drawn afresh)."""
    args = ["--ruleset", "fr/bataille", "--rounds", "700", "--players-pool", pool or "0"]  # 0: no pool
    records = _seance(tmp_path, *args)
    version = default_registry().pick("fr/bataille")
    tie = main_return(version, house_for(version, None))[1]["tie"]
    taken: dict[str, Counter] = defaultdict(Counter)
    for record in records:
        if record["type"] != "round":
            continue
        seated = {bet["stake"]: bet["player"] for bet in record["bets"] if bet["seated"]}
        for action in record["actions"]:
            if action[0] in ("war", "surrender") and action[1] in seated:
                taken[skill_of(SEED, seated[action[1]])][action[0]] += 1
    if pool is not None:
        assert set(taken["best"]) == set(taken["errors"]) == {tie}, (tie, taken)
    else:  # without a pool the levels are the round's: over the séance, P1 plays both ways
        assert set(taken["best"]) | set(taken["errors"]) >= {"war", "surrender"}, taken
