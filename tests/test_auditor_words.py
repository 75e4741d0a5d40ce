"""Findings an auditor reads without the code (issue 13, point 3): every rule fixture's findings have
messages and expected/actual values with no unfilled {placeholder}, no operator and no dotted fact
name; the text format names the table, the round, its time and the box before the message, with the
severity in words on every line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from validator.checking.serial import check_logs
from validator.cli import app
from validator.dsl.wording import in_words, label, value
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"\{[^}]*\}")
OPERATOR = re.compile(r"==|!=|<=|>=|(?<![\w-])[<>](?![\w-])")
DOTTED = re.compile(r"\b[a-z_]+\.[a-z_]+\b")


def texts(item: Any) -> Iterator[str]:
    if isinstance(item, dict):
        for key, inner in item.items():
            yield str(key)
            yield from texts(inner)
    elif isinstance(item, list):
        for inner in item:
            yield from texts(inner)
    elif item is not None:
        yield str(item)


def test_no_rule_fixture_finding_shows_the_rule_language() -> None:
    registry = default_registry()
    findings = [
        f
        for outcome in check_logs(registry, [str(ROOT / "tests/fixtures/rules")])
        for f in outcome.findings
        if f.kind != "format"
    ]
    assert len(findings) > 200
    rules = {f.rule for f in findings}
    assert len(rules) > 80
    offenders = []
    for finding in findings:
        if PLACEHOLDER.search(finding.message):
            offenders.append((finding.rule, "message", finding.message))
        for where in ("expected", "actual"):
            for text in texts(getattr(finding, where)):
                for pattern in (PLACEHOLDER, OPERATOR, DOTTED):
                    if pattern.search(text):
                        offenders.append((finding.rule, where, text))
    assert offenders == []


def test_the_checks_can_fail() -> None:
    assert DOTTED.search("dealer.total") and OPERATOR.search("<= 16") and PLACEHOLDER.search("{box.stake}")


def test_values_in_words() -> None:
    assert label("dealer.total") == "dealer's best total"
    assert (
        value("<= 16") == "16 or less"
        and value(">= 17") == "17 or more"
        and value('!= "never"') == "not never"
    )
    assert value(True) == "yes" and value(["AH", "6C", "TD"]) == "A♥ 6♣ 10♦"
    expected, actual = in_words(
        {"condition": "settle.previous_box == 0 or settle.box <= settle.previous_box"},
        {"settle.previous_box": 1, "settle.box": 5},
        "The order of the final settlement across boxes, box 7 first.",
    )
    assert expected == {"requirement": "The order of the final settlement across boxes, box 7 first."}
    assert actual == {"the box settled before (0 for the first)": 1, "the box being settled": 5}
    assert in_words({"pay": "15"}, {"pay": "10"}, "") == ({"pay": "15"}, {"pay": "10"})
    assert in_words(*in_words({"dealer.total": "<= 16"}, {"dealer.total": 17}, ""), "") == (
        {"dealer's best total": "16 or less"},
        {"dealer's best total": 17},
    )


def test_text_lines_name_table_round_time_and_box() -> None:
    result = CliRunner().invoke(app, ["check", str(ROOT / "samples/logs/disputes"), "-q"])
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if ".jsonl:" in line]
    assert len(lines) == 11
    assert all(": error " in line or ": warning " in line for line in lines)
    assert (
        f"{ROOT}/samples/logs/disputes/BJ-03-2016-06-11.jsonl:5: "
        "error fr/blackjack/insurance-pays-2-1 [payout] "
        "table BJ-03, round BJ-03/2016-06-11/1/3 at 2016-06-11 21:03:00+02:00, box 3, insurance: "
    ) in result.output
    assert ", dealer: The dealer must draw to 16" in result.output
