"""--output: a report or a simulated log is written whole, or not at all."""

from __future__ import annotations

import json
import os
import stat

import pytest
from conftest import ROOT, run_cli_process

from validator.errors import ValidatorError
from validator.outputs import replacing

CLEAN = ROOT / "samples" / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_a_run_stopped_part_way_leaves_the_previous_report_untouched(tmp_path, cli):
    # The second log's table has no entry in the house file: the run stops (exit 2) after the first.
    unknown = tmp_path / "BJ-99.jsonl"
    unknown.write_text(CLEAN.read_text(encoding="utf-8").replace('"BA-01"', '"BJ-99"'), encoding="utf-8")
    out = tmp_path / "report.json"
    out.write_text("yesterday's report\n")
    result = cli("check", str(CLEAN), str(unknown), "--house", str(HOUSE), "-f", "json", "-o", str(out))
    assert result.returncode == 2
    assert "table BJ-99 has no entry" in result.stderr
    assert result.stderr.endswith(f"\n  asked for by the table record at {unknown}:1\n")
    assert out.read_text() == "yesterday's report\n"
    assert _leftovers(tmp_path) == []


def test_a_completed_run_replaces_the_file_with_an_ordinary_mode(tmp_path, cli):
    out = tmp_path / "report.json"
    out.write_text("yesterday's report\n")
    result = cli("check", str(CLEAN), "-f", "json", "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text(encoding="utf-8"))["summary"]["rounds"]["clean"] > 0
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("missing/report.json", "missing/report.json: cannot write (No such file or directory)"),
        (".", ": is a folder; give the name of a file to write"),
    ],
)
def test_an_output_that_cannot_be_written_is_exit_2(tmp_path, cli, target, message):
    result = cli("check", str(CLEAN), "-o", str(tmp_path / target))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_device_is_written_directly():
    # /dev/stdout is the process's own descriptor: a real process.
    result = run_cli_process("check", str(CLEAN), "-f", "json", "-o", "/dev/stdout")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["files"] == 1


def test_through_a_symbolic_link_the_file_it_points_to_is_written(tmp_path, cli):
    (tmp_path / "reports").mkdir()
    target = tmp_path / "reports" / "latest.json"
    target.write_text("yesterday's report\n")
    link = tmp_path / "report.json"
    link.symlink_to(target)
    assert cli("check", str(CLEAN), "-f", "json", "-o", str(link)).returncode == 0
    assert link.is_symlink()
    assert json.loads(target.read_text(encoding="utf-8"))["summary"]["files"] == 1
    assert _leftovers(tmp_path / "reports") == []
    # A link to a device (here, the command's standard output) is written through, never replaced.
    to_stdout = tmp_path / "out"
    to_stdout.symlink_to("/proc/self/fd/1")
    result = run_cli_process("check", str(CLEAN), "-f", "json", "-o", str(to_stdout))
    assert result.returncode == 0, result.stderr
    assert to_stdout.is_symlink()
    assert json.loads(result.stdout)["summary"]["files"] == 1


def test_simulate_writes_its_log_whole(tmp_path, cli):
    log = tmp_path / "sim.jsonl.gz"
    args = ("simulate", "--ruleset", "fr/blackjack@2025-01-01", "--rounds", "20", "--seed", "3")
    assert cli(*args, "-o", str(log)).returncode == 0
    assert log.read_bytes()[:2] == b"\x1f\x8b"
    assert _leftovers(tmp_path) == []
    missing = cli(*args, "-o", str(tmp_path / "no" / "sim.jsonl"))
    assert missing.returncode == 2
    assert "cannot write (No such file or directory)" in missing.stderr


def test_an_error_while_writing_removes_the_part_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("before\n")
    with pytest.raises(ValidatorError), replacing(target) as handle:
        handle.write("half a rep")
        raise ValidatorError("the run stops")
    assert target.read_text() == "before\n"
    assert _leftovers(tmp_path) == []
