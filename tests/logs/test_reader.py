"""The hand-log/1 reader: every valid record passes, every broken line gives one `format` finding at the
right line, and nothing raises but a missing file."""

from __future__ import annotations

import copy
import gzip
import io
import sys
import tracemalloc
import zlib
from datetime import timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from jsonschema import Draft202012Validator
from logbuilders import shoe_record, table_record

from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.logs import Record, check_record, iter_log_paths, load_schema, read_records, reader
from validator.logs.fastcheck import SchemaCompiler
from validator.logs.limits import MAX_LINE
from validator.logs.values import parse_time

TABLE = table_record(casino="Casino de Trouville")
LIMITS = {
    "type": "limits",
    "at": "2025-03-14T23:00:00+01:00",
    "minimum": 10,
    "maximum": 2000,
    "displayed": True,
}
DEALER = {"type": "dealer", "at": "2025-03-14T22:00:00+01:00", "dealer": "D-204", "burn": ["5S"]}
SHOE = shoe_record(shoe="BJ-03/2025-03-14/1", cut_by="4")
JACKPOT = {"type": "jackpot", "at": "2025-03-14T20:02:00+01:00", "main": "15230.00", "secondary": "2410.50"}
ROUND = {
    "type": "round",
    "round": "BJ-03/2025-03-14/1/17",
    "shoe": "BJ-03/2025-03-14/1",
    "at": "2025-03-14T21:05:09+01:00",
    "dealer": "D-117",
    "bets": [
        {"stake": "1", "amount": 20, "player": "P7", "seated": True},
        {"stake": "1:lucky_ladies", "amount": 5, "player": "P7", "seated": True},
        {"stake": "3", "amount": 50, "player": "P2", "seated": True},
        {"stake": "3", "amount": 10, "player": "P9", "seated": False},
    ],
    "actions": [
        ["deal", "1", "9H"],
        ["deal", "3", "8S"],
        ["deal", "D", "6C"],
        ["deal", "1", "TD"],
        ["deal", "3", "8D"],
        ["lose", "1:lucky_ladies"],
        ["stand", "1"],
        ["split", "3", 60],
        ["deal", "3", "3H"],
        ["double", "3", 60, "9C"],
        ["deal", "3/2", "KS"],
        ["stand", "3/2"],
        ["deal", "D", "TC"],
        ["deal", "D", "9S"],
        ["pay", "3/2", 60],
        ["pay", "3", 120],
        ["pay", "1", 20],
    ],
}
# Every other verb, every side bet, and the other spellings of values (10 for T, "Z" time, string amounts).
ROUND_ALL_VERBS = {
    "type": "round",
    "round": "r2",
    "shoe": "s1",
    "at": "2025-03-14T20:05:09.250Z",
    "bets": [
        {"stake": "2", "amount": "7.50"},
        {"stake": "2:insurance", "amount": 5},
        {"stake": "4:hyper:blackjack", "amount": 1},
        {"stake": "5:two_plus_one", "amount": 1},
        {"stake": "6:jp1", "amount": 1},
        {"stake": "7:egalite", "amount": 1},
    ],
    "actions": [
        ["deal", "2", "10H"],
        ["hit", "2", "AS"],
        ["surrender", "2"],
        ["insurance", "2", 2.5],
        ["even_money", "2"],
        ["war", "2", "10"],
        ["burn", "2D"],
        ["discard", "QC"],
        ["cut_card", "D"],
        ["cut_card", "3"],
        ["approve", "6:jp1", "S-12"],
        ["lose", "2", "3.75"],
        ["lose", "2:war"],
        ["push", "7:egalite"],
        ["pay", "4:hyper:bust", 0],
    ],
}
BATAILLE = {**TABLE, "game": "bataille", "ruleset": "fr/bataille", "seats": 99}
VALID_RECORDS = [TABLE, LIMITS, DEALER, SHOE, JACKPOT, ROUND, ROUND_ALL_VERBS, BATAILLE]


def dump(record: Any) -> bytes:
    return orjson.dumps(record)


def write_log(path: Path, lines: list[Any], *, zipped: bool = False) -> Path:
    """Write records (dicts) or raw lines (bytes) one per line."""
    data = b"".join((line if isinstance(line, bytes) else dump(line)) + b"\n" for line in lines)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data) if zipped else data)
    return path


