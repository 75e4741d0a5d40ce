"""The hold and the theoretical figure over the same money, and the theoretical of the play logged.

Every expected figure here is worked by hand in the test (the money of a written séance; the bataille's
war and surrender from the counts of a six-deck shoe; two blackjack decisions from the dealer's drawing
enumerated card by card), never read back from the program's output."""

from __future__ import annotations

import shutil
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from validator.audit.dataset.writer import DatasetRun
from validator.audit.query import Filters, build, connect
from validator.audit.theory import theory
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.maths.api import table_theory
from validator.rulebook.registry import default_registry
from validator.simulate.options import SimulateOptions
from validator.simulate.plan import prepare

TABLE = {
    "type": "table",
    "format": "hand-log/1",
    "table": "BA-09",
    "game": "bataille",
    "ruleset": "fr/bataille",
    "at": "2025-01-31T22:00:00+01:00",
    "seats": 7,
    "minimum": 10,
    "maximum": 1000,
    "new_cards": True,
}
SHOE = {
    "type": "shoe",
    "shoe": "S1",
    "at": "2025-01-31T22:02:00+01:00",
    "reason": "open",
    "decks": 6,
    "backs": [3, 3],
    "shuffle": "manual",
    "cut_by": "1",
    "cut_card_behind": 70,
    "burn": ["7H", "AC", "3D", "5H", "6H"],
}


def _round(number: int, bets: list[tuple[str, int]], actions: list[list[object]]) -> dict[str, object]:
    return {
        "type": "round",
        "round": f"R{number}",
        "shoe": "S1",
        "at": f"2025-01-31T22:{number + 2:02d}:00+01:00",
        "dealer": "D-1",
        "bets": [{"stake": s, "amount": a, "player": f"P{s}", "seated": True} for s, a in bets],
        "actions": actions,
    }


# A bataille séance written by hand: a war won and a war lost, a round without a tie, a surrender.
SEANCE = [
    TABLE,
    SHOE,
    # Box 5 ties the dealer's king and wins its war (ace against queen): the initial 60 paid 1 for 1, the
    # war stake kept; box 6 ties and loses its war (3 against the queen): 80 + 80 lost; box 7 loses (9).
    _round(
        1,
        [("5", 60), ("6", 80), ("7", 50)],
        [
            ["deal", "5", "KS"],
            ["deal", "6", "KH"],
            ["deal", "7", "9S"],
            ["deal", "D", "KC"],
            ["war", "5", 60],
            ["war", "6", 80],
            ["burn", "QD"],
            ["burn", "8H"],
            ["burn", "3S"],
            ["deal", "5", "AC"],
            ["deal", "6", "3C"],
            ["burn", "JC"],
            ["deal", "D", "QH"],
            ["lose", "7"],
            ["lose", "6"],
            ["lose", "6:war"],
            ["pay", "5", 60],
            ["push", "5:war"],
        ],
    ),
    # No tie: box 1 wins 40, box 2 loses 30.
    _round(
        2,
        [("1", 40), ("2", 30)],
        [["deal", "1", "AH"], ["deal", "2", "6D"], ["deal", "D", "QD"], ["lose", "2"], ["pay", "1", 40]],
    ),
    # Box 3 ties the nine and surrenders: half of its 20 lost.
    _round(3, [("3", 20)], [["deal", "3", "9H"], ["deal", "D", "9C"], ["surrender", "3"], ["lose", "3", 10]]),
]


def _report(log: Path, dataset: Path) -> object:
    registry = default_registry()
    shutil.rmtree(dataset, ignore_errors=True)
    run = DatasetRun.start(str(dataset), [str(log)], {}, None)
    summary = Summary()
    for _ in run.writer().write_all(check_logs(registry, [str(log)], summary=summary, collect=True)):
        pass
    run.commit(summary)
    return build([str(dataset)], theory=theory(connect([str(dataset)], Filters())))


