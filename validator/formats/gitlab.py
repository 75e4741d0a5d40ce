"""`gitlab`: GitLab Code Quality, the JSON report a merge request's widget and a pipeline's Code Quality tab
read (`artifacts: reports: codequality: gl-code-quality-report.json`).

One JSON array of issues, each `{description, check_name, fingerprint, severity, location: {path,
lines: {begin}}}`, the fields GitLab documents as required. `description` carries the evidence (round,
box, time, expected and actual) since the widget shows nothing else; `path` is relative to the project
root, as GitLab links it to the file; `severity` is `major` for an error, `minor` for a warning.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, TextIO

from validator import __version__
from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.findings.fingerprint import fingerprint
from validator.findings.project_root import find_root, fingerprint_file, is_stdin, relative_to_root
from validator.formats.base import Reporter, evidence

SEVERITIES = {"error": "major", "warning": "minor"}


class GitlabReporter(Reporter):
    name = "gitlab"

    def __init__(
        self, out: TextIO, *, color: bool = False, tool_version: str = __version__, root: str | None = None
    ) -> None:
        super().__init__(out, color=color, tool_version=tool_version)
        self.root = os.path.abspath(root) if root is not None else find_root()
        self._issues: list[dict[str, Any]] = []

    def round(self, outcome: RoundOutcome) -> None:
        for finding in outcome.findings:
            self._issues.append(self._issue(finding, outcome.table, outcome.at, outcome.titles))

    def _issue(
        self, finding: Finding, table: str | None, at: str | None, titles: Mapping[str, str] | None
    ) -> dict[str, Any]:
        path = finding.file if is_stdin(finding.file) else relative_to_root(finding.file, self.root)
        return {
            "description": evidence(finding, table, at, titles),
            "check_name": finding.rule,
            "fingerprint": fingerprint(finding, fingerprint_file(finding.file, self.root)),
            "severity": SEVERITIES[finding.severity],
            "location": {
                "path": (path or finding.file).replace(os.sep, "/"),
                "lines": {"begin": finding.line if finding.line is not None and finding.line >= 1 else 1},
            },
        }

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        self.out.write(json.dumps(self._issues, indent=2, ensure_ascii=False) + "\n")
