"""`check --jobs N` gives what one process gives, in the same order: split at tables and at shoes, with
the table's limits rebuilt before a share, broken records at the split points, and JP1 tables (whose
meters run from round to round) kept whole from their first jackpot on. The shares run on Dask: on the
tests' shared local cluster through its scheduler's address; the command-line tests give `--jobs 2` (a
cluster of the command's own) once, and elsewhere `--scheduler` with the shared cluster's address, which
runs the same code without paying for a cluster's start each time."""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson
import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from validator.checking import cluster, parallel
from validator.checking.options import CheckOptions
from validator.checking.serial import check_logs
from validator.errors import ValidatorError
from validator.findings.finding import Summary
from validator.rulebook.registry import default_registry
from validator.simulate.inject import inject, injectable
from validator.simulate.run import Seance, simulate

REGISTRY = default_registry()
BLACKJACK = REGISTRY.pick("fr/blackjack@2016-06-10")


@pytest.fixture(autouse=True)
def small_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    # Test logs are small: let every allowed split point start a share.
    monkeypatch.setattr(parallel, "MIN_SHARE", 1)
    monkeypatch.setattr(parallel, "SHARES_PER_JOB", 10_000)


SCHEDULER: list[str] = []


@pytest.fixture(autouse=True, scope="module")
def on_the_shared_cluster(dask_scheduler: str) -> Iterator[None]:
    SCHEDULER.append(dask_scheduler)
    yield
    SCHEDULER.clear()


def _records(rounds: int, seed: int, table: str = "T-1", day: str = "2016-06-10") -> list[dict[str, Any]]:
    return list(
        simulate(
            BLACKJACK,
            BLACKJACK.house_defaults(),
            Seance(
                seed=seed,
                rounds=rounds,
                table_id=table,
                start=datetime.fromisoformat(f"{day}T20:00:00+01:00"),
                minimum=Decimal(10),
                maximum=Decimal(1000),
            ),
        )
    )


def _write(path: Path, records: list[Any]) -> str:
    lines = [r if isinstance(r, bytes) else orjson.dumps(r) for r in records]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return str(path)


def _one_process(paths: list[str]) -> tuple[list[Any], dict[str, Any]]:
    """What a cluster sends back of one process's outcomes: those with findings (and unreadable rounds),
    in order, and the summary; the rest are only counted (and given to the report's format: the tests
    of tests/replay/test_cluster.py compare every format's bytes)."""
    summary = Summary()
    outcomes = list(check_logs(REGISTRY, paths, summary=summary))
    return [o for o in outcomes if o.findings or o.status == "unreadable"], summary.as_dict()


def _in_parallel(paths: list[str], jobs: int = 2) -> tuple[list[Any], dict[str, Any]]:
    summary = Summary()
    outcomes = list(
        cluster.check_on_cluster(paths, summary, CheckOptions((), jobs=jobs, scheduler=SCHEDULER[0]))
    )
    return outcomes, summary.as_dict()


def _shoes(records: list[dict[str, Any]]) -> int:
    return sum(1 for r in records if r["type"] == "shoe")


def test_a_table_splits_at_its_shoes_with_the_same_outcomes(tmp_path):
    records = _records(400, seed=11)
    planted: list = []
    broken = list(inject(iter(records), BLACKJACK, injectable(BLACKJACK), 0.3, 11, planted))
    log = _write(tmp_path / "t.jsonl", broken)
    shares = parallel.plan([log], 2)
    assert _shoes(records) >= 4 and len(shares) == 1 + _shoes(records)  # the table record, then each shoe
    # The table record; from the second shoe on, the previous shoe record and its last round too (a new
    # shoe's cut is judged against where the cut card came out in it).
    assert [len(share.preamble) for share in shares[1:]] == [1] + [3] * (len(shares) - 2)
    one = _one_process([log])
    assert planted and one[1]["findings"]["total"] > 0
    assert _in_parallel([log]) == one
    assert _in_parallel([log], jobs=3) == one