def _war_and_surrender() -> tuple[Fraction, Fraction, Fraction]:
    """The bataille's figures from the counts of a six-deck shoe (312 cards, 24 of each rank):
    - a tie: the player's card (any) then the dealer's of the same rank, 23 of the 311 left;
    - the war cards come from the 310 left, the tied rank having 22: they tie with probability
      (12·24·23 + 22·21) / (310·309); otherwise each wins as often as the other. A war won pays the
      initial stake 1 for 1 and keeps the war stake (+1); a war lost loses both (−2); a tied war
      pushes both (0), so the war is worth (1 − q)/2 · (1 − 2) = −(1 − q)/2;
    - a surrender loses half the initial stake (−1/2);
    - the house edge, war played (better than −1/2): P(tie) · (1 − q)/2, the rest even."""
    q = Fraction(12 * 24 * 23 + 22 * 21, 310 * 309)
    war = -(1 - q) / 2
    edge = Fraction(23, 311) * -war
    return edge, war, Fraction(-1, 2)


def test_a_bataille_seance_holds_what_a_hand_count_gives(tmp_path: Path) -> None:
    """Round 1: placed 60 + 80 + 50 = 190; kept 50 (box 7) + 80 + 80 (box 6 and its war) − 60 (box 5's
    initial stake paid) = 150. Round 2: placed 70, kept 30 − 40 = −10. Round 3: placed 20, kept 10.
    The main game's hold: (150 − 10 + 10) / (190 + 70 + 20) = 150 / 280. Counting the main stakes only
    (the hold before the war stakes counted) it would be (150 − 80 − 10 + 10) / 280 = 70 / 280.

    Its theoretical: the edge of the best play (war on a tie) on the 280 placed, plus what the logged
    decisions cost against it: the wars cost nothing, the surrender of 20 costs (war − surrender) = 20 ·
    (1/2 − (1 − q)/2) = 10·q."""
    log = tmp_path / "bataille.jsonl"
    log.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in SEANCE))
    audit = _report(log, tmp_path / "ds")
    assert audit.overview["rounds"] == 3 and audit.overview["findings"] == 0, audit.overview
    (row,) = audit.hold
    assert row["staked"] == Decimal(280)
    assert row["kept_main"] == Decimal(150)
    assert row["hold_main"] == Decimal(150) / Decimal(280)
    edge, war, surrender = _war_and_surrender()
    expected = (edge * 280 + (war - surrender) * 20) / 280
    assert abs(float(row["theoretical"]) - float(expected)) < 1e-8, (row["theoretical"], float(expected))
    assert row["unpriced"] == 0


def test_the_bataille_figures_are_the_hand_counted_ones() -> None:
    edge, war, surrender = _war_and_surrender()
    priced = table_theory("fr/bataille", date(2025, 1, 31))
    assert abs(float(priced.main.house_edge) - float(edge)) < 1e-8
    assert priced.cost("war", ("9S",), ("9H",), False, False, 1) == 0.0
    cost = priced.cost("surrender", ("9S",), ("9H",), False, False, 1)
    assert cost is not None and abs(cost - float(war - surrender)) < 1e-12


# ---- blackjack: two decisions priced independently ----

RANKS = "A23456789T"


def _shoe(out: list[str]) -> list[int]:
    """Six decks by value (ace first, ten-valued 96) without the cards `out` (by rank; the dealer's first
    card among them)."""
    counts = [24] * 9 + [96]
    for card in out:
        counts[RANKS.index("T" if card in "TJQK" else card)] -= 1
    return counts


def _dealer(up: str, shoe: list[int]) -> dict[str, Fraction]:
    """The dealer's final results from his first card, drawing from `shoe` card by card (each card out
    once drawn), standing on every 17, soft ones included (fr/blackjack: dealer.stands_on 17,
    hits_soft_17 false): 'bj' (two cards making 21), 'bust', or a total 17–21."""
    found: dict[str, Fraction] = {}

    def draw(cards: list[int], left: list[int], p: Fraction) -> None:
        hard = sum(v + 1 for v in cards)
        soft = hard + 10 if 0 in cards and hard + 10 <= 21 else hard
        if len(cards) == 2 and soft == 21:
            found["bj"] = found.get("bj", Fraction(0)) + p
            return
        if soft >= 17:
            key = "bust" if soft > 21 else str(soft)
            found[key] = found.get(key, Fraction(0)) + p
            return
        total = sum(left)
        for v in range(10):
            if left[v]:
                after = list(left)
                after[v] -= 1
                draw([*cards, v], after, p * Fraction(left[v], total))

    draw([RANKS.index(up)], shoe, Fraction(1))
    return found


