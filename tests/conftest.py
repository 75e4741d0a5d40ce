"""Shared paths and helpers for the test suite. Tests import the installed package (`pip install .`).

`run_cli` drives the real command in-process, through the CLI library's runner: the same arguments,
exit status, standard output and standard error as a user sees, without paying a Python start-up per
call (the suite ran 109 subprocesses). An exception that escapes the command is written to `stderr` as
Python would print it, so a test asserting "no traceback" still fails on a crash. `run_cli_process`
launches `python -m validator` for the few smoke tests that must see a real process (terminals,
signals, start-up).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# numpy's linear algebra on one thread, as validator/maths/numeric.py sets it for the program: that setting
# comes too late in the suite, where a test module imports numpy first (pyarrow's, at collection), and
# OpenBLAS's two threads spinning for the dealer's matrix products cost up to four times the processor time
# of one. Before any test module is imported; a setting of the machine's own is kept.
for _name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import pytest  # noqa: E402
import typer.testing  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SAMPLES = ROOT / "samples"

# The suite never writes into the user's real cache folder: parsed rulesets and `edge`'s kept figures go
# to a folder of its own, removed when the run ends. Set before any test imports the package, and
# inherited by subprocesses. One folder for the whole run: pytest-xdist's workers inherit the one their
# controller made (they start after it has loaded this file), so a ruleset parsed or a version's figures
# computed by one worker are read back by the other, as by a user's second command (the cache's own
# tests use folders of their own). Each worker still judges its first entries as any reader does: an
# entry in a folder that is not private, or not JSON, is ignored (validator/dsl/cache.py).
_SHARED = "CASINO_VALIDATOR_SUITE_CACHE"
_inherited = os.environ.get(_SHARED) if os.environ.get("PYTEST_XDIST_WORKER") else None
if _inherited and Path(_inherited).is_dir():
    os.environ["CASINO_VALIDATOR_CACHE"] = _inherited
else:
    _CACHE = tempfile.TemporaryDirectory(prefix="casino-validator-test-cache-")
    os.environ[_SHARED] = os.environ["CASINO_VALIDATOR_CACHE"] = _CACHE.name

# The suite's expected texts are English: the language the locale would choose (validator/i18n.py) is
# set to it whatever the machine's locale; a test of French asks for it (--lang fr, or LANG in the
# environment of a process it starts).
for _variable in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"


@contextmanager
def _working_directory(path: Path) -> Iterator[None]:
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


# typer's test runner builds the click command from the app at every call (typer.main.get_command: every
# option's annotations evaluated again), three quarters of an in-process run's time (27 ms of 37 for a
# one-round `check`). A click command is made to be invoked many times, as the real entry point invokes
# the one it builds: it is built once per test process here, for every CliRunner of the suite. The name
# is typer's (0.29, pinned below 0.30): if it moves, this fails at once rather than the suite slowing.
_build_command = typer.testing._get_command
typer.testing._get_command = functools.cache(_build_command)


# The session's local Dask cluster (`dask_cluster`, `dask_scheduler`), one for every test module.
pytest_plugins = ["daskcluster"]


def run_cli(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command, as a user runs it, in this process (see the module's docstring)."""
    from typer.testing import CliRunner

    from validator.cli import app

    runner = CliRunner()
    with _working_directory(cwd or ROOT):
        result = runner.invoke(app, list(args), input=stdin, catch_exceptions=True)
    stderr = result.stderr
    status = result.exit_code
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        exc = result.exception
        stderr += "Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)
        )
        status = 1
    return subprocess.CompletedProcess(
        ["casino-validator", *args], status, stdout=result.stdout, stderr=stderr
    )


def run_cli_process(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command in a process of its own: `python -P -m validator`, the installed build (`-P`: not
    the source tree of the working folder, which would shadow a compiled install)."""
    return subprocess.run(
        [sys.executable, "-P", "-m", "validator", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=cwd or ROOT,
        check=False,
    )


@pytest.fixture(autouse=True)
def _english_by_default():
    """Each test starts in English, whatever language a command run in this process chose before it."""
    from validator import i18n

    i18n.use("en")
    os.environ.pop(i18n.INHERITED, None)
    yield


@pytest.fixture(autouse=True)
def _no_outside_rulesets_left_behind():
    """Each test ends with no ruleset from outside in use: a command run in this process names its own
    (`--rules`, the configuration, CASINO_VALIDATOR_RULES) and one stopped by an error (exit 2) may
    leave them set, which a later test's `default_registry()` would read."""
    yield
    from validator.rulebook import sources

    sources.use(())


@pytest.fixture
def cli():
    return run_cli


# The README's test command spreads the tests over the machine's cores (pytest-xdist: `-n auto --dist
# loadgroup`). The tests that use the session's local Dask cluster are kept on one worker, so that the
# run starts one cluster (two worker processes), not one in each pytest worker.
DASK_GROUP = "dask-cluster"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if {"dask_cluster", "dask_scheduler"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group(DASK_GROUP))