def test_a_shoe_cut_by_the_wrong_player_is_found_in_its_own_share(tmp_path):
    # Ontario, section 5: the player before whom the cut card came out in the last round cuts the new
    # shoe. That round belongs to the previous shoe, so a share starting at the new shoe replays it first.
    ontario = REGISTRY.pick("on/fair-blackjack")
    records = list(
        simulate(
            ontario,
            ontario.house_defaults(),
            Seance(
                seed=4,
                rounds=300,
                table_id="ON-1",
                start=datetime.fromisoformat("2025-08-23T19:00:00-04:00"),
                minimum=Decimal(1),
                maximum=Decimal(5),
            ),
        )
    )
    shoes = [r for r in records if r["type"] == "shoe" and r["reason"] == "cut_card"]
    assert len(shoes) >= 3
    for shoe in shoes[::2]:
        shoe["cut_by"] = "1" if shoe["cut_by"] != "1" else "2"
    log = _write(tmp_path / "on.jsonl", records)
    one = _one_process([log])
    assert one[1]["findings"]["by_rule"] == {"on/fair-blackjack/cut-by-player": len(shoes[::2])}
    assert _in_parallel([log]) == one


def test_limits_before_a_shoe_are_rebuilt_in_its_share(tmp_path):
    records = _records(300, seed=5)
    shoe_lines = [i for i, r in enumerate(records) if r["type"] == "shoe"]
    # Raise the minimum before the second shoe: its rounds' small bets are now below it.
    limits = {"type": "limits", "at": records[shoe_lines[1]]["at"], "minimum": 50, "maximum": 1000}
    records.insert(shoe_lines[1], limits)
    log = _write(tmp_path / "t.jsonl", records)
    shares = parallel.plan([log], 2)
    # table and limits, then the previous shoe and its last round
    assert [len(s.preamble) for s in shares[2:]] == [4] * (len(shares) - 2)
    one = _one_process([log])
    assert one[1]["findings"]["by_rule"].get("fr/blackjack/bet-within-limits")
    assert _in_parallel([log]) == one


def test_broken_table_and_shoe_records_do_not_start_a_share(tmp_path):
    records: list[Any] = _records(300, seed=8)
    shoe_lines = [i for i, r in enumerate(records) if r["type"] == "shoe"]
    records[shoe_lines[1]] = {**records[shoe_lines[1]], "decks": "six"}  # fails the schema
    bad_table = {**records[0], "minimum": "ten"}  # passes the schema, but is no amount
    records.insert(shoe_lines[2], bad_table)
    records.insert(shoe_lines[2], b'{"type": "shoe", "shoe": ')  # not JSON
    log = _write(tmp_path / "t.jsonl", records)
    starts = {s.first_line for s in parallel.plan([log], 2)}
    assert shoe_lines[1] + 1 not in starts
    one = _one_process([log])
    assert one[1]["findings"]["by_rule"]["hand-log/schema"] == 2
    assert _in_parallel([log]) == one


def test_several_tables_and_files(tmp_path):
    first = _write(tmp_path / "a.jsonl", _records(150, seed=1) + _records(150, seed=2, table="T-2"))
    second = _write(tmp_path / "b.jsonl", _records(120, seed=3, table="T-3"))
    one = _one_process([first, second])
    assert one[1]["files"] == 2
    assert _in_parallel([first, second], jobs=3) == one


def test_a_jp1_table_is_not_split_at_shoes_after_its_first_jackpot(tmp_path):
    records: list[Any] = _records(300, seed=4, day="2025-03-14")
    shoe_lines = [i for i, r in enumerate(records) if r["type"] == "shoe"]
    jackpot = {"type": "jackpot", "at": records[shoe_lines[1]]["at"], "main": "100.00", "secondary": "10.00"}
    records.insert(shoe_lines[1] + 1, jackpot)
    log = _write(tmp_path / "jp1.jsonl", records)
    starts = [s.first_line for s in parallel.plan([log], 2)]
    assert starts == [1, shoe_lines[0] + 1, shoe_lines[1] + 1]  # none after the jackpot record
    assert _in_parallel([log]) == _one_process([log])


def test_a_jp1_stake_stops_the_split_too(tmp_path):
    records: list[Any] = _records(300, seed=6, day="2025-03-14")
    shoe_lines = [i for i, r in enumerate(records) if r["type"] == "shoe"]
    placed = records[shoe_lines[1] + 1]
    placed["bets"] = [*placed["bets"], {"stake": placed["bets"][0]["stake"] + ":jp1", "amount": 1}]
    log = _write(tmp_path / "jp1.jsonl", records)
    starts = [s.first_line for s in parallel.plan([log], 2)]
    assert starts == [1, shoe_lines[0] + 1, shoe_lines[1] + 1]
    one = _one_process([log])
    assert _in_parallel([log]) == one


