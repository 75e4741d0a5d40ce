"""The registre de contrôle (the arrêté du 14 mai 2007, art. 69: carnets d'avances « totalisé, arrêté et visé
à la fin de chaque journée ») in the audit dataset and report, and until when each finding's table video
is kept (art. 21: at least a week), worked by hand.

Two séances of table BJ-03 on the gaming day 2016-06-10, each the three rounds of
tests/replay/test_table_money.py (collected 470, paid 300: a result of 170), with an avance initiale
of 5,000 and an avance complémentaire of 1,000: one closes with an encaisse of 6,160 (a result of 160,
one 10 chip missing), the other with 6,170 (reconciled).

Totals of the table and of the day: 2 séances, 1 with a difference; avances initiales 10,000, avances
complémentaires 2,000, encaisses 12,330; the carnets' result 160 + 170 = 330, the rounds' 340, a
difference of −10.

Both séances open at 2016-06-10T20:00:00+02:00, 18:00 UTC: their video is kept at least until
2016-06-17 18:00 UTC (a week), or 2016-07-10 18:00 UTC under a house file keeping it 30 days.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from replay.test_table_money import _seance

from validator.audit.dataset.writer import DatasetRun, video_days
from validator.audit.html import csv_tables
from validator.audit.query import build
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.rulebook.registry import default_registry

CARNET = [("avance_initiale", 5000), ("avance_complementaire", 1000)]


def _dataset(tmp_path: Path) -> Path:
    paths = []
    for name, encaisse in (("short", 6160), ("whole", 6170)):
        log = tmp_path / f"{name}.jsonl"
        records = _seance([*CARNET, ("encaisse", encaisse)])
        log.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
        paths.append(str(log))
    dataset = tmp_path / "ds"
    run = DatasetRun.start(str(dataset), paths, {}, None)
    summary = Summary()
    for _unused in run.writer().write_all(
        check_logs(default_registry(), paths, summary=summary, collect=True)
    ):
        pass
    run.commit(summary)
    return dataset


def test_the_registre_totals_each_table_and_gaming_day(tmp_path):
    audit = build([str(_dataset(tmp_path))], as_of=datetime(2016, 6, 15, tzinfo=UTC))
    assert audit.registre_counts == {"reconciled": 1, "difference": 1, "not_reconciled": 0}
    [short, whole] = audit.registre  # differences first; the encaisse on line 8, the last
    assert (short["status"], short["difference"], short["closing_line"]) == ("difference", Decimal(-10), 8)
    assert (whole["status"], whole["difference"]) == ("reconciled", Decimal(0))
    for totals in (audit.registre_tables, audit.registre_days):
        [row] = totals
        assert (row["seances"], row["differences"], row["rounds"]) == (2, 1, 6)
        figures = ("opening", "brought", "closing", "carnet_result", "rounds_result", "difference")
        assert [row[k] for k in figures] == [10000, 2000, 12330, 330, 340, -10]
    assert audit.registre_days[0]["gaming_day"].isoformat() == "2016-06-10"
    registre = csv_tables(audit)["registre_by_gaming_day"].splitlines()
    assert registre[1].startswith("2016-06-10,2,1,1,0,10000,2000,0,,12330,330,340,-10,6")


def test_each_finding_carries_until_when_its_video_is_kept(tmp_path):
    dataset = str(_dataset(tmp_path))
    kept = datetime(2016, 6, 17, 18, 0, tzinfo=UTC)
    soon = build([dataset], as_of=datetime(2016, 6, 15, tzinfo=UTC))  # within 3 days of the 15th
    [finding] = soon.video_soon
    assert (finding["rule"], finding["video_kept_until"], soon.video_gone) == (
        "money/reconciliation",
        kept,
        0,
    )
    assert [r["video_kept_until"] for r in soon.registre] == [kept, kept]
    early = build([dataset], as_of=datetime(2016, 6, 11, tzinfo=UTC))  # 6 days and more to go
    assert (early.video_soon, early.video_gone) == ([], 0)
    late = build([dataset], as_of=datetime(2016, 6, 18, tzinfo=UTC))  # erased
    assert (late.video_soon, late.video_gone) == ([], 1)


def test_a_house_file_may_keep_the_video_longer_never_shorter(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text("format: house-rules/1\ncasino: X\nvideo_retention_days: 30\ntables: {}\n")
    assert video_days(str(house)) == 30
    house.write_text("format: house-rules/1\ncasino: X\nvideo_retention_days: 3\ntables: {}\n")
    assert video_days(str(house)) == 7  # below art. 21's week: a lint error, and the week applies
    assert video_days(None) == 7
