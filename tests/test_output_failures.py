"""Issue 15: a report that cannot be written is a message and exit 2, never a traceback; a reader that
stops early ends the run quietly; anything unexpected is exit 3 ("internal error"), never 1.

These run the real command: what is tested is what the process does with its own standard output."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, SAMPLES

from validator import __version__

CLEAN = SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
COMMAND = [sys.executable, "-P", "-m", "validator"]


def _run(*args: str, **options) -> subprocess.CompletedProcess[str]:
    options.setdefault("stdout", subprocess.PIPE)
    options.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([*COMMAND, *args], text=True, cwd=ROOT, check=False, timeout=120, **options)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_output_to_a_full_device_is_exit_2_with_a_message():
    ran = _run("check", str(CLEAN), "-o", "/dev/full")
    assert ran.returncode == 2
    assert ran.stderr == "casino-validator: /dev/full: cannot write (No space left on device)\n"


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="needs /proc")
def test_output_to_a_file_that_refuses_writes_is_exit_2_with_a_message():
    ran = _run("check", str(CLEAN), "-o", "/proc/version")
    assert ran.returncode == 2
    # As root the file opens and the write fails (EIO); as anyone else it does not open.
    assert ran.stderr in (
        "casino-validator: /proc/version: cannot write (Input/output error)\n",
        "casino-validator: /proc/version: cannot write (Permission denied)\n",
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["check", str(CLEAN)], ["rules", "list"], ["schema", "hand-log"]])
def test_standard_output_on_a_full_device_is_exit_2_with_a_message(args):
    with open("/dev/full", "w") as full:
        ran = _run(*args, stdout=full)
    assert ran.returncode == 2
    assert ran.stderr == "casino-validator: standard output: cannot write (No space left on device)\n"


@pytest.mark.parametrize("args", [["check", str(CLEAN)], ["rules", "list"]])
def test_a_closed_standard_output_is_exit_2_with_a_message(args):
    ran = subprocess.run(
        [*COMMAND, *args],
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
        pass_fds=(),
        preexec_fn=lambda: os.close(1),
    )
    assert ran.returncode == 2
    assert ran.stderr == "casino-validator: standard output: cannot write (standard output is closed)\n"


@pytest.mark.parametrize(
    "args",
    [
        # A report long enough to fill the pipe: 20,000 broken records, each reported.
        ["check", "{log}", "-f", "jsonl", "--max-broken-records", "100000"],
        ["simulate", "--ruleset", "fr/blackjack@2025-03-14", "--rounds", "300"],
    ],
)
def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path, args):
    log = tmp_path / "broken.jsonl"
    log.write_bytes(b"".join(b'{"type": "round", "round": "R-%d"}\n' % n for n in range(20_000)))
    process = subprocess.Popen(
        [*COMMAND, *(a.format(log=log) for a in args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()  # `| head -1`
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 2
    assert stderr == ""


def test_a_report_that_cannot_be_finished_leaves_the_previous_one(tmp_path):
    # The file size limit makes the write fail part way (EFBIG), as a full disk would (ENOSPC).
    out = tmp_path / "report.json"
    out.write_text("yesterday's report\n")

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))

    ran = _run("check", str(SAMPLES / "logs"), "-f", "json", "-o", str(out), preexec_fn=small_files)
    assert ran.returncode == 2
    assert ran.stderr == f"casino-validator: {out}: cannot write (File too large)\n"
    assert out.read_text() == "yesterday's report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_an_unexpected_exception_is_exit_3_with_the_version_and_how_to_report_it():
    # A bug planted in the running program: the guard, not the command, must catch it.
    code = (
        "import sys, validator.catalogue.view as v, validator.cli as c\n"
        "def broken(registry):\n    raise RuntimeError('planted bug')\n"
        "v.list_lines = broken\nsys.argv = ['casino-validator', 'rules', 'list']\nc.main()\n"
    )
    ran = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
    assert ran.returncode == 3
    assert "Traceback" not in ran.stderr
    (line,) = ran.stderr.splitlines()
    assert line.startswith("casino-validator: internal error (RuntimeError: planted bug at ")
    assert f"in casino-validator {__version__}; this is a bug of the program, not of your files" in line
    assert "please report it" in line


def test_the_guard_keeps_the_commands_own_statuses(tmp_path):
    # 0 and 2 (a file that is not there) are seen above; 1 and a usage error here.
    assert _run("check", str(SAMPLES / "logs" / "disputes")).returncode == 1
    ran = _run("check", "--no-such-option")
    assert ran.returncode == 2 and "No such option" in ran.stderr


@pytest.mark.parametrize(("args", "status"), [(["check", "missing.jsonl"], 2), (["check", str(CLEAN)], 0)])
def test_a_closed_or_full_standard_error_changes_no_status(args, status):
    closed = subprocess.run(
        [*COMMAND, *args],
        stdout=subprocess.DEVNULL,
        cwd=ROOT,
        check=False,
        timeout=120,
        preexec_fn=lambda: os.close(2),
    )
    assert closed.returncode == status
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            ran = subprocess.run(
                [*COMMAND, *args], stdout=subprocess.DEVNULL, stderr=full, cwd=ROOT, timeout=120
            )
        assert ran.returncode == status
