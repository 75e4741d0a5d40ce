"""CI formats carry the evidence: SARIF's `message.text` and GitHub's annotations name the round, the box,
the time and what was expected against what the log shows; SARIF names the project (`informationUri`)
and reports a finding suppressed in a house file with its justification; `--format gitlab` is GitLab
Code Quality JSON, validated against the shape GitLab documents (gitlab-codequality.schema.json here)."""

from __future__ import annotations

import json
import subprocess
import tomllib
from pathlib import Path

from conftest import run_cli
from jsonschema import Draft7Validator

from validator.formats.base import project_url

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = "samples/logs/disputes"
HOUSE = "samples/house/trouville.yaml"


def _run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    # In this process (tests/conftest.py's run_cli, the installed build): what is tested is the formats'
    # text, not a process's start (tests/test_startup.py and tests/test_output_failures.py start real
    # ones). A process of `python -m validator` here also read the source tree, not the installed build.
    return run_cli(*args, cwd=cwd)


def test_the_project_url_is_pyprojects_and_no_placeholder() -> None:
    """SARIF's `informationUri` is the Homepage pyproject.toml declares, and there is none while the
    project has no public address: no address is written that nobody has confirmed."""
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    declared = meta["project"].get("urls", {}).get("Homepage")
    assert project_url() == declared
    sarif = _run("check", f"{DISPUTES}/BJ-03-2016-06-11.jsonl", "-f", "sarif", "-q")
    assert json.loads(sarif.stdout)["runs"][0]["tool"]["driver"].get("informationUri") == declared


def test_sarif_and_github_messages_carry_the_evidence() -> None:
    sarif = _run("check", DISPUTES, "--house", HOUSE, "-f", "sarif", "-q")
    assert sarif.returncode == 1, sarif.stderr
    log = json.loads(sarif.stdout)
    payouts = [r for r in log["runs"][0]["results"] if r["properties"]["kind"] == "payout"]
    assert payouts
    for result in payouts:
        text, props = result["message"]["text"], result["properties"]
        assert f"round {props['round']} at " in text, text
        # What the rules give against what the log shows, in words; the values stay in the properties.
        assert "box " in text and "the rules give " in text and "; the log shows " in text, text
        assert props["expected"] and props["actual"]
    # Round BJ-03/2016-06-11/1/2: box 2's blackjack (A♠ K♦) on a stake of 10, paid 10 where 3 for 2
    # (art. 55-4, 1°) gives 15 (the log's own amounts: samples/logs/disputes/BJ-03-2016-06-11.jsonl).
    assert any(
        "the rules give a payment of 15; the log shows a payment of 10." in r["message"]["text"]
        for r in payouts
    )
    github = _run("check", DISPUTES, "--house", HOUSE, "-f", "github", "-q")
    errors = [line for line in github.stdout.splitlines() if line.startswith("::error")]
    assert any("round " in line and "the rules give " in line and "box " in line for line in errors)


def test_the_sarif_evidence_is_in_the_language_chosen() -> None:
    french = _run("--lang", "fr", "check", f"{DISPUTES}/BJ-03-2016-06-11.jsonl", "-f", "sarif", "-q")
    assert french.returncode == 1, french.stderr
    texts = [r["message"]["text"] for r in json.loads(french.stdout)["runs"][0]["results"]]
    # The same round as above, in the catalog's French (validator/locale/fr/LC_MESSAGES).
    assert any(
        "les règles donnent un paiement de 15 ; le journal montre un paiement de 10." in t for t in texts
    )
    assert not any("the rules give" in t or "expected" in t for t in texts), texts


def test_a_suppressed_finding_is_a_sarif_result_with_its_justification(tmp_path: Path) -> None:
    house = tmp_path / "house" / "casino.yaml"
    house.parent.mkdir()
    house.write_text(
        "format: house-rules/1\n"
        "tables:\n"
        "  BJ-01:\n"
        "    game: blackjack\n"
        "    ruleset: fr/blackjack\n"
        "    minimum: 10\n"
        "    maximum: 1000\n"
        "    seats: 7\n"
        "    colour: green  # casino-validator: ignore[house/unknown-key] the colour is for the staff\n",
        encoding="utf-8",
    )
    plain = _run("lint", str(house), "-f", "json")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert json.loads(plain.stdout)["findings"] == []
    sarif = _run("lint", str(house), "-f", "sarif")
    assert sarif.returncode == 0, sarif.stderr
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["house/unknown-key"]
    assert results[0]["suppressions"] == [
        {"kind": "inSource", "justification": "the colour is for the staff"}
    ]


def test_gitlab_code_quality(tmp_path: Path) -> None:
    schema = json.loads(
        (Path(__file__).parent / "gitlab-codequality.schema.json").read_text(encoding="utf-8")
    )
    Draft7Validator.check_schema(schema)
    done = _run("check", DISPUTES, "--house", HOUSE, "-f", "gitlab", "-q")
    assert done.returncode == 1, done.stderr
    issues = json.loads(done.stdout)
    Draft7Validator(schema).validate(issues)
    json_findings = json.loads(_run("check", DISPUTES, "--house", HOUSE, "-f", "json", "-q").stdout)[
        "findings"
    ]
    assert len(issues) == len(json_findings)
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    assert all(i["location"]["path"].startswith("samples/logs/disputes/") for i in issues)
    assert {i["severity"] for i in issues} <= {"major", "minor"}
    clean = _run("check", "samples/logs/clean", "--house", HOUSE, "-f", "gitlab", "-q")
    assert clean.returncode == 0 and json.loads(clean.stdout) == []
