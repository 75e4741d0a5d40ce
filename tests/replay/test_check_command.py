"""`casino-validator check` driven as a user runs it: exit codes, broken input, accounting of rounds."""

from __future__ import annotations

import gzip
import json

from conftest import run_cli
from logbuilders import shoe_record, table_record

TABLE = table_record()
SHOE = shoe_record(cut_by="4")


def round_(n: int, actions: list, bets: list | None = None) -> dict:
    return {
        "type": "round",
        "round": f"R{n}",
        "shoe": "S1",
        "at": "2025-03-14T21:05:09+01:00",
        "bets": bets or [{"stake": "1", "amount": 20, "player": "P1", "seated": True}],
        "actions": actions,
    }


# Box 1 stands on 19 against the dealer's 17: paid even money.
CLEAN = [
    ["deal", "1", "9H"],
    ["deal", "D", "6C"],
    ["deal", "1", "TD"],
    ["stand", "1"],
    ["deal", "D", "TC"],
    ["deal", "D", "AS"],
    ["pay", "1", 20],
]


def lines(*records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def write(tmp_path, name: str, text: str | bytes):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def summary_of(result) -> dict:
    return json.loads(result.stdout)["summary"]


def test_a_clean_log_exits_0(tmp_path):
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN)))
    result = run_cli("check", str(log))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "rounds clean:         1" in result.stdout


def test_findings_exit_1_with_the_fields_of_findings_md(tmp_path):
    underpaid = [*CLEAN[:-1], ["pay", "1", 10]]
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, underpaid)))
    result = run_cli("check", str(log), "--format", "jsonl")
    assert result.returncode == 1
    (finding,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert finding == {
        "kind": "payout",
        "rule": "fr/blackjack/higher-total-wins",
        "ref": finding["ref"],
        "severity": "error",
        "file": str(log),
        "line": 3,
        "round": "R1",
        "stake": "1",
        # The evidence: box 1's 9♥ 10♦ = 19 against the dealer's 6♣ 10♣ A♠ = 17 (the ace counts 1).
        "message": "A hand with more points than the dealer is paid even money. The hand: 9♥ 10♦ (19); "
        "the dealer: 6♣ 10♣ A♠ (17).",
        "expected": {"pay": "20"},
        "actual": {"pay": "10"},
    }
    assert finding["ref"].startswith("Arrêté du 14 mai 2007, art. 55-4, 1°")


def test_no_such_file_is_exit_2(tmp_path):
    result = run_cli("check", str(tmp_path / "missing.jsonl"))
    assert result.returncode == 2
    assert "missing.jsonl" in result.stderr
    assert "Traceback" not in result.stderr


def test_unknown_ruleset_is_exit_2(tmp_path):
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN)))
    result = run_cli("check", str(log), "--ruleset", "fr/roulette")
    assert result.returncode == 2
    assert "unknown ruleset 'fr/roulette'" in result.stderr


def test_a_pinned_date_must_be_written_yyyy_mm_dd(tmp_path):
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN)))
    for spec in ("fr/blackjack@", "fr/blackjack@20250101"):
        result = run_cli("check", str(log), "--ruleset", spec)
        assert result.returncode == 2
        assert result.stderr == f"casino-validator: '{spec}': the date after @ must be YYYY-MM-DD\n"


def test_a_table_record_naming_an_unknown_ruleset_is_exit_2_at_its_line(tmp_path):
    log = write(tmp_path, "a.jsonl", lines(round_(0, CLEAN), {**TABLE, "ruleset": "fr/roulette"}, SHOE))
    for jobs in ("1", "2"):
        result = run_cli("check", str(log), "--jobs", jobs)
        assert result.returncode == 2
        assert result.stderr == (
            f"casino-validator: {log}:2: table BJ-03 names unknown ruleset 'fr/roulette': known rulesets are "
            "fr/bataille, fr/blackjack, fr/usage-blackjack, on/fair-blackjack; "
            "correct the record or give one with --ruleset\n"
        )
        assert run_cli("check", str(log), "--jobs", jobs, "--ruleset", "fr/blackjack").returncode == 1


def test_a_date_no_version_covers_is_said_and_the_round_accounted_for(tmp_path):
    early = {**round_(1, CLEAN), "at": "2010-01-01T21:00:00+01:00"}
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, early, round_(2, CLEAN)))
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert doc["findings"][0]["rule"] == "ruleset/no-version-in-force"
    assert "fr/blackjack has no version in force on 2010-01-01" in doc["findings"][0]["message"]
    assert doc["summary"]["rounds"] == {
        "read": 2,
        "checked": 1,
        "clean": 1,
        "with_findings": 0,
        "unreadable": 1,
    }


