"""`sarif`: SARIF 2.1.0, the format code-scanning dashboards (GitHub, Azure DevOps, IDEs) read.

One run, as GitHub code scanning accepts it (docs/findings.md): at most 25,000 results, fingerprints,
URIs relative to %SRCROOT%. `tool.driver.rules` lists every rule the run could judge, so a dashboard
can show a rule's legal text even for rules nothing broke. Results are collected because a result
points to its rule by index, and the rule list is only complete at the end (format rules come from the
reader, not a ruleset).
"""

from __future__ import annotations

import json
import os
import posixpath
import sys
from collections.abc import Mapping
from pathlib import Path, PureWindowsPath
from typing import Any, TextIO
from urllib.parse import quote

from validator import __version__
from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.findings.fingerprint import fingerprint
from validator.findings.project_root import (
    STDIN_ARTIFACT,
    find_root,
    fingerprint_file,
    is_stdin,
    relative_to_root,
)
from validator.formats.base import TOOL_NAME, Reporter, evidence, json_default, project_url
from validator.i18n import _

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
# GitHub code scanning refuses a run with more results than this (its documented upload limit).
MAX_RESULTS = 25_000
FINGERPRINT_KEY = "casinoValidator/v1"
_LEVELS = {"error": "error", "warning": "warning"}
# Keys of a result's property bag, in docs/findings.md order; each only when the finding has it.
_RESULT_PROPERTIES = ("round", "stake", "path", "expected", "actual", "caused_by")


def artifact_location(file: str, root: str | None = None) -> dict[str, str]:
    """A log path as a SARIF artifactLocation.

    A path under the root becomes relative (forward slashes, percent-encoded) and is tied to
    %SRCROOT%, so dashboards resolve it against the checkout; standard input is the plain artifact
    `stdin`; any other path becomes an absolute `file://` URI, which needs no base.
    """
    root = os.path.abspath(root or find_root())
    if is_stdin(file):
        return {"uri": STDIN_ARTIFACT}
    windows = PureWindowsPath(file)
    if windows.drive or file.startswith("\\\\"):
        return {"uri": windows.as_uri()} if windows.is_absolute() else _relative(windows.as_posix())
    relative = relative_to_root(file, root)
    if relative is not None:
        return _relative(relative)
    return {"uri": Path(os.path.abspath(file)).as_uri()}


def _relative(path: str) -> dict[str, str]:
    path = posixpath.normpath(path.replace(os.sep, "/"))
    return {"uri": quote(path, safe="/"), "uriBaseId": SRCROOT}


