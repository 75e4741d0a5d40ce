"""SARIF output against the official SARIF 2.1.0 JSON Schema (OASIS, `sarif-schema-2.1.0.json`, kept
verbatim next to this file), with and without results, plus what the schema cannot see: rule indexes,
locations, and the rules listed."""

from __future__ import annotations

import copy
import io
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, FormatChecker
from jsonschema.exceptions import ValidationError
from report_fixtures import (
    FILE_B,
    FINDINGS,
    RULES,
    TOOL_VERSION,
    clean_summary,
    render_clean,
    render_full,
    render_run,
)

from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.formats.base import evidence, project_url
from validator.formats.sarif import SarifReporter, artifact_location

SCHEMA_PATH = Path(__file__).parent / "sarif-schema-2.1.0.json"

# RFC 3986 characters: unreserved, reserved, or a %HH escape. jsonschema only checks "uri" formats with
# an optional package, so the two formats SARIF uses for our fields are checked here.
_URI_CHARS = re.compile(r"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_FORMATS = FormatChecker(formats=())


@_FORMATS.checks("uri-reference")
def _is_uri_reference(value: object) -> bool:
    if not isinstance(value, str) or not _URI_CHARS.fullmatch(value):
        return False
    # Without a scheme, a colon in the first segment would make it read as one (RFC 3986 §4.2).
    return bool(_SCHEME.match(value)) or ":" not in value.split("/", 1)[0]


@_FORMATS.checks("uri")
def _is_uri(value: object) -> bool:
    return isinstance(value, str) and bool(_SCHEME.match(value)) and _is_uri_reference(value)


@cache
def sarif_validator() -> Draft7Validator:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema, format_checker=_FORMATS)


