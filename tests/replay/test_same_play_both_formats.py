"""Issue 37, item 2: one independent finding per cause, whatever the log's detail. The same play written as
hand-log/1 and as hand-log/1.1 gives the same independent findings (those without `caused_by`).

Every rule fixture and every sample is run both ways where the other form exists:

- a hand-log/1.1 log whose additions all have a hand-log/1 form (a card dealt face down, its reveal, a
  peek) is written again as hand-log/1: `deal_down` becomes `deal` (hand-log/1 reads every card face up),
  `reveal` and `peek` go (hand-log/1 cannot say them). A log with a `layout`, a `void` round, a `by`, a
  `mistake` or a mid-round `reshuffle` says what hand-log/1 cannot: it has no such form.
- a hand-log/1 log is the same records under the name hand-log/1.1 (docs/hand-log.md: « a hand-log/1 log
  gives the same findings under either name »), except where the version deals a hole card: hand-log/1.1
  reads a `deal` face up, so the same records would say the hole card was shown.

What hand-log/1.1 adds may add independent findings only where it says more about the play: a card's face,
a reveal, a peek (the rules that read `card.face_down`, `dealer.face_down`, `table.faces_logged`, or
judge a `peek`). Where that detail is the face of the dealer's second card dealt too early (the hole card
of an engine that deals one under a text that has none), it is that card's cause, the one the hand-log/1
form gives (`dealer-second-card-after-players`): there, the detail adds no independent finding.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conftest import ROOT
from inprocess import invoke
from logbuilders import shoe_record, table_record

from validator.checking.fixtures import findings_of, plan_fixture
from validator.dsl.expr import names_in
from validator.rulebook.registry import default_registry

FIXTURES = ROOT / "tests" / "fixtures" / "rules"
SAMPLES = ROOT / "samples" / "logs"
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"
NO_1_0_FORM = ("layout", "void", "mistake", "reshuffle")
# The facts only hand-log/1.1 gives.
DETAIL = ("card.face_down", "dealer.face_down", "table.faces_logged")


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _as_1_0(records: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The hand-log/1 form of a hand-log/1.1 log, or None where it has none."""
    out = []
    for record in records:
        record = dict(record)
        if record.get("type") == "table":
            record["format"] = "hand-log/1"
        if record.get("type") == "round":
            if any(key in record for key in NO_1_0_FORM):
                return None
            actions = []
            for action in record.get("actions", []):
                verb = action[0]
                if verb in NO_1_0_FORM or (verb == "insurance" and len(action) > 3):
                    return None
                if verb in ("hit", "stand", "double", "split", "surrender") and isinstance(action[-1], list):
                    return None  # a `by`
                if verb in ("reveal", "peek"):
                    continue
                actions.append(["deal", *action[1:]] if verb == "deal_down" else action)
            record["actions"] = actions
        out.append(record)
    return out


def _as_1_1(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(r, format="hand-log/1.1") if r.get("type") == "table" else r for r in records]


def _format(records: list[dict[str, Any]]) -> str:
    table = next((r for r in records if r.get("type") == "table"), {})
    return str(table.get("format", "hand-log/1"))


def _independent(found: list[dict[str, Any]]) -> list[tuple[str, Any, Any]]:
    return sorted((f["rule"], f.get("round"), f.get("stake")) for f in found if not f.get("caused_by"))


def _detail_rules() -> set[str]:
    """The rules that judge what only hand-log/1.1 says: a face, a reveal, a peek."""
    found = set()
    for family in default_registry().families.values():
        for ruleset in family:
            for rule in ruleset.rules:
                for check in rule.checks:
                    nodes = [check.applied_require, *([check.applied_guard] if check.applied_guard else [])]
                    paths = {getattr(name, "path", "") for node in nodes for name in names_in(node)}
                    if check.event == "peek" or paths & set(DETAIL):
                        found.add(rule.id)
    return found


def _hole_card(pinned: str | None, records: list[dict[str, Any]]) -> bool:
    family = pinned or next(r.get("ruleset") for r in records if r.get("type") == "table")
    return str(family).startswith("fr/usage-blackjack")


def _fixture_runs() -> Iterator[tuple[Any, list[dict[str, Any]]]]:
    """Each case under the first version it pins (the others differ in wordings the format does not
    touch), under its readings."""
    registry = default_registry()
    for expect in sorted(FIXTURES.rglob("*.expect.json")):
        runs = plan_fixture(registry, expect, FIXTURES)
        yield runs[0], _records(runs[0].log)


def _compare(one: list[dict[str, Any]], other: list[dict[str, Any]], detail: set[str], label: str) -> None:
    """`one` (hand-log/1) and `other` (hand-log/1.1) of the same play."""
    plain = _independent(one)
    told = _independent(other)
    assert plain == [f for f in told if f[0] not in detail], label
    early = {f.get("round") for f in other if f["rule"].endswith("/dealer-second-card-after-players")}
    for finding in other:
        if finding["rule"] in detail and finding.get("round") in early:
            assert finding.get("caused_by"), f"{label}: {finding['rule']} is the early card's own face"


