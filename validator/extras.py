"""The optional parts of the install: `pip install .` gives check, lint, rules, explain, edge and simulate;
the audit (`check --dataset`, `report`, `--format html`) and the cluster (`--jobs`, `--scheduler`) need
packages of their own, installed with an extra (`pip install '.[audit]'` from a checkout,
`pip install 'casino-validator[audit]'` from an index). A command that needs an extra that is not
installed stops (exit 2) saying which one to install, both ways: a checkout's user who types the
index's name installs another copy of the program, or nothing."""

from __future__ import annotations

from importlib import import_module

from validator.errors import ValidatorError
from validator.i18n import N_, _

# Extra → the modules it provides (pyproject.toml's [project.optional-dependencies] lists the packages).
EXTRAS: dict[str, tuple[str, ...]] = {
    "audit": ("pyarrow", "duckdb", "jinja2"),
    "cluster": ("dask", "distributed"),
    "lsp": ("pygls", "lsprotocol"),
    "remote": ("fsspec",),
}

_MISSING = N_(
    "{what} needs the {extra} extra, which is not installed (no {modules}): from a checkout, "
    "pip install '.[{extra}]'; from a package index, pip install '{package}[{extra}]'"
)


def missing(extra: str) -> list[str]:
    """The modules of `extra` that cannot be imported (a broken install counts as missing)."""
    absent = []
    for module in EXTRAS[extra]:
        try:
            import_module(module)
        except ImportError:
            absent.append(module)
    return absent


def require(extra: str, what: str) -> None:
    """Stop the run (exit 2) when `extra` is not installed; `what` names the option or command."""
    absent = missing(extra)
    if absent:
        raise ValidatorError(
            _(_MISSING).format(what=what, extra=extra, modules=", ".join(absent), package="casino-validator")
        )
