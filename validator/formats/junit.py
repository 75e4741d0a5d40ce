"""`junit`: JUnit XML, one test case per round (for lint, per table entry of a house file), for CI
systems that chart test results.

A round with findings fails (one `<failure>` per finding); a round that could not be read is an
`<error>`, as a test that could not run; findings outside any round (a table or shoe record, a broken
line between rounds) gather in one test case per file, "records outside rounds". The tree is kept until
`finish()` because the suite's counts come first in the document.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import TextIO

from validator import __version__
from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.formats.base import (
    TOOL_NAME,
    Reporter,
    has_values,
    headline,
    summary_sentence,
    values_line,
    with_ref,
)

OUTSIDE_ROUNDS = "records outside rounds"
# Characters XML 1.0 cannot carry at all, even escaped; a format finding may quote them from a bad line.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


class JunitReporter(Reporter):
    name = "junit"

    def __init__(self, out: TextIO, *, color: bool = False, tool_version: str = __version__) -> None:
        super().__init__(out, color=color, tool_version=tool_version)
        self._suite = ET.Element("testsuite", name=TOOL_NAME)
        self._outside: dict[str, ET.Element] = {}

    def round(self, outcome: RoundOutcome) -> None:
        if outcome.entry is not None:  # lint: one test case per table entry of a house file
            case = ET.SubElement(
                self._suite, "testcase", classname=_xml(outcome.file), name=_xml(f"tables.{outcome.entry}")
            )
        elif outcome.round is not None:
            case = ET.SubElement(
                self._suite, "testcase", classname=_xml(outcome.file), name=_xml(outcome.round)
            )
        elif outcome.findings:
            case = self._outside_case(outcome.file)
        else:
            return
        for finding in outcome.findings:
            # A format finding is why an unreadable round could not be judged: the test could not run.
            tag = "error" if outcome.status == "unreadable" and finding.kind == "format" else "failure"
            element = ET.SubElement(case, tag, message=_xml(with_ref(finding)), type=_xml(finding.rule))
            element.text = _xml(_failure_text(finding))

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        cases = self._suite.findall("testcase")
        errors = sum(1 for case in cases if case.find("error") is not None)
        failures = sum(1 for case in cases if case.find("error") is None and case.find("failure") is not None)
        counts = {"tests": str(len(cases)), "failures": str(failures), "errors": str(errors)}
        self._suite.attrib.update(counts, skipped="0")
        ET.SubElement(self._suite, "system-out").text = _xml(summary_sentence(summary))
        root = ET.Element("testsuites", {"name": TOOL_NAME, **counts})
        root.append(self._suite)
        ET.indent(root)
        self.out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        self.out.write(ET.tostring(root, encoding="unicode") + "\n")

    def _outside_case(self, file: str) -> ET.Element:
        if file not in self._outside:
            self._outside[file] = ET.SubElement(
                self._suite, "testcase", classname=_xml(file), name=OUTSIDE_ROUNDS
            )
        return self._outside[file]


def _failure_text(finding: Finding) -> str:
    text = headline(finding)
    return f"{text}\n    {values_line(finding)}" if has_values(finding) else text
