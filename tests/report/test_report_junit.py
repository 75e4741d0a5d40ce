"""JUnit XML: well-formed, one test case per round, failures and errors where docs/findings.md puts them."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

from report_fixtures import FILE_A, FILE_B, FINDINGS, OUTCOMES, ROUND_IDS, render_clean, render_full

from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.formats.junit import OUTSIDE_ROUNDS, JunitReporter


def parse(text: str) -> ET.Element:
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    # Parsed as the bytes a CI system reads, so the declared encoding is the one used.
    return ET.fromstring(text.encode("utf-8"))


def test_one_test_case_per_round() -> None:
    root = parse(render_full("junit"))
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    rounds = [case for case in cases if case.get("name") != OUTSIDE_ROUNDS]
    assert [case.get("name") for case in rounds] == list(ROUND_IDS)
    assert [case.get("classname") for case in rounds] == [FILE_A] * 5 + [FILE_B]
    outside = [case.get("classname") for case in cases if case.get("name") == OUTSIDE_ROUNDS]
    assert outside == [FILE_A, FILE_B]


def test_counts() -> None:
    root = parse(render_full("junit"))
    suite = root.find("testsuite")
    assert suite is not None
    # 6 rounds + 2 "records outside rounds"; failing: 3 rounds and both outside cases;
    # the unreadable round is an error.
    expected = {"tests": "8", "failures": "5", "errors": "1"}
    for element in (root, suite):
        assert {key: element.get(key) for key in expected} == expected
    assert suite.get("skipped") == "0"
    assert len(suite.findall("testcase")) == 8


def test_failures_and_errors_per_finding() -> None:
    suite = parse(render_full("junit")).find("testsuite")
    assert suite is not None
    problems = [
        element for case in suite.findall("testcase") for element in case if element.tag != "system-out"
    ]
    assert len(problems) == len(FINDINGS)
    in_case_order = [FINDINGS[0], *FINDINGS[1:9], FINDINGS[9]]
    for element, finding in zip(problems, in_case_order, strict=True):
        assert element.get("type") == finding.rule
        assert element.get("message") == f"{finding.message} ({finding.ref})"
        first_line = (element.text or "").splitlines()[0]
        where = finding.file if finding.line is None else f"{finding.file}:{finding.line}"
        assert first_line == f"{where}: {finding.rule} [{finding.kind}] {finding.message} ({finding.ref})"
        assert element.tag == ("error" if finding.round == "r-0004" else "failure")
    by_name = {
        case.get("name"): case for case in suite.findall("testcase") if case.get("classname") == FILE_A
    }
    assert list(by_name["r-0001"]) == []
    payout = by_name["r-0002"].findall("failure")[0].text or ""
    assert payout.splitlines()[1] == '    expected {"pay": "15"}, actual {"pay": "10"}'
    # `&`, `"` and `<` from the broken line come back intact.
    assert '"&" after {"type": "deal", <…' in (by_name["r-0004"].findtext("error") or "")


def test_summary_in_system_out() -> None:
    suite = parse(render_full("junit")).find("testsuite")
    assert suite is not None
    text = suite.findtext("system-out") or ""
    assert "6 rounds read in 2 files" in text
    assert "1 unreadable" in text


def test_clean_run() -> None:
    root = parse(render_clean("junit"))
    suite = root.find("testsuite")
    assert suite is not None
    assert [case.get("name") for case in suite.findall("testcase")] == ["r-0001", "r-0002"]
    assert all(len(case) == 0 for case in suite.findall("testcase"))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "0", "0")


def test_characters_xml_cannot_carry_are_replaced() -> None:
    """A format finding may quote a control character from a broken line; the report must still parse."""
    finding = Finding(
        "format", "hand-log/invalid-utf8", "hand-log/1", "error", "a\x01.jsonl", 3, "Bad \x00\x1b byte."
    )
    out = io.StringIO()
    reporter = JunitReporter(out)
    reporter.round(RoundOutcome("a\x01.jsonl", 3, "r\x02", (finding,), "unreadable"))
    reporter.finish(Summary(rounds_unreadable=1), {})
    case = parse(out.getvalue()).find("testsuite/testcase")
    assert case is not None
    assert case.get("name") == "r\ufffd"
    error = case.find("error")
    assert error is not None
    assert error.get("message") == "Bad \ufffd\ufffd byte. (hand-log/1)"


def test_outside_findings_of_one_file_share_a_case() -> None:
    outcomes = [o for o in OUTCOMES if o.round is None and o.file == FILE_A] * 2
    out = io.StringIO()
    reporter = JunitReporter(out)
    for outcome in outcomes:
        reporter.round(outcome)
    reporter.round(RoundOutcome(FILE_A, 40, None, ()))  # nothing to say: no test case
    reporter.finish(Summary(), {})
    cases = parse(out.getvalue()).findall("testsuite/testcase")
    assert [(case.get("name"), len(case.findall("failure"))) for case in cases] == [(OUTSIDE_ROUNDS, 2)]


def test_a_case_with_an_error_counts_once_as_an_error() -> None:
    """An unreadable round may also carry a procedure finding from before the break: the case is one
    error, not an error and a failure, so tests = passed + failures + errors."""
    procedure = Finding("procedure", "p", "art. 1", "error", "a.jsonl", 4, "Dealt out of order.", round="r1")
    broken = Finding("format", "hand-log/schema", "hand-log/1", "error", "a.jsonl", 5, "Bad.", round="r1")
    out = io.StringIO()
    reporter = JunitReporter(out)
    reporter.round(RoundOutcome("a.jsonl", 4, "r1", (procedure, broken), "unreadable"))
    reporter.round(RoundOutcome("a.jsonl", 9, "r2", (), "clean"))
    reporter.finish(Summary(rounds_unreadable=1, rounds_clean=1), {})
    root = parse(out.getvalue())
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "0", "1")
    case = root.find("testsuite/testcase")
    assert case is not None
    assert [element.tag for element in case] == ["failure", "error"]
