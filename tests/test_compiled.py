"""The two builds (validator/compiled.py, hatch_build.py): `--version` names the one that runs, the
modules it says are compiled are the ones running as extensions, CASINO_VALIDATOR_PURE=1 runs their
sources, and a build without a C compiler gives a plain wheel rather than failing."""

from __future__ import annotations

import importlib
import importlib.machinery
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

import validator
from validator import compiled

EXTENSION = sysconfig.get_config_var("EXT_SUFFIX")
LISTED: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"][
    "build"
]["targets"]["wheel"]["hooks"]["custom"]["compiled"]


def test_version_names_the_build_that_runs() -> None:
    done = run_cli("--version")
    assert done.returncode == 0
    assert done.stdout == f"casino-validator {validator.__version__} ({compiled.describe()})\n"
    running = [m for m in LISTED if importlib.import_module(m).__file__.endswith(EXTENSION)]  # type: ignore[union-attr]
    if compiled.pure_requested() or not compiled.compiled_modules():
        assert compiled.describe().startswith("plain Python")
        assert running == []
    else:
        assert compiled.describe().startswith("compiled with mypyc")
        assert running == compiled.compiled_modules() == LISTED


def test_the_compiled_modules_are_listed_once_and_exist() -> None:
    assert sorted(set(LISTED)) == LISTED
    assert all((ROOT / (module.replace(".", "/") + ".py")).is_file() for module in LISTED)


def test_describe_reads_the_wheels_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "validator"
    (package / "replay").mkdir(parents=True)
    (package / "_compiled.txt").write_text("validator.replay.a\nvalidator.replay.b\n")
    (package / "replay" / f"a{EXTENSION}").write_bytes(b"")
    monkeypatch.setattr(compiled, "_PACKAGE", package)
    monkeypatch.setattr(compiled, "_MANIFEST", package / "_compiled.txt")
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    assert compiled.compiled_modules() == ["validator.replay.a"]  # b's extension is missing
    assert compiled.describe() == "compiled with mypyc: 1 module"
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.describe() == f"plain Python: {compiled.PURE_ENV}=1, 1 module compiled but not used"
    monkeypatch.setenv(compiled.PURE_ENV, "0")
    assert compiled.describe() == "compiled with mypyc: 1 module"


def test_pure_imports_the_source_beside_an_extension(tmp_path: Path) -> None:
    package = tmp_path / "twobuilds"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text("BUILD = 'source'\n")
    (package / f"mod{EXTENSION}").write_bytes(b"not a shared library")
    # Python prefers the extension (here a broken one, so that using it shows).
    found = importlib.machinery.PathFinder.find_spec("twobuilds.mod", [str(package)])
    assert found is not None and isinstance(found.loader, importlib.machinery.ExtensionFileLoader)
    spec = compiled.SourcesFirst("twobuilds").find_spec("twobuilds.mod", [str(package)])
    assert spec is not None and spec.origin == str(package / "mod.py")
    assert compiled.SourcesFirst("twobuilds").find_spec("other.mod", [str(package)]) is None
    probe = "import sys; sys.path.insert(0, sys.argv[1]); import twobuilds.mod; print(twobuilds.mod.BUILD)"
    plain = subprocess.run([sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True)
    assert plain.returncode != 0 and "ImportError" in plain.stderr
    pure = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import validator.compiled as c; c.prefer_sources('twobuilds'); {probe}",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert pure.stdout == "source\n", pure.stderr


def test_the_environment_variable_turns_sources_first_on() -> None:
    probe = "import sys, validator; print(any(type(f).__name__ == 'SourcesFirst' for f in sys.meta_path))"
    for value, expected in (("1", "True"), ("0", "False"), ("", "False")):
        env = {**_environment(), compiled.PURE_ENV: value}
        done = subprocess.run([sys.executable, "-P", "-c", probe], capture_output=True, text=True, env=env)
        assert done.stdout.strip() == expected, (value, done.stderr)


def _environment() -> dict[str, str]:
    import os

    return dict(os.environ)


def _hatch_build():  # the build hook lives at the top of the repository, not in the package
    sys.path.insert(0, str(ROOT))
    try:
        return importlib.import_module("hatch_build")
    finally:
        sys.path.remove(str(ROOT))


def test_the_compiled_build_is_asked_for_never_the_default(tmp_path: Path) -> None:
    """`pip install .` gives plain Python (installs in seconds); CASINO_VALIDATOR_COMPILE=yes asks for
    the compiled build (README, "The compiled build"), =require makes a failure to compile fail the build
    (.ci/run), and a value the hook does not know stops the build rather than give the other build."""
    hatch_build = _hatch_build()
    checkout = tmp_path / "casino-validator"
    checkout.mkdir()
    store = tmp_path / "store"
    (store / "repoabc123").mkdir(parents=True)
    (store / "db.db").write_bytes(b"")
    for value, here, in_store in (
        (None, False, False),
        ("", False, False),
        ("no", False, False),
        ("0", False, False),
        ("yes", True, False),  # pre-commit's clone lints house files: it stays plain unless required
        ("YES", True, False),
        ("1", True, False),
        ("require", True, True),
    ):
        assert hatch_build.compiles(value, checkout) is here, value
        assert hatch_build.compiles(value, store / "repoabc123") is in_store, value
    for typo in ("auto", "yse", "compiled"):
        with pytest.raises(ValueError, match="expected yes, require or no"):
            hatch_build.compiles(typo, checkout)


def test_without_a_c_compiler_compiling_fails_softly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook then builds a plain wheel (CI, where a compiler is, requires the compiled one and checks
    `--version`). The build tools are those of the build: mypyc (the test extra has mypy) and setuptools."""
    pytest.importorskip("mypyc.build")
    pytest.importorskip("setuptools")
    hatch_build = _hatch_build()
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "__init__.py").write_text("")
    (tmp_path / "tiny" / "sums.py").write_text(
        "def total(values: list[int]) -> int:\n    return sum(values)\n"
    )
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    failure = hatch_build.compile_modules(tmp_path, ["tiny.sums"], tmp_path / "out")
    assert failure is not None and "no-such-compiler" in failure
    assert not list((tmp_path / "out").rglob(f"*{EXTENSION}"))
    assert (
        hatch_build.compile_modules(tmp_path, ["tiny.gone"], tmp_path / "out")
        == "no such module: tiny/gone.py"
    )


def test_what_crosses_to_dask_workers_pickles_in_either_build() -> None:
    """A share's limits go to a worker and a round's facts come back (`check --jobs`, `--dataset`,
    `--format html`): pickled. A compiled frozen dataclass is not restored field by field (its
    `__setattr__` refuses), so the ledger's say how to remake them, and the limits stay plain."""
    import pickle
    from decimal import Decimal

    from validator.casino.ledger import RoundFacts, StakeMoney
    from validator.dsl.facts import FACT_CLASSES
    from validator.logs.limits import Limits

    stake = StakeMoney("3/2", "main", "P1", Decimal(10), Decimal(15), Decimal(0), Decimal(15))
    facts = RoundFacts(
        "C", "T", "S", "2025-03-14T20:00:00+01:00", "D-1", "fr/blackjack", 1, ("P1",), (stake,)
    )
    for thing in (stake, facts, Limits(max_line=400), *(made() for made in FACT_CLASSES.values())):
        again = pickle.loads(pickle.dumps(thing))
        assert type(again) is type(thing) and repr(again) == repr(thing)