def test_every_sample_gives_the_same_report_in_parallel():
    paths = [str(ROOT / "samples" / "logs")]
    assert _in_parallel(paths) == _one_process(paths)


def test_the_command_line_gives_the_same_bytes(tmp_path, cli):
    # 400 rounds: every shoe may start a share here (small_shares), so the plan has several, as 3,000
    # rounds (over 2 MB) had under the shipped 1 MB shares; the command's own cluster replays them.
    log = _write(tmp_path / "t.jsonl", _records(400, seed=21))
    assert len(parallel.plan([log], 2)) >= 2
    one = cli("check", log, "--format", "json")
    two = cli("check", log, "--format", "json", "--jobs", "2")
    assert one.returncode == two.returncode == 0
    assert one.stdout == two.stdout


def test_standard_input_is_read_by_the_parent_among_other_files(tmp_path, cli, dask_scheduler):
    # A worker process finds standard input empty: the rounds piped in must not vanish with --jobs.
    piped = tmp_path / "piped.jsonl"
    broken = list(inject(iter(_records(300, seed=5)), BLACKJACK, injectable(BLACKJACK), 0.2, 5, []))
    _write(piped, broken)
    # 300 rounds: split in shares here (small_shares) as 3,000 were under the shipped share size.
    other = _write(tmp_path / "other.jsonl", _records(300, seed=6))
    assert len(parallel.plan([other], 2)) >= 2
    text = piped.read_text()
    one = cli("check", other, "-", other, "--format", "json", stdin=text)
    two = cli("check", "-", other, "--format", "json", "--scheduler", dask_scheduler, stdin=text)
    assert one.returncode == two.returncode == 1
    assert json.loads(one.stdout)["summary"] == json.loads(two.stdout)["summary"]
    assert json.loads(two.stdout)["summary"]["rounds"]["read"] == 600
    assert cli("check", "-", other, "--format", "json", stdin=text).stdout == two.stdout


def test_a_named_pipe_is_read_once_by_the_parent(tmp_path, cli, dask_scheduler):
    # Splitting a pipe would read it to plan and find it empty to replay; a worker cannot reopen it.
    # A regular file of these 300 rounds would split (small_shares; 3,000 rounds did at 1 MB shares).
    log = _write(tmp_path / "t.jsonl", _records(300, seed=8))
    assert len(parallel.plan([log], 2)) >= 2
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(Path(log).read_bytes()))
    writer.start()
    two = cli("check", str(fifo), "--format", "json", "--scheduler", dask_scheduler)
    writer.join()
    one = cli("check", log, "--format", "json")
    assert two.returncode == one.returncode == 0, two.stderr
    assert json.loads(two.stdout)["summary"] == json.loads(one.stdout)["summary"]
    assert json.loads(two.stdout)["summary"]["rounds"]["read"] == 300


def test_a_run_stopped_part_way_reports_the_same_findings_first(tmp_path, cli, dask_scheduler):
    # One process reports every finding before the table whose ruleset is unknown, then stops (exit 2).
    planted = list(inject(iter(_records(3000, seed=9)), BLACKJACK, injectable(BLACKJACK), 0.05, 9, []))
    unknown = {**_records(1, seed=10, table="BJ-99")[0], "ruleset": "fr/roulette"}
    log = _write(tmp_path / "t.jsonl", [*planted, unknown, *_records(50, seed=10, table="BJ-99")[1:]])
    assert len(parallel.plan([log], 2)) >= 3
    one = cli("check", log, "--format", "jsonl")
    two = cli("check", log, "--format", "jsonl", "--scheduler", dask_scheduler)
    assert one.returncode == two.returncode == 2
    assert one.stdout.count("\n") > 100
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)


