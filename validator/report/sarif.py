"""`sarif`: SARIF 2.1.0, the format code-scanning dashboards (GitHub, Azure DevOps, IDEs) read.

One run; `tool.driver.rules` lists every rule the run could judge, so a dashboard can show a rule's
legal text even for rules nothing broke. Results are collected because a result points to its rule by
index, and the rule list is only complete at the end (format rules come from the reader, not a ruleset).
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Mapping
from pathlib import Path, PureWindowsPath
from typing import Any, TextIO
from urllib.parse import quote

from validator import __version__
from validator.findings import Finding, RoundOutcome, RuleInfo, Summary
from validator.report.base import TOOL_NAME, Reporter, json_default, with_ref

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "SRCROOT"
_LEVELS = {"error": "error", "warning": "warning"}
# Keys of a result's property bag, in docs/findings.md order; each only when the finding has it.
_RESULT_PROPERTIES = ("round", "stake", "path", "expected", "actual")


def artifact_location(file: str, root: str | None = None) -> dict[str, str]:
    """A log path as a SARIF artifactLocation.

    A path under the working folder becomes relative (with forward slashes, percent-encoded) and is
    tied to SRCROOT, so dashboards resolve it against the checkout; any other absolute path becomes a
    `file://` URI, which needs no base.
    """
    root = os.path.abspath(root or os.getcwd())
    windows = PureWindowsPath(file)
    if windows.drive or file.startswith("\\\\"):
        return {"uri": windows.as_uri()} if windows.is_absolute() else _relative(windows.as_posix())
    if os.path.isabs(file):
        absolute = os.path.normpath(file)
        if absolute == root or absolute.startswith(root.rstrip(os.sep) + os.sep):
            return _relative(os.path.relpath(absolute, root))
        return {"uri": Path(absolute).as_uri()}
    return _relative(file.replace("\\", "/"))


def _relative(path: str) -> dict[str, str]:
    path = posixpath.normpath(path.replace(os.sep, "/"))
    return {"uri": quote(path, safe="/"), "uriBaseId": SRCROOT}


class SarifReporter(Reporter):
    name = "sarif"

    def __init__(self, out: TextIO, *, color: bool = False, tool_version: str = __version__) -> None:
        super().__init__(out, color=color, tool_version=tool_version)
        self._findings: list[Finding] = []

    def round(self, outcome: RoundOutcome) -> None:
        self._findings.extend(outcome.findings)

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        descriptors = self._rules(rules)
        index = {descriptor["id"]: i for i, descriptor in enumerate(descriptors)}
        run: dict[str, Any] = {
            "tool": {"driver": {"name": TOOL_NAME, "version": self.tool_version, "rules": descriptors}},
            "invocations": [{"executionSuccessful": True}],
            "results": [self._result(f, index[f.rule]) for f in self._findings],
            # The counts a dashboard cannot rebuild from results: clean and unreadable rounds, money.
            "properties": {"summary": summary.as_dict()},
        }
        log = {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
        self.out.write(json.dumps(log, indent=2, ensure_ascii=False, default=json_default) + "\n")

    def _rules(self, rules: Mapping[str, RuleInfo]) -> list[dict[str, Any]]:
        kinds: dict[str, set[str]] = {}
        first: dict[str, Finding] = {}
        for finding in self._findings:
            kinds.setdefault(finding.rule, set()).add(finding.kind)
            first.setdefault(finding.rule, finding)
        descriptors = []
        for rule_id in sorted(set(rules) | set(first)):
            info = rules.get(rule_id)
            tags = sorted(kinds.get(rule_id, ()))
            descriptors.append(_descriptor(info, tags) if info else _descriptor_from(first[rule_id], tags))
        return descriptors

    def _result(self, finding: Finding, rule_index: int) -> dict[str, Any]:
        physical: dict[str, Any] = {"artifactLocation": artifact_location(finding.file)}
        if finding.line is not None and finding.line >= 1:  # SARIF lines start at 1
            physical["region"] = {"startLine": finding.line}
        properties: dict[str, Any] = {"kind": finding.kind}
        for key in _RESULT_PROPERTIES:
            value = getattr(finding, key)
            if value is not None:
                properties[key] = value
        return {
            "ruleId": finding.rule,
            "ruleIndex": rule_index,
            "level": _LEVELS[finding.severity],
            "message": {"text": with_ref(finding)},
            "locations": [{"physicalLocation": physical}],
            "properties": properties,
        }


def _descriptor(info: RuleInfo, tags: list[str]) -> dict[str, Any]:
    properties: dict[str, Any] = {"ref": info.ref}
    if tags:
        properties["tags"] = tags
    return {
        "id": info.id,
        "shortDescription": {"text": info.summary or info.id},
        "fullDescription": {"text": info.ref or info.summary or info.id},
        "help": {"text": info.doc or info.summary or info.id},
        "defaultConfiguration": {"level": _LEVELS[info.severity]},
        "properties": properties,
    }


def _descriptor_from(finding: Finding, tags: list[str]) -> dict[str, Any]:
    """A rule met in a finding but absent from the rule list (a reader's format rule): what the finding
    itself says of it, so every result still has a rule to point to."""
    return {
        "id": finding.rule,
        "fullDescription": {"text": finding.ref or finding.rule},
        "defaultConfiguration": {"level": _LEVELS[finding.severity]},
        "properties": {"ref": finding.ref, "tags": tags},
    }
