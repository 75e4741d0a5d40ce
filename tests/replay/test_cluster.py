"""`check` on Dask survives what a cluster meets: a worker killed mid-run (its shares are computed again
elsewhere, the report is whole and the same), a worker that cannot read a log (the message one process
gives), Ctrl-C (the run stops within a second, nothing left behind), and a real cluster started as
separate `dask scheduler` and `dask worker` processes, as docs/cluster.md shows."""

from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson
import pytest
from conftest import ROOT, SAMPLES

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
HOUSE = SAMPLES / "house" / "trouville.yaml"


def _log(path: Path, rounds: int, seed: int, rate: float = 0.05) -> str:
    records = simulate(
        BLACKJACK,
        BLACKJACK.house_defaults(),
        Seance(
            seed=seed,
            rounds=rounds,
            table_id="T-1",
            start=datetime.fromisoformat("2016-06-10T20:00:00+01:00"),
            minimum=Decimal(10),
            maximum=Decimal(1000),
        ),
    )
    if rate:
        records = inject(records, BLACKJACK, injectable(BLACKJACK), rate, seed, [])
    lines = [orjson.dumps(r) for r in records]
    path.write_bytes(b"\n".join(lines) + b"\n")
    return str(path)


def _one_process(paths: list[str]) -> tuple[list[Any], dict[str, Any]]:
    """What a cluster sends back of one process's outcomes (those with findings, and unreadable rounds;
    the rest are only counted), and the summary."""
    summary = Summary()
    outcomes = list(check_logs(REGISTRY, paths, summary=summary))
    return [o for o in outcomes if o.findings or o.status == "unreadable"], summary.as_dict()


FORMATS = ("text", "jsonl", "json", "sarif", "junit", "github", "html")
# What differs between two runs of the HTML report, however made: its run's id, times and temporary folder.
_RUN_SPECIFIC = re.compile(
    r"casino-validator-audit-\w+|\d{8}T\d{6}-[0-9a-f]{8}|\d{4}-\d\d-\d\d \d\d:\d\d(?::\d\d\.\d+\+00:00| UTC)"
)


def _same(fmt: str, text: str) -> str:
    return _RUN_SPECIFIC.sub("…", text) if fmt == "html" else text


def _reported(fmt: str, paths: list[str], scheduler: str | None = None, kill: Any = None) -> tuple[str, int]:
    """The report of `paths` in format `fmt` as `check` writes it (without a policy), in one process or
    on the cluster at `scheduler`; `kill(client)` is called once the first outcome is written. Also
    how many outcomes reached the reporter."""
    import io

    from validator.checking.serial import rule_catalogue
    from validator.formats import make_reporter

    out = io.StringIO()
    reporter = make_reporter(fmt, out, root=str(ROOT))
    summary = Summary()
    if scheduler is None:
        outcomes = check_logs(REGISTRY, paths, summary=summary, collect=fmt == "html")
    else:
        outcomes = cluster.check_on_cluster(
            paths, summary, CheckOptions((), format=fmt, jobs=2, scheduler=scheduler), report=reporter
        )
    count = 0
    for outcome in outcomes:
        reporter.round(outcome)
        count += 1
        if kill is not None and count == 1:
            kill()
    reporter.finish(summary, rule_catalogue(REGISTRY, summary.rulesets))
    return _same(fmt, out.getvalue()), count


def test_a_worker_killed_mid_run_has_its_shares_computed_again(tmp_path, monkeypatch, dask_cluster):
    from distributed import Client

    monkeypatch.setattr(parallel, "MIN_SHARE", 1)  # a share per shoe
    monkeypatch.setattr(parallel, "SHARES_PER_JOB", 10_000)
    log = _log(tmp_path / "t.jsonl", 1000, seed=31)
    assert len(parallel.plan([log], 2)) >= 10
    summary = Summary()
    outcomes = cluster.check_on_cluster(
        [log], summary, CheckOptions((), jobs=2, scheduler=dask_cluster.scheduler_address)
    )
    seen = [next(outcomes)]  # the first share is written; shares after it are on the workers
    with Client(dask_cluster, set_as_default=False) as client:
        pids = client.run(os.getpid)
        held = {
            w: [k for k in keys if str(k).startswith("casino-validator-")]
            for w, keys in client.has_what().items()
        }
        for worker, keys in client.processing().items():
            held.setdefault(worker, []).extend(k for k in keys if str(k).startswith("casino-validator-"))
        victim = max(held, key=lambda worker: len(held[worker]))
        assert held[victim]  # what it computed or is computing is lost with it
        os.kill(pids[victim], signal.SIGKILL)
        seen.extend(outcomes)
        assert pids[victim] not in client.run(os.getpid).values()
    assert (seen, summary.as_dict()) == _one_process([log])