def _scratch(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.own_cluster
def test_nothing_is_left_behind_when_the_run_stops_early(tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where the local cluster keeps its files
    logs = [_write(tmp_path / f"t{i}.jsonl", _records(150, seed=i, table=f"BJ-{i}")) for i in range(4)]
    unknown = orjson.loads(Path(logs[1]).read_bytes().split(b"\n", 1)[0])
    _write(tmp_path / "t1.jsonl", [{**unknown, "ruleset": "fr/roulette"}, *_records(150, seed=1)[1:]])
    with pytest.raises(ValidatorError, match="names unknown ruleset 'fr/roulette'"):
        list(
            cluster.check_on_cluster(logs, Summary(), CheckOptions((), jobs=2))
        )  # a local cluster of its own
    assert _scratch(scratch) == []


def test_a_reader_that_stops_reading_cancels_the_shares(tmp_path, dask_cluster):
    logs = [
        _write(
            tmp_path / f"t{i}.jsonl",
            list(
                inject(
                    iter(_records(150, seed=i, table=f"BJ-{i}")), BLACKJACK, injectable(BLACKJACK), 0.2, i, []
                )
            ),
        )
        for i in range(4)
    ]
    outcomes = cluster.check_on_cluster(logs, Summary(), CheckOptions((), jobs=2, scheduler=SCHEDULER[0]))
    next(outcomes)
    outcomes.close()
    from distributed import Client

    with Client(dask_cluster, set_as_default=False) as client:
        left = client.run_on_scheduler(lambda dask_scheduler: [str(key) for key in dask_scheduler.tasks])
    assert [key for key in left if key.startswith("casino-validator-")] == []


_MUTATIONS = ("drop", "duplicate", "swap", "garble", "junk_field", "drop_field")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), data=st.data())
def test_damaged_logs_give_the_same_report_in_parallel(seed, data, tmp_path):
    # Damage aimed at what decides the split points: table, limits and shoe records above all.
    lines = [orjson.dumps(r) for r in _records(120, seed=seed)]
    for _ in range(data.draw(st.integers(1, 6))):
        stateful = [i for i, line in enumerate(lines) if b'"type":"round"' not in line]
        i = data.draw(st.sampled_from(stateful or [0]))
        kind = data.draw(st.sampled_from(_MUTATIONS))
        if kind == "drop" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(data.draw(st.integers(0, len(lines))), lines[i])
        elif kind == "swap":
            j = data.draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "garble":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        else:
            try:
                record = orjson.loads(lines[i])
            except orjson.JSONDecodeError:
                continue
            if not isinstance(record, dict) or not record:
                continue
            key = data.draw(st.sampled_from(sorted(record)))
            if kind == "drop_field":
                del record[key]
            else:
                record[key] = data.draw(st.sampled_from([None, "ten", -1, "table", "shoe", [], "jp1"]))
            lines[i] = orjson.dumps(record)
    log = _write(tmp_path / f"damaged-{seed}.jsonl", lines)
    assert _report_or_stop(_in_parallel, log) == _report_or_stop(_one_process, log)


def _report_or_stop(check: Any, log: str) -> Any:
    """The report, or the message of the error that stops the run (exit 2): a table record may come
    to name a ruleset that does not exist, or none."""
    try:
        return check([log])
    except ValidatorError as exc:
        return str(exc)


def test_a_share_row_carries_every_field_of_an_outcome(tmp_path):
    # Outcomes travel from workers as plain tuples: one field short, and --jobs would report less
    # than one process (the text report names each round's table and time).
    import dataclasses
    import typing

    from validator.findings.finding import RoundOutcome

    assert len(typing.get_args(parallel.Row)) == len(dataclasses.fields(RoundOutcome))
    log = str(ROOT / "samples" / "logs" / "side-bets" / "errors-BJ-07-side-bets.jsonl")  # 3 clean, 8 not
    [share] = parallel.plan([log], 1)
    alone = list(parallel.share_outcomes(share, None, None, Summary()))
    sent = list(parallel.check_share(share, parallel.Task(None, None)).outcomes())
    kept = [o for o in sent if not isinstance(o, parallel.Quiet)]
    assert kept == [o for o in alone if o.findings or o.status == "unreadable"] != []
    # Between them, the rounds without findings are only counted: all of them, none twice.
    clean = sum(o.rounds for o in sent if isinstance(o, parallel.Quiet))
    assert clean == sum(1 for o in alone if o.status == "clean" and not o.findings) > 0
    assert all(o.table == "BJ-07" for o in alone if o.round is not None)


