"""The player–dealer section: a dealer who overpays one player at a planted rate is flagged; the same
séance without that pair (payout mistakes scattered at random over every dealer and player) flags none."""

from __future__ import annotations

from pathlib import Path

import pytest
from seance import write_seance

from validator.audit.dataset.writer import DatasetRun
from validator.audit.query import build
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.rulebook.registry import default_registry

ROUNDS = 1200


def _audit(tmp_path: Path, log: Path):
    dataset = tmp_path / "ds"
    run = DatasetRun.start(str(dataset), [str(log)], {}, None)
    summary = Summary()
    writer = run.writer()
    for _ in writer.write_all(check_logs(default_registry(), [str(log)], summary=summary, collect=True)):
        pass
    run.commit(summary)
    return build([str(dataset)]), summary


@pytest.fixture(scope="module")
def colluding(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("collusion")
    seance = write_seance(tmp / "seance.jsonl", rounds=ROUNDS, seed=5, pair=("D-12", "P2"), rate=0.12)
    return seance, *_audit(tmp, seance.path)


def test_the_planted_pair_is_flagged(colluding) -> None:
    seance, audit, _summary = colluding
    assert len(seance.colluded) >= 10, "the séance must hold the planted overpayments"
    flagged = [(p["dealer"], p["player"]) for p in audit.pairs if p["flagged"]]
    assert flagged == [("D-12", "P2")]
    pair = audit.pairs[0]
    # Every planted overpayment is one overpaid round of the pair (the noise skips those rounds).
    assert pair["overpaid_rounds"] >= len(seance.colluded)
    assert pair["p"] < audit.pair_threshold
    assert audit.pair_threshold == pytest.approx(0.05 / audit.pairs_tested)


def test_the_report_names_the_test_and_flags_the_pair(colluding) -> None:
    from validator.audit.html import render

    _, audit, _ = colluding
    html = render(audit, {})
    section = html[html.index('<section id="pairs"') : html.index('<section id="hold"')]
    assert "one-sided Fisher exact test" in section and "Bonferroni" in section
    assert 'data-pair="D-12|P2" data-flagged="yes"' in section
    assert section.count('data-flagged="yes"') == 1


def test_scattered_mistakes_flag_no_pair(tmp_path: Path) -> None:
    seance = write_seance(tmp_path / "clean.jsonl", rounds=ROUNDS, seed=5, noise_rate=0.02)
    audit, summary = _audit(tmp_path, seance.path)
    assert summary.by_kind["payout"] >= 10, "the control séance must hold overpayments to test against"
    assert audit.overview["overpaid"] > 0
    assert audit.pairs_flagged == 0
    assert not any(p["flagged"] for p in audit.pairs)
