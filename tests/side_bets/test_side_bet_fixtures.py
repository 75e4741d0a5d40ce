"""The side-bet rule fixtures on disk are the ones make_fixtures.py writes (so the script, with its
comments on how each expected finding follows from the text, stays the fixtures' source), and every
side-bet rule of every version has them (tests/rules/test_rule_fixtures.py checks coverage for all rules)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures" / "rules" / "fr"


def test_fixture_files_are_what_the_script_writes(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("make_side_bet_fixtures", HERE / "make_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "ROOT", tmp_path)
    module.main()
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert written
    for relative in written:
        on_disk = FIXTURES / relative
        assert on_disk.exists(), f"{on_disk} is missing: run python tests/side_bets/make_fixtures.py"
        assert on_disk.read_text(encoding="utf-8") == (tmp_path / relative).read_text(encoding="utf-8"), (
            relative
        )


def test_every_failing_side_bet_fixture_names_rule_kind_stake_expected_and_actual():
    import json

    source = (HERE / "make_fixtures.py").read_text(encoding="utf-8")
    rule_dirs = {d for d in FIXTURES.glob("*/*") if f'"{d.name}"' in source}
    assert len(rule_dirs) >= 28
    for folder in rule_dirs:
        failing = [json.loads(p.read_text(encoding="utf-8")) for p in folder.glob("fails-*.expect.json")]
        assert failing, folder
        for expectation in failing:
            for finding in expectation["findings"]:
                assert {"rule", "kind", "stake", "expected", "actual"} <= finding.keys(), folder