def test_a_worker_that_cannot_read_a_log_stops_the_run_as_one_process_does(tmp_path, cli, dask_scheduler):
    # The client reads nothing of the logs: the file a worker cannot open is reported by the worker, with
    # the words one process uses.
    before = _log(tmp_path / "before.jsonl", 300, seed=3)
    gone = str(tmp_path / "gone.jsonl")
    with pytest.raises(ValidatorError) as on_worker:
        list(cluster.check_on_cluster([before, gone], Summary(), CheckOptions((), scheduler=dask_scheduler)))
    with pytest.raises(ValidatorError) as alone:
        _one_process([before, gone])
    assert str(on_worker.value) == str(alone.value) == f"{gone}: no such file or directory"
    one = cli("check", before, gone, "-f", "jsonl")
    two = cli("check", before, gone, "-f", "jsonl", "--scheduler", dask_scheduler)
    assert one.returncode == two.returncode == 2
    assert (two.stdout, two.stderr) == (one.stdout, one.stderr)
    assert one.stderr == f"casino-validator: {gone}: no such file or directory\n"


def test_relative_paths_are_found_by_workers_in_another_folder(tmp_path, monkeypatch, dask_scheduler):
    # The shared cluster's workers run in the project's folder; the logs and house file are elsewhere.
    monkeypatch.chdir(tmp_path)
    _log(tmp_path / "t.jsonl", 300, seed=7)
    (tmp_path / "house.yaml").write_bytes(HOUSE.read_bytes())
    summary = Summary()
    outcomes = list(
        cluster.check_on_cluster(["t.jsonl"], summary, CheckOptions((), jobs=2, scheduler=dask_scheduler))
    )
    assert (outcomes, summary.as_dict()) == _one_process(["t.jsonl"])
    assert outcomes and {o.file for o in outcomes} == {"t.jsonl"}
    # The HTML report's sums of clean rounds are made on the workers: of the same file, by its digest.
    assert _reported("html", ["t.jsonl"], dask_scheduler)[0] == _reported("html", ["t.jsonl"])[0]
    # The house file has no entry for table T-1: the message names it as given, as one process does.
    with pytest.raises(ValidatorError) as on_cluster:
        list(
            cluster.check_on_cluster(
                ["t.jsonl"], Summary(), CheckOptions((), house=Path("house.yaml"), scheduler=dask_scheduler)
            )
        )
    from validator.house.apply import house_lookup

    with pytest.raises(ValidatorError) as alone:
        list(check_logs(REGISTRY, ["t.jsonl"], house=house_lookup(Path("house.yaml"), REGISTRY)[0]))
    assert str(on_cluster.value) == str(alone.value)
    assert str(alone.value).startswith("house.yaml: table T-1 has no entry in this house-rules file")


def _alive(group: int) -> list[str]:
    """The processes of a process group that are still running (zombies are dead)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(entry.name)
    return alive


def _at_tables(path: Path, tables: int) -> str:
    """The séance of log `path` dealt again at `tables` tables (the same records under other table
    ids, each table a share of its own): a log that keeps the workers busy for a while, however fast
    the build, without simulating more rounds."""
    séance = path.read_bytes()
    path.write_bytes(b"".join(séance.replace(b'"T-1', f'"T-{n}'.encode()) for n in range(1, tables + 1)))
    return str(path)


def _unread(fd: int) -> int:
    """How many bytes written into a pipe nobody has read yet."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]


