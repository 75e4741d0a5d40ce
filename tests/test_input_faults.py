"""Exit 3 is the program's own bugs only: every input below once ended in an internal error (or a hang, or
a wrong count); each is now exit 2 (or findings) with one line naming the file, through the real command."""

from __future__ import annotations

import errno
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import ROOT, SAMPLES, run_cli, run_cli_process

from validator.checking import parallel

HOUSE = SAMPLES / "house" / "trouville.yaml"
CLEAN = SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
DISPUTE = SAMPLES / "logs" / "disputes" / "BA-01-2025-02-01.jsonl"
# How long a process of the command may take before it is taken to hang (a FIFO once hung `report`): far
# beyond what a second of CPU takes on a loaded machine (a minute was seen at a load of 20 on 2 cores).
HANG = 600


def _no_crash(done: subprocess.CompletedProcess[str], status: int, words: str) -> None:
    assert done.returncode == status, done.stderr
    assert words in done.stderr or words in done.stdout, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert all(len(line) < 2200 for line in done.stderr.splitlines())


# --- house files -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ratio", ["3:" + "2" * 5000, "3:²"])
def test_an_odd_ratio_in_a_house_file(tmp_path: Path, ratio: str) -> None:
    """US-01's blackjack_pays (samples/house/trouville.yaml) written with 5,000 digits, or a superscript
    two (a digit to str.isdigit, not to int())."""
    house = tmp_path / "house.yaml"
    house.write_text(HOUSE.read_text(encoding="utf-8").replace('"3:2"', f'"{ratio}"'), encoding="utf-8")
    _no_crash(run_cli("lint", str(house)), 1, "is not a ratio")
    us = str(SAMPLES / "logs" / "clean" / "US-01-2024-07-05.jsonl")
    _no_crash(run_cli("check", us, "--house", str(house), "-q"), 2, "is not a ratio")
    _no_crash(run_cli("edge", "--house", str(house), "--table", "US-01"), 2, "is not a ratio")
    done = run_cli(
        "simulate",
        "--ruleset",
        "fr/usage-blackjack",
        "--house",
        str(house),
        "--table",
        "US-01",
        "--rounds",
        "2",
    )
    _no_crash(done, 2, "is not a ratio")


# --- dates at the end of the calendar --------------------------------------------------------------


def test_a_round_dated_9999_12_31(tmp_path: Path) -> None:
    """hand-log allows any ISO 8601 date: 9999-12-31 at 22:00 at UTC-05:00 is in the year 10000 in UTC."""
    log = tmp_path / "late.jsonl"
    text = CLEAN.read_text(encoding="utf-8").replace("2025-01-31T", "9999-12-31T").replace("+01:00", "-05:00")
    log.write_text(text, encoding="utf-8")
    _no_crash(run_cli("check", str(log), "--dataset", str(tmp_path / "ds"), "-q"), 0, "")
    _no_crash(run_cli("report", str(tmp_path / "ds"), "-o", str(tmp_path / "a.html")), 0, "")
    _no_crash(run_cli("check", str(log), "-f", "html", "-o", str(tmp_path / "b.html")), 0, "")


# --- configuration files and baselines -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("pyproject.toml", b"tool = 1\n", "tool must be a table"),
        ("pyproject.toml", b'tool = "casino-validator"\n', "tool must be a table"),
        ("casino-validator.toml", b"\xff\xfe = 1\n", "not UTF-8 text"),
        ("casino-validator.toml", b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", "nested too deep"),
        ("casino-validator.toml", b"# " + b"x" * (2 << 20) + b"\n", "too large for a configuration file"),
        # Python refuses to convert an integer of over 4,300 digits (found by the configuration fuzzer).
        ("casino-validator.toml", b"select = " + b"9" * 5000 + b"\n", "not valid TOML: Exceeds the limit"),
    ],
)
def test_a_damaged_configuration_file(tmp_path: Path, name: str, content: bytes, words: str) -> None:
    (tmp_path / name).write_bytes(content)
    done = run_cli("check", str(CLEAN), "-q", cwd=tmp_path)
    _no_crash(done, 2, words)
    assert str(tmp_path / name) in done.stderr


