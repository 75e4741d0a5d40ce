"""Small hand-log/1 builders for the side-bet tests and fixtures: a table, a shoe, rounds written out
card by card. Every log here is written by hand; what it must give is worked out from the article."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from logbuilders import shoe_record, table_record

# The texts as docs/sources.md names them: the 2025 text (dames de cœur, hyper, 2 + 1, JP1), the 2013
# wording (lucky ladies only).
BJ_001 = ["fr/blackjack@2020-05-25", "fr/blackjack@2024-11-01"]
BJ_000 = ["fr/blackjack@2013-12-15", "fr/blackjack@2019-08-12"]
BJ_ALL = [*BJ_000, *BJ_001]
BATAILLE = ["fr/bataille@2013-05-12"]

DAY = "2025-03-14"


def table(
    game: str = "blackjack", table_id: str = "BJ-07", minimum: int = 10, maximum: int = 1000
) -> dict[str, Any]:
    ruleset = "fr/blackjack" if game == "blackjack" else "fr/bataille"
    return table_record(
        DAY,
        casino="Casino de Trouville",
        table=table_id,
        game=game,
        ruleset=ruleset,
        minimum=minimum,
        maximum=maximum,
    )


def shoe() -> dict[str, Any]:
    return shoe_record(DAY)


def jackpot(main: str, secondary: str, minute: int = 3) -> dict[str, Any]:
    return {"type": "jackpot", "at": f"{DAY}T20:{minute:02d}:00+01:00", "main": main, "secondary": secondary}


def bet(stake: str, amount: Any, player: str | None = None, seated: bool = True) -> dict[str, Any]:
    entry: dict[str, Any] = {"stake": stake, "amount": amount}
    entry["player"] = player if player is not None else f"P{stake.split(':')[0]}"
    entry["seated"] = seated
    return entry


def round_(n: int, bets: list[dict[str, Any]], actions: list[list[Any]]) -> dict[str, Any]:
    return {
        "type": "round",
        "round": f"R{n}",
        "shoe": "S1",
        "at": f"{DAY}T21:{n:02d}:00+01:00",
        "dealer": "D-117",
        "bets": bets,
        "actions": actions,
    }


def write_log(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def write_fixture(
    folder: Path,
    name: str,
    records: list[dict[str, Any]],
    rulesets: list[str],
    findings: list[dict[str, Any]],
    house: dict[str, Any] | None = None,
) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_log(folder / f"{name}.jsonl", records)
    expect: dict[str, Any] = {"rulesets": rulesets}
    if house:
        expect["house"] = house
    expect["findings"] = findings
    (folder / f"{name}.expect.json").write_text(
        json.dumps(expect, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )


def check(
    tmp_path: Path,
    records: list[dict[str, Any]],
    version: str,
    house: dict[str, Any] | None = None,
    name: str = "log.jsonl",
) -> tuple[list[dict[str, Any]], Any]:
    """Replay `records` under one pinned ruleset version with these house options; the findings as
    dicts (docs/findings.md's fields) and the run's summary."""
    from validator.findings.finding import Summary
    from validator.house.values import house_value
    from validator.logs.reader import read_records
    from validator.replay.session import LogReplay
    from validator.rulebook.registry import default_registry

    path = tmp_path / name
    write_log(path, records)
    registry = default_registry()
    options = {k: house_value(v) for k, v in (house or {}).items()}
    summary = Summary()
    replay = LogReplay(
        registry, str(path), summary, pinned=version, house=lambda _t, rs: {**rs.house_defaults(), **options}
    )
    found = [f for outcome in replay.replay(read_records(str(path))) for f in outcome.findings]
    return [f.as_dict() for f in found], summary