def test_ctrl_c_stops_the_run_and_leaves_nothing(tmp_path):
    log = _at_tables(Path(_log(tmp_path / "big.jsonl", 2000, seed=41, rate=0.0)), 2)
    # A second log that never ends: a named pipe this test holds open, the séance's first lines written
    # into it and no end of file. The parent reads a pipe itself, in its turn, so the run cannot finish
    # before the signal however fast the machine is (the test once saw a run end first, under load).
    pipe = tmp_path / "endless.jsonl"
    os.mkfifo(pipe)
    writer = os.open(pipe, os.O_RDWR)  # O_RDWR: opening does not wait for the reader
    os.write(writer, b"".join(Path(log).read_bytes().splitlines(keepends=True)[:3]))
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    report = tmp_path / "out" / "report.json"
    report.parent.mkdir()
    command = [
        sys.executable,
        "-P",  # the installed build, not the source tree of the working folder
        "-m",
        "validator",
        "check",
        str(pipe),
        log,
        "--jobs",
        "2",
        "-q",
        "-f",
        "json",
        "-o",
        str(report),
    ]
    env = {**os.environ, "TMPDIR": str(scratch)}
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 60
        # Waited for, not timed: the workers' folders exist, and the parent, which reads the pipe once
        # the cluster is up and the shares of the other log are handed out, has read what was written.
        while len(list(scratch.glob("casino-validator-dask-*/dask-scratch-space/worker-*/"))) < 2 or _unread(
            writer
        ):
            assert process.poll() is None and time.monotonic() < deadline, "the run did not start"
            time.sleep(0.05)
        assert process.poll() is None  # it cannot have ended: the pipe has no end
        os.killpg(process.pid, signal.SIGINT)  # what the terminal does on Ctrl-C: the whole group
        # The pipe's end, now that the signal is sent: a reader blocked on it returns, so the run's
        # clean-up is not left waiting on a read that nothing would end (the run was interrupted first:
        # a run that ignored the signal would now end 0, and fail below).
        os.close(writer)
        writer = -1
        # A hang guard, not a timing (communicate raises if the run has not stopped): the machine is
        # shared, and how fast the run stops is measured by benchmarks/bench_cluster.py.
        _, stderr = process.communicate(timeout=60)
    finally:
        if writer != -1:
            os.close(writer)
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert "Traceback" not in stderr
    time.sleep(0.2)
    assert _alive(process.pid) == []
    assert list(scratch.iterdir()) == []
    assert list(report.parent.iterdir()) == []  # no report, and no part of one