def read(path: Path | str) -> list[Record]:
    return list(read_records(str(path)))


def problems(records: list[Record]) -> list[tuple[int, str]]:
    return [(r.line, r.problem.rule) for r in records if r.problem is not None]


def only_problem(records: list[Record]) -> Finding:
    found = [r.problem for r in records if r.problem is not None]
    assert len(found) == 1, found
    return found[0]


# --- valid logs ----------------------------------------------------------------------------------------


def test_every_valid_record_type_is_read_as_is(tmp_path: Path) -> None:
    log = write_log(tmp_path / "ok.jsonl", VALID_RECORDS)
    records = read(log)
    assert [r.line for r in records] == list(range(1, len(VALID_RECORDS) + 1))
    assert all(r.problem is None for r in records), [r.problem for r in records]
    assert [r.data for r in records] == VALID_RECORDS
    # Amounts stay as written: the replay converts them with money.to_decimal.
    assert records[6].data is not None
    assert records[6].data["bets"][0]["amount"] == "7.50"
    assert records[0].file == str(log)


def test_valid_records_pass_the_whole_schema_too() -> None:
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    whole = reader.schema_validator()(schema)
    for record in VALID_RECORDS:
        assert whole.is_valid(record), record
    assert not whole.is_valid({"type": "tabel"})
    assert not whole.is_valid({**ROUND, "actions": [["hitt", "1", "2H"]]})
    assert not whole.is_valid({**ROUND, "shoe": 3})


def test_shortest_log_extra_fields_and_blank_lines(tmp_path: Path) -> None:
    future = {**ROUND, "camera": "C-4", "bets": [{"stake": "1", "amount": 10, "chips": [5, 5]}]}
    log = write_log(tmp_path / "short.jsonl", [TABLE, b"", SHOE, b"   \t", future])
    records = read(log)
    assert [(r.line, r.problem) for r in records] == [(1, None), (3, None), (5, None)]


def test_last_line_without_newline_and_byte_order_mark(tmp_path: Path) -> None:
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + dump(TABLE) + b"\r\n" + dump(SHOE))
    records = read(log)
    assert [(r.line, r.problem) for r in records] == [(1, None), (2, None)]


def test_optional_fields_may_be_left_out(tmp_path: Path) -> None:
    lean = [
        {k: v for k, v in TABLE.items() if k not in ("casino", "ruleset", "new_cards")},
        {k: v for k, v in LIMITS.items() if k != "displayed"},
        {k: v for k, v in DEALER.items() if k != "burn"},
        {k: SHOE[k] for k in ("type", "shoe", "at", "reason", "decks")},
        {**{k: v for k, v in ROUND.items() if k != "dealer"}, "bets": [], "actions": []},
    ]
    assert problems(read(write_log(tmp_path / "lean.jsonl", lean))) == []


# --- broken lines --------------------------------------------------------------------------------------


def test_invalid_json(tmp_path: Path) -> None:
    log = write_log(tmp_path / "bad.jsonl", [TABLE, b'{"type": "shoe", ', SHOE])
    records = read(log)
    assert problems(records) == [(2, "hand-log/invalid-json")]
    finding = records[1].problem
    assert finding == Finding(
        kind="format",
        rule="hand-log/invalid-json",
        ref="hand-log/1 (docs/hand-log.md)",
        severity="error",
        file=str(log),
        line=2,
        round=None,
        stake=None,
        message=finding.message,
        expected=None,
        actual=None,
    )
    assert "not valid JSON" in finding.message
    assert records[1].data is None
    assert records[2].data == SHOE


@pytest.mark.parametrize(
    ("line", "kind"), [(b"[1, 2]", "a list"), (b'"round"', "a string"), (b"12", "a number")]
)
def test_json_that_is_not_an_object(tmp_path: Path, line: bytes, kind: str) -> None:
    finding = only_problem(read(write_log(tmp_path / "a.jsonl", [TABLE, line])))
    assert (finding.line, finding.rule) == (2, "hand-log/invalid-json")
    assert finding.message == f"a record must be a JSON object {{...}}, not {kind}"