FORMATS = ("text", "jsonl", "json", "sarif", "junit", "github", "html")
# What differs between two runs of the HTML report, however made: its run's id, times and temporary folder.
_RUN_SPECIFIC = re.compile(
    r"casino-validator-audit-\w+|\d{8}T\d{6}-[0-9a-f]{8}|\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d\.\d+\+00:00| UTC)"
)


def _planted_log(path: Path, rounds: int, seed: int, table: str = "T-1") -> str:
    return _write(
        path,
        list(inject(iter(_records(rounds, seed, table)), BLACKJACK, injectable(BLACKJACK), 0.03, seed, [])),
    )


def test_every_format_gives_the_same_bytes_on_the_cluster(tmp_path, cli, dask_scheduler, monkeypatch):
    # A log split in shares, then small files grouped in one task, with findings the policy leaves out
    # (a round whose findings are all ignored is a clean round to the report: JUnit's test case passes,
    # the HTML report counts it among the sums).
    # 400 rounds (about 290 KB) in shares of at least 25 KB: the same plan's shape as the whole file
    # cut in shares (ten) and the small files grouped in one task (three), at half the replay of 800
    # rounds in 50 KB shares (a quarter of 1500 rounds in 100 KB shares); the 28 runs below replay it.
    monkeypatch.setattr(parallel, "MIN_SHARE", 25_000)
    split = _planted_log(tmp_path / "split.jsonl", 400, seed=3)
    small = [_planted_log(tmp_path / f"small-{n}.jsonl", 40, seed=n, table=f"S-{n}") for n in range(3)]
    paths = [split, *small, str(ROOT / "samples" / "logs" / "side-bets")]
    size = sum(share.size for share in parallel.plan(paths, 2))
    tasks = [len(task) for task in parallel.tasks(parallel.plan(paths, 2), parallel.share_target(size, 2))]
    assert tasks[0] == 1 and len(tasks) > 5 and max(tasks) > 1
    options = (
        "--ignore",
        "fr/blackjack/bet-within-limits",
        "--house",
        str(ROOT / "samples/house/trouville.yaml"),
    )
    by_policy: dict[tuple[str, ...], str] = {}
    for fmt in FORMATS:
        for policy in ((), options[:2]):
            one = cli("check", *paths, "-f", fmt, *policy)
            if fmt == "json":
                by_policy[policy] = json.dumps(json.loads(one.stdout)["summary"]["rounds"])
            two = cli("check", *paths, "-f", fmt, *policy, "--scheduler", dask_scheduler)
            assert one.returncode == two.returncode == 1, two.stderr
            if fmt == "html":
                one_out, two_out = (_RUN_SPECIFIC.sub("…", r.stdout) for r in (one, two))
            else:
                one_out, two_out = one.stdout, two.stdout
            assert (two_out, two.stderr) == (one_out, one.stderr), (fmt, policy)
    # The policy leaves out findings the log has: some rounds are clean only under it.
    assert by_policy[()] != by_policy[options[:2]], by_policy
    # The HTML report's figures of the rounds without findings are sums: they are the same as when every
    # round is a row of the dataset, which is how `report` reads a dataset of `check --dataset`.
    folder = tmp_path / "dataset"
    assert cli("check", *paths, "--dataset", str(folder), "-q").returncode == 1
    report = cli("report", str(folder), "-o", str(tmp_path / "report.html"))
    assert report.returncode == 0, report.stderr
    one = cli("check", *paths, "-f", "html")
    shown = (tmp_path / "report.html").read_text()
    assert _figures(shown) == _figures(one.stdout)
    assert shown.count('<td class="n">') > 20


