"""The install's extras: without the audit or cluster packages, `check` and `lint` still work, and an option
that needs a missing extra stops the run (exit 2) naming the extra to install. A missing package is
simulated by a folder put first on the path whose module of that name raises ImportError, as Python does
when the package is absent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "logs" / "clean"
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"


def _without(tmp_path: Path, *modules: str, args: list[str]) -> subprocess.CompletedProcess[str]:
    shadow = tmp_path / "shadow"
    for module in modules:
        package = shadow / module
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(f"raise ImportError({f'No module named {module}'!r})\n")
    env = {**os.environ, "PYTHONPATH": str(shadow)}
    return subprocess.run(
        [sys.executable, "-m", "validator", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )


def test_check_and_lint_need_no_extra(tmp_path: Path) -> None:
    done = _without(
        tmp_path,
        "pyarrow",
        "duckdb",
        "jinja2",
        "dask",
        "distributed",
        args=["check", str(SAMPLE), "--house", str(HOUSE), "--quiet"],
    )
    assert done.returncode == 0, done.stderr
    lint = _without(tmp_path / "2", "pyarrow", "dask", args=["lint", str(HOUSE)])
    assert lint.returncode == 0, lint.stderr


@pytest.mark.parametrize(
    ("missing", "args", "extra", "names"),
    [
        ("pyarrow", ["check", str(SAMPLE), "--dataset", "DS"], "audit", "--dataset"),
        ("jinja2", ["check", str(SAMPLE), "--format", "html"], "audit", "--format html"),
        ("duckdb", ["report", "DS"], "audit", "report"),
        ("distributed", ["check", str(SAMPLE), "--jobs", "2"], "cluster", "--jobs"),
        ("fsspec", ["check", "s3://bucket/BJ-03.jsonl"], "remote", "s3://bucket/BJ-03.jsonl"),
    ],
)
def test_a_missing_extra_is_exit_2_naming_it(tmp_path: Path, missing, args, extra, names) -> None:
    args = [str(tmp_path / a) if a == "DS" else a for a in args]
    done = _without(tmp_path, missing, args=args)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert line.startswith(f"casino-validator: {names} needs the {extra} extra"), line
    # Both installs: from a checkout (the index's name would fetch another copy, or nothing), and from
    # an index (`.` names no package there); .ci/run greps the second.
    assert f"from a checkout, pip install '.[{extra}]'" in line
    assert f"from a package index, pip install 'casino-validator[{extra}]'" in line
    assert f"no {missing}" in line
    assert not (tmp_path / "DS").exists()  # nothing written before the run stops
