"""The report an auditor acts on: a filter that matches nothing is exit 2 naming what the dataset holds;
a report over no round never says the rules held; every table exports as CSV; money is signed and
named; days are gaming days (the house file's `gaming_day_start`, 06:00 by default); the dataset has a
data dictionary (`schema dataset`, and each Parquet field's description)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import duckdb
import orjson
import pyarrow.parquet as pq
import pytest
from conftest import run_cli

from validator.audit.dataset.writer import DatasetRun
from validator.audit.html import render
from validator.audit.query import build
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.house.apply import house_lookup
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
HOUSE = SAMPLES / "house" / "trouville.yaml"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in this process (tests/conftest.py's run_cli: the same exit status and output, no
    interpreter to start for each of these report, check, lint and schema runs)."""
    return run_cli(*args)


def _check_into(dataset: Path, paths: list[str], house: Path | None = HOUSE) -> None:
    registry = default_registry()
    lookup = house_lookup(house, registry)[0] if house else None
    run = DatasetRun.start(str(dataset), paths, {}, str(house) if house else None)
    summary = Summary()
    for _ in run.writer().write_all(check_logs(registry, paths, house=lookup, summary=summary, collect=True)):
        pass
    run.commit(summary)


# The disputes (Casino de démonstration) and one séance of the Casino de Trouville.
LOGS = ("samples/logs/disputes", "samples/logs/side-bets/errors-BJ-07-side-bets.jsonl")


@pytest.fixture(scope="module")
def disputes(tmp_path_factory) -> Path:
    dataset = tmp_path_factory.mktemp("auditor") / "ds"
    _check_into(dataset, [str(ROOT / p) for p in LOGS])
    return dataset


def test_a_casino_typo_is_exit_2_naming_the_casinos(disputes: Path) -> None:
    done = _cli("report", str(disputes), "--casino", "casino de trouville")
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line
    assert line.startswith(
        "casino-validator: --casino 'casino de trouville': not in the dataset, whose casinos are "
    )
    # The case-insensitive match first, and suggested.
    assert "are 'Casino de Trouville'," in line or "are 'Casino de Trouville';" in line
    assert line.endswith("did you mean 'Casino de Trouville'? (the case differs)")


def test_an_unknown_table_is_exit_2_naming_the_tables(disputes: Path) -> None:
    done = _cli("report", str(disputes), "--table", "BJ-99")
    assert done.returncode == 2
    line = done.stderr.strip()
    assert line.startswith("casino-validator: --table 'BJ-99': not in the dataset, whose tables are 'BJ-03'")
    for table in ("BA-01", "ON-01", "BJ-07"):
        assert f"'{table}'" in line


def test_days_with_no_round_are_exit_2_naming_the_days_held(disputes: Path) -> None:
    done = _cli("report", str(disputes), "--from", "2030-01-01")
    assert done.returncode == 2
    assert "no round on those gaming days; the dataset's run from 2016-06-11 to 2025-08-23" in done.stderr


def test_a_report_over_no_round_never_says_the_rules_held(tmp_path: Path) -> None:
    # A log that opens its table and deals no round.
    empty = tmp_path / "no-round.jsonl"
    sample = SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
    first = sample.read_text(encoding="utf-8").splitlines()[0]
    empty.write_text(first + "\n", encoding="utf-8")
    _check_into(tmp_path / "ds", [str(empty)])
    html = render(build([str(tmp_path / "ds")]), {})
    assert "every rule held" not in html
    assert "No round in this report: no rule was judged." in html


def test_every_table_exports_as_csv_and_money_is_signed(disputes: Path, tmp_path: Path) -> None:
    page, folder = tmp_path / "audit.html", tmp_path / "csv"
    done = _cli("report", str(disputes), "-o", str(page), "--csv", str(folder))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    names = sorted(p.stem for p in folder.glob("*.csv"))
    assert names == sorted(
        [
            "findings_by_kind", "findings_by_severity", "findings_by_rule", "findings_by_week",
            "money_by_table", "money_by_dealer", "money_by_gaming_day", "dealers", "pairs",
            "hold_by_table", "hold_by_period", "hold_by_bet", "registre_seances", "registre_by_table",
            "registre_by_gaming_day", "video_soon",
        ]
    )  # fmt: skip
    for name in names:  # and each is linked from the page, as a download
        assert f'download="{name}.csv" href="data:text/csv;charset=utf-8,' in html
    summary = json.loads(_cli("check", *LOGS, "--house", str(HOUSE), "-f", "json", "-q").stdout)
    with (folder / "money_by_table.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert sum(Decimal(r["overpaid"]) for r in rows) == Decimal(
        summary["summary"]["money"]["overpaid_by_house"]
    )
    assert sum(Decimal(r["underpaid"]) for r in rows) == Decimal(
        summary["summary"]["money"]["underpaid_to_players"]
    )
    for r in rows:
        assert Decimal(r["net_overpaid"]) == Decimal(r["overpaid"]) - Decimal(r["underpaid"])
    # An underpayment reads with its minus sign and its name; so does an overpayment.
    assert "underpaid to the player" in html and "overpaid by the house" in html
    assert "<strong>\u2212" in html and "<strong>+" in html
    # Every chart has its figures in a table beside it (8 charts, each in a block with a table).
    assert html.count('<figure class="chart"') == 8