def test_unknown_record_type(tmp_path: Path) -> None:
    log = write_log(tmp_path / "a.jsonl", [TABLE, {"type": "tabel", "round": "r9"}, {"type": 5}])
    records = read(log)
    assert problems(records) == [(2, "hand-log/unknown-type"), (3, "hand-log/unknown-type")]
    first = records[1].problem
    assert first is not None
    assert first.message.startswith("unknown record type 'tabel'")
    assert first.round == "r9"


def test_missing_type(tmp_path: Path) -> None:
    finding = only_problem(read(write_log(tmp_path / "a.jsonl", [{"at": "x"}])))
    assert (finding.line, finding.rule, finding.message) == (
        1,
        "hand-log/schema",
        "record: missing field 'type'",
    )


def test_missing_required_field(tmp_path: Path) -> None:
    broken = {k: v for k, v in ROUND.items() if k != "shoe"}
    finding = only_problem(read(write_log(tmp_path / "a.jsonl", [TABLE, SHOE, broken])))
    assert (finding.line, finding.rule) == (3, "hand-log/schema")
    assert finding.message == "round record: missing field 'shoe'"
    assert finding.round == "BJ-03/2025-03-14/1/17"


def test_unknown_action_verb(tmp_path: Path) -> None:
    actions = [["deal", "1", "9H"], ["deal", "D", "6C"], ["deal", "1", "TD"], ["hitt", "1", "5S"]]
    finding = only_problem(
        read(write_log(tmp_path / "a.jsonl", [TABLE, SHOE, {**ROUND, "actions": actions}]))
    )
    assert (finding.line, finding.rule) == (3, "hand-log/schema")
    assert finding.message == "round record: actions[3]: 'hitt' is not a known action"


def test_bad_card_in_an_action_and_in_a_burn(tmp_path: Path) -> None:
    bad_round = {**ROUND, "actions": [["deal", "1", "9H"], ["deal", "1", "1X"]]}
    bad_shoe = {**SHOE, "burn": ["9H", "1X"]}
    records = read(write_log(tmp_path / "a.jsonl", [TABLE, bad_shoe, bad_round]))
    assert problems(records) == [(2, "hand-log/schema"), (3, "hand-log/schema")]
    assert records[1].problem is not None and records[2].problem is not None
    assert records[1].problem.message.startswith("shoe record: burn[1]: '1X' is not a card")
    assert records[2].problem.message.startswith("round record: actions[1][2]: '1X' is not a card")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"actions": [["deal", "1"]]},
            'round record: actions[0]: expected ["deal", hand or "D", card], got ["deal","1"]',
        ),
        (
            {"actions": [["lose", "1", 5, 5]]},
            'round record: actions[0]: expected ["lose", stake] or ["lose", stake, amount], '
            'got ["lose","1",5,5]',
        ),
        ({"actions": [[]]}, 'round record: actions[0]: expected an action such as ["stand", "1"], got []'),
        (
            {"actions": ["stand 1"]},
            'round record: actions[0]: expected an action such as ["stand", "1"], got \'stand 1\'',
        ),
        ({"actions": [["stand", "8"]]}, "round record: actions[0][1]: '8' is not a hand"),
        ({"actions": [["deal", "X", "2H"]]}, "round record: actions[0][1]: 'X' is not a hand"),
        ({"actions": [["pay", "1", -5]]}, "round record: actions[0][2]: -5 is not an amount"),
        ({"actions": [["pay", "1", "7,50"]]}, "round record: actions[0][2]: '7,50' is not an amount"),
        ({"actions": [["pay", "1:Foo", 5]]}, "round record: actions[0][1]: '1:Foo' is not a stake"),
        # hand-log/1.2 insures a split hand ("1/2"): a box 8 is neither a box nor a hand.
        ({"actions": [["insurance", "8", 5]]}, "round record: actions[0][1]: '8' is not a hand"),
        ({"actions": [["cut_card", "dealer"]]}, "round record: actions[0][1]: 'dealer' is not a box"),
        ({"actions": [["burn", "AS\n"]]}, "round record: actions[0][1]: 'AS\\n' is not a card"),
        ({"bets": [{"stake": "1"}]}, "round record: bets[0]: missing field 'amount'"),
        ({"bets": [{"stake": "1", "amount": True}]}, "round record: bets[0].amount: true is not an amount"),
        ({"bets": {"stake": "1"}}, 'round record: bets: expected a list, got an object {"stake":"1"}'),
        ({"at": "2025-03-14 21:05:09"}, "round record: at: '2025-03-14 21:05:09' is not a time"),
        ({"at": "2025-03-14T21:05:09"}, "round record: at: '2025-03-14T21:05:09' is not a time"),
        (
            {"at": "2025-02-30T21:05:09+01:00"},
            "round record: at: '2025-02-30T21:05:09+01:00' is not a valid date",
        ),
        ({"round": ""}, "round record: round: '' is not an identifier"),
    ],
)
def test_schema_messages_name_the_field_and_the_fault(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    finding = only_problem(read(write_log(tmp_path / "a.jsonl", [{**ROUND, **change}])))
    assert (finding.line, finding.rule) == (1, "hand-log/schema")
    assert finding.message.startswith(message), finding.message


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            {**TABLE, "format": "hand-log/2"},
            "table record: format: 'hand-log/2' is not one of 'hand-log/1', 'hand-log/1.1'",
        ),
        ({**TABLE, "game": "poker"}, "table record: game: 'poker' is not one of 'blackjack', 'bataille'"),
        ({**TABLE, "seats": 0}, "table record: seats: 0 is less than 1"),
        ({**TABLE, "seats": 100}, "table record: seats: 100 is more than 99"),
        ({**TABLE, "seats": "7"}, "table record: seats: expected a whole number, got a string '7'"),
        ({**SHOE, "reason": "tired"}, "shoe record: reason: 'tired' is not one of 'open', 'cut_card',"),
        ({**SHOE, "cut_by": "9"}, 'shoe record: cut_by: \'9\' is not a box ("1" to "7") or "dealer"'),
        ({**SHOE, "backs": [6, 0]}, "shoe record: backs[1]: 0 is less than 1"),
        ({**DEALER, "burn": "5S"}, "dealer record: burn: '5S' is not a list of cards"),
        ({**JACKPOT, "main": "15 230"}, "jackpot record: main: '15 230' is not an amount"),
        (
            {**LIMITS, "displayed": "yes"},
            "limits record: displayed: expected true or false, got a string 'yes'",
        ),
    ],
)
def test_schema_messages_for_other_records(tmp_path: Path, record: dict[str, Any], message: str) -> None:
    finding = only_problem(read(write_log(tmp_path / "a.jsonl", [record])))
    assert (finding.line, finding.rule) == (1, "hand-log/schema")
    assert finding.message.startswith(message), finding.message