def test_every_fixture_gives_the_same_independent_findings_in_both_formats(tmp_path):
    # Each case run twice, once in each form, under the first version it pins: some 2 s of CPU, the
    # issue asks for every fixture both ways.
    registry = default_registry()
    detail = _detail_rules()
    compared = 0
    for number, (run, records) in enumerate(_fixture_runs()):
        if _format(records) == "hand-log/1.1":
            other = _as_1_0(records)
            if other is None:
                continue
        elif _hole_card(run.pinned, records):
            continue
        else:
            other = _as_1_1(records)
        path = tmp_path / f"{number}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in other), encoding="utf-8")
        runs = registry.with_readings(dict(run.readings))
        given = findings_of(runs, run)
        again = findings_of(runs, dataclasses.replace(run, log=path))
        pair = (again, given) if _format(records) == "hand-log/1.1" else (given, again)
        _compare(*pair, detail, run.name + (f" @ {run.pinned}" if run.pinned else ""))
        compared += 1
    assert compared > 400  # the hand-log/1 cases and the hand-log/1.1 ones with a hand-log/1 form


def test_every_sample_gives_the_same_independent_findings_under_both_names(tmp_path):
    detail = _detail_rules()
    for log in sorted(SAMPLES.rglob("*.jsonl")):
        records = _records(log)
        assert _format(records) == "hand-log/1"  # the samples are hand-log/1: their other form is 1.1
        if _hole_card(None, records):
            continue
        path = tmp_path / log.name
        path.write_text("".join(json.dumps(r) + "\n" for r in _as_1_1(records)), encoding="utf-8")
        runs = []
        for source in (log, path):
            ran = invoke("check", str(source), "--house", str(HOUSE), "--format", "jsonl", "--no-config")
            runs.append([json.loads(line) for line in ran.stdout.splitlines()])
        _compare(runs[0], runs[1], detail, log.name)


def test_the_hole_card_of_an_early_second_card_is_one_finding_in_both_formats():
    """fr/blackjack 2016: boxes 1 (T 8 = 18) and 3 (5 6 = 11) against the dealer's 9; the dealer gives
    himself his second card, a 7, at the end of the initial deal, then box 1 stands, box 3 hits a 7 (18)
    and stands; the dealer stands on 16 (his card came too early: « Lorsque tous les joueurs ont déterminé
    la situation de leurs mains, le croupier tire », 1°, al. 6; and 16 draws, al. 6). As hand-log/1.1 the
    7 is `deal_down`, peeked at, and revealed: the face (cards-face-up, al. 5 « figure en dessus ») and the
    peek (no-peek) are that early card's, not causes of their own. Both forms: the early card, the
    dealer's 16, and boxes 1 and 3 (18 each, against 16) paid even money where the log collected and
    returned them."""
    deal = [["deal", "1", "TH"], ["deal", "3", "5S"], ["deal", "D", "9C"], ["deal", "1", "8D"],
            ["deal", "3", "6C"]]  # fmt: skip
    rest = [["stand", "1"], ["hit", "3", "7H"], ["stand", "3"]]
    settle = [["push", "3"], ["lose", "1"]]
    one = [*deal, ["deal", "D", "7D"], *rest, *settle]
    told = [*deal, ["deal_down", "D", "7D"], ["peek", "D"], *rest, ["reveal", "D", "7D"], *settle]
    expected = [
        ("fr/blackjack/dealer-second-card-after-players", "R1", "D"),
        ("fr/blackjack/dealer-stands-17", "R1", "D"),
        ("fr/blackjack/higher-total-wins", "R1", "1"),
        ("fr/blackjack/higher-total-wins", "R1", "3"),
    ]
    results = {}
    for fmt, actions in (("hand-log/1", one), ("hand-log/1.1", told)):
        found = _run_one(fmt, actions)
        assert _independent(found) == sorted(expected), fmt
        results[fmt] = sorted(f["rule"] for f in found if f.get("caused_by"))
    assert results == {
        "hand-log/1": [],
        "hand-log/1.1": ["fr/blackjack/cards-face-up", "fr/blackjack/no-peek"],
    }


def _run_one(fmt: str, actions: list[list[Any]]) -> list[dict[str, Any]]:
    records = [
        table_record(day="2016-03-14", format=fmt),
        shoe_record(day="2016-03-14"),
        {"type": "round", "round": "R1", "shoe": "S1", "at": "2016-03-14T21:00:00+01:00",
         "bets": [{"stake": "1", "amount": 20, "player": "P1"}, {"stake": "3", "amount": 20, "player": "P2"}],
         "actions": actions},
    ]  # fmt: skip
    ran = invoke(
        "check", "-", "--format", "jsonl", "--no-config", stdin="".join(json.dumps(r) + "\n" for r in records)
    )
    return [json.loads(line) for line in ran.stdout.splitlines()]