def test_a_damaged_baseline(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"version": 1, "findings": ' + "[" * 200_000 + "]" * 200_000 + "}")
    _no_crash(
        run_cli("check", str(CLEAN), "-q", "--baseline", str(deep)), 2, "not a baseline (nested too deep)"
    )
    # a device read without limit once: the configuration's baseline is /dev/zero
    (tmp_path / "casino-validator.toml").write_text('baseline = "/dev/zero"\n')
    _no_crash(run_cli("check", str(CLEAN), "-q", cwd=tmp_path), 2, "too large for a baseline")


def test_a_baseline_is_read_back_as_written(tmp_path: Path) -> None:
    baseline = tmp_path / "b.json"
    assert run_cli("check", str(DISPUTE), "-q", "--write-baseline", str(baseline)).returncode == 0
    assert run_cli("check", str(DISPUTE), "-q", "--baseline", str(baseline)).returncode == 0
    assert run_cli("check", str(DISPUTE), "-q").returncode == 1


# --- datasets given to report ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("damage") / "ds"
    done = run_cli("check", str(DISPUTE), "--dataset", str(root), "-q")
    assert done.returncode == 1, done.stderr
    return root


def _damaged(dataset: Path, tmp_path: Path) -> tuple[Path, Path]:
    copy = tmp_path / "ds"
    shutil.copytree(dataset, copy, symlinks=True)
    return copy, next(copy.glob("rounds/*/*/*.parquet"))


def _retyped(path: Path, column: str, values: pa.Array) -> None:
    table = pq.read_table(path)
    table = table.set_column(table.schema.get_field_index(column), column, values)
    pq.write_table(table, path)


DAMAGES = {
    "garbage": lambda ds, f: f.write_bytes(b"garbage\n"),
    "empty": lambda ds, f: f.write_bytes(b""),
    "another type": lambda ds, f: _retyped(f, "line", pa.array(["x"] * pq.read_metadata(f).num_rows)),
    "inf": lambda ds, f: _retyped(f, "wagered", pa.array([float("inf")] * pq.read_metadata(f).num_rows)),
    "players as text": lambda ds, f: _retyped(f, "players", pa.array(["P1"] * pq.read_metadata(f).num_rows)),
    "garbage in runs": lambda ds, f: (ds / "runs" / "x.parquet").write_bytes(b"garbage"),
    "symlink loop": lambda ds, f: (ds / "runs" / "loop.parquet").symlink_to("loop.parquet"),
    "folder": lambda ds, f: (ds / "runs" / "x.parquet").mkdir(),
    "fifo": lambda ds, f: os.mkfifo(ds / "runs" / "x.parquet"),
    "fifo in its place": lambda ds, f: (f.unlink(), os.mkfifo(f)),
    "missing": lambda ds, f: f.unlink(),
    "rows lost": lambda ds, f: pq.write_table(pq.read_table(f).slice(0, 1), f),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_report_over_a_damaged_dataset(dataset: Path, tmp_path: Path, damage: str) -> None:
    copy, victim = _damaged(dataset, tmp_path)
    DAMAGES[damage](copy, victim)
    done = subprocess.run(  # a process of its own: a FIFO once hung the report
        [sys.executable, "-P", "-m", "validator", "report", str(copy), "-o", str(tmp_path / "a.html")],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
        cwd=ROOT,
    )
    _no_crash(done, 2, str(copy))
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "a.html").exists()


def test_stray_files_no_manifest_lists_are_not_read(dataset: Path, tmp_path: Path) -> None:
    copy, victim = _damaged(dataset, tmp_path)
    folder = victim.parent
    (folder / "stray.parquet").write_bytes(b"garbage")
    os.mkfifo(folder / "pipe.parquet")
    (folder / "dir.parquet").mkdir()
    done = run_cli("report", str(copy), "-o", str(tmp_path / "a.html"))
    _no_crash(done, 0, "")


# --- URLs -------------------------------------------------------------------------------------------


def test_logs_inside_archives_and_caches(tmp_path: Path) -> None:
    import tarfile
    import zipfile

    with zipfile.ZipFile(tmp_path / "logs.zip", "w") as archive:
        archive.write(CLEAN, CLEAN.name)
    with tarfile.open(tmp_path / "logs.tar", "w") as archive:
        archive.add(CLEAN, CLEAN.name)
    for url in (
        f"zip://{CLEAN.name}::file://{tmp_path}/logs.zip",
        f"tar://{CLEAN.name}::file://{tmp_path}/logs.tar",
    ):
        done = run_cli("check", url, "-q", "-f", "json")
        _no_crash(done, 0, "")
        assert json.loads(done.stdout)["summary"]["rounds"]["read"] == 150  # as the file itself gives
    _no_crash(run_cli("check", f"zip://{CLEAN.name}::file://{tmp_path}/logs.tar", "-q"), 2, "logs.tar")
    _no_crash(run_cli("check", f"tar://{CLEAN.name}::file://{tmp_path}/logs.zip", "-q"), 2, "logs.zip")
    _no_crash(run_cli("check", f"blockcache://{CLEAN}", "-q"), 2, "blockcache://")
    _no_crash(run_cli("check", f"blockcache::file://{tmp_path}/none.jsonl", "-q"), 2, "no such file")


# --- the dataset folder and what goes in it -----------------------------------------------------------


def test_dataset_names_that_look_like_urls(tmp_path: Path) -> None:
    done = run_cli("check", str(CLEAN), "--dataset", "run:1", "-q", cwd=tmp_path)
    _no_crash(done, 0, "")
    assert list((tmp_path / "run:1" / "runs").glob("*.parquet"))
    done = run_cli("check", str(CLEAN), "--dataset", "s3://b/x", "-q", cwd=tmp_path)
    _no_crash(done, 2, "a dataset is a local folder, not a URL")
    assert not (tmp_path / "s3:").exists()


def test_long_casino_names(tmp_path: Path) -> None:
    lines = CLEAN.read_text(encoding="utf-8").splitlines()
    logs = []
    for size, letter in ((245, "é"), (300_000, "Z")):
        table = json.loads(lines[0])
        table["casino"] = "Casino " + letter * size
        log = tmp_path / f"c{size}.jsonl"
        log.write_text("\n".join([json.dumps(table), *lines[1:]]) + "\n", encoding="utf-8")
        logs.append(str(log))
    dataset = tmp_path / "ds"
    _no_crash(run_cli("check", *logs, "--dataset", str(dataset), "-q"), 0, "")
    folders = sorted(p.name for p in (dataset / "rounds").iterdir())
    assert len(folders) == 2 and all(len(name) <= len("casino_key=") + 64 for name in folders)
    casinos = pq.read_table(next((dataset / "rounds").glob("*/*/*.parquet")), columns=["casino"])
    assert {len(c) for c in casinos["casino"].to_pylist()} <= {7 + 245, 7 + 300_000}
    # a name too long for any folder, in an error: the line is cut
    name = "x" * 300_000
    _no_crash(run_cli("check", str(tmp_path / name[:200]) + name, "-q"), 2, "more characters")


def test_a_named_pipe_with_a_dataset_is_read_once(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.jsonl"
    os.mkfifo(pipe)
    feeder = threading.Thread(target=lambda: pipe.write_bytes(CLEAN.read_bytes()))
    feeder.start()
    done = subprocess.run(
        [
            sys.executable,
            "-P",
            "-m",
            "validator",
            "check",
            str(pipe),
            "--dataset",
            str(tmp_path / "ds"),
            "-q",
        ],
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
        cwd=ROOT,
    )
    feeder.join(timeout=5)
    _no_crash(done, 0, "")
    rows = sum(pq.read_metadata(f).num_rows for f in (tmp_path / "ds").glob("rounds/*/*/*.parquet"))
    assert rows == 150


def test_a_full_disk_as_the_run_is_recorded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    output = tmp_path / "report.json"
    output.write_text("the previous report\n")

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pq, "write_table", full)
    done = run_cli("check", str(DISPUTE), "--dataset", str(tmp_path / "ds"), "-f", "json", "-o", str(output))
    _no_crash(done, 2, "cannot write the run's record (No space left on device)")
    assert str(tmp_path / "ds" / "runs") in done.stderr and "standard output" not in done.stderr
    assert output.read_text() == "the previous report\n"
    assert not list((tmp_path / "ds").glob("rounds/*/*/*"))  # nothing left of the run


# --- standard output -------------------------------------------------------------------------------


def test_report_into_a_closed_pipe_is_exit_2_like_check(tmp_path: Path) -> None:
    # The page must outgrow the pipe's buffer (64 KiB on Linux): one that fits is written whole before
    # the reader closes, and exit 0 is right then, as for `cat small | head -c 10`. The samples' page is
    # about 300 kB, but pricing their blackjack tables costs half a minute of CPU; the dispute's alone
    # (about 35 kB, SVG charts and no script) would fit. The bataille samples (a séance and a dispute)
    # at six tables make a page of about 90 kB (some 8 kB a table), their one version priced once.
    logs = tmp_path / "logs"
    logs.mkdir()
    for table in range(1, 7):
        for log in (CLEAN, DISPUTE):
            text = log.read_text(encoding="utf-8").replace("BA-01", f"BA-{table:02}")
            (logs / f"{table}-{log.name}").write_text(text, encoding="utf-8")
    dataset = tmp_path / "ds"
    done = run_cli("check", str(logs), "--dataset", str(dataset), "-q")
    assert done.returncode == 1, done.stderr
    for command in (["report", str(dataset)], ["check", str(SAMPLES / "logs")]):
        child = subprocess.Popen(
            [sys.executable, "-P", "-m", "validator", *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
        assert child.stdout is not None and child.stderr is not None
        child.stdout.read(10)
        child.stdout.close()
        assert child.wait(timeout=HANG) == 2, command
        assert b"internal error" not in child.stderr.read()


def _unreadable(path: Path) -> None:
    path.chmod(0)
    if os.access(path, os.R_OK):  # root reads anything: a file even root may not open
        path.unlink()
        path.symlink_to("/proc/1/mem")
        try:
            open(path, "rb").close()
        except OSError:
            return
        pytest.skip("no file this user cannot read")


def test_json_on_a_folder_with_an_unreadable_file_writes_no_partial_document(tmp_path: Path) -> None:
    shutil.copy(DISPUTE, tmp_path / "a.jsonl")  # findings first, then a file that cannot be read
    shutil.copy(CLEAN, tmp_path / "b.jsonl")
    _unreadable(tmp_path / "b.jsonl")
    done = run_cli_process("check", str(tmp_path), "-f", "json")
    _no_crash(done, 2, "b.jsonl")
    assert done.stdout == ""


def test_jobs_count_records_as_one_process_when_a_line_is_too_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An overlong line as the last of a share: its reader once took the next share's first line too."""
    # Every shoe starts a share, as in tests/replay/test_parallel.py: 400 rounds (11 shoes) end ten shares
    # with an overlong line (asserted below), where 4,000 rounds at the default share size (1 MiB) ended
    # two or three.
    monkeypatch.setattr(parallel, "MIN_SHARE", 1)
    monkeypatch.setattr(parallel, "SHARES_PER_JOB", 10_000)
    seance = tmp_path / "seance.jsonl"
    done = run_cli("simulate", "--ruleset", "fr/bataille", "--rounds", "400", "-o", str(seance))
    assert done.returncode == 0, done.stderr
    lines = seance.read_text().splitlines()
    long_line = '{"type": "round", "x": "' + "a" * 5000 + '"}'
    shoes = [i for i, line in enumerate(lines) if '"type":"shoe"' in line]
    for index in reversed(shoes[1:]):
        lines.insert(index, long_line)  # the last line before each shoe: where shares begin
    seance.write_text("\n".join(lines) + "\n")
    # The shares after the first shoe's: each begins at a shoe, after an overlong line (lines from 1).
    starts = [share.first_line for share in parallel.plan([str(seance)], 2)]
    after = [start for start in starts if start > shoes[0] + 1]
    assert len(after) >= 10 and all(lines[start - 2] == long_line for start in after)
    counts = []
    for jobs in ("1", "2"):
        done = run_cli("check", str(seance), "--max-line-bytes", "1000", "--jobs", jobs, "-q", "-f", "json")
        assert done.returncode == 1, done.stderr
        summary = json.loads(done.stdout)["summary"]
        counts.append((summary["records"], summary["rounds"]))
    assert counts[0] == counts[1]
    assert counts[0][0] == len(lines)  # every line is a record, each read once


def test_a_socket_named_like_a_log_is_skipped(tmp_path: Path) -> None:
    shutil.copy(CLEAN, tmp_path / "a.jsonl")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp_path / "b.jsonl"))
    try:
        _no_crash(run_cli("check", str(tmp_path), "-q"), 0, "")
    finally:
        server.close()