def test_the_html_registre_has_every_seance_on_the_cluster(tmp_path, cli, dask_scheduler, monkeypatch):
    """The registre de contrôle of `check -f html` has a row for every séance whichever process
    reconciles it: a séance whole in one share (reconciled on a worker; without a finding it was not
    sent back, and the page said "1 séances" where one process says 3), a séance split at its shoes
    (pieced on the client) and one read from standard input (by the client), the second planted a chip
    off. Counted by hand: 3 séances, 2 reconciled to the cent, 1 with a difference."""
    from validator.simulate.carnet import Carnet

    def carnet(records: list[dict[str, Any]], plant: bool) -> list[Any]:
        return list(Carnet(REGISTRY, None, seed=3, plant=plant, rate=0.0, planted=[]).records(iter(records)))

    whole = _write(tmp_path / "whole.jsonl", carnet(_records(12, seed=7, table="T-3"), plant=False))
    split = _write(tmp_path / "split.jsonl", carnet(_records(100, seed=5, table="T-1"), plant=True))
    piped = _write(tmp_path / "piped.jsonl", carnet(_records(12, seed=8, table="T-4"), plant=False))
    monkeypatch.setattr(parallel, "MIN_SHARE", 10_000)  # the small log one share, the other several
    assert len(parallel.plan([whole], 2)) == 1 and len(parallel.plan([split], 2)) >= 2
    stdin = Path(piped).read_text()
    one = cli("check", whole, split, "-", "-f", "html", stdin=stdin)
    two = cli("check", whole, split, "-", "-f", "html", "--scheduler", dask_scheduler, stdin=stdin)
    assert one.returncode == two.returncode == 1, two.stderr
    counted = "3 séances: 2 reconciled to the cent, 1 with a difference"
    assert counted in one.stdout
    assert _RUN_SPECIFIC.sub("…", two.stdout) == _RUN_SPECIFIC.sub("…", one.stdout)


def _figures(page: str) -> str:
    """The HTML report without its title, its list of runs, the line naming the dataset and the time
    (each run its own) and the dataset's folder in the example query."""
    head, _, rest = page.partition("<details><summary>Runs that wrote this dataset")
    page = (head + rest.partition("</details>")[2]).replace("Audit report of one run", "Audit report")
    page = re.sub(r"read_parquet\('[^']*/findings/", "read_parquet('…/findings/", page)
    return re.sub(r'<p class="meta">.*?</p>', "", page, flags=re.S)


