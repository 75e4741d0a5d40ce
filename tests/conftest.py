"""Shared paths and helpers for the test suite. Tests import the installed package (`pip install .`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SAMPLES = ROOT / "samples"

# The session's local Dask cluster (`dask_cluster`, `dask_scheduler`), one for every test module.
pytest_plugins = ["daskcluster"]


def run_cli(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real command, as a user runs it (`python -m validator` is the same entry point)."""
    return subprocess.run(
        [sys.executable, "-m", "validator", *args],
        capture_output=True,
        text=True,
        input=stdin,
        cwd=cwd or ROOT,
        check=False,
    )


@pytest.fixture
def cli():
    return run_cli
