"""A finding's fingerprint identifies it in the game, not in the file."""

from dataclasses import replace

from validator.findings.finding import Finding
from validator.findings.fingerprint import fingerprint

BASE = Finding(
    kind="payout",
    rule="fr/blackjack/pays-blackjack-3-2",
    ref="Arrêté du 14 mai 2007, art. 55-4, 1°",
    severity="error",
    file="logs/a.jsonl",
    line=12,
    message="paid 10, the rules give 15",
    round="r-0001",
    stake="box:3",
)


def test_the_line_does_not_change_the_fingerprint():
    assert fingerprint(BASE) == fingerprint(replace(BASE, line=999))


def test_rule_file_round_stake_and_path_each_change_it():
    others = [
        replace(BASE, rule="fr/blackjack/other"),
        replace(BASE, file="logs/b.jsonl"),
        replace(BASE, round="r-0002"),
        replace(BASE, stake="box:4"),
        replace(BASE, path="tables.BJ-03"),
    ]
    prints = {fingerprint(BASE), *(fingerprint(f) for f in others)}
    assert len(prints) == 1 + len(others)


def test_the_file_can_be_given_relative_to_a_root():
    assert fingerprint(BASE, "a.jsonl") == fingerprint(replace(BASE, file="a.jsonl"))
    assert fingerprint(BASE, "a.jsonl") != fingerprint(BASE)


def test_a_finding_outside_a_round_is_told_apart_by_its_message():
    a = replace(BASE, round=None, stake=None, message="line is not JSON")
    b = replace(a, message="unknown record type 'tabel'")
    assert fingerprint(a) != fingerprint(b)
    assert fingerprint(a) == fingerprint(replace(a, line=3))
    assert len(fingerprint(a)) == 32 and int(fingerprint(a), 16) >= 0
