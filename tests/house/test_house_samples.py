"""samples/house/: trouville.yaml is clean and makes the clean sample logs check clean; mistakes.yaml gives
the finding each of its comments announces; the pre-commit hook and the schema the package ships."""

from __future__ import annotations

import json
import re
import tomllib

import yaml
from conftest import ROOT, SAMPLES, run_cli
from house_helpers import lint
from jsonschema import Draft202012Validator

from validator.house.schema import load_schema

TROUVILLE = SAMPLES / "house" / "trouville.yaml"
MISTAKES = SAMPLES / "house" / "mistakes.yaml"
DATE = ("--date", "2025-06-24")  # fr/blackjack@2024-11-01 (art. 55-5 as of 2024) in force


def test_trouville_is_clean():
    assert lint(TROUVILLE, *DATE) == (0, [], "")


def test_trouville_tables_are_those_of_the_sample_logs():
    tables = yaml.safe_load(TROUVILLE.read_text(encoding="utf-8"))["tables"]
    logged = {path.name.split("-20")[0] for path in (SAMPLES / "logs" / "clean").iterdir()}
    assert logged <= set(tables)


def test_clean_samples_check_clean_with_trouville():
    result = run_cli("check", str(SAMPLES / "logs" / "clean"), "--house", str(TROUVILLE), "-f", "json", "-q")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    summary = json.loads(result.stdout)["summary"]
    assert summary["rounds"]["read"] == summary["rounds"]["clean"] > 0
    assert summary["house"] == str(TROUVILLE)


# What each commented line of mistakes.yaml must give (docs/house-rules.md; art. 55-4 and 55-5 of the
# arrêté du 14 mai 2007; the Ontario licence's rules; the description "as played in France").
MISTAKES_EXPECTED = [
    (
        12,
        "fr/blackjack/max-multiple-of-minimum",
        "tables.BJ-11.maximum",
        "Arrêté du 14 mai 2007, art. 55-5, al. 4",
    ),
    (13, "fr/blackjack/max-seven-seats", "tables.BJ-11.seats", "Arrêté du 14 mai 2007, art. 55-4, al. 6"),
    (15, "house/unknown-key", "tables.BJ-11.options.surender", None),
    (
        16,
        "house/fixed-by-regulation",
        "tables.BJ-11.options.blackjack_pays",
        "Arrêté du 14 mai 2007, art. 55-4, 1°, al. 9",
    ),
    (19, "house/option-not-allowed", "tables.BJ-11.side_bets.lucky_ladies.paytable", None),
    (27, "house/unknown-side-bet", "tables.BJ-12.side_bets.hyper_blackjack", None),
    (35, "house/unknown-key", "tables.ON-02.options.surrender", None),
    (38, "house/required-option", "tables.US-02.options.blackjack_pays", None),
]


def test_mistakes_give_the_findings_their_comments_announce():
    status, findings, stderr = lint(MISTAKES, *DATE)
    assert (status, stderr) == (1, "")
    assert [(f["line"], f["rule"], f["path"]) for f in findings] == [e[:3] for e in MISTAKES_EXPECTED]
    for finding, (*_, ref) in zip(findings, MISTAKES_EXPECTED, strict=True):
        assert finding["kind"] == "house" and finding["severity"] == "error"
        if ref is not None:
            assert finding["ref"] == ref
    assert "did you mean surrender?" in findings[2]["message"]
    assert "5°" in findings[4]["ref"]
    # The file documents each finding beside the line it is about.
    announced = re.findall(r"# → (\S+?)[: ]", MISTAKES.read_text(encoding="utf-8"))
    assert announced == [e[1] for e in MISTAKES_EXPECTED]


def test_pre_commit_hook():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = [h for h in hooks if h["id"] == "casino-validator-lint"]
    assert hook["id"] == "casino-validator-lint"
    assert hook["entry"] == "casino-validator lint"
    assert hook["language"] == "python"
    files = re.compile(hook["files"])
    for path in ("samples/house/trouville.yaml", "house/casino.yml", "config/house/BJ.yaml"):
        assert files.search(path), path
    for path in (
        "samples/logs/clean/BJ-03-2016-06-10.jsonl",
        "rulesets/fr/blackjack/x.yaml",
        "housekeeping.yaml",
        "house/notes.txt",
    ):
        assert not files.search(path), path


def test_the_schema_is_package_data_and_accepts_the_samples():
    schema = load_schema()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    for path in (TROUVILLE, MISTAKES):
        assert list(validator.iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))) == []
    # The wheel ships the package folder whole (hatch `packages`): validator/house/schema.json goes with it.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "validator" in config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    assert (ROOT / "validator" / "house" / "schema.json").is_file()