class SarifReporter(Reporter):
    name = "sarif"

    def __init__(
        self,
        out: TextIO,
        *,
        color: bool = False,
        tool_version: str = __version__,
        root: str | None = None,
        err: TextIO | None = None,
    ) -> None:
        super().__init__(out, color=color, tool_version=tool_version)
        self.root = os.path.abspath(root) if root is not None else find_root()
        self._err = err
        # Each result's finding, the table and time of its round, and the suppression's reason if any.
        self._findings: list[
            tuple[Finding, str | None, str | None, str | None, Mapping[str, str] | None]
        ] = []
        self._left_out = 0
        self._kinds: dict[str, set[str]] = {}
        self._first: dict[str, Finding] = {}

    def round(self, outcome: RoundOutcome) -> None:
        shown = [(f, None) for f in outcome.findings] + [(f, why) for f, why in outcome.suppressed]
        for finding, reason in shown:
            self._kinds.setdefault(finding.rule, set()).add(finding.kind)
            self._first.setdefault(finding.rule, finding)
            if len(self._findings) < MAX_RESULTS:
                self._findings.append((finding, outcome.table, outcome.at, reason, outcome.titles))
            else:
                self._left_out += 1

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        descriptors = self._rules(rules)
        index = {descriptor["id"]: i for i, descriptor in enumerate(descriptors)}
        invocation: dict[str, Any] = {"executionSuccessful": True}
        if self._left_out:
            total = len(self._findings) + self._left_out
            text = _(
                "{left_out} of {total} results left out: a SARIF run holds at most {limit} (GitHub code "
                "scanning's limit); these are the first {limit} in report order, and the exit status counts "
                "them all"
            ).format(left_out=f"{self._left_out:,}", total=f"{total:,}", limit=f"{MAX_RESULTS:,}")
            invocation["toolExecutionNotifications"] = [{"level": "warning", "message": {"text": text}}]
            err = self._err if self._err is not None else sys.stderr
            err.write(f"{TOOL_NAME}: sarif: {text}\n")
        driver: dict[str, Any] = {"name": TOOL_NAME, "version": self.tool_version}
        url = project_url()
        if url is not None:
            driver["informationUri"] = url
        driver["rules"] = descriptors
        run: dict[str, Any] = {
            "tool": {"driver": driver},
            "invocations": [invocation],
            "originalUriBaseIds": {SRCROOT: {"uri": Path(self.root).as_uri().rstrip("/") + "/"}},
            "results": [
                self._result(finding, table, at, reason, index[finding.rule], titles)
                for finding, table, at, reason, titles in self._findings
            ],
            # The counts a dashboard cannot rebuild from results: clean and unreadable rounds, money.
            "properties": {"summary": summary.as_dict()},
        }
        log = {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}
        self.out.write(json.dumps(log, indent=2, ensure_ascii=False, default=json_default) + "\n")

    def _rules(self, rules: Mapping[str, RuleInfo]) -> list[dict[str, Any]]:
        descriptors = []
        for rule_id in sorted(set(rules) | set(self._first)):
            info = rules.get(rule_id)
            tags = sorted(self._kinds.get(rule_id, ()))
            descriptors.append(
                _descriptor(info, tags) if info else _descriptor_from(self._first[rule_id], tags)
            )
        return descriptors

    def _result(
        self,
        finding: Finding,
        table: str | None,
        at: str | None,
        reason: str | None,
        rule_index: int,
        titles: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        physical: dict[str, Any] = {"artifactLocation": artifact_location(finding.file, self.root)}
        if finding.line is not None and finding.line >= 1:  # SARIF lines start at 1
            physical["region"] = {"startLine": finding.line}
        properties: dict[str, Any] = {"kind": finding.kind}
        for key in _RESULT_PROPERTIES:
            value = getattr(finding, key)
            if value is not None:
                properties[key] = value
        result: dict[str, Any] = {
            "ruleId": finding.rule,
            "ruleIndex": rule_index,
            "level": _LEVELS[finding.severity],
            "message": {"text": evidence(finding, table, at, titles)},
            "locations": [{"physicalLocation": physical}],
            "partialFingerprints": {
                FINGERPRINT_KEY: fingerprint(finding, fingerprint_file(finding.file, self.root))
            },
            "properties": properties,
        }
        if reason is not None:
            # Suppressed in the house file (`# casino-validator: ignore[RULE] reason`): reported, marked.
            result["suppressions"] = [{"kind": "inSource", "justification": reason}]
        return result


def _descriptor(info: RuleInfo, tags: list[str]) -> dict[str, Any]:
    """A rule described by its own docs: what it checks, then why (the text's words), what fails and
    what passes, and the reference; never its message template."""
    properties: dict[str, Any] = {"ref": info.ref}
    if tags:
        properties["tags"] = tags
    short = info.summary or info.id
    sections = [("Why", info.doc), ("Fails", info.fails), ("Passes", info.passes), ("Reference", info.ref)]
    full = f"{info.doc or short} ({info.ref})" if info.ref else (info.doc or short)
    return {
        "id": info.id,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {
            "text": "\n".join([short, *(f"{name}: {text}" for name, text in sections if text)]),
            "markdown": "\n\n".join([short, *(f"**{name}:** {text}" for name, text in sections if text)]),
        },
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
