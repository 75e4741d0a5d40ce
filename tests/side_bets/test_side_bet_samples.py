"""samples/logs/side-bets/: the clean séance checks clean with BJ-07's house rules, and the séance with
errors gives exactly the findings samples/logs/side-bets/README.md lists, worked out from art. 55-4."""

from __future__ import annotations

import json
import re

from conftest import ROOT, SAMPLES, run_cli

SIDE = SAMPLES / "logs" / "side-bets"
HOUSE = SAMPLES / "house" / "trouville.yaml"


def _readme_rows() -> list[tuple]:
    rows = []
    for line in (SIDE / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if len(cells) != 8 or not cells[0].isdigit():
            continue
        line_no, _round, _what, rule, kind, stake, expected, actual = cells
        unquote = lambda c: re.sub(r"^`|`$", "", c)  # noqa: E731
        rows.append(
            (
                int(line_no),
                unquote(rule),
                kind,
                None if stake == "—" else unquote(stake),
                json.loads(unquote(expected)),
                json.loads(unquote(actual)),
            )
        )
    return rows


def test_the_clean_sample_checks_clean():
    result = run_cli(
        "check", str(SIDE / "clean-BJ-07-side-bets.jsonl"), "--house", str(HOUSE), "--format", "json"
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    summary = json.loads(result.stdout)["summary"]
    assert summary["rounds"]["clean"] == 11


def test_the_errors_sample_gives_the_findings_of_its_readme():
    result = run_cli(
        "check", str(SIDE / "errors-BJ-07-side-bets.jsonl"), "--house", str(HOUSE), "--format", "json"
    )
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    got = [(f["line"], f["rule"], f["kind"], f["stake"], f["expected"], f["actual"]) for f in doc["findings"]]
    # The README writes expected/actual as the report does, in an auditor's words.
    assert got == _readme_rows()
    assert len(got) == 12
    assert doc["summary"]["money"] == {"overpaid_by_house": "150", "underpaid_to_players": "0"}


def test_the_samples_are_what_the_script_writes(tmp_path, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_side_bet_samples", ROOT / "scripts" / "make_side_bet_samples.py"
    )
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "OUT", tmp_path)
    module.main()
    for name in ("clean-BJ-07-side-bets.jsonl", "errors-BJ-07-side-bets.jsonl"):
        assert (tmp_path / name).read_text(encoding="utf-8") == (SIDE / name).read_text(encoding="utf-8")
