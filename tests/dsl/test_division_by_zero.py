"""A division by zero in a ruleset from outside (issue 42, item 6): `rules check` accepted it and `check`
crashed on it (DivisionByZero, exit 3). A divisor the version's parameters make 0 is now refused by `rules
check` at its place (exit 2); a divisor that is 0 in one round only (a fact) makes the rule not judged in
that round, which the summary says, as for any condition that cannot be evaluated."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, run_cli
from outside_ruleset import HEAD_LINES, write

LOG = str(ROOT / "samples" / "logs" / "clean" / "BJ-07-2025-03-14.jsonl.gz")


def test_a_divisor_always_0_is_refused_where_it_is_written(tmp_path: Path) -> None:
    for divisor in ("0", "(param.shoe.decks - param.shoe.decks)"):
        path = write(tmp_path, [], f"dealer.total < 100 and dealer.total / {divisor} < 100")  # col 55
        done = run_cli("rules", "check", str(path))
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip() == (
            f"{path}:{HEAD_LINES + 6}:55: division by zero: the divisor is 0 whatever the round"
        )


def test_a_divisor_0_in_a_round_leaves_the_rule_not_judged_there(tmp_path: Path) -> None:
    path = write(tmp_path, [], "dealer.total / (dealer.total - dealer.total) < 100")
    assert run_cli("rules", "check", str(path)).returncode == 0
    done = run_cli("check", LOG, "--rules", str(path), "--ruleset", "zz/bounds", "--no-config", "-f", "json")
    assert done.returncode in (0, 1), done.stderr
    summary = json.loads(done.stdout)["summary"]
    assert "zz/bounds/r1" not in summary["findings"]["by_rule"]
    assert (
        "zz/bounds/r1: dealer.total / (dealer.total - dealer.total): cannot be computed with the round's "
        "values (a division by 0?)"
    ) in summary["notes"]
