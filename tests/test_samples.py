"""The shipped samples give what samples/README.md says they give: the findings of the dispute logs
were worked out from the articles, not copied from the program's output."""

from __future__ import annotations

import json

from conftest import SAMPLES, run_cli
from worded import InWords

DISPUTES = SAMPLES / "logs" / "disputes"

# (file, line, rule, stake, expected, actual): one rule broken per round.
EXPECTED = [
    ("BA-01-2025-02-01.jsonl", 3, "fr/bataille/higher-card-wins", "3", {"pay": "20"}, {"lose": "20"}),
    ("BA-01-2025-02-01.jsonl", 4, "fr/bataille/lower-card-loses", "5", {"lose": "30"}, {"pay": "30"}),
    (
        "BJ-03-2016-06-11.jsonl",
        3,
        "fr/blackjack/dealer-stands-17",
        "D",
        {"dealer.total": "<= 16"},
        {"dealer.total": 17},
    ),
    ("BJ-03-2016-06-11.jsonl", 4, "fr/blackjack/blackjack-pays-3-2", "2", {"pay": "15"}, {"pay": "10"}),
    (
        "BJ-03-2016-06-11.jsonl",
        5,
        "fr/blackjack/insurance-pays-2-1",
        "3:insurance",
        {"pay": "20"},
        {"pay": "10"},
    ),
    (
        "BJ-03-2016-06-11.jsonl",
        6,
        "fr/blackjack/split-pairs-only",
        "1",
        {"hand.pair": True},
        {"hand.pair": False},
    ),
    ("BJ-03-2016-06-11.jsonl", 7, "fr/blackjack/double-two-cards", "1", {"hand.cards": 2}, {"hand.cards": 3}),
    (
        "BJ-03-2016-06-11.jsonl",
        8,
        "fr/blackjack/settlement-order",
        "5",
        {"condition": "settle.previous_box == 0 or settle.box <= settle.previous_box"},
        {"settle.previous_box": 1, "settle.box": 5},
    ),
    ("BJ-03-2016-06-11.jsonl", 9, "fr/blackjack/lower-total-loses", "4", {"lose": "50"}, {"pay": "50"}),
    (
        "ON-01-2025-08-23.jsonl",
        3,
        "on/fair-blackjack/dealer-hits-soft-17",
        "D",
        {"condition": "dealer.total >= 18 or (dealer.total == 17 and not dealer.soft)"},
        {"dealer.total": 17, "dealer.soft": True},
    ),
    (
        "ON-01-2025-08-23.jsonl",
        4,
        "on/fair-blackjack/bet-within-limits",
        "2",
        {"box.stake": "<= 5"},
        {"box.stake": "10"},
    ),
]


def test_dispute_logs_give_the_findings_the_articles_call_for():
    result = run_cli("check", str(DISPUTES), "--format", "json")
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    got = [
        (f["file"].rsplit("/", 1)[-1], f["line"], f["rule"], f["stake"], f["expected"], f["actual"])
        for f in doc["findings"]
    ]
    assert InWords(got) == EXPECTED
    rounds = doc["summary"]["rounds"]
    assert rounds["read"] == 11 and rounds["with_findings"] == 11 and rounds["clean"] == 0


def test_dispute_money_totals():
    result = run_cli("check", str(DISPUTES), "--format", "json")
    money = json.loads(result.stdout)["summary"]["money"]
    # Paid instead of collected: 50 + 50 (blackjack round 7) and 30 + 30 (bataille round 2).
    # Short: 5 on the blackjack, 10 on the insurance, 20 + 20 on the king collected instead of paid.
    assert money == {"overpaid_by_house": "160", "underpaid_to_players": "55"}
