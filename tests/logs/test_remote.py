"""Logs named by fsspec URLs are read as local files are: the same outcomes (named by their URL), folders
expanded, gzip recognised, in one process and on the Dask cluster; a process-local file system
(memory://) is read by the parent; a URL that cannot be read is an exit-2 message, never a traceback."""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import fsspec
import pytest
from conftest import SAMPLES

from validator.checking import cluster, parallel
from validator.checking.options import CheckOptions
from validator.checking.serial import check_logs
from validator.errors import ValidatorError
from validator.findings.finding import RoundOutcome, Summary
from validator.formats import make_reporter
from validator.rulebook.registry import default_registry

REGISTRY = default_registry()
LOGS = SAMPLES / "logs"


def _local_files() -> list[Path]:
    return sorted(p for p in LOGS.rglob("*") if p.name.endswith((".jsonl", ".jsonl.gz")))


def _renamed(outcomes: list[RoundOutcome], old: str, new: str) -> list[RoundOutcome]:
    """The outcomes as they read with the file names' prefix `old` written `new`."""

    def name(file: str) -> str:
        return new + file[len(old) :] if file.startswith(old) else file

    return [
        replace(o, file=name(o.file), findings=tuple(replace(f, file=name(f.file)) for f in o.findings))
        for o in outcomes
    ]


def _one_process(paths: list[str]) -> tuple[list[RoundOutcome], dict[str, Any]]:
    """One process's outcomes as a cluster gives them back (those with findings, and unreadable rounds:
    the rest are only counted), and the summary."""
    summary = Summary()
    outcomes = list(check_logs(REGISTRY, paths, summary=summary))
    return [o for o in outcomes if o.findings or o.status == "unreadable"], summary.as_dict()


@pytest.fixture
def in_memory() -> Iterator[str]:
    """The sample logs copied into fsspec's in-memory file system; the folder's URL."""
    fs = fsspec.filesystem("memory")
    root = f"/casino-validator-{uuid.uuid4().hex[:8]}"
    for path in _local_files():
        fs.pipe(f"{root}/{path.relative_to(LOGS).as_posix()}", path.read_bytes())
    try:
        yield f"memory://{root}"
    finally:
        fs.rm(root, recursive=True)


def test_a_memory_folder_gives_the_outcomes_of_the_local_folder(in_memory):
    local = _one_process([str(LOGS)])
    remote = _one_process([in_memory])
    assert remote[1] == local[1]
    assert remote[0] == _renamed(local[0], str(LOGS), in_memory)
    assert any(o.file.endswith(".jsonl.gz") for o in remote[0])  # gzip found by its name and bytes


def test_a_memory_url_is_read_by_the_parent_on_the_cluster(in_memory, dask_scheduler):
    shares = parallel.plan([in_memory], 2)
    assert shares and all(share.in_parent and share.size > 0 for share in shares)
    summary = Summary()
    outcomes = list(
        cluster.check_on_cluster([in_memory], summary, CheckOptions((), scheduler=dask_scheduler))
    )
    assert (outcomes, summary.as_dict()) == _one_process([in_memory])


def test_file_urls_give_the_same_report_on_the_cluster_and_from_the_command(dask_scheduler, cli):
    url = LOGS.resolve().as_uri()
    shares = parallel.plan([url], 2)
    assert len(shares) == len(_local_files()) and not any(share.in_parent for share in shares)
    summary = Summary()
    outcomes = list(cluster.check_on_cluster([url], summary, CheckOptions((), scheduler=dask_scheduler)))
    local = _one_process([str(LOGS.resolve())])
    assert summary.as_dict() == local[1]
    assert outcomes == _renamed(local[0], str(LOGS.resolve()), url)
    two = cli("check", url, "--format", "jsonl", "--scheduler", dask_scheduler)
    assert two.returncode == 1
    one = io.StringIO()
    reporter = make_reporter("jsonl", one)
    for outcome in _one_process([url])[0]:
        reporter.round(outcome)
    assert two.stdout == one.getvalue() and url in two.stdout


def test_urls_that_cannot_be_read_are_messages(in_memory, cli):
    for url, message in [
        (f"{in_memory}/nothing.jsonl", f"{in_memory}/nothing.jsonl: no such file or directory"),
        ("nosuch://bucket/log.jsonl", "nosuch://bucket/log.jsonl: Protocol not known: nosuch"),
    ]:
        with pytest.raises(ValidatorError) as error:
            _one_process([url])
        assert str(error.value) == message
    empty = fsspec.filesystem("memory")
    empty.mkdir(f"{in_memory[len('memory://') :]}/empty")
    with pytest.raises(ValidatorError, match=r"/empty: no hand-log file \(\*\.jsonl or \*\.jsonl\.gz\)"):
        _one_process([f"{in_memory}/empty"])
    result = cli("check", "nosuch://bucket/log.jsonl", "--jobs", "2")
    assert result.returncode == 2
    assert result.stderr == "casino-validator: nosuch://bucket/log.jsonl: Protocol not known: nosuch\n"
