"""Which build is running: modules compiled with mypyc, or plain Python.

`pip install .` gives plain Python; `CASINO_VALIDATOR_COMPILE=yes pip install .` on a machine with a C
compiler compiles the modules listed in pyproject.toml (hatch_build.py) into extensions placed beside
their `.py` files, and lists them in `_compiled.txt`.
Python imports an extension before a `.py` of the same name; with CASINO_VALIDATOR_PURE=1 the package
imports the `.py` files instead (`prefer_sources`), so the same code runs as plain Python, with the
same results. `casino-validator --version` says which build runs (`describe`).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

from validator.i18n import _

PURE_ENV = "CASINO_VALIDATOR_PURE"
_PACKAGE = Path(__file__).resolve().parent
_MANIFEST = _PACKAGE / "_compiled.txt"


def pure_requested() -> bool:
    """CASINO_VALIDATOR_PURE set to anything but empty or 0."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def compiled_modules() -> list[str]:
    """The modules this installation has compiled (each with its extension beside its source)."""
    try:
        listed = _MANIFEST.read_text(encoding="utf-8").split()
    except OSError:
        return []  # a source tree or an editable install: nothing is compiled
    return [module for module in listed if _extension_of(module) is not None]


def _extension_of(module: str) -> Path | None:
    parts = module.split(".")
    folder = _PACKAGE.parent.joinpath(*parts[:-1])
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = folder / (parts[-1] + suffix)
        if candidate.is_file():
            return candidate
    return None


def describe() -> str:
    """How `--version` names the build that runs."""
    compiled = compiled_modules()
    if not compiled:
        return "plain Python"
    modules = f"{len(compiled)} module{'s' if len(compiled) > 1 else ''}"
    if pure_requested():
        return _("plain Python: {variable}=1, {modules} compiled but not used").format(
            variable=PURE_ENV, modules=modules
        )
    return _("compiled with mypyc: {modules}").format(modules=modules)


class SourcesFirst(importlib.abc.MetaPathFinder):
    """Imports the modules of `package` from their `.py` file when an extension of the same name sits
    beside it (which Python would otherwise prefer)."""

    def __init__(self, package: str) -> None:
        self.prefix = package + "."

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith(self.prefix):
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return None  # the usual import finds it the same way
        source = Path(str(spec.origin)).parent / (fullname.rpartition(".")[2] + ".py")
        if not source.is_file():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def prefer_sources(package: str) -> None:
    """From now on, import `package`'s modules from their sources (once per process)."""
    if not any(isinstance(f, SourcesFirst) and f.prefix == package + "." for f in sys.meta_path):
        sys.meta_path.insert(0, SourcesFirst(package))