def test_pinned_ruleset_date_overrides_the_round_date(tmp_path):
    early = {**round_(1, CLEAN), "at": "2010-01-01T21:00:00+01:00"}
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, early))
    result = run_cli("check", str(log), "--ruleset", "fr/blackjack@2025-01-01")
    assert result.returncode == 0, result.stdout


def test_broken_records_are_format_findings_and_every_round_is_accounted_for(tmp_path):
    never_opened = round_(4, [*CLEAN[:3], ["hit", "5", "2C"], *CLEAN[3:]])
    text = (
        lines(TABLE, SHOE, round_(1, CLEAN))
        + "{not json\n"
        + lines({"type": "croupier", "at": "x"})
        + lines({k: v for k, v in round_(3, CLEAN).items() if k != "shoe"})
        + lines(never_opened, round_(5, CLEAN))
    )
    log = write(tmp_path, "a.jsonl", text)
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    rules = [(f["line"], f["rule"]) for f in doc["findings"]]
    assert rules == [
        (4, "hand-log/invalid-json"),
        (5, "hand-log/unknown-type"),
        (6, "hand-log/schema"),
        (7, "hand-log/unknown-hand"),
    ]
    # Found by the reader (lines 4-6) or by the replay (line 7): one kind, one reference.
    assert {(f["kind"], f["ref"]) for f in doc["findings"]} == {("format", "hand-log/1 (docs/hand-log.md)")}
    assert doc["summary"]["rounds"] == {
        "read": 5,
        "checked": 2,
        "clean": 2,
        "with_findings": 0,
        "unreadable": 3,
    }


def test_after_an_unreplayable_round_the_shoe_count_stays_right(tmp_path):
    # Round 1 deals one ace of spades; round 2 cannot be replayed, but its four aces of spades left
    # the shoe too. Six decks hold six: round 3's first one is the sixth, its second the seventh.
    # Round 3 is otherwise by the book: A-9 (20) stands, the dealer's A-8 is a soft 19, box 1 is paid.
    aces = [["deal", "1", "AS"], ["deal", "D", "AS"], ["deal", "1", "AS"], ["hit", "7", "AS"]]
    later = [
        ["deal", "1", "AS"],
        ["deal", "D", "AS"],
        ["deal", "1", "9C"],
        ["stand", "1"],
        ["deal", "D", "8C"],
        ["pay", "1", 20],
    ]
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN), round_(2, aces), round_(3, later)))
    result = run_cli("check", str(log), "--format", "jsonl")
    found = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(f["round"], f["rule"]) for f in found] == [
        ("R2", "hand-log/unknown-hand"),
        ("R3", "fr/blackjack/cards-from-shoe"),
    ]
    assert found[1]["message"].startswith("Card A♠ cannot come out of this shoe")


def test_stdin_folders_and_gzip(tmp_path):
    folder = tmp_path / "logs"
    (folder / "deeper").mkdir(parents=True)
    write(folder, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN)))
    (folder / "deeper" / "b.jsonl.gz").write_bytes(
        gzip.compress(lines(TABLE, SHOE, round_(1, CLEAN)).encode())
    )
    write(folder, "notes.txt", "not a log")
    result = run_cli("check", str(folder), "--format", "json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary_of(result)["files"] == 2
    piped = run_cli("check", "-", "--format", "json", stdin=lines(TABLE, SHOE, round_(1, CLEAN)))
    assert piped.returncode == 0
    assert summary_of(piped)["rounds"]["clean"] == 1


def test_a_broken_record_of_another_type_is_not_a_round_even_with_a_round_id(tmp_path):
    broken_shoe = {**SHOE, "decks": "six", "round": "R-x"}
    misspelt = {**round_(2, CLEAN), "type": "rond"}
    log = write(tmp_path, "a.jsonl", lines(TABLE, broken_shoe, SHOE, round_(1, CLEAN), misspelt))
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert [(f["line"], f["rule"]) for f in doc["findings"]] == [
        (2, "hand-log/schema"),
        (5, "hand-log/unknown-type"),
    ]
    assert doc["summary"]["rounds"] == {
        "read": 2,
        "checked": 1,
        "clean": 1,
        "with_findings": 0,
        "unreadable": 1,
    }


def test_a_round_naming_another_shoe_is_said_and_still_replayed(tmp_path):
    other = {**round_(2, [*CLEAN[:-1], ["pay", "1", 30]]), "shoe": "S0"}
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN), other))
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert [(f["line"], f["kind"], f["rule"], f["message"]) for f in doc["findings"]] == [
        (
            4,
            "format",
            "hand-log/other-shoe",
            "round R2 names shoe 'S0', but the shoe in play at table BJ-03 is 'S1'",
        ),
        (
            4,
            "payout",
            "fr/blackjack/higher-total-wins",
            # CLEAN's cards: 9♥ 10♦ = 19 against 6♣ 10♣ A♠ = 17.
            "A hand with more points than the dealer is paid even money. The hand: 9♥ 10♦ (19); the dealer: "
            "6♣ 10♣ A♠ (17).",
        ),
    ]
    assert doc["summary"]["rounds"]["with_findings"] == 1