def _stand(total: int, dealer: dict[str, Fraction]) -> Fraction:
    """A hand of `total` (not a blackjack) standing, per unit: wins on a bust or a lower total, pushes an
    equal one, loses to a higher total and to the dealer's blackjack (no hole card: his blackjack is
    one of his results)."""
    ev = Fraction(0)
    for result, p in dealer.items():
        if result == "bust":
            ev += p
        elif result == "bj":
            ev -= p
        else:
            ev += p * ((int(result) < total) - (int(result) > total))
    return ev


def test_two_blackjack_decisions_cost_what_the_dealer_s_drawing_gives() -> None:
    """Against a 6, from a six-deck shoe without the dealer's 6 and the hand's cards (`edge` plays every
    decision composition-dependent: every card seen out of the shoe, card by card):

    - standing on 5-6 (11) instead of doubling: standing loses to every dealer total and wins on his
      bust; the double draws one card out of that shoe (an ace makes 12), then the dealer draws from the
      shoe without it too, for two units. Doubling 11 against a 6 is the best play.
    - hitting T-5-6 (hard 21) instead of standing: every card busts it (−1, whatever the dealer holds);
      standing pushes his 21 and loses to his blackjack."""
    priced = table_theory("fr/blackjack", date(2025, 3, 14))
    shoe = _shoe(["5", "6", "6"])
    stand11 = _stand(11, _dealer("6", shoe))
    total = sum(shoe)
    double = Fraction(0)
    for v in range(10):
        if shoe[v]:
            after = list(shoe)
            after[v] -= 1
            double += Fraction(2 * shoe[v], total) * _stand(11 + v + 1 if v else 12, _dealer("6", after))
    cost = priced.cost("stand", ("5S", "6H"), ("6D",), False, False, 1)
    assert cost is not None and abs(cost - float(double - stand11)) < 1e-9, (cost, float(double - stand11))
    assert priced.cost("double", ("5S", "6H"), ("6D",), False, False, 1) == 0.0

    stand21 = _stand(21, _dealer("6", _shoe(["T", "5", "6", "6"])))
    cost = priced.cost("hit", ("TS", "5H", "6C"), ("6D",), False, False, 1)
    assert cost is not None and abs(cost - float(stand21 + 1)) < 1e-9, (cost, float(stand21 + 1))


# ---- séances simulated: inside the band, played best and played as real tables play ----


def _simulated(path: Path, version: str, players: str, rounds: int, seed: int) -> Path:
    _chosen, records = prepare(
        default_registry(), SimulateOptions(version, rounds=rounds, seed=seed, table="T-9", players=players)
    )
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    return path


@pytest.mark.parametrize(
    ("version", "players", "rounds"),
    [
        ("fr/bataille@2013-05-12", "best", 1500),
        ("fr/blackjack@2025-03-14", "mix", 400),
    ],
)
def test_a_clean_seance_is_inside_its_band(tmp_path: Path, version: str, players: str, rounds: int) -> None:
    """A clean séance (fixed seed: the same séance every run) holds inside its band, every period; with
    players of mixed skill the theoretical figure is the edge of their play, far above best play's."""
    audit = _report(_simulated(tmp_path / "s.jsonl", version, players, rounds, seed=21), tmp_path / "ds")
    (row,) = audit.hold
    assert row["rounds"] == rounds and row["theoretical"] is not None
    assert row["low"] <= float(row["hold_main"]) <= row["high"], row
    assert audit.hold_outside == 0
    if players == "mix":
        best = float(table_theory("fr/blackjack", date(2025, 3, 14)).main.house_edge)
        assert float(row["theoretical"]) > best + 0.01, row  # casual errors cost the players points
        assert row["unpriced"] < rounds * 0.05


