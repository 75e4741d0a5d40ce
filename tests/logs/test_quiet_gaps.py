"""What a log can hold that a run once passed over in silence (issue 38, 6): a log with nothing in it, a
round id given twice, a log saved as UTF-16 or with a UTF-8 byte order mark. Each is said, and decided
by the policy as any finding is (--ignore, --fail-level: docs/findings.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES, run_cli

CLEAN_BA = SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
DISPUTES_BJ = SAMPLES / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"


def _findings(done) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines()]


# ---------------------------------------------------------------- an empty log


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"\xef\xbb\xbf"])
def test_an_empty_log_is_a_finding_that_fails_the_run(tmp_path: Path, content: bytes) -> None:
    log = tmp_path / "empty.jsonl"
    log.write_bytes(content)
    done = run_cli("check", str(log), "-q", "-f", "jsonl", "--no-config")
    assert done.returncode == 1, done.stderr
    (finding,) = _findings(done)
    assert finding["rule"] == "hand-log/empty" and finding["severity"] == "error"
    assert finding["line"] is None  # the whole file
    assert "nothing in it was checked" in finding["message"]


def test_empty_standard_input_is_said_too() -> None:
    done = run_cli("check", "-", "-q", "-f", "jsonl", "--no-config", stdin="")
    assert done.returncode == 1
    assert [(f["rule"], f["file"]) for f in _findings(done)] == [("hand-log/empty", "<stdin>")]


def test_the_policy_decides_an_empty_log(tmp_path: Path) -> None:
    """--ignore leaves it out (exit 0, and the summary counts it as left out); the configuration's
    `ignore` does the same for a CI job where empty logs are expected."""
    log = tmp_path / "empty.jsonl"
    log.write_bytes(b"")
    ignored = run_cli("check", str(log), "-q", "--no-config", "--ignore", "hand-log/empty")
    assert ignored.returncode == 0
    assert "1 findings left out by --select/--ignore" in ignored.stdout
    (tmp_path / "casino-validator.toml").write_text('ignore = ["hand-log/empty"]\n', encoding="utf-8")
    assert run_cli("check", str(log), "-q", cwd=tmp_path).returncode == 0


def test_a_log_with_only_its_table_record_is_not_empty(tmp_path: Path) -> None:
    log = tmp_path / "table-only.jsonl"
    log.write_bytes(CLEAN_BA.read_bytes().splitlines(keepends=True)[0])
    done = run_cli("check", str(log), "-q", "-f", "jsonl", "--no-config")
    assert done.returncode == 0, done.stdout
    assert done.stdout == ""


# ---------------------------------------------------------------- a round id given twice


def test_a_repeated_round_id_is_a_finding_and_every_fingerprint_stays_distinct(tmp_path: Path) -> None:
    """The disputes log's seven findings (one round each) with round BJ-03/2016-06-11/1/2 (line 4: a
    blackjack paid 1 for 1, one `blackjack-pays-3-2` finding) written twice at the end: 7 + 1 (the
    repeat) + 1 (its blackjack, again) = 9 GitLab issues, 9 fingerprints; the first seven the same
    as in the log without the repeat, so a baseline of it still holds them."""
    lines = DISPUTES_BJ.read_bytes().splitlines(keepends=True)
    assert b'"round": "BJ-03/2016-06-11/1/2"' in lines[3]
    log = tmp_path / "séance.jsonl"  # the same file, without then with the repeat: the same path

    def issues(content: bytes) -> list[dict]:
        log.write_bytes(content)
        done = run_cli("check", str(log), "-q", "-f", "gitlab", "--no-config")
        assert done.returncode == 1, done.stderr
        return json.loads(done.stdout)

    once, twice = issues(b"".join(lines)), issues(b"".join(lines) + lines[3])
    assert len(once) == 7 and len(twice) == 9
    assert len({i["fingerprint"] for i in twice}) == 9
    assert [i["fingerprint"] for i in once] == [i["fingerprint"] for i in twice[:7]]
    repeat, again = twice[7], twice[8]
    assert repeat["check_name"] == "hand-log/repeated-round"
    assert repeat["location"]["lines"]["begin"] == len(lines) + 1
    assert "already given to the round at line 4" in repeat["description"]
    assert again["check_name"] == "fr/blackjack/blackjack-pays-3-2"
    assert again["fingerprint"] != twice[1]["fingerprint"]


def test_a_baseline_of_a_log_with_a_repeat_holds_both_records_findings(tmp_path: Path) -> None:
    lines = DISPUTES_BJ.read_bytes().splitlines(keepends=True)
    log = tmp_path / "twice.jsonl"
    log.write_bytes(b"".join(lines) + lines[3])
    baseline = tmp_path / "baseline.json"
    assert run_cli("check", str(log), "-q", "--no-config", "--write-baseline", str(baseline)).returncode == 0
    again = run_cli("check", str(log), "-q", "--no-config", "--baseline", str(baseline), "-f", "jsonl")
    assert again.returncode == 0 and again.stdout == ""


# ---------------------------------------------------------------- encodings


@pytest.mark.parametrize(
    ("codec", "named"), [("utf-16", "UTF-16LE"), ("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE")]
)
def test_a_utf16_log_is_one_finding_and_its_rounds_are_replayed(
    tmp_path: Path, codec: str, named: str
) -> None:
    """Python's `utf-16` writes a byte order mark (little-endian here); the other two write none, and
    are told from a record's `{` next to a zero byte. The 150 rounds of the clean bataille sample are
    all read, as from the UTF-8 file."""
    log = tmp_path / "u16.jsonl"
    log.write_bytes(CLEAN_BA.read_text(encoding="utf-8").encode(codec))
    done = run_cli("check", str(log), "-q", "-f", "json", "--no-config")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["summary"]["rounds"]["read"] == 150
    assert report["summary"]["rounds"]["clean"] == 150
    (finding,) = report["findings"]
    assert finding["rule"] == "hand-log/invalid-utf8" and finding["line"] == 1
    assert finding["message"] == (
        f"the file is {named}, not UTF-8 as hand-log/1 is: read as {named} and replayed; re-encode it: "
        f"iconv -f {named} -t UTF-8 {log} > {log}.utf8"
    )


def test_a_utf16_log_is_never_split_between_jobs(tmp_path: Path) -> None:
    """--jobs splits a big plain log into byte ranges, each starting at a UTF-8 line; a UTF-16 log's
    bytes have none, so it is read whole by one worker (as a gzip is), as UTF-8, however big."""
    from validator.checking.parallel import MIN_SHARE, Share, SplitFile, outline

    text = CLEAN_BA.read_text(encoding="utf-8")
    copies = 1 + (2 * MIN_SHARE) // len(text.encode("utf-8"))
    big = tmp_path / "big.jsonl"
    big.write_text(text * copies, encoding="utf-8")
    wide = tmp_path / "wide.jsonl"
    wide.write_bytes((text * copies).encode("utf-16"))
    assert isinstance(next(outline([str(big)], 4)), SplitFile)  # the plain one is split
    (share,) = outline([str(wide)], 4)
    assert isinstance(share, Share) and share.start is None  # the UTF-16 one is read whole


def test_a_utf16_log_checked_with_jobs_gives_one_encoding_finding(tmp_path: Path) -> None:
    """Three copies of the séance, saved as UTF-16: the encoding said once, and the rounds of the second
    and third copies are repeats of the first's ids (150 each)."""
    log = tmp_path / "u16.jsonl"
    log.write_bytes((CLEAN_BA.read_text(encoding="utf-8") * 3).encode("utf-16"))
    done = run_cli("check", str(log), "-q", "-f", "json", "--no-config", "--jobs", "2")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["summary"]["rounds"]["read"] == 450
    rules = [f["rule"] for f in report["findings"]]
    assert rules.count("hand-log/invalid-utf8") == 1
    assert rules.count("hand-log/repeated-round") == 300
    assert len(rules) == 301