def test_standard_input_has_one_name_in_every_finding():
    # A line the reader refuses and a round the replay judges: one file in SARIF, JUnit, GitHub.
    broken = lines(TABLE, SHOE) + "{not json\n" + lines(round_(2, [*CLEAN[:-1], ["pay", "1", 30]]))
    result = run_cli("check", "-", "--format", "json", stdin=broken)
    assert result.returncode == 1
    found = json.loads(result.stdout)["findings"]
    assert [(f["file"], f["line"], f["rule"]) for f in found] == [
        ("<stdin>", 3, "hand-log/invalid-json"),
        ("<stdin>", 4, "fr/blackjack/higher-total-wins"),
    ]


def test_truncated_gzip_gives_a_format_finding(tmp_path):
    data = gzip.compress(lines(TABLE, SHOE, *[round_(n, CLEAN) for n in range(1, 40)]).encode())
    log = write(tmp_path, "cut.jsonl.gz", data[: len(data) // 2])
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    assert doc["findings"][-1]["rule"] == "hand-log/truncated"


def test_bad_utf8_and_a_10_mb_line(tmp_path):
    huge = '{"type": "round", "pad": "' + "x" * (10 * 1024 * 1024) + '"}\n'
    text = lines(TABLE, SHOE).encode() + b'{"type": "round", "round": "\xff\xfe"}\n' + huge.encode()
    text += lines(round_(3, CLEAN)).encode()
    log = write(tmp_path, "odd.jsonl", text)
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1
    doc = json.loads(result.stdout)
    assert [(f["line"], f["rule"]) for f in doc["findings"]] == [
        (3, "hand-log/invalid-utf8"),
        (4, "hand-log/line-too-long"),
    ]
    assert doc["summary"]["rounds"]["clean"] == 1


def test_amounts_too_wide_to_compute_exactly_are_format_findings(tmp_path):
    # 29 digits would be rounded by Decimal's 28: the payment would look wrong when it is right.
    wide = "12345678901234567890123456789.5"
    bets = [{"stake": "1", "amount": wide, "player": "P1", "seated": True}]
    meters = {
        "type": "jackpot",
        "at": "2025-03-14T21:00:00+01:00",
        "main": "1" + "0" * 27,
        "secondary": "2410.50",
    }
    log = write(
        tmp_path, "a.jsonl", lines(TABLE, SHOE, meters, round_(1, [*CLEAN[:-1], ["pay", "1", wide]], bets))
    )
    result = run_cli("check", str(log), "--format", "json")
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    assert [(f["line"], f["rule"], f["message"]) for f in doc["findings"]] == [
        (3, "hand-log/schema", f"jackpot record: '1{'0' * 27}' is too large for an amount (over 15 digits)"),
        (
            4,
            "hand-log/inconsistent",
            f"round R1: bets[0].amount: '{wide}' is too large for an amount (over 15 digits); "
            "the round cannot be replayed",
        ),
    ]
    assert summary_of(result)["rounds"]["unreadable"] == 1


def test_output_file(tmp_path):
    log = write(tmp_path, "a.jsonl", lines(TABLE, SHOE, round_(1, CLEAN)))
    out = tmp_path / "report.sarif"
    result = run_cli("check", str(log), "--format", "sarif", "--output", str(out))
    assert result.returncode == 0
    assert result.stdout == ""
    assert json.loads(out.read_text(encoding="utf-8"))["version"] == "2.1.0"


def test_a_round_before_any_table_or_shoe(tmp_path):
    log = write(tmp_path, "a.jsonl", lines(round_(1, CLEAN), TABLE, round_(2, CLEAN)))
    result = run_cli("check", str(log), "--format", "json")
    doc = json.loads(result.stdout)
    assert [f["rule"] for f in doc["findings"]] == ["hand-log/no-table", "hand-log/no-shoe"]
    assert doc["summary"]["rounds"]["unreadable"] == 2