def test_the_html_run_s_summed_rounds_give_the_same_hold(tmp_path: Path) -> None:
    """`check --format html` sums the rounds without findings (`dataset.rollup`): their decisions, their
    boxes' squared stakes and their bets of their own are summed too, so its hold section gives the
    figures a dataset of every round gives."""
    from validator.audit.dataset.rollup import Rollup

    log = _simulated(tmp_path / "mix.jsonl", "fr/blackjack@2025-03-14", "mix", 200, seed=4)
    whole = _report(log, tmp_path / "whole")
    folder = tmp_path / "summed"
    run = DatasetRun.start(str(folder), [], {"format": "html"}, None)
    writer = run.writer()
    rollup = Rollup(gaming_day_start=run.spec.gaming_day_start)
    summary = Summary()
    for outcome in check_logs(default_registry(), [str(log)], summary=summary, collect=True):
        if outcome.status == "clean" and not outcome.findings:
            rollup.add(outcome)
        else:
            writer.add(outcome)
    writer.close()
    rollup.write(str(folder), run.spec.run_id, run.spec.house_file)
    run.commit(summary)
    summed = build([str(folder)], theory=theory(connect([str(folder)], Filters())))
    assert summed.overview["rounds"] == whole.overview["rounds"] == 200
    (a,), (b,) = whole.hold, summed.hold
    for name in ("staked", "kept_main", "theoretical", "unpriced"):
        assert a[name] == b[name], name
    assert a["costs"] > 0 and abs(a["low"] - b["low"]) < 1e-9 and abs(a["high"] - b["high"]) < 1e-9


def _own_bets_by_hand(log: Path) -> dict[str, tuple[Decimal, Decimal]]:
    """Each bet of its own's (wagered, kept) read off the log: its bets' amounts, each `lose` collecting
    the stake (or the amount written), each `pay` paying the amount written."""
    found: dict[str, list[Decimal]] = {}
    for line in log.read_bytes().splitlines():
        record = orjson.loads(line)
        if record.get("type") != "round":
            continue
        placed = {b["stake"]: Decimal(str(b["amount"])) for b in record["bets"] if ":" in b["stake"]}
        for action in record["actions"]:
            if action[0] == "insurance":
                placed[f"{action[1]}:insurance"] = Decimal(str(action[2]))
        for stake, amount in placed.items():
            found.setdefault(stake.split(":", 1)[1], [Decimal(0), Decimal(0)])[0] += amount
        for action in record["actions"]:
            if action[0] in ("pay", "lose") and ":" in action[1]:
                bet = action[1].split(":", 1)[1]
                amount = Decimal(str(action[2])) if len(action) > 2 else placed[action[1]]
                found[bet][1] += amount if action[0] == "lose" else -amount
    return {bet: (w, k) for bet, (w, k) in found.items()}


def test_each_bet_of_its_own_is_a_line_of_its_own(tmp_path: Path) -> None:
    """The side-bets sample of BJ-07 (its house entry offers them): each bet of its own (insurance, each
    side bet, each case of hyper blackjack) has its line, holding what the log's own settlements give,
    priced by its own edge; JP1 pays a meter out: no figure."""
    from validator.house.apply import house_lookup

    root = Path(__file__).parents[2]
    log = root / "samples" / "logs" / "side-bets" / "clean-BJ-07-side-bets.jsonl"
    house = root / "samples" / "house" / "trouville.yaml"
    registry = default_registry()
    dataset = tmp_path / "ds"
    run = DatasetRun.start(str(dataset), [str(log)], {}, str(house))
    summary = Summary()
    lookup = house_lookup(house, registry)[0]
    for _ in run.writer().write_all(
        check_logs(registry, [str(log)], summary=summary, collect=True, house=lookup)
    ):
        pass
    run.commit(summary)
    audit = build([str(dataset)], theory=theory(connect([str(dataset)], Filters())))
    lines = {row["bet"]: row for row in audit.hold_bets}
    expected = _own_bets_by_hand(log)
    assert set(lines) == set(expected) and {"insurance", "lucky_ladies", "jp1"} <= set(lines)
    for bet, (wagered, kept) in expected.items():
        assert (lines[bet]["wagered"], lines[bet]["kept"]) == (wagered, kept), bet
    from validator.house.load import load_house

    priced = table_theory("fr/blackjack", date(2025, 3, 14), load_house(house).tables["BJ-07"])
    assert lines["lucky_ladies"]["theoretical"] == priced.bets["lucky_ladies"].house_edge
    assert lines["insurance"]["theoretical"] == priced.statistics.insurance.house_edge
    assert lines["jp1"]["theoretical"] is None and lines["jp1"]["outside"] is False