def test_a_utf8_byte_order_mark_is_read_without_a_finding(tmp_path: Path) -> None:
    log = tmp_path / "bom.jsonl"
    log.write_bytes(b"\xef\xbb\xbf" + CLEAN_BA.read_bytes())
    done = run_cli("check", str(log), "-q", "-f", "json", "--no-config")
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["summary"]["rounds"]["clean"] == 150


def test_a_utf16_mark_before_utf8_text_is_a_damaged_utf8_log() -> None:
    """FF FE announces UTF-16LE only when a record's first character follows it in that order (`{` then a
    zero byte); before UTF-8 text (`{"`) the two bytes are damage at the head of a UTF-8 log: its first line
    is unreadable, the lines after it are read as written (the fuzz run met this log)."""
    from validator.logs.encoding import utf16

    assert utf16(b"\xff\xfe{\x00") == "UTF-16LE"
    assert utf16(b"\xfe\xff\x00{") == "UTF-16BE"
    assert utf16(b"\xff\xfe") == "UTF-16LE"  # the mark alone: an empty UTF-16 file
    assert utf16(b'\xff\xfe{"') is None
    assert utf16(b"\xfe\xff{\x00") is None  # a big-endian mark before little-endian text


def test_a_stray_zero_byte_before_utf8_text_is_a_damaged_utf8_log(tmp_path: Path) -> None:
    """`00 7B 22` (a zero byte, then `{"` of UTF-8) looked like UTF-16BE to the first character alone:
    the long fuzz run's log of 38 rounds was read as UTF-16, 2 lines of garbage (issue 42). UTF-16BE
    would have the next character's zero byte first (`00 7B 00 22`). Read as UTF-8: its first line, the
    table record, is unreadable (invalid JSON), and the 150 rounds after it are read as written, each
    unreadable for want of its table (hand-log/no-table): 151 lines read, as an independent count of the
    file's lines finds (it was 2 read as UTF-16)."""
    from validator.logs.encoding import utf16

    assert utf16(b'\x00{"t') is None and utf16(b'{\x00"t') is None
    assert utf16(b'\x00{\x00"') == "UTF-16BE" and utf16(b'{\x00"\x00') == "UTF-16LE"
    assert utf16(b"\xff\xfe{\x00\n\x00") == "UTF-16LE" and utf16(b'\xff\xfe{\x00"t') is None
    log = tmp_path / "nul.jsonl"
    log.write_bytes(b"\x00" + CLEAN_BA.read_bytes())
    done = run_cli("check", str(log), "-q", "-f", "json", "--no-config")
    rounds = json.loads(done.stdout)["summary"]["rounds"]
    assert (rounds["read"], rounds["unreadable"]) == (151, 151), rounds
    codes = {f["rule"] for f in json.loads(done.stdout)["findings"]}
    assert codes == {"hand-log/invalid-json", "hand-log/no-table"}, codes