def test_the_first_fault_in_the_line_is_reported(tmp_path: Path) -> None:
    broken = {**ROUND, "actions": [["stand", "1"], [], ["hitt", "1"], ["lose", "1", 1, 2]]}
    assert only_problem(read(write_log(tmp_path / "a.jsonl", [broken]))).message.startswith(
        "round record: actions[1]: expected an action"
    )
    no_shoe = {k: v for k, v in broken.items() if k != "shoe"}
    assert only_problem(read(write_log(tmp_path / "b.jsonl", [no_shoe]))).message == (
        "round record: missing field 'shoe'"
    )


def nested_line(record: dict[str, Any], field: str, opening: bytes, inside: bytes, closing: bytes) -> bytes:
    """`record` as one line with `field` replaced by `opening inside closing` written out (orjson cannot
    write values over 255 levels deep, json over Python's recursion limit)."""
    return dump({**record, field: "NESTED"}).replace(b'"NESTED"', opening + inside + closing)


def test_a_value_nested_1000_deep_is_a_schema_finding_and_reading_goes_on(tmp_path: Path) -> None:
    # Valid JSON well under MAX_LINE; jsonschema recursed once per level: RecursionError.
    deep_bets = nested_line(ROUND, "bets", b"[" * 1000, b"", b"]" * 1000)
    deep_actions = nested_line(ROUND, "actions", b"[" + b'{"a": ' * 900, b"1", b"}" * 900 + b"]")
    records = read(write_log(tmp_path / "a.jsonl", [TABLE, SHOE, deep_bets, deep_actions, ROUND]))
    assert problems(records) == [(3, "hand-log/schema"), (4, "hand-log/schema")]
    assert records[2].problem is not None and records[3].problem is not None
    assert records[2].problem.message == "round record: bets: nested too deeply (over 32 levels)"
    assert records[3].problem.message == "round record: actions: nested too deeply (over 32 levels)"
    # Still a round (with its id): the replay counts it as a round read that could not be replayed.
    assert records[2].data is not None and records[2].data["type"] == "round"
    assert records[2].problem.round == ROUND["round"]
    assert records[4].data == ROUND and records[4].problem is None


