"""SARIF as GitHub code scanning takes it, driven through the real command: the 25,000-result cap,
fingerprints that survive another folder and another clone, URIs under %SRCROOT%, standard input as
`stdin`, and rule descriptors written from the rules' own docs."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_report_sarif import assert_valid
from typer.testing import CliRunner

from validator.checking.serial import rule_catalogue
from validator.cli import app
from validator.findings.finding import Finding
from validator.findings.fingerprint import fingerprint
from validator.formats.sarif import FINGERPRINT_KEY, MAX_RESULTS
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
DISPUTE = ROOT / "samples/logs/disputes/BJ-03-2016-06-11.jsonl"
HOUSE = ROOT / "samples/house/trouville.yaml"


def run(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """The real command in a fresh process (kept for the 30,000-finding run and a bad --sarif-root)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-P", "-m", "validator", *args],
        capture_output=True,
        cwd=cwd,
        env=env,
        input=stdin,
        check=False,
    )


def sarif(*args: str, cwd: Path, stdin: bytes | None = None) -> tuple[dict[str, Any], str, int]:
    """The command in process, run from `cwd` (the root is found from there, as in a real run)."""
    options = ["--format", "sarif", *(["-q"] if args[0] == "check" else [])]
    with contextlib.chdir(cwd):
        result = CliRunner().invoke(app, [*args, *options], input=stdin)
    return json.loads(result.stdout), result.stderr, result.exit_code


def git_checkout(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    (folder / "logs" / "june").mkdir(parents=True)
    shutil.copy(DISPUTE, folder / "logs" / "june" / DISPUTE.name)
    (folder / "tools").mkdir()
    return folder


def test_at_most_25000_results_and_the_rest_counted(tmp_path: Path) -> None:
    # 30,000 lines that are not JSON: 30,000 format findings, quickly read.
    (tmp_path / "big.jsonl").write_text(
        '{"type": "table", "format": "hand-log/1"\n' * 30_000, encoding="utf-8"
    )
    # Broken lines in a row are reported one by one only up to --max-broken-records: let them all be.
    done = run("check", "big.jsonl", "--format", "sarif", "-q", "--max-broken-records", "40000", cwd=tmp_path)
    log, err, status = json.loads(done.stdout), done.stderr.decode(), done.returncode
    assert status == 1
    run_ = log["runs"][0]
    assert len(run_["results"]) == MAX_RESULTS == 25_000
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in run_["results"][:3]] == [
        1,
        2,
        3,
    ]
    assert run_["results"][-1]["locations"][0]["physicalLocation"]["region"]["startLine"] == 25_000
    assert run_["properties"]["summary"]["findings"]["total"] == 30_000
    (notification,) = run_["invocations"][0]["toolExecutionNotifications"]
    assert notification["level"] == "warning"
    assert notification["message"]["text"].startswith("5,000 of 30,000 results left out")
    assert "5,000 of 30,000 results left out" in err
    small = {**log, "runs": [{**run_, "results": run_["results"][:20]}]}
    assert_valid(small)