@pytest.mark.parametrize(
    ("content", "lines"),
    [
        (b"\xff\xfe\x00", 1),  # the mark, then half a character: one broken line
        (b"\xff\xfe{\x00", 1),  # the mark, then `{`: one line, not JSON
        (b"\xff\xfe{\x00\n\x00}\x00", 2),  # two broken lines
    ],
)
def test_a_utf16_files_notice_is_not_a_line_of_it(tmp_path: Path, content: bytes, lines: int) -> None:
    """The UTF-16 notice is a finding about the file: where the file's first line is itself broken, the
    notice comes on its own, before that line's finding, and is counted as neither a record nor a round.
    The long fuzz run's 3-byte file `FF FE 00` was "2 records, rounds read: 2" (issue 42); it holds one
    line (the lone byte after the mark), so one record, one unreadable round."""
    log = tmp_path / "u16.jsonl"
    log.write_bytes(content)
    done = run_cli("check", str(log), "-q", "-f", "json", "--no-config")
    assert done.returncode == 1, done.stderr
    summary = json.loads(done.stdout)["summary"]
    rounds = summary["rounds"]
    assert (summary["records"], rounds["read"], rounds["unreadable"]) == (lines, lines, lines), summary
    rules = [f["rule"] for f in json.loads(done.stdout)["findings"]]
    assert rules == ["hand-log/invalid-utf8"] + ["hand-log/invalid-json"] * lines, rules