def test_nesting_limit_is_exact() -> None:
    def bets(levels: int) -> list[Any]:
        value: Any = 1
        for _ in range(levels):
            value = [value]
        return value

    at_limit = check_record({**ROUND, "bets": bets(reader.MAX_DEPTH)}, "f", 1)
    assert at_limit is not None and at_limit.message.startswith("round record: bets[0]: [[[[")
    assert "is not a bet" in at_limit.message
    over = check_record({**ROUND, "bets": bets(reader.MAX_DEPTH + 1)}, "f", 1)
    assert over is not None and over.message == "round record: bets: nested too deeply (over 32 levels)"


@pytest.mark.parametrize(
    "line",
    [
        # An object 900 deep made a 6 KB message; one 300 deep defeated orjson's 255 levels in `_show`.
        nested_line(ROUND, "actions", b"[" + b'{"a": ' * 900, b"1", b"}" * 900 + b"]"),
        nested_line(ROUND, "bets", b"[" * 300, b"1", b"]" * 300),
        nested_line(ROUND, "type", b"[" * 300, b"1", b"]" * 300),
        nested_line({"round": "r"}, "type", b'{"a": ' * 300, b"1", b"}" * 300),
        # Within the limit, but each level has a long key.
        nested_line(
            ROUND, "actions", b"[" + b'{"' + b"k" * 500 + b'": ' * 1, b"[" * 30 + b"1" + b"]" * 30, b"}]"
        ),
        nested_line(ROUND, "round", b'{"' + b"k" * 5000 + b'": ', b"1", b"}"),
    ],
)
def test_schema_messages_stay_short_whatever_the_value(tmp_path: Path, line: bytes) -> None:
    finding = only_problem(read(write_log(tmp_path / "a.jsonl", [line])))
    assert finding.rule in ("hand-log/schema", "hand-log/unknown-type")
    assert len(finding.message) <= 200, finding.message


def test_check_accounts_for_a_round_nested_too_deeply(tmp_path: Path) -> None:
    from conftest import run_cli

    later = {**ROUND, "round": "BJ-03/2025-03-14/1/19", "at": "2025-03-14T21:09:09+01:00"}
    deep = nested_line({**ROUND, "round": "BJ-03/2025-03-14/1/18"}, "bets", b"[" * 1000, b"", b"]" * 1000)
    log = write_log(tmp_path / "a.jsonl", [TABLE, SHOE, ROUND, deep, later])
    for jobs in ("1", "2"):
        result = run_cli("check", str(log), "--format", "json", "--jobs", jobs)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
        document = orjson.loads(result.stdout)
        assert [(f["line"], f["rule"], f["round"], f["message"]) for f in document["findings"]] == [
            (
                4,
                "hand-log/schema",
                "BJ-03/2025-03-14/1/18",
                "round record: bets: nested too deeply (over 32 levels)",
            )
        ]
        rounds = document["summary"]["rounds"]
        assert (rounds["read"], rounds["unreadable"]) == (3, 1)


def test_bad_utf8(tmp_path: Path) -> None:
    latin1 = '{"type": "dealer", "at": "2025-03-14T22:00:00+01:00", "dealer": "Hélène"}'.encode("latin-1")
    records = read(write_log(tmp_path / "a.jsonl", [TABLE, latin1, DEALER]))
    assert problems(records) == [(2, "hand-log/invalid-utf8")]
    finding = records[1].problem
    assert finding is not None
    assert finding.message.startswith("the line is not valid UTF-8: byte 0xe9")
    assert records[2].data == DEALER


def test_ten_megabyte_line_is_skipped_and_the_next_line_read(tmp_path: Path) -> None:
    huge = b'{"type": "dealer", "note": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    log = write_log(tmp_path / "big.jsonl", [TABLE, huge, DEALER])
    del huge
    tracemalloc.start()
    try:
        records = read(log)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert problems(records) == [(2, "hand-log/line-too-long")]
    assert records[2].line == 3 and records[2].data == DEALER
    assert records[1].problem is not None
    assert f"{10 * 1024 * 1024 + 30:,} bytes" in records[1].problem.message
    # The line is never held whole: about one MiB of buffer, not ten.
    assert peak < 4 * 1024 * 1024, peak


