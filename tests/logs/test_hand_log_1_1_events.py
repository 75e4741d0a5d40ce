"""The events hand-log/1.1 adds (issue 25, item 3), through the real command: each used as the text
allows checks clean, each misused gives its finding; the slow path (a line msgspec refuses, read again
from orjson's dict) reads them as the fast path does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from inprocess import invoke
from logbuilders import shoe_record, table_record

HOUSE = str(Path(__file__).parent.parent.parent / "samples" / "house" / "trouville.yaml")
DAY = "2024-07-05"


def _write(tmp_path: Path, name: str, records: list[dict[str, Any]], *, twice: bool = False) -> str:
    """The log; with `twice`, each round line writes its `dealer` key twice, which msgspec refuses and the
    schema accepts: the line takes the slow path."""
    lines = []
    for record in records:
        line = json.dumps(record)
        if twice and record["type"] == "round":
            line = line.replace('"dealer": "D-1"', '"dealer": "D-1", "dealer": "D-1"')
        lines.append(line + "\n")
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(lines))
    return str(path)


def _round(actions: list[list[Any]], bets: list[dict[str, Any]] | None = None, rid: str = "R1") -> dict:
    return {
        "type": "round", "round": rid, "shoe": "S1", "at": f"{DAY}T21:00:00+02:00", "dealer": "D-1",
        "bets": bets or TWO_BOXES, "actions": actions,
    }  # fmt: skip


TWO_BOXES = [{"stake": "1", "amount": 20, "player": "P1"}, {"stake": "3", "amount": 20, "player": "P2"}]


def _found(log: str, *extra: str) -> tuple[int, list[tuple[str, str | None]]]:
    ran = invoke("check", log, "--format", "jsonl", "--no-config", *extra)
    return ran.code, [(f["rule"], f.get("stake")) for f in map(json.loads, ran.stdout.splitlines())]


# ---- a card dealt face down, and its reveal --------------------------------------------------------
# fr/usage-blackjack, al. 3: « garde pour lui une carte face cachée ». Boxes 1 (T 8 = 18) and 3 (9 K =
# 19); the dealer 7, hole card 6 (13), revealed, draws 5: 18. Box 1 pushes, box 3 is paid even money
# (al. 9, « l'équivalent de sa mise »; al. 10, a tie « garde seulement sa mise »).
DEAL = [["deal", "1", "TH"], ["deal", "3", "9S"], ["deal", "D", "7C"], ["deal", "1", "8D"],
        ["deal", "3", "KC"]]  # fmt: skip
SETTLE = [["pay", "3", 20], ["push", "1"]]


def _usage(tmp_path: Path, name: str, actions: list[list[Any]], *, fmt: str = "hand-log/1.1", twice=False):
    records = [
        table_record(day=DAY, table="US-01", ruleset="fr/usage-blackjack", format=fmt),
        shoe_record(day=DAY),
        _round(actions),
    ]
    return _found(_write(tmp_path, name, records, twice=twice), "--house", HOUSE)


def test_the_hole_card_dealt_face_down_and_revealed_checks_clean(tmp_path):
    played = [*DEAL, ["deal_down", "D", "6D"], ["stand", "1"], ["stand", "3"], ["reveal", "D", "6D"],
              ["deal", "D", "5H"], *SETTLE]  # fmt: skip
    assert _usage(tmp_path, "clean", played) == (0, [])
    assert _usage(tmp_path, "clean-slow", played, twice=True) == (0, [])


def test_the_same_round_under_hand_log_1_with_a_face_up_hole_card_is_not_judged_for_its_face(tmp_path):
    played = [*DEAL, ["deal", "D", "6D"], ["stand", "1"], ["stand", "3"], ["deal", "D", "5H"], *SETTLE]
    assert _usage(tmp_path, "one", played, fmt="hand-log/1") == (0, [])
    # Said to be 1.1, the same records say the hole card was dealt face up: the text keeps it face down.
    assert _usage(tmp_path, "one-one", played) == (1, [("fr/usage-blackjack/hole-card-face-down", None)])


def test_the_dealer_drawing_with_his_hole_card_face_down_is_a_finding(tmp_path):
    played = [*DEAL, ["deal_down", "D", "6D"], ["stand", "1"], ["stand", "3"], ["deal", "D", "5H"],
              ["reveal", "D", "6D"], *SETTLE]  # fmt: skip
    assert _usage(tmp_path, "late", played) == (1, [("fr/usage-blackjack/hole-card-revealed", "D")])


def test_a_reveal_of_a_card_not_face_down_cannot_be_replayed(tmp_path):
    played = [*DEAL, ["deal_down", "D", "6D"], ["stand", "1"], ["stand", "3"], ["reveal", "D", "6S"],
              ["deal", "D", "5H"], *SETTLE]  # fmt: skip
    assert _usage(tmp_path, "wrong", played) == (1, [("hand-log/inconsistent", None)])


def test_ontario_deals_every_card_face_up(tmp_path):
    # Section 6: « Toutes les cartes sont données à découvert ». Box 1: T 8 = 18 stands; the dealer 6,
    # then 9 after the players (face down, then revealed), then 5: 20. Box 1 loses.
    records = [
        table_record(day=DAY, ruleset="on/fair-blackjack", format="hand-log/1.1", minimum=1, maximum=5),
        shoe_record(day=DAY, backs=[6], burn=["9H"], cut_card_behind=80),
        _round(
            [["deal", "1", "TD"], ["deal", "D", "6D"], ["deal", "1", "8C"], ["stand", "1"],
             ["deal_down", "D", "9H"], ["reveal", "D", "9H"], ["deal", "D", "5S"], ["lose", "1"]],
            bets=[{"stake": "1", "amount": 4, "player": "P1"}],
        ),
    ]  # fmt: skip
    assert _found(_write(tmp_path, "on", records)) == (1, [("on/fair-blackjack/cards-face-up", None)])


# ---- a peek ---------------------------------------------------------------------------------------
# The usage text deals a hole card (al. 3) and says nothing of the dealer looking at it for a blackjack
# before the players play: a peek is judged by no rule there, either way.
def test_a_peek_where_the_text_is_silent_checks_clean(tmp_path):
    played = [*DEAL, ["deal_down", "D", "6D"], ["peek", "D"], ["stand", "1"], ["stand", "3"],
              ["reveal", "D", "6D"], ["deal", "D", "5H"], *SETTLE]  # fmt: skip
    assert _usage(tmp_path, "peek", played) == (0, [])
    # The dealer's ace, the hole K: a peek finds his blackjack, which ends the round before the players
    # play. Box 1 (T 8 = 18) and box 3 (9 K = 19) lose to it (« Si le croupier fait son point, les
    # gagnants sont les joueurs à avoir un point supérieur au sien »): nothing the text forbids.
    ended = [["deal", "1", "TH"], ["deal", "3", "9S"], ["deal", "D", "AC"], ["deal", "1", "8D"],
             ["deal", "3", "KC"], ["deal_down", "D", "KD"], ["peek", "D"], ["reveal", "D", "KD"],
             ["lose", "3"], ["lose", "1"]]  # fmt: skip
    assert _usage(tmp_path, "peek-blackjack", ended) == (0, [])


def test_ontario_has_no_peek(tmp_path):
    # Section 6: the dealer « reçoit une (1) seule carte ouverte » and draws his second « Après le tour
    # du dernier joueur »; sections 8 and 9 have his blackjack take the doubled and split stakes. Box 1:
    # T 8 = 18 against the dealer's ace; he peeks at the deal, then draws his 9 after box 1 stands:
    # A 9 = 20, box 1 loses. The peek is the one finding.
    records = [
        table_record(day=DAY, ruleset="on/fair-blackjack", format="hand-log/1.1", minimum=1, maximum=5),
        shoe_record(day=DAY, backs=[6], burn=["9H"], cut_card_behind=80),
        _round(
            [["deal", "1", "TD"], ["deal", "D", "AS"], ["deal", "1", "8C"], ["peek", "D"], ["stand", "1"],
             ["deal", "D", "9C"], ["lose", "1"]],
            bets=[{"stake": "1", "amount": 4, "player": "P1"}],
        ),
    ]  # fmt: skip
    assert _found(_write(tmp_path, "on-peek", records)) == (1, [("on/fair-blackjack/no-peek", "D")])
    assert _found(_write(tmp_path, "on-peek-slow", records, twice=True)) == (
        1,
        [("on/fair-blackjack/no-peek", "D")],
    )


# ---- where split hands lie ---------------------------------------------------------------------------
# Art. 55-4, 3°: box 3 splits 8-8, then its first hand 8-8 again; the new hand lies beside it, so the
# hands lie 3, 3/3, 3/2 from the player's right. 3: 8 T = 18, 3/3: 8 9 = 17, 3/2: 8 T = 18; the dealer
# 6 T 5 = 21 after the players, every hand collected from the dealer's right: 3/2, 3/3, 3.
LAYOUT = {"3": ["3", "3/3", "3/2"]}
SPLITS = [["deal", "3", "8S"], ["deal", "D", "6D"], ["deal", "3", "8H"], ["split", "3", 20],
          ["deal", "3", "8C"], ["split", "3", 20], ["deal", "3", "TD"], ["stand", "3"]]  # fmt: skip
DEALER_21 = [["deal", "D", "TH"], ["deal", "D", "5S"], ["lose", "3/2"], ["lose", "3/3"], ["lose", "3"]]
BOX_3 = [{"stake": "3", "amount": 20, "player": "P1"}]


def _split_log(
    tmp_path: Path, name: str, play: list[list[Any]], layout: Any = None, fmt="hand-log/1.1", twice=False
):
    played = _round([*SPLITS, *play, *DEALER_21], bets=BOX_3)
    if layout is not None:
        played["layout"] = layout
    records = [table_record(day=DAY, format=fmt), shoe_record(day=DAY), played]
    return _found(_write(tmp_path, name, records, twice=twice))


def test_split_hands_played_by_their_places_check_clean(tmp_path):
    play = [["deal", "3/3", "9H"], ["stand", "3/3"], ["deal", "3/2", "TC"], ["stand", "3/2"]]
    assert _split_log(tmp_path, "in-place", play, LAYOUT) == (0, [])


def test_a_split_hand_played_before_the_hand_at_its_right_is_a_finding_where_the_layout_says_so(tmp_path):
    # 3/2 (the player's left) stands before 3/3 (at its right) is determined: « déterminant la situation
    # de la main la plus à sa droite avant de passer à la suivante ». hand-log/1 does not say where the
    # hands lie: the same play is not judged for it (as before hand-log/1.1).
    play = [["deal", "3/3", "9H"], ["deal", "3/2", "TC"], ["stand", "3/2"], ["stand", "3/3"]]
    assert _split_log(tmp_path, "left-first", play, LAYOUT) == (
        1,
        [("fr/blackjack/split-hands-in-place", "3/3")],
    )
    assert _split_log(tmp_path, "left-first-1", play, fmt="hand-log/1") == (0, [])
    assert _split_log(tmp_path, "left-first-slow", play, LAYOUT, twice=True) == (
        1,
        [("fr/blackjack/split-hands-in-place", "3/3")],
    )


def test_a_split_hand_dealt_before_the_hand_at_its_right_is_out_of_the_deal_order(tmp_path):
    # 3/2's second card before 3/3's: the dealer completes the hand at the player's right first. The
    # play after it is that same mistake (3/3 stands after 3/2 has stood, as dealt): one finding.
    play = [["deal", "3/2", "TC"], ["stand", "3/2"], ["deal", "3/3", "9H"], ["stand", "3/3"]]
    assert _split_log(tmp_path, "dealt-left-first", play, LAYOUT) == (
        1,
        [("fr/blackjack/deal-order", "3/2")],
    )


def test_split_hands_are_settled_from_the_players_left_under_each_reading(tmp_path):
    # The same hands against the dealer's 6 T 2 = 18: 3 (18) and 3/2 (18) are returned, 3/3 (17) is
    # collected. 1°, al. 5, « de droite à gauche »: read box by box (the default), the dealer meets 3/2,
    # then 3/3, then 3; read losers first (the reading `losers-first`), 3/3 is collected, then 3/2 and 3
    # are returned. Settled 3/3, 3/2, 3: the second reading's order, not the first's.
    play = [["deal", "3/3", "9H"], ["stand", "3/3"], ["deal", "3/2", "TC"], ["stand", "3/2"],
            ["deal", "D", "TH"], ["deal", "D", "2S"],
            ["lose", "3/3"], ["push", "3/2"], ["push", "3"]]  # fmt: skip
    played = _round([*SPLITS, *play], bets=BOX_3) | {"layout": LAYOUT}
    log = _write(
        tmp_path, "readings", [table_record(day=DAY, format="hand-log/1.1"), shoe_record(day=DAY), played]
    )
    assert _found(log) == (1, [("fr/blackjack/split-hands-settlement-order", "3/2")])
    assert _found(log, "--reading", "settlement-order=losers-first") == (0, [])


def test_a_layout_that_does_not_name_the_box_hands_cannot_be_replayed(tmp_path):
    play = [["deal", "3/3", "9H"], ["stand", "3/3"], ["deal", "3/2", "TC"], ["stand", "3/2"]]
    assert _split_log(tmp_path, "short", play, {"3": ["3", "3/2"]}) == (1, [("hand-log/inconsistent", None)])


def test_simulate_writes_where_split_hands_lie_and_its_seance_checks_clean(tmp_path):
    # The usage séance is written as hand-log/1.1: each split box's hands by place, the new hand at the
    # left of the others, where the simulator plays it last; the séance checks clean by its own layout.
    ran = invoke("simulate", "--ruleset", "fr/usage-blackjack", "--rounds", "400", "--seed", "1", "--players",
                 "mix", "--house", HOUSE, "--table", "US-01")  # fmt: skip
    rounds = [r for r in map(json.loads, ran.stdout.splitlines()) if r["type"] == "round"]
    layouts = [hands for r in rounds for hands in r.get("layout", {}).values()]
    assert any(len(hands) >= 3 for hands in layouts)
    log = tmp_path / "us.jsonl"
    log.write_text(ran.stdout)
    assert _found(str(log), "--house", HOUSE) == (0, [])


def test_the_schema_takes_the_new_events(tmp_path):
    schema = json.loads(invoke("schema", "hand-log").stdout)
    played = [*DEAL, ["deal_down", "D", "6D"], ["peek", "D"], ["stand", "1"], ["stand", "3"],
              ["reveal", "D", "6D"]]  # fmt: skip
    jsonschema.validate(_round(played), schema)
    jsonschema.validate(_round([*SPLITS]) | {"layout": LAYOUT}, schema)


# ---- a void round ------------------------------------------------------------------------------------
# No text here says when a round is void; the format says what a void round is: its stakes returned,
# its play not judged. Box 3 plays out of turn and the dealer draws on 19: nothing of it is judged.
VOID_PLAY = [["deal", "1", "TH"], ["deal", "3", "9S"], ["deal", "D", "7C"], ["deal", "1", "8D"],
             ["hit", "3", "2C"], ["deal", "D", "QC"], ["deal", "D", "4H"]]  # fmt: skip


def _void(tmp_path: Path, name: str, settle: list[list[Any]], *, twice: bool = False):
    played = _round([*VOID_PLAY, *settle])
    played["void"] = "misdeal"
    records = [table_record(day=DAY, format="hand-log/1.1"), shoe_record(day=DAY), played]
    return _found(_write(tmp_path, name, records, twice=twice))


def test_a_void_round_with_its_stakes_returned_checks_clean(tmp_path):
    assert _void(tmp_path, "void", [["push", "3"], ["push", "1"]]) == (0, [])
    assert _void(tmp_path, "void-slow", [["push", "3"], ["push", "1"]], twice=True) == (0, [])


def test_a_void_round_that_pays_or_keeps_a_stake_contradicts_itself(tmp_path):
    assert _void(tmp_path, "paid", [["push", "3"], ["pay", "1", 20]]) == (
        1,
        [("hand-log/inconsistent", None)],
    )
    assert _void(tmp_path, "kept", [["push", "3"]]) == (1, [("hand-log/inconsistent", None)])


def test_the_same_round_not_void_is_judged_as_play(tmp_path):
    played = _round([*VOID_PLAY, ["push", "3"], ["push", "1"]])
    records = [table_record(day=DAY, format="hand-log/1.1"), shoe_record(day=DAY), played]
    code, found = _found(_write(tmp_path, "played", records))
    assert code == 1 and found  # out of turn, the dealer's early cards, pushes against the totals


# ---- a card exposed or drawn by mistake, a reshuffle in the middle of a round (Ontario, section 11) ----
# The rules' own cases are fixtures (tests/fixtures/rules/on/fair-blackjack/irregular-card,
# mid-round-reshuffle); here, what the format makes of a card said `used` that is not the next drawn.
def _ontario(tmp_path: Path, name: str, actions: list[list[Any]]):
    records = [
        table_record(day=DAY, ruleset="on/fair-blackjack", format="hand-log/1.1", minimum=1, maximum=5),
        shoe_record(day=DAY, backs=[6], burn=["9H"], cut_card_behind=80),
        _round(actions, bets=[{"stake": "1", "amount": 4, "player": "P1"}]),
    ]
    return _found(_write(tmp_path, name, records, twice=name.endswith("slow")))


# Box 1: T 5, then the 4 drawn by mistake unseen (used as the next card, « comme s'il s'agissait de la
# prochaine carte tirée du sabot »): 19; the dealer 6 T 2 = 18; box 1 is paid 4 at 1:1.
MISDRAWN = [
    ["deal", "1", "TD"],
    ["deal", "D", "6D"],
    ["deal", "1", "5C"],
    ["mistake", "4H", "drawn_unexposed", "used"],
]


def test_a_card_drawn_by_mistake_is_the_next_card_drawn(tmp_path):
    rest = [["stand", "1"], ["deal", "D", "TC"], ["deal", "D", "2C"], ["pay", "1", 4]]
    assert _ontario(tmp_path, "used", [*MISDRAWN, ["hit", "1", "4H"], *rest]) == (0, [])
    assert _ontario(tmp_path, "used-slow", [*MISDRAWN, ["hit", "1", "4H"], *rest]) == (0, [])
    # Another card drawn in its place, or none after it: the log contradicts itself.
    assert _ontario(tmp_path, "other", [*MISDRAWN, ["hit", "1", "4S"], *rest]) == (
        1,
        [("hand-log/inconsistent", None)],
    )
    never = [*MISDRAWN, ["stand", "1"], ["deal", "D", "TC"], ["deal", "D", "2C"], ["lose", "1"]]
    assert _ontario(tmp_path, "never", never) == (1, [("hand-log/inconsistent", None)])


def test_a_reshuffle_puts_back_every_card_but_those_on_the_table(tmp_path):
    # Reshuffled with cards left (a finding of its own), the shoe holds its 312 cards but the three on
    # the table: a seventh 10♦ after it is a card the shoe does not hold (cards-from-shoe). The dealer's
    # 6 10 5 = 21 beats box 1's 18.
    tens = [["mistake", "TD", "exposed_in_shoe", "discarded"]] * 5
    played = [["deal", "1", "TD"], ["deal", "D", "6D"], ["deal", "1", "8C"], ["stand", "1"], *tens,
              ["reshuffle", ["2H"]], *tens, ["deal", "D", "TD"], ["deal", "D", "5S"],
              ["lose", "1"]]  # fmt: skip
    code, found = _ontario(tmp_path, "reshuffled", played)
    assert code == 1
    assert found == [
        ("on/fair-blackjack/mid-round-reshuffle", None),
        ("on/fair-blackjack/cards-from-shoe", None),
    ]
