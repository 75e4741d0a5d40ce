"""`junit`: JUnit XML, one test case per round (for lint, per table entry of a house file), for CI
systems that chart test results.

A round with findings fails (one `<failure>` per finding); a round that could not be read is an
`<error>`, as a test that could not run; findings outside any round (a table or shoe record, a broken
line between rounds) gather in one test case per file, "records outside rounds". The test cases are
kept as text (in a temporary file past a few megabytes) until `finish()`, because the suite's counts
come first in the document; on a cluster, the workers write the test cases of the rounds without
findings (`CaseTexts`).
"""

from __future__ import annotations

import re
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import IO, Any, TextIO

from validator import __version__
from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.formats.base import (
    TOOL_NAME,
    QuietRounds,
    Reporter,
    has_values,
    headline,
    summary_sentence,
    values_line,
    with_ref,
)
from validator.i18n import N_, _

OUTSIDE_ROUNDS = N_("records outside rounds")
# Characters XML 1.0 cannot carry at all, even escaped; a format finding may quote them from a bad line.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class CaseTexts(QuietRounds):
    """A worker's test cases of its rounds without findings, as the document's text, in their place."""

    def __init__(self) -> None:
        self._texts: list[str] = []

    def add(self, outcome: RoundOutcome) -> None:
        case = _case(outcome)
        if case is not None:
            self._texts.append(_text(case))

    def take(self) -> Any:
        texts, self._texts = self._texts, []
        return (len(texts), "".join(texts))


class JunitReporter(Reporter):
    name = "junit"

    def __init__(self, out: TextIO, *, color: bool = False, tool_version: str = __version__) -> None:
        super().__init__(out, color=color, tool_version=tool_version)
        # The test cases, as the document's text, in order, kept in a file past a few megabytes: the
        # suite's counts come first in the document, and a run has a test case per round.
        self._cases: IO[str] = tempfile.SpooledTemporaryFile(  # noqa: SIM115 (closed by finish)
            max_size=_IN_MEMORY, mode="w+", encoding="utf-8"
        )
        self._length = 0  # characters written to `_cases`
        self._tests = self._failures = self._errors = 0
        # Findings outside any round: one test case per file, where its first such finding is; its
        # text is written at the end, when it holds all of them.
        self._outside: dict[str, ET.Element] = {}
        self._places: list[tuple[int, str]] = []  # (where in `_cases`, the file) of each such case

    @classmethod
    def quiet_rounds(cls) -> QuietRounds | None:
        return CaseTexts()

    def round(self, outcome: RoundOutcome) -> None:
        if outcome.entry is None and outcome.round is None:
            if outcome.findings:
                self._outside_case(outcome.file).extend(_results(outcome))
            return
        case = _case(outcome)
        if case is not None:
            self._count(case)
            self._write(_text(case))

    def quiet(self, rounds: int, part: Any) -> None:
        count, text = part
        self._tests += count
        self._write(text)

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        for case in self._outside.values():
            self._count(case)
        counts = {"tests": str(self._tests), "failures": str(self._failures), "errors": str(self._errors)}
        suite = ET.Element("testsuite", name=TOOL_NAME)
        suite.attrib.update(counts, skipped="0")
        ET.SubElement(suite, "system-out").text = _xml(summary_sentence(summary))
        root = ET.Element("testsuites", {"name": TOOL_NAME, **counts})
        root.append(suite)
        ET.indent(root)
        document = ET.tostring(root, encoding="unicode")
        # The test cases go where ET would have put them: before <system-out>, each followed by the
        # indentation of the next element (the same text as indenting the whole tree).
        cut = document.index("<system-out")
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')  # i18n: not shown (XML)
        self.out.write(document[:cut])
        self._cases.seek(0)
        done = 0
        for place, file in self._places:
            self._copy(place - done)
            done = place
            self.out.write(_text(self._outside[file]))
        self._copy(self._length - done)
        self._cases.close()
        self.out.write(document[cut:] + "\n")

    def _copy(self, length: int) -> None:
        while length > 0:
            chunk = self._cases.read(min(length, 1 << 20))
            if not chunk:
                return
            self.out.write(chunk)
            length -= len(chunk)

    def _write(self, text: str) -> None:
        self._cases.write(text)
        self._length += len(text)

    def _count(self, case: ET.Element) -> None:
        self._tests += 1
        if case.find("error") is not None:
            self._errors += 1
        elif case.find("failure") is not None:
            self._failures += 1

    def _outside_case(self, file: str) -> ET.Element:
        if file not in self._outside:
            self._outside[file] = ET.Element("testcase", classname=_xml(file), name=_(OUTSIDE_ROUNDS))
            self._places.append((self._length, file))
        return self._outside[file]


_IN_MEMORY = 8 << 20  # characters of test cases kept in memory before they go to a temporary file


def _case(outcome: RoundOutcome) -> ET.Element | None:
    """The test case of a round (for lint, of a table entry), with a result per finding."""
    if outcome.entry is not None:  # lint: one test case per table entry of a house file
        name = f"tables.{outcome.entry}"
    elif outcome.round is not None:
        name = outcome.round
    else:
        return None
    case = ET.Element("testcase", classname=_xml(outcome.file), name=_xml(name))
    case.extend(_results(outcome))
    return case


def _results(outcome: RoundOutcome) -> list[ET.Element]:
    results = []
    for finding in outcome.findings:
        # A format finding is why an unreadable round could not be judged: the test could not run.
        tag = "error" if outcome.status == "unreadable" and finding.kind == "format" else "failure"
        element = ET.Element(tag, message=_xml(with_ref(finding)), type=_xml(finding.rule))
        element.text = _xml(_failure_text(finding))
        results.append(element)
    return results


def _text(case: ET.Element) -> str:
    """A test case as the document writes it, inside the suite, with the indentation after it."""
    ET.indent(case, level=2)
    return ET.tostring(case, encoding="unicode") + "\n    "


def _failure_text(finding: Finding) -> str:
    text = headline(finding)
    return f"{text}\n    {values_line(finding)}" if has_values(finding) else text