def _shifted(source: Path, target: Path, hours: int) -> int:
    """The log with every time `hours` later; how many of its rounds then fall after local midnight."""
    after_midnight = 0
    lines = []
    for line in source.read_bytes().splitlines():
        record = orjson.loads(line)
        if isinstance(record.get("at"), str):
            moment = datetime.fromisoformat(record["at"]) + timedelta(hours=hours)
            record["at"] = moment.isoformat()
            if record.get("type") == "round" and moment.hour < 6:
                after_midnight += 1
        lines.append(orjson.dumps(record))
    target.write_bytes(b"\n".join(lines) + b"\n")
    return after_midnight


@pytest.mark.parametrize(("start", "split"), [(None, False), ("00:00", True)])
def test_days_are_gaming_days(tmp_path: Path, start: str | None, split: bool) -> None:
    """BA-01's séance of 31 January 2025 (22:03 to 23:44) played an hour later runs past midnight:
    with the default 06:00 every round is on the gaming day of the 31st; with a gaming day starting at
    midnight the rounds after it fall on 1 February."""
    log = tmp_path / "late.jsonl"
    late = _shifted(SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl", log, hours=1)
    assert late > 10
    house = tmp_path / "house.yaml"
    text = HOUSE.read_text(encoding="utf-8")
    if start is not None:
        text = text.replace(
            "casino: Casino de Trouville\n", f'casino: Casino de Trouville\ngaming_day_start: "{start}"\n'
        )
    house.write_text(text, encoding="utf-8")
    assert _cli("lint", str(house)).returncode == 0
    _check_into(tmp_path / "ds", [str(log)], house)
    days = dict(
        duckdb.connect()
        .execute(
            "SELECT gaming_day::VARCHAR, count(*) FROM read_parquet(?) GROUP BY 1",
            [str(tmp_path / "ds" / "rounds" / "*" / "*" / "*.parquet")],
        )
        .fetchall()
    )
    total = sum(days.values())
    if split:
        assert days == {"2025-01-31": total - late, "2025-02-01": late}
        assert {p.name for p in (tmp_path / "ds" / "rounds").glob("*/*")} == {
            "month=2025-01",
            "month=2025-02",
        }
    else:
        assert days == {"2025-01-31": total}
        audit = build([str(tmp_path / "ds")])
        assert [(str(r["key"]), r["rounds"]) for r in audit.money_days] == [("2025-01-31", total)]


def test_the_data_dictionary(disputes: Path) -> None:
    done = _cli("schema", "dataset")
    assert done.returncode == 0, done.stderr
    dictionary = json.loads(done.stdout)
    rounds = dictionary["tables"]["rounds"]
    assert "table" not in rounds and "rules_give" not in rounds and "day" not in rounds
    assert rounds["table_id"]["type"] == "string" and rounds["gaming_day"]["type"] == "date"
    assert dictionary["stake"]["rules_net"]["type"] == "money" and rounds["rules_net"]["type"] == "money"
    schema = pq.read_schema(next((disputes / "rounds").glob("*/*/*.parquet")))
    assert list(schema.names) == list(rounds)
    for name in schema.names:
        assert schema.field(name).metadata[b"description"].decode() == rounds[name]["description"]


def test_the_query_the_page_shows_works_with_duckdbs_python_module(disputes: Path) -> None:
    html = render(build([str(disputes)]), {})
    start = html.index('<code class="query">') + len('<code class="query">')
    command = html[start : html.index("</code>", start)].replace("&quot;", '"').replace("&#39;", "'")
    assert command.startswith('python -c "import duckdb; ')
    code = command[len('python -c "') : -1]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "table_id" in done.stdout and "gaming_day" in done.stdout
