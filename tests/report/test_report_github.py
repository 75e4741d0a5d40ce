"""GitHub workflow commands: one annotation per finding, escaped so the runner reads back what was meant."""

from __future__ import annotations

import re

import pytest
from report_fixtures import FINDINGS, render_clean, render_full

from validator.findings.finding import Finding
from validator.formats.github import annotation, escape_data, escape_property

# `::command key=value,key=value::message`, with no raw `:` or `,` inside a value.
COMMAND = re.compile(r"::(error|warning|notice)(?: ((?:[a-z]+=[^,:\r\n]*)(?:,[a-z]+=[^,:\r\n]*)*))?::(.*)")


def unescape(text: str) -> str:
    return re.sub(
        "%(25|0D|0A|3A|2C)", lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m[1]], text
    )


def parse(line: str) -> tuple[str, dict[str, str], str]:
    match = COMMAND.fullmatch(line)
    assert match, line
    props = dict(item.split("=", 1) for item in match[2].split(",")) if match[2] else {}
    return match[1], {key: unescape(value) for key, value in props.items()}, unescape(match[3])


def test_one_annotation_per_finding_then_a_notice() -> None:
    lines = render_full("github").splitlines()
    assert len(lines) == len(FINDINGS) + 1
    for line, finding in zip(lines[:-1], FINDINGS, strict=True):
        command, props, message = parse(line)
        assert command == finding.severity
        assert props["file"] == finding.file
        assert props.get("line") == (None if finding.line is None else str(finding.line))
        assert props["title"] == finding.rule
        # The message and its reference, then the evidence (round, box, expected/actual) when there is any.
        assert message.startswith(f"{finding.message} ({finding.ref})")
    command, props, message = parse(lines[-1])
    assert (command, props) == ("notice", {})
    assert message.startswith("casino-validator: 6 rounds read in 2 files")


def test_the_fixture_escapes() -> None:
    lines = render_full("github").splitlines()
    assert lines[2].endswith(
        "::The surrender of seat 1 returned 100%25 of the stake instead of 50%25. "
        "(Arrêté du 14 mai 2007, art. 55-11). Round r-0002, box seat-1, hand seat-1/main: "
        'expected {"return": "2.5"}, actual {"return": "5"}.'
    )
    assert lines[9].startswith("::error file=logs/salle 2/table%2C9.jsonl,title=hand-log/truncated::")
    # The message part keeps `:` and `,`: only properties escape them.
    assert "::The file ends in the middle of a record: the gzip" in lines[9]


def test_clean_run_is_only_a_notice() -> None:
    assert render_clean("github").splitlines() == [
        "::notice::casino-validator: 2 rounds read in 1 file: 2 checked (2 clean, 0 with findings), "
        "0 unreadable; no findings; overpaid by the house 0, underpaid to players 0."
    ]


@pytest.mark.parametrize(
    ("raw", "data", "prop"),
    [
        ("50%", "50%25", "50%25"),
        ("%0A", "%250A", "%250A"),  # an existing escape is escaped, not kept
        ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
        ("C:\\logs, day 1", "C:\\logs, day 1", "C%3A\\logs%2C day 1"),
        ("plain", "plain", "plain"),
    ],
)
def test_escaping(raw: str, data: str, prop: str) -> None:
    assert escape_data(raw) == data
    assert escape_property(raw) == prop
    assert unescape(data) == raw
    assert unescape(prop) == raw


def test_annotation_with_hostile_text() -> None:
    finding = Finding(
        "procedure", "x/y:z,w", "art. 1", "warning", "a:b,c.jsonl", None, "two\nlines, 100%: really"
    )
    line = annotation(finding)
    assert "\n" not in line
    assert line == "::warning file=a%3Ab%2Cc.jsonl,title=x/y%3Az%2Cw::two%0Alines, 100%25: really (art. 1)"
    assert parse(line) == (
        "warning",
        {"file": "a:b,c.jsonl", "title": "x/y:z,w"},
        "two\nlines, 100%: really (art. 1)",
    )
