"""The converting walk-through's worked example (docs/converting-logs.md, issue 37 item 5): a small
blackjack engine with its own event format (examples/tiny_engine/engine.py), the converter a vendor would
write (examples/tiny_engine/convert.py), and `check` on what it converts. Read from the checkout (CI
installs the package with `pip install .`, and the examples are not part of it)."""

from __future__ import annotations

import importlib.util
import json
from decimal import Decimal
from pathlib import Path
from types import ModuleType

from inprocess import invoke

EXAMPLE = Path(__file__).parents[2] / "examples" / "tiny_engine"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"tiny_engine_{name}", EXAMPLE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENGINE, CONVERT = _load("engine"), _load("convert")


def _played(tmp_path: Path, bug: str | None = None) -> tuple[list[dict], list[dict], dict]:
    """The engine's events for 40 rounds at seats 1 and 3 (seed 11, the walk-through's), the hand-log they
    convert to, and `check`'s JSON report of it."""
    events = list(ENGINE.Engine(11, [1, 3], bug).play(40))
    records = list(CONVERT.convert(events))
    log = tmp_path / "converted.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    ran = invoke("check", str(log), "--format", "json", "--no-config")
    assert ran.code in (0, 1), ran.stderr
    return events, records, json.loads(ran.stdout)


def test_the_engine_converted_checks_clean_and_shows_what_the_walk_through_explains(tmp_path):
    """The engine plays the French text as written, so its log, converted without correcting anything,
    gives no finding, and its charges (hand-log/1.2) equal its stakes: nothing in the notes. The rounds
    hold what the walk-through explains: a split (its hands renamed 1/2…), doubles, blackjacks, the cut
    card coming out and the shoe that follows it."""
    events, records, report = _played(tmp_path)
    assert report["findings"] == [] and report["summary"]["rounds"]["checked"] == 40
    assert not [note for note in report["summary"]["notes"] if "hand-log/1.2" in note]
    verbs = {action[0] for r in records if r["type"] == "round" for action in r["actions"]}
    assert {"split", "double", "cut_card", "charge", "hit", "stand"} <= verbs
    assert any(e["t"] == "settle" and e["result"] == "blackjack" for e in events)
    assert [r["reason"] for r in records if r["type"] == "shoe"] == ["open", "cut_card"]
    split_hands = {a[1] for r in records if r["type"] == "round" for a in r["actions"] if "/" in str(a[1])}
    assert split_hands and all(name.endswith("/2") for name in split_hands if ":" not in name)


def test_a_faulty_build_paying_blackjack_even_money_is_found_once_per_blackjack(tmp_path):
    """Art. 55-4, 1°: « le black-jack … est payé à raison de 3 pour 2 ». The faulty build pays 1 for 1:
    one `blackjack-pays-3-2` for each blackjack the engine settled (counted from its own events, not
    from the tool), expecting 1.5 times the stake and showing the stake paid."""
    events, _records, report = _played(tmp_path, bug="blackjack_even")
    stakes: dict[tuple[int, str], Decimal] = {}
    game = 0
    blackjacks = []
    for event in events:
        if event["t"] == "game":
            game = event["game"]
        elif event["t"] == "bet":
            stakes[game, str(event["seat"])] = Decimal(event["amount"])
        elif event["t"] == "settle" and event["result"] == "blackjack":
            box = event["hand"][4 : event["hand"].index(".")]
            blackjacks.append((f"EX-1/{game}", box, stakes[game, box]))
    assert blackjacks
    found = [
        (f["round"], f["stake"], Decimal(f["expected"]["pay"]), Decimal(f["actual"]["pay"]))
        for f in report["findings"]
    ]
    assert {f["rule"] for f in report["findings"]} == {"fr/blackjack/blackjack-pays-3-2"}
    # In the order of the rounds and boxes (the engine settles box 3 before box 1, from the dealer's right).
    assert sorted(found) == sorted(
        (rid, box, stake * Decimal("1.5"), stake) for rid, box, stake in blackjacks
    )


def test_the_pages_excerpt_is_what_the_engine_and_converter_write(tmp_path):
    """docs/converting-logs.md shows game 23 of the walk-through's séance as the engine wrote it and as
    converted: both are what the two programs write today (the page cannot drift from them)."""
    page = (Path(__file__).parents[2] / "docs" / "converting-logs.md").read_text(encoding="utf-8")
    events = list(ENGINE.Engine(11, [1, 3]).play(40))
    start = next(i for i, e in enumerate(events) if e["t"] == "game" and e["game"] == 23)
    end = next(i for i, e in enumerate(events) if e["t"] == "game" and e["game"] == 24)
    for event in events[start:end]:
        assert json.dumps(event) in page
    [converted] = [r for r in CONVERT.convert(events) if r.get("round") == "EX-1/23"]
    assert "```jsonl\n" + json.dumps(converted) + "\n```" in page