def _dataset(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """The rows of a dataset's rounds and findings, without the run's id, in a stable order."""
    import pyarrow.parquet as pq

    tables = {}
    for table in ("rounds", "findings"):
        rows = [
            row
            for path in sorted((folder / table).glob("*/*/*.parquet"))
            for row in pq.read_table(path).to_pylist()
        ]
        for row in rows:
            del row["run_id"]
        tables[table] = sorted(rows, key=lambda row: json.dumps(row, sort_keys=True, default=str))
    return tables


def test_the_dataset_has_the_same_rows_on_the_cluster(tmp_path, cli, dask_scheduler):
    # 500 rounds: cut in shares here (small_shares) as 1,500 were; every row compared all the same.
    split = _planted_log(tmp_path / "split.jsonl", 500, seed=4)
    assert len(parallel.plan([split], 2)) >= 2
    small = _planted_log(tmp_path / "small.jsonl", 40, seed=5, table="S-1")
    one = cli("check", split, small, "--dataset", str(tmp_path / "one"), "-f", "json")
    two = cli(
        "check", split, small, "--dataset", str(tmp_path / "two"), "-f", "json", "--scheduler", dask_scheduler
    )
    assert one.returncode == two.returncode == 1
    assert two.stdout == one.stdout
    alone, shared = _dataset(tmp_path / "one"), _dataset(tmp_path / "two")
    assert len(alone["rounds"]) == 540 and alone["findings"]
    assert shared == alone


def _written(record: dict[str, Any], layout: str) -> bytes:
    if layout == "spaced":  # json's separators, as docs/hand-log.md writes its examples
        return json.dumps(record, ensure_ascii=False).encode()
    line = orjson.dumps(record)
    if layout == "escaped":  # the key, and a record's kind, spelt with escapes
        return line.replace(b'"type":"shoe"', b'"typ\\u0065":"sho\\u0065"').replace(
            b'"limits"', b'"limit\\u0073"'
        )
    return line


@pytest.mark.parametrize("layout", ["compact", "spaced", "escaped", "nested"])
def test_the_index_finds_every_record_the_plan_needs_however_it_is_written(layout):
    # The reference is every line parsed on its own (`_record_type`, what the replay sees): the index's
    # searches must find each line it calls a table, limits, shoe or jackpot record, or a round staking a
    # progressive bet, whatever the JSON's spaces and escapes, and a "type" elsewhere must not fool it.
    records: list[Any] = _records(60, seed=7)
    shoes = [i for i, r in enumerate(records) if r["type"] == "shoe"]
    records.insert(shoes[1], {"type": "limits", "at": records[shoes[1]]["at"], "minimum": 50, "maximum": 900})
    records.insert(
        shoes[2], {"type": "jackpot", "at": records[shoes[2]]["at"], "main": "1.00", "secondary": "1.00"}
    )
    rounds = [r for r in records if r["type"] == "round"]
    rounds[5]["bets"] = [*rounds[5]["bets"], {"stake": "jp1", "amount": 1, "player": "P1", "seated": True}]
    if layout == "nested":  # "type" as a nested object's key and as a value, in rounds
        for r in rounds[::7]:
            r["bets"] = [{**bet, "type": "shoe"} for bet in r["bets"]]
            r["note"] = "type"
    lines = [_written(r, layout) for r in records]
    data = b"\n".join(lines) + b"\n"
    expected = [
        n
        for n, line in enumerate(lines, 1)
        if parallel._record_type("t.jsonl", n, line, n == 1) != (None, False)
    ]
    kinds = {parallel._record_type("t.jsonl", n, lines[n - 1], n == 1) for n in expected}
    assert {("table", False), ("limits", False), ("shoe", False), ("jackpot", True), (None, True)} <= kinds
    index = parallel._index(data, 0, "t.jsonl")
    assert [event.line.number for event in index.events] == expected
    assert index.lines == len(lines)


def test_the_plan_is_the_same_however_the_file_is_cut_into_chunks_to_index(tmp_path, monkeypatch):
    # Workers index the chunks of a file apart; a chunk may begin or end in the middle of any line,
    # even of a table, limits, shoe or jackpot record: the plan must be the one a single pass makes.
    records: list[Any] = _records(300, seed=4, day="2025-03-14")
    shoe_lines = [i for i, r in enumerate(records) if r["type"] == "shoe"]
    limits = {"type": "limits", "at": records[shoe_lines[1]]["at"], "minimum": 50, "maximum": 1000}
    jackpot = {"type": "jackpot", "at": records[shoe_lines[3]]["at"], "main": "100.00", "secondary": "10.00"}
    records.insert(shoe_lines[3] + 1, jackpot)
    records.insert(shoe_lines[1], limits)
    records += _records(200, seed=5, table="T-2", day="2025-03-14")
    log = _write(tmp_path / "t.jsonl", records)
    monkeypatch.setattr(parallel, "INDEX_CHUNK", 1 << 30)
    whole = parallel.plan([log], 2)
    assert len(whole) > 8 and any(len(share.preamble) == 4 for share in whole)
    for size in (1, 97, 4096, 65_536):
        monkeypatch.setattr(parallel, "INDEX_CHUNK", size)
        assert parallel.plan([log], 2) == whole, size


def test_a_seance_split_at_its_shoes_is_reconciled_once_whole(tmp_path):
    # Two séances with their carnets (simulate.carnet), the first's encaisse planted a chip off: each
    # share that starts at a shoe sees only part of its séance; the client adds the parts up and
    # reconciles each séance once, in its place, as one process does (a share reconciling its part
    # alone would find an avance initiale missing, or a difference that is none).
    from validator.simulate.carnet import Carnet

    planted: list[Any] = []
    both = _records(250, seed=5, table="T-1") + _records(250, seed=6, table="T-2", day="2016-06-11")
    records = list(Carnet(REGISTRY, None, seed=3, plant=True, rate=0.0, planted=planted).records(iter(both)))
    log = _write(tmp_path / "money.jsonl", records)
    shares = parallel.plan([log], 2)
    assert sum(1 for share in shares if share.preamble) >= 4  # shares that start inside a séance
    assert sum(1 for share in shares if not share.closes) >= 4
    one = _one_process([log])
    [difference] = [f for o in one[0] for f in o.findings]
    assert (difference.rule, difference.line) == ("money/reconciliation", planted[0].line)
    assert one[1]["money"]["seances"] == {"reconciled": 1, "with_difference": 1, "not_reconciled": 0}
    assert _in_parallel([log]) == one
    assert _in_parallel([log], jobs=3) == one