def test_line_length_limit_is_exact(tmp_path: Path) -> None:
    record = dump(DEALER)
    at_limit = record + b" " * (MAX_LINE - len(record))
    over = at_limit + b" "
    last_over = over  # the file's last line, without a newline
    log = tmp_path / "edge.jsonl"
    log.write_bytes(at_limit + b"\n" + over + b"\n" + dump(SHOE) + b"\n" + last_over)
    assert problems(read(log)) == [(2, "hand-log/line-too-long"), (4, "hand-log/line-too-long")]


# --- gzip, stdin, folders -------------------------------------------------------------------------------


def test_valid_gzip_file(tmp_path: Path) -> None:
    log = write_log(tmp_path / "ok.jsonl.gz", VALID_RECORDS, zipped=True)
    records = read(log)
    assert [r.data for r in records] == VALID_RECORDS
    assert records[-1].line == len(VALID_RECORDS)


def test_gzip_recognised_by_its_magic_bytes(tmp_path: Path) -> None:
    log = write_log(tmp_path / "misnamed.jsonl", [TABLE, SHOE], zipped=True)
    assert [r.data for r in read(log)] == [TABLE, SHOE]


def test_truncated_gzip_missing_its_trailer(tmp_path: Path) -> None:
    log = write_log(tmp_path / "cut.jsonl.gz", [TABLE, SHOE, ROUND], zipped=True)
    log.write_bytes(log.read_bytes()[:-8])  # the CRC and size at the end
    records = read(log)
    assert [r.line for r in records if r.data is not None] == [1, 2, 3]
    assert problems(records) == [(4, "hand-log/truncated")]
    assert records[-1].problem is not None
    assert "ends early or is corrupt after line 3" in records[-1].problem.message


def test_a_gz_name_on_a_file_that_is_not_gzip(tmp_path: Path) -> None:
    log = tmp_path / "plain.jsonl.gz"
    log.write_bytes(b"hi\n")
    records = read(log)
    assert problems(records) == [(1, "hand-log/truncated")]
    assert records[0].problem is not None
    assert records[0].problem.message == (
        "the file cannot be read from its first line (Not a gzipped file (b'hi')); nothing in it was checked"
    )


