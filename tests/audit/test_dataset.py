"""`check --dataset` and `report`: the dataset holds what the run found, the report's figures are the
json summary's, a log checked again replaces its rows, and the money columns are exact decimals."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
from conftest import run_cli

from validator.audit.dataset.writer import DatasetRun
from validator.audit.html import render, rule_docs
from validator.audit.options import ReportOptions
from validator.audit.query import Filters, build
from validator.audit.report import audit_html
from validator.checking.options import CheckOptions
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.house.apply import house_lookup
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
HOUSE = SAMPLES / "house" / "trouville.yaml"


def _in_process(*args: str):
    """The command run in this process (the same app as the console script), for speed."""
    from typer.testing import CliRunner

    from validator.cli import app

    return CliRunner().invoke(app, list(args))


def _check_into(dataset: Path, paths: list[str]) -> Summary:
    registry = default_registry()
    lookup, label = house_lookup(HOUSE, registry)
    run = DatasetRun.start(str(dataset), paths, {"house": str(HOUSE)}, str(HOUSE))
    summary = Summary(house=label)
    for _ in run.writer().write_all(check_logs(registry, paths, house=lookup, summary=summary, collect=True)):
        pass
    run.commit(summary)
    return summary


@pytest.fixture(scope="module")
def samples_run(tmp_path_factory):
    dataset = tmp_path_factory.mktemp("audit") / "ds"
    summary = _check_into(dataset, [str(SAMPLES)])
    return dataset, summary, build([str(dataset)])


def test_report_figures_are_the_json_summary(samples_run) -> None:
    _dataset, _, audit = samples_run
    done = _in_process("check", str(SAMPLES), "--house", str(HOUSE), "--format", "json", "--quiet")
    assert done.exit_code == 1, done.stderr
    summary = json.loads(done.stdout)["summary"]
    overview = audit.overview
    assert overview["rounds"] == summary["rounds"]["read"] == 743
    assert overview["clean"] == summary["rounds"]["clean"]
    assert overview["with_findings"] == summary["rounds"]["with_findings"]
    assert overview["unreadable"] == summary["rounds"]["unreadable"]
    assert overview["findings"] == summary["findings"]["total"]
    assert {r["rule"]: r["n"] for r in audit.rules} == summary["findings"]["by_rule"]
    assert {k["kind"]: k["n"] for k in audit.kinds} == summary["findings"]["by_kind"]
    assert {s["severity"]: s["n"] for s in audit.severities} == summary["findings"]["by_severity"]
    assert overview["overpaid"] == Decimal(summary["money"]["overpaid_by_house"])
    assert overview["underpaid"] == Decimal(summary["money"]["underpaid_to_players"])
    # and the page shows them
    html = render(audit, rule_docs(default_registry()))
    assert f'data-figure="rounds">{summary["rounds"]["read"]}<' in html
    for rule, count in summary["findings"]["by_rule"].items():
        assert f'data-rule="{rule}">{count}<' in html
    assert f'data-value="{overview["overpaid"]}"' in html


def test_a_round_as_the_log_shows_it(samples_run) -> None:
    """BA-01's first round (samples/logs/clean/BA-01-2025-01-31.jsonl, line 3): box 2 bets 35 and is
    collected, boxes 3, 4 and 6 bet 20, 20, 50 and are paid even money (bataille, art. 55-6)."""
    dataset, _, _ = samples_run
    row = (
        duckdb.connect()
        .execute(
            "SELECT wagered, paid, collected, rules_net, dealer, players, casino, utc_offset_minutes,"
            " gaming_day, clean, stakes, staked_main, kept_main FROM read_parquet(?)"
            " WHERE round = 'BA-01/2025-01-31/1/1'",
            [str(dataset / "rounds" / "*" / "*" / "*.parquet")],
        )
        .fetchall()
    )
    assert len(row) == 1
    wagered, paid, collected, rules_net, dealer, players, casino, offset, day, clean, stakes, staked, kept = (
        row[0]
    )
    assert (wagered, paid, collected, rules_net) == (Decimal(125), Decimal(90), Decimal(35), Decimal(55))
    # The main bets as placed (35 + 20 + 20 + 50) and what the house kept on them (35 − 90).
    assert (staked, kept) == (Decimal(125), Decimal(-55))
    assert (dealer, players, casino, offset, str(day), clean) == (
        "D-201",
        ["P1", "P2", "P3"],
        "Casino de démonstration",
        60,
        "2025-01-31",
        True,
    )
    assert {s["stake"]: (s["player"], s["rules_net"]) for s in stakes} == {
        "2": ("P2", Decimal(-35)),
        "3": ("P1", Decimal(20)),
        "4": ("P3", Decimal(20)),
        "6": ("P3", Decimal(50)),
    }


def test_clean_rounds_are_paid_what_the_rules_give(samples_run) -> None:
    dataset, _, _ = samples_run
    wrong = (
        duckdb.connect()
        .execute(
            "SELECT count(*) FROM read_parquet(?) WHERE clean AND rules_net IS NOT NULL"
            " AND paid - collected <> rules_net",
            [str(dataset / "rounds" / "*" / "*" / "*.parquet")],
        )
        .fetchone()
    )
    assert wrong == (0,)


def test_money_is_exact_decimal_and_findings_carry_fingerprints(samples_run) -> None:
    dataset, _, _ = samples_run
    rounds = pq.read_schema(next((dataset / "rounds").glob("*/*/*.parquet")))
    findings = pq.read_schema(next((dataset / "findings").glob("*/*/*.parquet")))
    for name in ("wagered", "paid", "collected", "rules_net", "overpaid", "underpaid", "staked_main"):
        assert str(rounds.field(name).type) == "decimal128(38, 10)"
    assert str(findings.field("discrepancy").type) == "decimal128(38, 10)"
    table = pq.read_table(next(iter((dataset / "findings").glob("*/*/*.parquet"))))
    assert all(re.fullmatch(r"[0-9a-f]{32}", f) for f in table.column("fingerprint").to_pylist())
    keys = table.column("round_key").to_pylist()
    assert all(k is None or re.fullmatch(r"[0-9a-f]{16}:\d+", k) for k in keys)


def test_partitioned_by_casino_and_month(samples_run) -> None:
    dataset, _, _ = samples_run
    rounds = dataset / "rounds"
    folders = {p.parent.relative_to(rounds).as_posix() for p in rounds.glob("*/*/*")}
    assert "casino_key=casino-de-trouville/month=2025-03" in folders
    assert "casino_key=casino-de-demonstration/month=2016-06" in folders


def test_checking_a_log_again_replaces_its_rows(tmp_path: Path) -> None:
    log = SAMPLES / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"
    other = SAMPLES / "logs" / "disputes" / "BA-01-2025-02-01.jsonl"
    dataset = tmp_path / "ds"
    first = _check_into(dataset, [str(log)])
    _check_into(dataset, [str(log)])
    _check_into(dataset, [str(other)])
    audit = build([str(dataset)])
    second = _check_into(tmp_path / "alone", [str(other)])
    assert audit.overview["rounds"] == first.rounds_read + second.rounds_read
    assert audit.overview["findings"] == first.findings + second.findings
    runs = duckdb.connect().execute("SELECT count(*) FROM read_parquet(?)", [str(dataset / "runs" / "*")])
    assert runs.fetchone() == (3,)
    # the same bytes under another name are the same log
    copy = tmp_path / "copy.jsonl"
    shutil.copy(log, copy)
    _check_into(dataset, [str(copy)])
    assert build([str(dataset)]).overview["rounds"] == audit.overview["rounds"]


def test_filters(samples_run) -> None:
    dataset, _, audit = samples_run
    one = build([str(dataset)], Filters(table="BA-01"))
    assert one.overview["rounds"] == 152
    assert [h["table"] for h in one.hold] == ["BA-01"]
    from datetime import date

    in_2016 = build([str(dataset)], Filters(start=date(2016, 1, 1), end=date(2016, 12, 31)))
    assert in_2016.overview["rounds"] == 167  # BJ-03's clean séance (160) and its disputes (7)
    assert in_2016.overview["last_day"] == date(2016, 6, 11)
    trouville = build([str(dataset)], Filters(casino="Casino de Trouville"))
    assert trouville.overview["casinos"] == 1
    assert 0 < trouville.overview["rounds"] < audit.overview["rounds"]


def test_theoretical_edge_is_shown_with_its_distance(samples_run) -> None:
    dataset, _, _ = samples_run
    audit = build([str(dataset)], theory={"BA-01": (Decimal("0.0230"), 1.0)})
    row = next(h for h in audit.hold if h["table"] == "BA-01")
    assert row["theoretical"] == Decimal("0.0230")
    assert row["distance"] == row["hold_main"] - Decimal("0.0230")
    html = render(audit, {})
    cell = html[html.index('data-table="BA-01"') :]
    assert '<td class="n" data-theoretical>2.30 %</td>' in cell[:1200]
    assert "What the theoretical figure assumes:" in html and "What the hold covers:" in html


def test_the_report_prices_each_table_by_its_rules_and_house_entry(samples_run) -> None:
    """Without figures given, `report` asks `edge` for each table: the version its rounds were judged by
    and the options of its house entry (BJ-07 offers surrender and limits splits: cheaper than BJ-03)."""
    from datetime import date

    from validator.audit.query import Filters, connect
    from validator.audit.theory import theoretical_edges
    from validator.house.load import load_house
    from validator.maths.api import house_edge

    dataset, _, _ = samples_run
    edges = theoretical_edges(connect([str(dataset)], Filters()))
    tables = load_house(HOUSE).tables
    assert edges["BJ-07"] == house_edge("fr/blackjack", date(2025, 3, 14), tables["BJ-07"])
    assert edges["BA-01"] == house_edge("fr/bataille", date(2025, 2, 1), tables["BA-01"])
    assert edges["BJ-07"] < edges["BJ-03"]
    html = audit_html(ReportOptions((dataset,)), default_registry())
    assert "What the theoretical figure assumes:" in html
    # The house file the run named is gone: no figure rather than the regulation's defaults.
    files = str(dataset / "rounds" / "*" / "*" / "*.parquet")
    con = duckdb.connect()
    con.execute(
        f"CREATE VIEW rounds AS SELECT * REPLACE ('gone.yaml' AS house_file), 1 AS weight "
        f"FROM read_parquet('{files}', hive_partitioning = true)"
    )
    assert theoretical_edges(con) == {}


def test_the_readme_pair_of_commands(tmp_path: Path) -> None:
    """The two commands as the README gives them, each run in this process (`run_cli`: the same
    arguments, exit status and outputs; the process itself is not what is tested here, and a `report`
    process would price every table again, which this process has done)."""
    dataset, page = tmp_path / "ds", tmp_path / "audit.html"
    house = "samples/house/trouville.yaml"
    done = run_cli("check", "samples/", "--house", house, "--dataset", str(dataset), "-q")
    assert done.returncode == 1, done.stderr
    done = run_cli("report", str(dataset), "-o", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    for section in ("overview", "rules", "money", "dealers", "pairs", "hold", "findings"):
        assert f'<section id="{section}"' in html
    assert "<script" not in html  # charts are inline SVG drawn when the page is made
    assert html.count("<svg") >= 8
    assert not re.search(r"<(?:script|link|img)[^>]+(?:src|href)=", html)  # nothing fetched
    assert page.stat().st_size < 10 * 1024 * 1024


def test_one_run_as_html_is_the_same_report(tmp_path: Path, dask_scheduler: str) -> None:
    """`check --jobs 2 --format html` in this process: its shares run on the session's cluster
    (tests/daskcluster.py, which `dask_scheduler` names, so that this test runs on the pytest worker that
    holds it); a cluster of the command's own is tested by tests/replay/test_cluster.py."""
    page = tmp_path / "one.html"
    done = run_cli("check", "samples/logs/disputes", "--format", "html", "-o", str(page), "-q", "--jobs", "2")
    assert done.returncode == 1, done.stderr
    html = page.read_text(encoding="utf-8")
    summary = json.loads(_in_process("check", str(SAMPLES / "logs" / "disputes"), "-f", "json", "-q").stdout)[
        "summary"
    ]
    assert f'data-figure="rounds">{summary["rounds"]["read"]}<' in html
    assert f'data-figure="findings">{summary["findings"]["total"]}<' in html
    assert '<pre class="trace">Round ' in html