@pytest.fixture
def real_cluster(tmp_path) -> Iterator[str]:
    """`dask scheduler` and two `dask worker` processes on localhost, on ports the system picks."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(tmp_path)}
    address_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    processes = [
        subprocess.Popen(
            [
                *dask,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(address_file),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    ]
    try:
        deadline = time.monotonic() + 30
        while not address_file.exists() or not address_file.read_text().strip():
            assert processes[0].poll() is None and time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.05)
        address = json.loads(address_file.read_text())["address"]
        for name in ("one", "two"):
            worker = [*dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard"]
            worker += ["--host", "127.0.0.1", "--name", name, "--local-directory", str(tmp_path / name)]
            processes.append(
                subprocess.Popen(
                    worker,
                    cwd=tmp_path,  # not the command's folder: relative paths must not be taken as they are
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
            )
        from distributed import Client

        with Client(address, set_as_default=False, timeout=30) as client:
            client.wait_for_workers(2, timeout=30)
        yield address
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _counted(check_on_cluster: Any, reached: list[str | None]) -> Any:
    """`cluster.check_on_cluster`, noting in `reached` the scheduler each run was sent to."""

    def counted(paths: Any, summary: Any, options: CheckOptions, **kwargs: Any) -> Any:
        reached.append(options.scheduler)
        return check_on_cluster(paths, summary, options, **kwargs)

    return counted


def test_a_real_cluster_gives_the_same_bytes_even_when_a_worker_dies(
    real_cluster, cli, tmp_path, monkeypatch
):
    logs, house = "samples/logs", "samples/house/trouville.yaml"  # relative to the command's folder
    # Every format's bytes through `--scheduler ADDRESS` are compared on the session's cluster
    # (tests/replay/test_parallel.py::test_every_format_gives_the_same_bytes_on_the_cluster, the same code
    # on the client's side); here, workers that are other processes in another folder: JSON (the files
    # counted), the HTML report (the sums of clean rounds) and, through DASK_SCHEDULER_ADDRESS, JSON lines.
    for fmt in ("json", "html"):
        one = cli("check", logs, "--house", house, "--format", fmt)
        two = cli("check", logs, "--house", house, "--format", fmt, "--scheduler", real_cluster)
        assert one.returncode == two.returncode == 1
        assert (_same(fmt, two.stdout), two.stderr) == (_same(fmt, one.stdout), one.stderr), fmt
        if fmt == "json":
            assert json.loads(two.stdout)["summary"]["files"] == 10
    # DASK_SCHEDULER_ADDRESS is the other way to name the cluster (read from the environment when the
    # command runs: `cli`, in this process, as the process that reads it would).
    alone = cli("check", logs, "--house", house, "--format", "jsonl")
    reached: list[str | None] = []
    with monkeypatch.context() as patch:
        patch.setenv("DASK_SCHEDULER_ADDRESS", real_cluster)
        patch.setattr(cluster, "check_on_cluster", _counted(cluster.check_on_cluster, reached))
        three = cli("check", logs, "--house", house, "--format", "jsonl")
    assert reached == [real_cluster]  # the run went to the cluster the variable names
    assert (three.returncode, three.stdout, three.stderr) == (alone.returncode, alone.stdout, alone.stderr)
    # A `dask worker` killed while it holds shares done and shares to do: the scheduler has them
    # computed again by the other (or by the worker its nanny restarts), and the report is the same.
    log = _log(tmp_path / "t.jsonl", 1000, seed=31)
    from distributed import Client

    def kill_the_busiest() -> None:
        with Client(real_cluster, set_as_default=False) as client:
            pids = client.run(os.getpid)
            held = {
                w: [k for k in keys if str(k).startswith("casino-validator-")]
                for w, keys in client.has_what().items()
            }
            for worker, keys in client.processing().items():
                held.setdefault(worker, []).extend(k for k in keys if str(k).startswith("casino-validator-"))
            victim = max(held, key=lambda worker: len(held[worker]))
            assert held[victim]  # what it computed or is computing is lost with it
            os.kill(pids[victim], signal.SIGKILL)
            killed.append(pids[victim])

    monkeypatch.setattr(parallel, "MIN_SHARE", 1)  # a share per shoe: many tasks in flight
    monkeypatch.setattr(parallel, "SHARES_PER_JOB", 10_000)
    for fmt in ("junit", "html"):
        killed: list[int] = []
        alone, _ = _reported(fmt, [log])
        on_cluster, written = _reported(fmt, [log], real_cluster, kill_the_busiest)
        assert on_cluster == alone
        assert killed and written > 1


def test_jobs_and_scheduler_together_are_refused(cli):
    result = cli("check", str(SAMPLES / "logs"), "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert result.returncode == 2
    assert result.stderr == (
        "casino-validator: --jobs starts a local cluster, --scheduler uses a running one: give one of them\n"
    )


def test_a_scheduler_that_does_not_answer_is_an_exit_2_message(cli):
    with pytest.raises(ValidatorError, match=r"^--scheduler tcp://127.0.0.1:9: cannot reach the scheduler"):
        list(
            cluster.check_on_cluster(
                [str(SAMPLES / "logs")],
                Summary(),
                CheckOptions((), scheduler="tcp://127.0.0.1:9", scheduler_timeout=1),
            )
        )


def test_the_readers_limits_reach_the_workers(tmp_path, dask_scheduler):
    # A worker is another process: it knows only the default limits unless the share carries the
    # command's. A line over --max-line-bytes must be the same finding on the cluster as here.
    from validator.logs.limits import Limits, configure

    log = _log(tmp_path / "t.jsonl", 300, seed=5)
    configure(Limits(max_line=400))
    try:
        summary = Summary()
        on_cluster = list(
            cluster.check_on_cluster([log], summary, CheckOptions((), scheduler=dask_scheduler))
        )
        assert (on_cluster, summary.as_dict()) == _one_process([log])
    finally:
        configure(Limits())
    assert any(f.rule == "hand-log/line-too-long" for o in on_cluster for f in o.findings)
