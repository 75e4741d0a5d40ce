"""`watch` knows a file by more than its path (issue 42, item 4): its device and inode, and the bytes
already judged. Before issue 42: a log rotated to a name that still ended in `.jsonl` was judged again from
its start (its findings, and `--on-finding`, twice); a log truncated and written longer again between two
looks was read on from the old offset (its first rounds never judged, nothing said); two watches appending
to one `--output` cut off each other's findings on a restart (nothing said); a state file saying
`"offset": Infinity` was an internal error (exit 3).

Nothing here measures time: each test waits for what must come (the findings, the state saying how far a
file was judged), up to `WAIT` seconds.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from conftest import run_cli
from test_watch import COMMAND, DISPUTE, WAIT, watching

from validator.live.follow import FollowedLog
from validator.logs.limits import Limits

SIZE = DISPUTE.stat().st_size
FINDINGS = 7  # one per disputed round of BJ-03 (samples/README.md)


def _wait_for(condition: Callable[[], bool], what: str) -> None:
    until = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < until, f"never came: {what}"
        time.sleep(0.05)


def _judged(state: Path) -> dict[str, int]:
    """Each log's offset judged, by the file's name, as the state file says (none yet: empty)."""
    try:
        data = json.loads(state.read_text())
    except (OSError, ValueError):
        return {}
    return {os.path.basename(key): mark["offset"] for key, mark in data["logs"].items()}


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def test_a_log_rotated_to_another_jsonl_name_is_never_judged_twice(tmp_path: Path) -> None:
    """A watched folder: a.jsonl judged (7 findings), then rotated to a-1.jsonl and a new a.jsonl written
    (the same séance again, another file: 7 more); then, while no watch runs, a.jsonl rotated to
    a-2.jsonl. 14 findings in all, each once, and 14 `--on-finding` commands; the rotated files go on
    from where they were judged, under their new names."""
    tables = tmp_path / "tables"
    tables.mkdir()
    (tables / "a.jsonl").write_bytes(DISPUTE.read_bytes())
    alerts = tmp_path / "alerts.jsonl"
    keep = f"{sys.executable} -c \"import sys; open({str(alerts)!r}, 'a').write(sys.stdin.read())\""
    args = ["tables", "--format", "jsonl", "--no-config", "--state", "st.json", "--on-finding", keep]
    state = tmp_path / "st.json"
    with watching(args, tmp_path) as watch:
        first = watch.take(FINDINGS)
        os.rename(tables / "a.jsonl", tables / "a-1.jsonl")
        (tables / "a.jsonl").write_bytes(DISPUTE.read_bytes())
        second = watch.take(FINDINGS)
        _wait_for(lambda: _judged(state) == {"a.jsonl": SIZE, "a-1.jsonl": SIZE}, "both files judged whole")
        _wait_for(lambda: len(_lines(alerts)) >= 2 * FINDINGS, "an alert per finding")
        status, stderr = watch.stop()
        rest = watch.rest()
    assert status == 1, stderr
    assert [json.loads(x)["line"] for x in first] == [json.loads(x)["line"] for x in second]
    assert [x for x in rest if x.startswith("{")] == []  # no finding a third time
    assert len(_lines(alerts)) == 2 * FINDINGS
    os.rename(tables / "a.jsonl", tables / "a-2.jsonl")
    with watching(args, tmp_path) as watch:
        _wait_for(lambda: _judged(state) == {"a-1.jsonl": SIZE, "a-2.jsonl": SIZE}, "a-2.jsonl found")
        status, stderr = watch.stop()
        rest = watch.rest()
    assert status == 0, stderr  # nothing found in this run: every round was judged before
    assert [x for x in rest if x.startswith("{")] == []
    assert len(_lines(alerts)) == 2 * FINDINGS


def test_a_log_truncated_and_written_longer_between_two_looks_is_judged_again(tmp_path: Path) -> None:
    """Between two looks the file is truncated and written again, longer than before: its size alone
    says nothing; the bytes already judged are not what the file holds there any more."""
    log = tmp_path / "t.jsonl"
    lines = DISPUTE.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:5]))
    follow = FollowedLog(str(log), Limits())
    records, change, _more = follow.look()
    assert change is None and [r.line for r in records] == [1, 2, 3, 4, 5]
    # Rewritten from its start: another table's day (the rounds shifted by one: other bytes at 0 and at
    # the old end), longer than what was judged.
    log.write_bytes(b"".join([lines[0], *lines[2:], lines[1]]))
    assert log.stat().st_size > follow.offset
    records, change, _more = follow.look()
    assert records == [] and change is not None and change.what == "rewritten"
    follow.close()


def test_a_log_appended_to_is_not_taken_for_a_rewritten_one(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    lines = DISPUTE.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join(lines[:3]))
    follow = FollowedLog(str(log), Limits())
    assert follow.look()[1] is None
    with log.open("ab") as handle:
        handle.write(b"".join(lines[3:]))
    records, change, _more = follow.look()
    assert change is None and [r.line for r in records] == list(range(4, len(lines) + 1))
    follow.close()


def test_a_second_watch_appending_to_the_same_output_is_refused(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    (tmp_path / "u.jsonl").write_bytes(DISPUTE.read_bytes())
    found = tmp_path / "found.jsonl"
    first = ["t.jsonl", "--format", "jsonl", "--no-config", "--output", "found.jsonl", "--state", "a.json"]
    with watching(first, tmp_path) as watch:
        _wait_for(lambda: len(_lines(found)) == FINDINGS, "the first watch's findings")
        second = subprocess.run(
            [*COMMAND, "u.jsonl", "--no-config", "--output", "found.jsonl", "--state", "b.json"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=WAIT,
            check=False,
        )
        status, stderr = watch.stop()
    assert second.returncode == 2
    assert second.stderr.strip() == (
        "casino-validator: found.jsonl: another watch is writing this report (--output); stop it or give "
        "another --output"
    )
    assert status == 1, stderr
    assert len(_lines(found)) == FINDINGS


def test_a_state_with_an_offset_that_is_no_count_is_exit_2(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    key = str(tmp_path / "t.jsonl")
    for offset in ("Infinity", "-1", "1.5", '"12"', "true", "1e400"):
        entry = f'{{"offset": {offset}, "line": 1, "sha256": "x"}}'
        state = f'{{"format": "casino-validator-watch/1", "logs": {{{json.dumps(key)}: {entry}}}}}'
        (tmp_path / "st.json").write_text(state)
        done = run_cli("watch", "t.jsonl", "--state", "st.json", "--no-config", cwd=tmp_path)
        assert done.returncode == 2, (offset, done.stderr)
        assert "st.json: not a watch state file" in done.stderr


def test_a_state_saying_more_was_judged_than_the_file_holds_says_both_sizes(tmp_path: Path) -> None:
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    key = str(tmp_path / "t.jsonl")
    (tmp_path / "st.json").write_text(
        json.dumps(
            {
                "format": "casino-validator-watch/1",
                "logs": {key: {"offset": 10**6, "line": 900, "sha256": "x"}},
            }
        )
    )
    with watching(["t.jsonl", "--format", "jsonl", "--no-config", "--state", "st.json"], tmp_path) as watch:
        again = watch.take(FINDINGS)  # judged again from its start
        status, stderr = watch.stop()
    assert status == 1 and len(again) == FINDINGS
    assert (
        f"t.jsonl: changed since the last watch (it holds {SIZE:,} bytes of whole lines, the state says "
        "1,000,000 were judged); judged again from its start"
    ) in stderr


def test_the_state_of_a_watch_records_which_file_each_log_is(tmp_path: Path) -> None:
    """Device, inode and the digest of the first bytes judged, beside the offset (docs/findings.md)."""
    (tmp_path / "t.jsonl").write_bytes(DISPUTE.read_bytes())
    with watching(["t.jsonl", "--format", "jsonl", "--no-config", "--state", "st.json"], tmp_path) as watch:
        watch.take(FINDINGS)
        _wait_for(lambda: _judged(tmp_path / "st.json") == {"t.jsonl": SIZE}, "the state")
        watch.stop()
    [mark] = json.loads((tmp_path / "st.json").read_text())["logs"].values()
    info = os.stat(tmp_path / "t.jsonl")
    assert (mark["device"], mark["inode"]) == (info.st_dev, info.st_ino)
    assert mark["head"] == hashlib.sha256(DISPUTE.read_bytes()[:4096]).hexdigest()
