"""The registry, and what the goldens cannot show: jsonl and json parse back to the findings, streamed
json equals the whole document, and text colour is only paint over the plain output."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal

import pytest
from report_fixtures import FINDINGS, clean_summary, full_summary, render_clean, render_full

from validator.errors import ValidatorError
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.formats import REPORTERS, make_reporter
from validator.formats.base import Reporter
from validator.formats.github import GithubReporter
from validator.formats.gitlab import GitlabReporter
from validator.formats.html import HtmlReporter
from validator.formats.jsondoc import JsonReporter
from validator.formats.jsonl import JsonLinesReporter
from validator.formats.junit import JunitReporter
from validator.formats.sarif import SarifReporter
from validator.formats.text import TextReporter

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_registry() -> None:
    assert {
        "text": TextReporter,
        "jsonl": JsonLinesReporter,
        "json": JsonReporter,
        "sarif": SarifReporter,
        "junit": JunitReporter,
        "github": GithubReporter,
        "gitlab": GitlabReporter,
        "html": HtmlReporter,
    } == REPORTERS
    out = io.StringIO()
    for name, cls in REPORTERS.items():
        reporter = make_reporter(name, out, color=True)
        assert type(reporter) is cls
        assert isinstance(reporter, Reporter)
        assert reporter.out is out
        assert reporter.color is True


def test_unknown_format() -> None:
    with pytest.raises(ValidatorError) as caught:
        make_reporter("x", io.StringIO())
    assert (
        str(caught.value)
        == "unknown format 'x': choose one of text, jsonl, json, sarif, junit, github, gitlab, html"
    )
    assert caught.value.exit_code == 2


def test_jsonl_is_the_findings_and_nothing_else() -> None:
    lines = render_full("jsonl").splitlines()
    assert [json.loads(line) for line in lines] == [f.as_dict() for f in FINDINGS]
    assert render_clean("jsonl") == ""


@pytest.mark.parametrize(("render", "summary"), [(render_full, full_summary), (render_clean, clean_summary)])
def test_streamed_json_is_the_whole_document(render, summary) -> None:
    findings = [f.as_dict() for f in FINDINGS] if render is render_full else []
    document = {"version": 1, "findings": findings, "summary": summary().as_dict()}
    assert render("json") == json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def test_a_stray_decimal_does_not_break_json_reports() -> None:
    finding = Finding("payout", "r", "ref", "error", "f", 1, "m", expected={"pay": Decimal("7.50")})
    for name in ("jsonl", "json", "sarif", "text"):
        out = io.StringIO()
        reporter = make_reporter(name, out)
        reporter.round(RoundOutcome("f", 1, "r1", (finding,), "findings"))
        reporter.finish(Summary(rounds_with_findings=1), {})
        assert '"pay": "7.5"' in out.getvalue()


def test_text_without_colour_has_no_escape_codes() -> None:
    assert "\x1b" not in render_full("text")


def test_text_colour_is_paint_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)  # a user's preference would rightly strip the colours
    coloured = render_full("text", color=True)
    assert "\x1b[" in coloured
    assert ANSI.sub("", coloured) == render_full("text")
    # The severity, in words on every line, carries its colour: red for an error, yellow for a warning.
    assert "\x1b[1;31merror\x1b[0m \x1b[36mfr/blackjack/table-limits\x1b[0m" in coloured
    assert "\x1b[1;33mwarning\x1b[0m \x1b[36mfr/blackjack/burn-first-card\x1b[0m" in coloured


def test_text_keeps_brackets_in_messages() -> None:
    """Messages quote log content; `[bold]` in one must be printed, not taken as rich markup."""
    finding = Finding("format", "hand-log/schema", "hand-log/1", "error", "f", 2, 'cards: ["[bold]x"] is bad')
    for color in (False, True):
        out = io.StringIO()
        reporter = make_reporter("text", out, color=color)
        reporter.round(RoundOutcome("f", 2, "r1", (finding,), "unreadable"))
        assert (
            ANSI.sub("", out.getvalue())
            == 'f:2: error hand-log/schema [format] cards: ["[bold]x"] is bad (hand-log/1)\n'
        )


def test_text_summary_orders_rules_by_count_then_id() -> None:
    text = render_full("text")
    block = text.split("  by rule:\n", 1)[1].split("\n  overpaid", 1)[0]
    counts = [(int(line.split()[0]), line.split()[1]) for line in block.splitlines()]
    assert counts == sorted(counts, key=lambda item: (-item[0], item[1]))
    assert counts[0] == (2, "fr/blackjack/natural-pays-3-to-2")


def test_text_line_without_a_line_number() -> None:
    lines = render_full("text").splitlines()
    summary_at = lines.index("summary")
    assert lines[summary_at - 1] == ""
    assert lines[summary_at - 2] == (
        "logs/salle 2/table,9.jsonl: error hand-log/truncated [format] The file ends in the middle of a "
        "record: the gzip stream is cut short. (hand-log/1 (docs/hand-log.md))"
    )


def test_text_streams_findings_before_finish() -> None:
    out = io.StringIO()
    reporter = make_reporter("text", out)
    reporter.round(RoundOutcome("f", 3, "r1", (FINDINGS[1],), "findings"))
    assert out.getvalue().startswith(
        "logs/table-7.jsonl:14: error fr/blackjack/natural-pays-3-to-2 [payout] "
    )


@pytest.mark.parametrize(
    ("expected", "actual", "second"),
    [
        (None, {"burned": 0}, '    expected null, actual {"burned": 0}'),
        ({}, {"cards": []}, '    expected {}, actual {"cards": []}'),
        (None, None, None),
    ],
)
def test_text_values_line(expected, actual, second) -> None:
    finding = Finding("procedure", "r", "ref", "error", "f", 4, "m", expected=expected, actual=actual)
    out = io.StringIO()
    make_reporter("text", out).round(RoundOutcome("f", 4, "r1", (finding,), "findings"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "f:4: error r [procedure] m (ref)"
    assert lines[1:] == ([second] if second else [])
