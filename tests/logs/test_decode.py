"""The msgspec decoder of hand-log/1 (validator/logs/decode.py) accepts exactly what the JSON Schema
accepts, or less, and every valid record gets its typed struct."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from test_reader import (
    DEALER,
    JACKPOT,
    LIMITS,
    ROUND,
    ROUND_ALL_VERBS,
    SHOE,
    TABLE,
    VALID_RECORDS,
    _mutations,
    write_log,
)

from validator.logs import decode, reader
from validator.logs.decode import UNSET, CutCard, Deal, Lose, Pay, RoundRecord, ShoeRecord, Stand
from validator.logs.values import parse_time


def _schema_valid(record: dict[str, Any]) -> bool:
    record_type = record.get("type")
    if (
        not isinstance(record_type, str)
        or record_type not in reader.RECORD_TYPES
        or not reader._VALIDATORS[record_type].is_valid(record)
    ):
        return False
    try:
        parse_time(record["at"])
    except ValueError:
        return False
    return True


def test_every_valid_record_decodes_to_its_struct_with_the_same_values() -> None:
    for record in VALID_RECORDS:
        struct = decode.decode(orjson.dumps(record))
        assert struct is not None, record
        assert type(struct).__struct_config__.tag == record["type"]
        for key, value in record.items():
            if key == "type":
                continue
            assert hasattr(struct, key), key
            if not isinstance(value, list):
                assert getattr(struct, key) == value, key


def test_actions_are_tagged_by_their_verb_and_optional_items_are_unset() -> None:
    struct = decode.decode(orjson.dumps(ROUND_ALL_VERBS))
    assert isinstance(struct, RoundRecord)
    assert struct.dealer is UNSET
    assert struct.actions[0] == Deal("2", "10H")
    assert struct.actions[8] == CutCard("D")
    assert struct.actions[11] == Lose("2", "3.75")
    assert struct.actions[12].amount is UNSET  # type: ignore[union-attr]
    assert struct.bets[0].amount == "7.50" and struct.bets[0].player is UNSET


def test_msgspec_is_never_more_lenient_than_the_schema() -> None:
    """Every fourth of the broken records below (the schema's jsonschema verdict is the slow part); the
    long fuzzing run (`CASINO_VALIDATOR_FUZZ=long`, tests/fuzz/test_fuzz.py) takes them all."""
    if os.environ.get("CASINO_VALIDATOR_FUZZ") == "long":
        _never_more_lenient(step=1, least=2000)
    else:
        _never_more_lenient(step=4, least=500)


def _never_more_lenient(step: int, least: int) -> None:
    """Thousands of broken records (every value of every valid record replaced by odd values, or left
    out): msgspec refuses every one the schema refuses, and for every one it accepts or the schema
    accepts, the struct is the same whichever way it was made."""
    small_round = {**ROUND, "actions": ROUND["actions"][:6] + ROUND["actions"][-3:]}
    cases = stricter = 0
    for record in [TABLE, LIMITS, DEALER, SHOE, JACKPOT, small_round, ROUND_ALL_VERBS]:
        for mutated in list(_mutations(record))[::step]:
            struct = decode.decode(orjson.dumps(mutated))
            valid = _schema_valid(mutated)
            if not valid:
                assert struct is None or not _time_ok(struct.at), mutated
            else:
                converted = decode.from_dict(mutated)
                if struct is None:
                    stricter += 1  # an integer written 7.0: the slow path converts it
                    assert type(converted).__struct_config__.tag == mutated["type"]
                else:
                    assert converted == struct, mutated
            cases += 1
    assert cases > least
    assert stricter < cases // 100


def _time_ok(text: str) -> bool:
    try:
        parse_time(text)
    except ValueError:
        return False
    return True


def test_the_listed_hands_and_stakes_are_all_valid_ones() -> None:
    hand = reader.compile_pattern(reader._DEFS["hand"]["pattern"])
    side_bet = reader.compile_pattern(reader._DEFS["stake"]["anyOf"][1]["pattern"])
    assert all(hand.search(value) for value in decode.HANDS)
    assert all(hand.search(value) or side_bet.search(value) for value in decode.STAKES)
    assert len(set(decode.STAKES)) == len(decode.STAKES) == 7 * 17 + 7 * 13


def test_a_valid_record_msgspec_refuses_still_gets_its_struct(tmp_path: Path) -> None:
    # JSON Schema counts 6.0 as an integer; msgspec does not. A key written twice: the last one counts.
    # A hand past the listed ones ("3/17", "3/0"): valid, read by the slow path.
    shoe = {**SHOE, "decks": 6.0, "cut_card_behind": 1e20}
    twice = b'{"type": "dealer", "type": "dealer", "at": "2025-03-14T22:00:00+01:00", "dealer": "D-1"}'
    many_splits = {**ROUND, "actions": [["stand", "3/17"], ["pay", "3/0", 10], ["lose", "1"]]}
    lines = [shoe, twice, many_splits]
    records = list(reader.read_records(str(write_log(tmp_path / "a.jsonl", lines))))
    assert [r.problem for r in records] == [None, None, None]
    assert records[2].struct is not None
    assert records[2].struct.actions == [Stand("3/17"), Pay("3/0", 10), Lose("1")]  # type: ignore[union-attr]
    assert isinstance(records[0].struct, ShoeRecord)
    assert records[0].struct.decks == 6 and records[0].struct.cut_card_behind == 10**20
    assert records[0].data == shoe  # the dict is orjson's, as before
    assert records[1].struct is not None and records[1].struct.at == DEALER["at"]


def test_the_dict_is_made_only_when_asked_for_and_is_orjsons(tmp_path: Path) -> None:
    line = orjson.dumps(ROUND)
    (record,) = reader.read_records(str(write_log(tmp_path / "a.jsonl", [line])))
    assert record.struct is not None and record._data is None
    assert record.data == orjson.loads(line)
    assert record.data is record.data


def test_a_date_that_does_not_exist_is_the_schema_finding_it_was(tmp_path: Path) -> None:
    line = orjson.dumps({**JACKPOT, "at": "2025-02-30T20:02:00+01:00"})
    assert decode.decode(line) is not None  # the pattern passes it
    (record,) = reader.read_records(str(write_log(tmp_path / "a.jsonl", [line])))
    assert record.struct is None and record.problem is not None
    assert record.problem.message.startswith("jackpot record: at: '2025-02-30T20:02:00+01:00'")


def test_a_field_hand_log_does_not_name_is_read_by_orjson_whole(tmp_path: Path) -> None:
    """msgspec would skip an unknown field's value unchecked: such records take the slow path, where
    what orjson refuses in it is the finding it always was."""
    lines = [
        orjson.dumps({**DEALER, "note": "fine"}),
        orjson.dumps({**ROUND, "bets": [{**ROUND["bets"][0], "tip": 1}]}),
        orjson.dumps(DEALER)[:-1] + b', "note": "\xed\xa0\x80"}',
        orjson.dumps(DEALER)[:-1] + b', "note": 1e999}',
    ]
    assert [decode.decode(line) for line in lines] == [None] * 4
    records = list(reader.read_records(str(write_log(tmp_path / "a.jsonl", lines))))
    # The third is not UTF-8: it keeps its finding, and is read as Latin-1 (issue 28), so it has a struct.
    assert [r.struct is not None for r in records] == [True, True, True, False]
    assert [r.problem.rule if r.problem else None for r in records] == [
        None,
        None,
        "hand-log/invalid-utf8",
        "hand-log/invalid-json",
    ]


def test_every_record_of_the_samples_takes_the_fast_path() -> None:
    samples = Path(__file__).resolve().parents[2] / "samples" / "logs" / "clean"
    lines = [line for path in sorted(samples.glob("*.jsonl")) for line in path.read_bytes().splitlines()]
    assert len(lines) > 100
    assert all(decode.decode(line) is not None for line in lines if line.strip())


def test_a_key_written_twice_is_checked_both_times_and_the_last_one_counts() -> None:
    """As orjson reads it (the last value), so msgspec may not accept what the schema refuses."""
    head = b'{"type": "dealer", "at": "2025-03-14T22:00:00+01:00", '
    assert decode.decode(head + b'"dealer": "D1", "dealer": ""}') is None
    assert decode.decode(head + b'"dealer": "", "dealer": "D2"}') is None
    assert decode.decode(head + b'"dealer": "D1", "dealer": "D2"}') == decode.DealerRecord(DEALER["at"], "D2")


def test_each_action_names_its_verb_as_its_tag() -> None:
    # The replay tells actions apart by `verb` (and by class): it must be the verb the log writes.
    assert decode._VERBS and all(cls.verb == tag for tag, cls in decode._VERBS.items())  # type: ignore[attr-defined]


def test_an_integer_past_63_bits_takes_the_slow_path_and_keeps_orjsons_value(tmp_path: Path) -> None:
    # msgspec reads 2^64 exactly, orjson as a float: the struct holds what the dict holds.
    bets = [{"stake": "3", "amount": 2**64}, {"stake": "4", "amount": 2**63}]
    line = json.dumps({**ROUND, "bets": bets}).encode()  # orjson writes no integer past 64 bits
    assert decode.decode(line) is None
    (record,) = reader.read_records(str(write_log(tmp_path / "a.jsonl", [line])))
    assert record.problem is None and isinstance(record.struct, RoundRecord)
    assert [bet.amount for bet in record.struct.bets] == [float(2**64), 2**63]
    assert [bet["amount"] for bet in record.data["bets"]] == [float(2**64), 2**63]  # type: ignore[index]


@pytest.mark.parametrize("depth", [500, 2000])
def test_a_record_type_nested_too_deeply_is_a_finding_not_a_crash(depth: int) -> None:
    """msgspec reads a record's tag first, and a tag nested deeper than the stack has room for raised
    RecursionError out of the reader (the fuzzer's case): the line is refused, and the slow path says
    why."""
    line = b'{"type":' + b"[" * depth + b"]" * depth + b',"at":"2025-03-14T20:00:00+01:00"}'
    assert decode.decode(line) is None
    record = reader._parse_line("f.jsonl", 3, line)
    assert record.problem is not None and record.problem.line == 3
    assert record.problem.rule in ("hand-log/invalid-json", "hand-log/schema", "hand-log/unknown-type")


def test_a_first_line_repeated_with_its_byte_order_mark_is_two_lines(tmp_path) -> None:
    """Issue 42: identical lines are read together, and the first line's byte-order mark was dropped from
    all of them: the same bytes on line 2 (where a mark is not allowed) were read as a valid record. Only
    line 1 loses its mark; line 2 is the JSON error a mark anywhere else is, as when not repeated."""
    from validator.logs.limits import Limits
    from validator.logs.reader import BOM, RecordFeed, read_records

    table = (
        b'{"type": "table", "format": "hand-log/1", "table": "T", "casino": "C", "game": "bataille", '
        b'"ruleset": "fr/bataille", "at": "2025-01-31T22:00:00+01:00", "seats": 7, "minimum": 5, '
        b'"maximum": 500, "new_cards": true}\n'
    )
    for data in (BOM + table + BOM + table, BOM + table + BOM + table + BOM + table):
        path = tmp_path / "bom.jsonl"
        path.write_bytes(data)
        for records in (
            list(read_records(str(path), "bom.jsonl")),
            list(RecordFeed("bom.jsonl", Limits()).feed(data)),
        ):
            lines = data.count(b"\n")
            assert [r.line for r in records] == list(range(1, lines + 1))
            assert records[0].problem is None
            for later in records[1:]:
                assert later.problem is not None and later.problem.rule == "hand-log/invalid-json"
                assert "byte order mark" in later.problem.message