def test_truncated_gzip_cut_in_the_middle(tmp_path: Path) -> None:
    rounds = [{**ROUND, "round": f"r{i}"} for i in range(3000)]
    log = write_log(tmp_path / "cut.jsonl.gz", rounds, zipped=True)
    data = log.read_bytes()
    log.write_bytes(data[: len(data) // 2])
    records = read(log)
    good = [r for r in records if r.data is not None]
    assert 0 < len(good) < len(rounds)
    assert [r.line for r in good] == list(range(1, len(good) + 1))
    assert records[-1].problem is not None
    assert (records[-1].line, records[-1].problem.rule) == (len(good) + 1, "hand-log/truncated")
    assert len(records) == len(good) + 1


def test_corrupt_gzip(tmp_path: Path) -> None:
    log = write_log(tmp_path / "bad.jsonl.gz", [TABLE, SHOE, ROUND], zipped=True)
    data = bytearray(log.read_bytes())
    for i in range(20, len(data) - 8):
        data[i] ^= 0x55
    log.write_bytes(bytes(data))
    records = read(log)
    assert records[-1].problem is not None and records[-1].problem.rule == "hand-log/truncated"


def test_damaged_gzip_gives_every_line_before_the_damage(tmp_path: Path) -> None:
    """Three records, then a flush to a byte boundary, then a block of type 3, which RFC 1951 (3.2.3)
    reserves as an error: zlib decodes the three lines before it detects the damage. gzip.GzipFile gave
    zlib the whole file in one call, and the error dropped what it had decoded: 0 lines read, "cannot be
    read from its first line" (the long fuzzing run's damaged streams, issue 42). Now lines 1-3 are read
    and the `hand-log/truncated` finding stands at line 4, after line 3."""
    packer = zlib.compressobj(wbits=31)
    head = packer.compress(b"".join(dump(r) + b"\n" for r in (TABLE, SHOE, ROUND)))
    head += packer.flush(zlib.Z_FULL_FLUSH)  # the next block starts on a byte of its own
    tail = packer.compress(dump(ROUND) + b"\n") + packer.flush()
    log = tmp_path / "flipped.jsonl.gz"
    log.write_bytes(head + bytes([tail[0] | 0b111]) + tail[1:])  # BFINAL 1, BTYPE 11
    records = read(log)
    assert [r.data for r in records[:3]] == [TABLE, SHOE, ROUND]
    assert problems(records) == [(4, "hand-log/truncated")]
    assert records[3].problem is not None
    assert records[3].problem.message == (
        "the file ends early or is corrupt after line 3 (Error -3 while decompressing data: invalid block "
        "type); the rest of the file cannot be read"
    )


def test_a_gzip_cut_short_gives_what_zlib_holds_decoded(tmp_path: Path) -> None:
    """The fuzzing run's case (119 bytes): a table record cut inside its casino's name, then 12,642 lines
    of `{`, the stream ending without its last block and trailer. zlib, asked for at most a buffer's
    worth at a time, had read every compressed byte with 791 decoded bytes still to give; the reader
    said the file ended there and lost 396 lines (12,248 rounds read, not 12,644). Every line zlib
    decodes is now read, then `hand-log/truncated` after the last whole line, as zlib decoding the
    bytes one at a time counts them (tests/fuzz/oracle.py)."""
    log = tmp_path / "cut.jsonl.gz"
    log.write_bytes(
        bytes.fromhex(
            "1f8b0800000000000003edca3b0ec2300044c19e5358ae8980960e388921e6238518811b94cb83c331184db37ada29d6"
            "f723c76d88351d871c97219ecbf39e6a4bd734f6dd502eab4debbfc337ef77dd7a2ea7f4ba8da5a5c3bc429fc3b40000"
            "0000000000000000000000000000000000000000000000"
        )
    )
    decoded = zlib.decompressobj(31).decompress(log.read_bytes())
    assert decoded.count(b"\n") == 12643 and decoded.endswith(b"\n")
    records = read(log)
    assert problems(records)[-1] == (12644, "hand-log/truncated")


def test_gzip_members_one_after_another_with_zero_padding(tmp_path: Path) -> None:
    """`cat a.gz b.gz` is one gzip file (RFC 1952, 2.2), and zero bytes after a member are skipped, as
    gzip.GzipFile reads them; a trailer whose CRC does not match is said in GzipFile's words."""
    log = tmp_path / "two.jsonl.gz"
    first, second = gzip.compress(dump(TABLE) + b"\n"), gzip.compress(dump(SHOE) + b"\n")
    log.write_bytes(first + b"\0" * 5 + second + b"\0")
    assert [r.data for r in read(log)] == [TABLE, SHOE]
    log.write_bytes(first[:-8] + bytes([first[-8] ^ 1]) + first[-7:])
    records = read(log)
    assert problems(records) == [(2, "hand-log/truncated")]
    assert records[1].problem is not None and "(CRC check failed)" in records[1].problem.message


def test_gz_name_on_a_plain_file(tmp_path: Path) -> None:
    log = write_log(tmp_path / "plain.jsonl.gz", [TABLE])
    assert problems(read(log)) == [(1, "hand-log/truncated")]


@pytest.mark.parametrize("zipped", [False, True])
def test_stdin(monkeypatch: pytest.MonkeyPatch, zipped: bool) -> None:
    data = dump(TABLE) + b"\n" + b"{oops\n" + dump(SHOE) + b"\n"
    stdin = io.TextIOWrapper(io.BytesIO(gzip.compress(data) if zipped else data))
    monkeypatch.setattr(sys, "stdin", stdin)
    records = list(read_records("-"))
    assert [r.file for r in records] == ["<stdin>"] * 3
    assert problems(records) == [(2, "hand-log/invalid-json")]
    assert records[2].data == SHOE


def test_folder_expansion(tmp_path: Path) -> None:
    write_log(tmp_path / "logs" / "b.jsonl", [TABLE])
    write_log(tmp_path / "logs" / "2025" / "03" / "a.jsonl.gz", [TABLE], zipped=True)
    write_log(tmp_path / "logs" / "2025" / "z.jsonl", [TABLE])
    write_log(tmp_path / "logs" / "a.jsonl", [TABLE])
    (tmp_path / "logs" / "notes.txt").write_text("not a log")
    (tmp_path / "logs" / "old.jsonl.bak").write_text("not a log")
    single = write_log(tmp_path / "single.log", [TABLE])
    folder = str(tmp_path / "logs")
    paths = iter_log_paths([folder, str(single), "-", f"{folder}/a.jsonl"])
    assert paths == [
        f"{folder}/2025/03/a.jsonl.gz",
        f"{folder}/2025/z.jsonl",
        f"{folder}/a.jsonl",
        f"{folder}/b.jsonl",
        str(single),
        "-",
    ]
    assert all(problems(read(p)) == [] for p in paths if p != "-")


def test_missing_file_and_empty_folder(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.jsonl")
    with pytest.raises(ValidatorError, match=r"nope\.jsonl: no such file or directory$"):
        iter_log_paths([missing])
    with pytest.raises(ValidatorError, match="no such file or directory"):
        read(missing)
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "readme.txt").write_text("")
    with pytest.raises(
        ValidatorError, match=r"empty: no hand-log file \(\*\.jsonl or \*\.jsonl\.gz\) in this folder"
    ):
        iter_log_paths([str(tmp_path / "empty")])


# --- the fast path agrees with jsonschema ----------------------------------------------------------------

ODD_VALUES: list[Any] = [None, True, False, 0, -1, 7.0, 1.5, [], {}, ["deal"]]
ODD_VALUES += ["", "x", "AS\n", "10H", "D", "1/2", "٢"]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found += _paths(sub, (*prefix, index))
    return found


def _mutations(record: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for path in _paths(record):
        for odd in ODD_VALUES:
            changed = copy.deepcopy(record)
            node = changed
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = odd
            out.append(changed)
        removed = copy.deepcopy(record)
        node = removed
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
        out.append(removed)
    return out


def test_fast_check_agrees_with_jsonschema() -> None:
    small_round = {**ROUND, "actions": ROUND["actions"][:6] + ROUND["actions"][-3:]}
    cases = 0
    for record in [TABLE, LIMITS, DEALER, SHOE, JACKPOT, small_round, ROUND_ALL_VERBS]:
        record_type = record["type"]
        for mutated in _mutations(record):
            if mutated.get("type") != record_type:
                continue
            fast = reader._fast_checks()[record_type](mutated)
            slow = reader._VALIDATORS[record_type].is_valid(mutated)
            assert fast == slow, mutated
            cases += 1
    assert cases > 2000


def test_fast_check_cache_never_lends_a_verdict_to_another_action() -> None:
    """Actions found valid are remembered; a lookalike must still be walked: `true` equals 1 to
    Python, and a string holding the NUL the cache joins with could spell two strings."""
    check = SchemaCompiler(reader._DEFS, reader.compile_pattern).checks(["round"])["round"]

    def round_with(*actions: list[Any]) -> dict[str, Any]:
        return {**ROUND, "actions": list(actions)}

    assert check(round_with(["stand", "3"], ["pay", "3", 10]))
    assert check(round_with(["stand", "3"], ["pay", "3", 10]))  # from the cache
    assert not check(round_with(["stand\x003"]))
    assert not check(round_with(["pay", "3", True]))
    assert not reader._VALIDATORS["round"].is_valid(round_with(["pay", "3", True]))


def test_fast_check_refuses_keywords_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="additionalProperties"):
        SchemaCompiler({}, reader.compile_pattern).schema({"type": "object", "additionalProperties": False})


def test_check_record_directly() -> None:
    assert check_record(ROUND, "f.jsonl", 7) is None
    finding = check_record({**ROUND, "bets": [{"stake": "1"}]}, "f.jsonl", 7)
    assert finding is not None
    assert (finding.file, finding.line, finding.round) == ("f.jsonl", 7, ROUND["round"])


# --- values ------------------------------------------------------------------------------------------


def test_parse_time() -> None:
    moment = parse_time("2025-03-14T21:05:09+01:00")
    assert moment.utcoffset() == timedelta(hours=1)
    assert parse_time("2025-03-14T20:05Z") == parse_time("2025-03-14T21:05:00+01:00")
    assert parse_time("2025-03-14T21:05:09.1234567+01:00").microsecond == 123456
    for bad in ("2025-03-14T21:05:09", "2025-02-30T21:05:09+01:00", "yesterday"):
        with pytest.raises(ValueError):
            parse_time(bad)