def test_bad_input_is_exit_2(tmp_path: Path) -> None:
    done = run_cli("report", str(tmp_path), "-o", str(tmp_path / "a.html"))
    assert done.returncode == 2 and "not a dataset" in done.stderr
    assert "Traceback" not in done.stderr
    done = _in_process("report", str(tmp_path / "none"))
    assert done.exit_code == 2 and "no such dataset folder" in done.stderr
    (tmp_path / "runs").mkdir()
    done = _in_process("report", str(tmp_path), "--from", "2025-13-01")
    assert done.exit_code == 2 and "--from '2025-13-01': give a day as YYYY-MM-DD" in done.stderr
    done = _in_process("report", str(tmp_path), "--from", "2025-03-02", "--to", "2025-03-01")
    assert done.exit_code == 2 and "--from 2025-03-02 is after --to 2025-03-01" in done.stderr
    (tmp_path / "file").write_text("")
    done = _in_process("check", str(SAMPLES / "logs" / "disputes"), "--dataset", str(tmp_path / "file"), "-q")
    assert done.exit_code == 2 and "cannot make the folder" in done.stderr
    assert not list(tmp_path.glob("runs/*")), "a run that could not be made leaves nothing"


def test_other_commands_do_not_load_the_audit_libraries() -> None:
    code = (
        "import sys\n"
        "from validator.cli import app\n"
        "try:\n"
        "    app(['check', 'samples/logs/disputes', '-q', '-f', 'json'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('pyarrow', 'duckdb', 'jinja2') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


def test_parallel_workers_write_their_own_files(tmp_path: Path, monkeypatch) -> None:
    """Under --jobs, each share of a log is written by the worker that replays it, into its own files,
    and the dataset holds the same rows as one process writes."""
    from validator.checking import cluster, parallel

    monkeypatch.setattr(parallel, "MIN_SHARE", 4096)  # a small log still splits at its shoes
    log = str(SAMPLES / "logs" / "clean" / "BJ-03-2016-06-10.jsonl")
    assert len(parallel.plan([log], 2)) > 1
    run = DatasetRun.start(str(tmp_path / "jobs"), [log], {"jobs": 2}, None)
    summary = Summary()
    for _ in cluster.check_on_cluster([log], summary, CheckOptions((log,), jobs=2), dataset=run.spec):
        pass
    run.commit(summary)
    files = list((tmp_path / "jobs" / "rounds").glob("*/*/*.parquet"))
    assert len({f.name.split("-")[-2] for f in files}) > 1  # one writer per share
    alone = tmp_path / "one"
    registry = default_registry()
    one = DatasetRun.start(str(alone), [log], {}, None)
    for _ in one.writer().write_all(check_logs(registry, [log], summary=Summary(), collect=True)):
        pass
    one.commit(Summary())
    query = "SELECT round, wagered, paid, collected, rules_net, status FROM read_parquet(?) ORDER BY line"
    rows = [
        duckdb.connect().execute(query, [str(root / "rounds" / "*" / "*" / "*.parquet")]).fetchall()
        for root in (tmp_path / "jobs", alone)
    ]
    assert rows[0] == rows[1] and len(rows[0]) == summary.rounds_read