def test_fingerprints_are_the_same_from_two_folders_and_two_clones(tmp_path: Path) -> None:
    first = git_checkout(tmp_path / "alice" / "casino")
    second = git_checkout(tmp_path / "ci" / "work" / "casino-2")
    log_a, _, status_a = sarif("check", "logs/june/" + DISPUTE.name, cwd=first)
    log_b, _, status_b = sarif("check", "../logs/june/" + DISPUTE.name, cwd=second / "tools")
    assert status_a == status_b == 1
    results_a, results_b = log_a["runs"][0]["results"], log_b["runs"][0]["results"]
    assert len(results_a) == len(results_b) == 7
    prints_a = [r["partialFingerprints"][FINGERPRINT_KEY] for r in results_a]
    assert prints_a == [r["partialFingerprints"][FINGERPRINT_KEY] for r in results_b]
    assert len(set(prints_a)) == 7
    for result in results_a + results_b:
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
            "uri": "logs/june/" + DISPUTE.name,
            "uriBaseId": "%SRCROOT%",
        }
    # The one fingerprint function, given the path relative to the root.
    first_result = results_a[0]
    finding = Finding(
        first_result["properties"]["kind"],
        first_result["ruleId"],
        "",
        first_result["level"],
        "anywhere",
        None,
        first_result["message"]["text"],
        round=first_result["properties"].get("round"),
        stake=first_result["properties"].get("stake"),
    )
    assert prints_a[0] == fingerprint(finding, "logs/june/" + DISPUTE.name)
    assert log_a["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"uri": first.as_uri() + "/"}}
    assert log_b["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"uri": second.as_uri() + "/"}}
    assert_valid(log_a)


def test_sarif_root_and_the_current_folder_outside_git(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    (plain / "in").mkdir(parents=True)
    shutil.copy(DISPUTE, plain / "in" / "a.jsonl")
    log, _, _ = sarif("check", "in/a.jsonl", cwd=plain)  # no git work tree: the current folder
    run_ = log["runs"][0]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == plain.as_uri() + "/"
    assert run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "in/a.jsonl"
    log, _, _ = sarif("check", "in/a.jsonl", "--sarif-root", "in", cwd=plain)
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "a.jsonl",
        "uriBaseId": "%SRCROOT%",
    }
    done = run("check", "in/a.jsonl", "--format", "sarif", "--sarif-root", "nowhere", cwd=plain)
    assert done.returncode == 2
    assert b"--sarif-root nowhere: no such folder" in done.stderr


def test_standard_input_is_the_artifact_stdin(tmp_path: Path) -> None:
    log, _, status = sarif("check", "-", cwd=tmp_path, stdin=DISPUTE.read_bytes())
    assert status == 1
    for result in log["runs"][0]["results"]:
        assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "stdin"}
    assert_valid(log)


def test_rule_descriptors_come_from_the_rules_docs() -> None:
    catalogue = rule_catalogue(default_registry())
    assert "hand-log/schema" in catalogue and "ruleset/no-version-in-force" in catalogue
    log, _, _ = sarif("check", str(DISPUTE), cwd=ROOT)
    descriptors = log["runs"][0]["tool"]["driver"]["rules"]
    ids = {d["id"] for d in descriptors}
    assert {"fr/blackjack/dealer-stands-17", "hand-log/invalid-json", "hand-log/truncated"} <= ids
    for descriptor in descriptors:
        short = descriptor["shortDescription"]["text"]
        assert "{" not in short and short != descriptor["id"], descriptor["id"]
        markdown = descriptor["help"]["markdown"]
        for section in ("**Why:**", "**Fails:**", "**Passes:**", "**Reference:**"):
            assert section in markdown, (descriptor["id"], section)
    stands = next(d for d in descriptors if d["id"] == "fr/blackjack/dealer-stands-17")
    rule = default_registry().pick("fr/blackjack@2016-06-11").rules
    doc = next(r for r in rule if r.id == "fr/blackjack/dealer-stands-17").doc
    assert stands["shortDescription"]["text"] == doc["checks"]
    assert doc["why"] in stands["fullDescription"]["text"]


def test_lint_sarif_describes_the_house_rules() -> None:
    log, _, status = sarif("lint", "samples/house/mistakes.yaml", cwd=ROOT)
    assert status == 1
    descriptors = {d["id"]: d for d in log["runs"][0]["tool"]["driver"]["rules"]}
    assert "house/unknown-key" in descriptors and "hand-log/schema" not in descriptors
    assert descriptors["house/unknown-key"]["shortDescription"]["text"] == (
        "Every key of a table entry is one the ruleset declares."
    )
    for result in log["runs"][0]["results"]:
        assert FINGERPRINT_KEY in result["partialFingerprints"]
    assert_valid(log)


@pytest.mark.parametrize("prefix", ["hand-log/", "house/"])
def test_python_side_rules_have_docs(prefix: str) -> None:
    from validator.catalogue.builtin_docs import BUILTIN

    docs = [d for d in BUILTIN.values() if d.id.startswith(prefix)]
    assert len(docs) >= 9
    for doc in docs:
        assert doc.checks and doc.why and doc.fails and doc.passes and doc.ref.endswith(".md)")
