"""Issue 15: bounded work for bounded input, and the accounting of records that are not rounds.

"Measured": a 1 MB gzip of newlines ran past 60 s; an 86 KB gzip of `{"type":"round"}` lines wrote
92 MB of report in 60 s; `"type": null` with no round id was counted as an unreadable round."""

from __future__ import annotations

import gzip
import json
import time

import orjson
import pytest
from inprocess import invoke
from logbuilders import shoe_record, table_record


def _summary(ran) -> dict:
    return json.loads(ran.stdout)["summary"]


def _rounds(ran) -> dict:
    return _summary(ran)["rounds"]


def test_a_1mb_gzip_of_newlines_is_read_in_seconds(tmp_path):
    # 1,000 gzip members of 1 MiB of newlines each: 1.05 MB on disk, 1 GiB of blank lines.
    log = tmp_path / "newlines.jsonl.gz"
    log.write_bytes(gzip.compress(b"\n" * (1 << 20), compresslevel=9, mtime=0) * 1000)
    assert log.stat().st_size < 1_100_000
    started = time.process_time()
    ran = invoke("check", str(log), "-f", "json", "-q")
    # Blank lines only: no record, so the one finding is that the log is empty (hand-log/empty).
    assert ran.code == 1
    assert [f["rule"] for f in json.loads(ran.stdout)["findings"]] == ["hand-log/empty"]
    assert _rounds(ran)["read"] == 0 and _summary(ran)["files"] == 1
    # Decompressing a gibibyte is most of it (about 1.5 s of CPU on this machine when idle).
    assert time.process_time() - started < 20


def test_an_86kb_gzip_of_broken_rounds_gives_a_short_report_and_every_round_counted(tmp_path):
    lines = 2_000_000
    log = tmp_path / "rounds.jsonl.gz"
    log.write_bytes(gzip.compress(b'{"type":"round"}\n' * lines, compresslevel=9, mtime=0))
    assert log.stat().st_size < 90_000
    ran = invoke("check", str(log), "-f", "jsonl", "-q")
    assert ran.code == 1
    findings = [json.loads(line) for line in ran.stdout.splitlines()]
    assert len(findings) == 101  # 100 one by one, then one saying how many more and why
    assert {f["rule"] for f in findings[:100]} == {"hand-log/schema"}
    last = findings[-1]
    assert last["rule"] == "hand-log/broken-records-skipped" and last["line"] == 101
    assert last["message"].startswith(
        f"{lines - 100:,} more records that cannot be read (lines 101 to {lines})"
    )
    assert "over 100 in a row (--max-broken-records)" in last["message"]
    ran = invoke("check", str(log), "-f", "json", "-q")
    assert _rounds(ran) == {"read": lines, "checked": 0, "clean": 0, "with_findings": 0, "unreadable": lines}
    assert _summary(ran)["files"] == 1