def assert_valid(log: dict[str, Any]) -> None:
    errors = sorted(sarif_validator().iter_errors(log), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_schema_is_the_official_one() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert schema["properties"]["version"]["enum"] == ["2.1.0"]
    assert schema["definitions"]["region"]["properties"]["startLine"]["minimum"] == 1


def test_with_results_is_valid_sarif() -> None:
    log = json.loads(render_full("sarif"))
    assert_valid(log)
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert len(log["runs"]) == 1
    assert len(log["runs"][0]["results"]) == len(FINDINGS)


def test_with_zero_results_is_valid_sarif() -> None:
    log = json.loads(render_clean("sarif"))
    assert_valid(log)
    run = log["runs"][0]
    assert run["results"] == []
    assert run["invocations"] == [{"executionSuccessful": True}]
    # The rules are listed even though nothing broke them.
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == sorted(RULES)


def test_with_no_rules_and_no_results_is_valid_sarif() -> None:
    log = json.loads(render_run("sarif", (), Summary(), {}))
    assert_valid(log)
    assert log["runs"][0]["tool"]["driver"]["rules"] == []
    assert log["runs"][0]["results"] == []


def test_the_schema_check_is_real() -> None:
    """The validation above must be able to fail: broken logs are refused."""
    log = json.loads(render_full("sarif"))
    broken = []
    for path, value in (
        (("version",), "2.0.0"),
        (("runs", 0, "results", 0, "level"), "fatal"),
        (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startLine"), 0),
        (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "artifactLocation", "uri"), "a b"),
        (("runs", 0, "tool", "driver", "rules", 0, "defaultConfiguration", "level"), "fatal"),
    ):
        copy_ = copy.deepcopy(log)
        target = copy_
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        broken.append(copy_)
    no_message = copy.deepcopy(log)
    del no_message["runs"][0]["results"][0]["message"]
    broken.append(no_message)
    for log_ in broken:
        with pytest.raises(ValidationError):
            sarif_validator().validate(log_)


def test_driver_and_rules() -> None:
    driver = json.loads(render_full("sarif"))["runs"][0]["tool"]["driver"]
    assert driver["name"] == "casino-validator"
    assert driver["version"] == TOOL_VERSION
    # The project's address where pyproject.toml declares one (tests/report/test_ci_evidence.py), else none.
    assert driver.get("informationUri") == project_url()
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == sorted(ids)
    # Every rule given, plus the reader's format rules met in findings.
    assert set(ids) == set(RULES) | {"hand-log/invalid-json", "hand-log/truncated"}
    by_id = {rule["id"]: rule for rule in driver["rules"]}
    for rule_id, info in RULES.items():
        rule = by_id[rule_id]
        assert rule["shortDescription"]["text"] == info.summary
        assert rule["fullDescription"]["text"] == f"{info.doc or info.summary} ({info.ref})"
        assert rule["help"]["markdown"].startswith(info.summary)
        assert rule["help"]["markdown"].endswith(f"**Reference:** {info.ref}")
        assert ("**Why:** " + info.doc in rule["help"]["markdown"]) == bool(info.doc)
        assert rule["properties"]["ref"] == info.ref
        assert rule["defaultConfiguration"]["level"] == info.severity
    assert by_id["fr/blackjack/burn-first-card"]["defaultConfiguration"]["level"] == "warning"
    assert by_id["fr/blackjack/natural-pays-3-to-2"]["properties"]["tags"] == ["payout"]
    assert "tags" not in by_id["fr/blackjack/split-aces-one-card"]["properties"]
    truncated = by_id["hand-log/truncated"]
    assert truncated["fullDescription"]["text"] == "hand-log/1 (docs/hand-log.md)"
    assert truncated["properties"] == {"ref": "hand-log/1 (docs/hand-log.md)", "tags": ["format"]}


def test_results_point_to_their_rule_and_place() -> None:
    run = json.loads(render_full("sarif"))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result, finding in zip(run["results"], FINDINGS, strict=True):
        assert result["ruleId"] == finding.rule
        assert rules[result["ruleIndex"]]["id"] == finding.rule
        assert result["level"] == finding.severity
        assert result["message"]["text"] == evidence(finding)
        physical = result["locations"][0]["physicalLocation"]
        if finding.line is None:
            assert "region" not in physical
        else:
            assert physical["region"] == {"startLine": finding.line}
        props = result["properties"]
        assert props["kind"] == finding.kind
        assert props.get("round") == finding.round
        assert props.get("stake") == finding.stake
        assert props.get("expected") == finding.expected
        assert props.get("actual") == finding.actual
    truncated = run["results"][-1]["locations"][0]["physicalLocation"]
    uri = {"uri": "logs/salle%202/table%2C9.jsonl", "uriBaseId": "%SRCROOT%"}
    assert truncated["artifactLocation"] == uri
    assert FILE_B == "logs/salle 2/table,9.jsonl"


def test_summary_rides_along_in_run_properties() -> None:
    run = json.loads(render_clean("sarif"))["runs"][0]
    assert run["properties"]["summary"] == clean_summary().as_dict()


def test_a_line_below_one_has_no_region() -> None:
    finding = Finding(
        "format", "hand-log/x", "hand-log/1", "error", "a.jsonl", 0, "Broken.", path="table.limits"
    )
    out = io.StringIO()
    reporter = SarifReporter(out)
    reporter.round(RoundOutcome("a.jsonl", 0, None, (finding,)))
    reporter.finish(Summary(), {})
    log = json.loads(out.getvalue())
    assert_valid(log)
    result = log["runs"][0]["results"][0]
    assert "region" not in result["locations"][0]["physicalLocation"]
    assert result["properties"] == {"kind": "format", "path": "table.limits"}
    assert log["runs"][0]["tool"]["driver"]["version"]  # the package version by default


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("logs/a.jsonl", {"uri": "logs/a.jsonl", "uriBaseId": "%SRCROOT%"}),
        ("./logs//a.jsonl", {"uri": "logs/a.jsonl", "uriBaseId": "%SRCROOT%"}),
        ("logs\\day 1\\a.jsonl", {"uri": "logs/day%201/a.jsonl", "uriBaseId": "%SRCROOT%"}),
        ("ROOT/logs/été.jsonl", {"uri": "logs/%C3%A9t%C3%A9.jsonl", "uriBaseId": "%SRCROOT%"}),
        ("/var/log/casino/a b.jsonl", {"uri": "file:///var/log/casino/a%20b.jsonl"}),
        ("C:\\logs\\a.jsonl", {"uri": "file:///C:/logs/a.jsonl"}),
        ("<stdin>", {"uri": "stdin"}),
    ],
)
def test_artifact_location(path: str, expected: dict[str, str], tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "checkout"
    root.mkdir()
    monkeypatch.chdir(root)
    location = artifact_location(path.replace("ROOT", str(root)), root=str(root))
    assert location == expected
    assert _is_uri_reference(location["uri"])


def test_paths_outside_the_root_are_absolute(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "checkout"
    (root / "sub").mkdir(parents=True)
    monkeypatch.chdir(root / "sub")
    assert artifact_location("../logs/a.jsonl", root=str(root)) == {
        "uri": "logs/a.jsonl",
        "uriBaseId": "%SRCROOT%",
    }
    assert artifact_location("../../other/a.jsonl", root=str(root)) == {
        "uri": (tmp_path / "other" / "a.jsonl").as_uri()
    }
    sibling = tmp_path / "checkout-2" / "a.jsonl"
    assert artifact_location(str(sibling), root=str(root)) == {"uri": sibling.as_uri()}
