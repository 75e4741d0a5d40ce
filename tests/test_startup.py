"""Start-up: what `check` and `--help` must not import (their time is measured by
benchmarks/bench_startup.py, never in a test), and the plain conversion of option values that spares
typer's pydantic adapters giving exactly what typer gives."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

from conftest import ROOT, SAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from validator.cli_help import _plain_runtime_param

# Libraries a one-round check of a valid log never needs: dask, pyarrow and duckdb serve --jobs,
# --dataset and report; pydantic only typer's own value conversion; jsonschema explains broken records;
# lark parses rulesets the cache does not hold; rich colours a terminal; babel writes numbers in French
# only (validator/numbers.py).
HEAVY = ("pydantic", "jsonschema", "lark", "rich", "dask", "distributed", "pyarrow", "duckdb", "babel")

_PROBE = """
import atexit, sys
atexit.register(lambda: print(" ".join(sorted(m for m in {heavy!r} if m in sys.modules))))
sys.argv = ["casino-validator", *{args!r}]
from validator.cli import main
main()
"""


def _loaded(*args: str) -> list[str]:
    code = _PROBE.format(heavy=HEAVY, args=list(args))
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()[-1].split()


def test_a_check_of_a_valid_log_and_the_help_load_none_of_the_heavy_libraries() -> None:
    log = str(SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl")
    _loaded("check", log, "-q", "-o", "/dev/null")  # fills the parsed-rulesets cache
    assert _loaded("check", log, "-q", "-o", "/dev/null") == []
    assert _loaded("--help") == []


def _commands() -> list[Any]:
    import typer.main

    from validator.cli import app

    group = typer.main.get_command(app)
    found = []
    for command in [group, *group.commands.values()]:  # type: ignore[attr-defined]
        found += [command, *getattr(command, "commands", {}).values()]
    return found


@functools.cache
def _params() -> list[Any]:
    return [p for c in _commands() for p in c.params if _plain_runtime_param(p.type_descriptor) is not None]


_TYPER: dict[int, Any] = {}


def _typer_answer(param: Any, value: Any) -> tuple[str, Any]:
    from typer._coercion import build_runtime_param

    runtime = _TYPER.setdefault(id(param), build_runtime_param(param.type_descriptor))
    try:
        return "value", repr(runtime.coerce(value, param=param, ctx=None))
    except Exception as exc:
        return "refused", f"{type(exc).__name__}: {exc}"


def _plain_answer(param: Any, value: Any) -> tuple[str, Any]:
    runtime = _plain_runtime_param(param.type_descriptor)
    assert runtime is not None
    try:
        return "value", repr(runtime.coerce(value, param=param, ctx=None))
    except Exception as exc:
        return "refused", f"{type(exc).__name__}: {exc}"


def _same(plain: tuple[str, Any], typer_: tuple[str, Any]) -> bool:
    """The same answer; a choice refused by both is refused with our own line, naming the choices
    (`--format xml: choose one of …`, issue 28), where typer's has a validation library's phrase."""
    if plain[0] == typer_[0] == "refused" and str(plain[1]).startswith("UnknownChoice: "):
        return True
    return plain == typer_


def test_every_option_of_a_plain_type_is_converted_plainly() -> None:
    annotations = {str(p.type_descriptor.annotation) for p in _params()}
    assert len(_params()) > 40
    assert {"<class 'str'>", "<class 'int'>", "<class 'float'>", "<class 'pathlib.Path'>"} <= annotations


# Values as written on a command line: numbers in every spelling, choices in and out of case, text.
SAMPLES_WRITTEN = ["", " 1", "1 ", "007", "0", "1", "12", "1_000", "+3", "-2", "1.5", ".5", "1e3", "nan"]
SAMPLES_WRITTEN += ["x", "text", "JSON", "json", "sarif", "warning", "-", "é", "a/b.yaml"]
_WRITTEN = st.one_of(
    st.from_regex(r"-?[0-9]{1,4}(\.[0-9]{0,3})?", fullmatch=True),
    st.sampled_from(SAMPLES_WRITTEN),
    st.text(max_size=6),
)


@settings(max_examples=60, deadline=None)
@given(index=st.integers(min_value=0), written=st.lists(_WRITTEN, min_size=1, max_size=3))
def test_the_plain_conversion_gives_what_typer_gives(index: int, written: list[str]) -> None:
    # Values as the parser hands them over: a tuple for an argument or option given several times.
    params = _params()
    param = params[index % len(params)]
    value: Any = tuple(written) if param.multiple or param.nargs == -1 else written[0]
    assert _same(_plain_answer(param, value), _typer_answer(param, value))


def test_every_written_sample_converts_as_typer_converts_it() -> None:
    for param in _params():
        for written in SAMPLES_WRITTEN:
            value: Any = (written, written) if param.multiple or param.nargs == -1 else written
            assert _same(_plain_answer(param, value), _typer_answer(param, value)), (param.name, value)


def test_defaults_and_flags_convert_as_typer_converts_them() -> None:
    for param in _params():
        for value in (param.default, None, True, Path("x"), 3, 0.5):
            assert _plain_answer(param, value) == _typer_answer(param, value), (param.name, value)