def _log(tmp_path, records: list, name: str = "log.jsonl"):
    path = tmp_path / name
    path.write_bytes(b"".join((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n" for r in records))
    return path


AT = "2025-03-14T21:00:00+01:00"


@pytest.mark.parametrize(
    ("record", "is_round"),
    [
        ({"type": None, "at": AT}, False),  # issue 15: no type, no round id: not a round
        ({"type": None, "at": AT, "round": "R-1"}, True),  # a round id: a round whose type is damaged
        ({"type": 7, "at": AT}, False),
        ({"at": AT, "round": "R-1"}, True),  # type missing: a round
        ({"at": AT}, True),
        ({"type": "rnd", "round": "R-1"}, True),  # a misspelt round
        ({"type": "rnd", "round": 12}, False),  # a round id is text
        ({"type": "shoe", "round": "R-1"}, False),  # a known type that is not a round
        (b"not json", True),
    ],
)
def test_which_broken_records_count_as_rounds(tmp_path, record, is_round):
    ran = invoke("check", str(_log(tmp_path, [table_record(), record])), "-f", "json", "-q")
    assert ran.code == 1
    assert _rounds(ran)["unreadable"] == int(is_round)
    assert _summary(ran)["findings"]["total"] == 1


def test_broken_records_past_the_limit_are_counted_and_summed_up_and_the_count_restarts(tmp_path):
    broken = [{"type": "round", "at": AT, "round": f"R-{n}"} for n in range(7)]
    records = [table_record(), *broken, shoe_record(), *broken[:4], b"{"]
    ran = invoke("check", str(_log(tmp_path, records)), "--max-broken-records", "3", "-f", "jsonl", "-q")
    rules = [(f["line"], f["rule"]) for f in map(json.loads, ran.stdout.splitlines())]
    skipped = "hand-log/broken-records-skipped"
    assert rules == [
        *[(n, "hand-log/schema") for n in (2, 3, 4)],
        (5, skipped),  # lines 5 to 8
        *[(n, "hand-log/schema") for n in (10, 11, 12)],
        (13, skipped),  # line 13 and the broken last line 14
    ]
    ran = invoke("check", str(_log(tmp_path, records)), "--max-broken-records", "3", "-f", "json", "-q")
    assert _rounds(ran)["unreadable"] == 12  # 7 + 4 rounds and the line that is not JSON
    assert _summary(ran)["records"] == len(records)


def test_blank_lines_keep_the_line_numbers(tmp_path):
    path = tmp_path / "blank.jsonl"
    path.write_bytes(orjson.dumps(table_record()) + b"\n" * 100_000 + b'{"type": "round"}\n\n\n')
    ran = invoke("check", str(path), "-f", "jsonl", "-q")
    assert [json.loads(line)["line"] for line in ran.stdout.splitlines()] == [100_001]


def test_a_log_over_the_byte_limit_stops_with_a_finding_that_is_not_a_round(tmp_path):
    records = [table_record(), *[{"type": "round", "at": AT} for _ in range(50)]]
    ran = invoke("check", str(_log(tmp_path, records)), "--max-log-bytes", "1K", "-f", "jsonl", "-q")
    found = [json.loads(line) for line in ran.stdout.splitlines()]
    assert found[-1]["rule"] == "hand-log/too-large"
    assert "more than 1,024 bytes (uncompressed), the limit of --max-log-bytes" in found[-1]["message"]
    ran = invoke("check", str(_log(tmp_path, records)), "--max-log-bytes", "1K", "-f", "json", "-q")
    assert _rounds(ran)["unreadable"] == len(found) - 1


def test_the_line_limit_is_an_option(tmp_path):
    path = _log(tmp_path, [table_record(), {"type": "round", "at": AT, "x": "y" * 1000}])
    ran = invoke("check", str(path), "--max-line-bytes", "1000", "-f", "jsonl", "-q")
    (finding,) = [json.loads(line) for line in ran.stdout.splitlines()]
    assert finding["rule"] == "hand-log/line-too-long" and "over the 1,000-byte limit" in finding["message"]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--max-log-bytes", "0", "--max-log-bytes '0': give a number of bytes above 0"),
        ("--max-log-bytes", "lots", "--max-log-bytes 'lots': give a number of bytes above 0"),
        ("--max-line-bytes", "-5", "--max-line-bytes '-5': give a number of bytes above 0"),
        ("--max-broken-records", "0", "--max-broken-records 0: give a number of records above 0"),
    ],
)
def test_a_limit_that_makes_no_sense_is_exit_2(tmp_path, option, value, message):
    ran = invoke("check", str(_log(tmp_path, [table_record()])), option, value)
    assert ran.code == 2
    assert message in ran.stderr


def test_a_run_of_identical_lines_read_in_bulk_stops_at_the_end_of_a_range(tmp_path):
    # --jobs reads a file in byte ranges that end where a share ends; identical lines read in bulk must
    # not cross into the next share (a duplicated table record was counted by two shares).
    from validator.logs.reader import read_record_range

    line = b'{"type": "shoe", "shoe": "S1"}\n'
    log = tmp_path / "two.jsonl"
    log.write_bytes(line * 5)
    first = list(read_record_range(str(log), 0, len(line), 1))
    rest = list(read_record_range(str(log), len(line), 5 * len(line), 2))
    assert [r.line for r in first] == [1]
    assert [r.line for r in rest] == [2, 3, 4, 5]
    assert [r.line for r in read_record_range(str(log), 2 * len(line), 3 * len(line), 3)] == [3]
