"""What is reported and what fails (validator/catalogue/policy.py), through the real command in process:
--select/--ignore, the configuration file, --fail-level, baselines and inline suppressions; every
format obeys the same decision."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from validator.cli import app

ROOT = Path(__file__).resolve().parents[1]
DISPUTES = ROOT / "samples/logs/disputes"
MISTAKES = ROOT / "samples/house/mistakes.yaml"
# A blackjack at 2016 paid even money, the dealer stood on 17 while drawing…: seven findings in this log.
BJ = DISPUTES / "BJ-03-2016-06-11.jsonl"

WARNING_ONLY = """\
format: house-rules/1
casino: Test
tables:
  BJ-01:
    ruleset: fr/blackjack
    minimum: 10
    maximum: 1000
    seats: 7
    options:
      blackjack_pays: "3:2"
"""


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout


def json_run(*args: str) -> tuple[int, dict]:
    status, out = invoke(*args, "--format", "json")
    return status, json.loads(out)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no configuration file above, unless a test writes one


def rules_of(doc: dict) -> list[str]:
    return [f["rule"] for f in doc["findings"]]


def test_select_and_ignore_by_id_or_prefix() -> None:
    status, doc = json_run("check", str(BJ), "-q")
    assert status == 1 and len(doc["findings"]) == 7
    status, doc = json_run("check", str(BJ), "-q", "--select", "fr/blackjack/split-,fr/blackjack/double-")
    assert rules_of(doc) == ["fr/blackjack/split-pairs-only", "fr/blackjack/double-two-cards"]
    assert doc["summary"]["findings"]["total"] == 2
    assert doc["summary"]["left_out"]["ignored"] == 5
    assert status == 1
    status, doc = json_run("check", str(BJ), "-q", "--ignore", "fr/")
    assert status == 0 and doc["findings"] == []
    assert doc["summary"]["rounds"]["clean"] == 7 and doc["summary"]["rounds"]["with_findings"] == 0
    assert "7 findings left out by --select/--ignore" in doc["summary"]["notes"]


def test_an_unknown_rule_prefix_is_refused() -> None:
    status, _ = invoke("check", str(BJ), "-q", "--select", "fr/blakjack/")
    assert status == 2


@pytest.mark.parametrize("fmt", ["text", "jsonl", "sarif", "junit", "github"])
def test_every_format_obeys(fmt: str) -> None:
    status, out = invoke("check", str(BJ), "-q", "--select", "fr/blackjack/split-pairs-only", "--format", fmt)
    assert status == 1
    assert "split-pairs-only" in out
    if fmt == "sarif":  # its rule list names every rule; the results only the one selected
        assert [r["ruleId"] for r in json.loads(out)["runs"][0]["results"]] == [
            "fr/blackjack/split-pairs-only"
        ]
    else:
        assert "dealer-stands-17" not in out


def test_configuration_file_from_the_current_folder_upwards(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.casino-validator]\nselect = ["fr/blackjack/lower-total-loses"]\n', encoding="utf-8"
    )
    (tmp_path / "deep" / "er").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "deep" / "er")
    _, doc = json_run("check", str(BJ), "-q")
    assert rules_of(doc) == ["fr/blackjack/lower-total-loses"]
    _, doc = json_run("check", str(BJ), "-q", "--no-config")
    assert len(doc["findings"]) == 7
    # casino-validator.toml nearer the current folder wins; the command line replaces the file's lists.
    (tmp_path / "deep" / "casino-validator.toml").write_text('ignore = ["fr/"]\n', encoding="utf-8")
    status, doc = json_run("check", str(BJ), "-q")
    assert status == 0 and doc["findings"] == []
    _, doc = json_run("check", str(BJ), "-q", "--ignore", "fr/blackjack/lower-")
    assert len(doc["findings"]) == 6
    other = tmp_path / "other.toml"
    other.write_text('fail-level = "warning"\nselect = ["fr/blackjack/split-"]\n', encoding="utf-8")
    _, doc = json_run("check", str(BJ), "-q", "--config", str(other))
    assert rules_of(doc) == ["fr/blackjack/split-pairs-only"]


@pytest.mark.parametrize(
    "text",
    ['selct = ["fr/"]\n', 'fail-level = "info"\n', "select = 3\n", "select = [\n"],
)
def test_a_bad_configuration_file_is_exit_2(tmp_path: Path, text: str) -> None:
    (tmp_path / "casino-validator.toml").write_text(text, encoding="utf-8")
    status, _ = invoke("check", str(BJ), "-q")
    assert status == 2


def test_fail_level(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(WARNING_ONLY, encoding="utf-8")
    status, out = invoke("lint", str(house), "--date", "2025-06-24")
    assert status == 0
    assert "house/fixed-by-regulation" in out
    assert "1 findings below the fail level (error): the run passes" in out
    status, _ = invoke("lint", str(house), "--date", "2025-06-24", "--fail-level", "warning")
    assert status == 1
    status, _ = invoke("lint", str(MISTAKES), "--date", "2025-06-24")
    assert status == 1


def test_baseline_reports_only_new_findings(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copy(BJ, logs / BJ.name)
    status, _ = invoke("check", "logs", "-q", "--write-baseline", "base.json")
    assert status == 0
    base = json.loads((tmp_path / "base.json").read_text(encoding="utf-8"))
    assert base["version"] == 1 and len(base["findings"]) == 7
    assert {e["file"] for e in base["findings"]} == {f"logs/{BJ.name}"}
    status, doc = json_run("check", "logs", "-q", "--baseline", "base.json")
    assert status == 0 and doc["findings"] == []
    assert doc["summary"]["left_out"]["baselined"] == 7
    assert "baseline base.json: 7 known findings not reported" in doc["summary"]["notes"]
    # A new finding (another log) is reported; the known ones stay out.
    shutil.copy(DISPUTES / "BA-01-2025-02-01.jsonl", logs)
    status, doc = json_run("check", "logs", "-q", "--baseline", "base.json")
    assert status == 1
    assert {f["rule"].split("/")[1] for f in doc["findings"]} == {"bataille"}
    assert doc["summary"]["left_out"]["baselined"] == 7
    (tmp_path / "bad.json").write_text("[]", encoding="utf-8")
    assert invoke("check", "logs", "-q", "--baseline", "bad.json")[0] == 2
    assert invoke("check", "logs", "-q", "--baseline", "missing.json")[0] == 2


def test_inline_suppression_and_unused_ones(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        WARNING_ONLY.replace(
            '      blackjack_pays: "3:2"\n',
            '      blackjack_pays: "3:2"  # casino-validator: ignore[house/fixed-by-regulation] shown\n'
            "      # casino-validator: ignore[house/option-not-allowed] agreed with the commission\n"
            "      max_split_hands: 99\n"
            "      # casino-validator: ignore[house/unknown-key] stale\n"
            "      surrender: true\n",
        ),
        encoding="utf-8",
    )
    status, doc = json_run("lint", str(house), "--date", "2025-06-24")
    assert [(f["rule"], f["line"], f["severity"]) for f in doc["findings"]] == [
        ("house/unused-suppression", 13, "warning")
    ]
    assert status == 0
    assert doc["summary"]["left_out"]["suppressions"] == {
        f"{house}:10: house/fixed-by-regulation: shown": 1,
        f"{house}:11: house/option-not-allowed: agreed with the commission": 1,
    }
    status, out = invoke("lint", str(house), "--date", "2025-06-24")
    assert "suppressed inline (1):" in out and "agreed with the commission" in out


def test_jobs_give_the_same_decision() -> None:
    _, one = json_run("check", str(DISPUTES), "-q", "--ignore", "fr/blackjack/")
    _, two = json_run("check", str(DISPUTES), "-q", "--ignore", "fr/blackjack/", "--jobs", "2")
    assert one == two
    assert one["summary"]["findings"]["total"] == 4
    assert all(count > 0 for count in one["summary"]["findings"]["by_rule"].values())


def test_the_pre_commit_hook_as_the_docs_write_it() -> None:
    """docs/lint.md's configuration snippet names this repository's hook, pinned to a full commit id
    (no release is tagged); the README links there and writes no tag either."""
    import re

    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "casino-validator-lint"]
    assert hook["entry"] == "casino-validator lint" and hook["pass_filenames"] is True
    files = re.compile(hook["files"])
    assert files.search("house/trouville.yaml") and files.search("casinos/nord/house/bj.yml")
    assert not files.search("houses.yaml") and not files.search("house/notes.txt")
    assert "v0.1.0" not in (ROOT / "README.md").read_text(encoding="utf-8")
    page = (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    assert "v0.1.0" not in page
    snippet = page[page.index("repos:\n") :].split("```")[0]
    config = yaml.safe_load(snippet)
    assert re.fullmatch(r"[0-9a-f]{40}", config["repos"][0]["rev"])
    assert config["repos"][0]["hooks"][0]["id"] == hook["id"]
