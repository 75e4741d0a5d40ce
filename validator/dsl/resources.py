"""Where the grammar and the rulesets are: inside the installed package, or at the top of a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from validator.i18n import _

_PACKAGE = Path(__file__).resolve().parent.parent  # validator/, this module being validator/dsl/resources.py


@cache
def data_dir(name: str) -> Path:
    """`grammar` or `rulesets`: the wheel ships them as `validator/_data/<name>`; a checkout (or an
    editable install) has them beside the package, at the top of the repository."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(_("casino-validator is installed without its {name}/ folder").format(name=name))


def grammar_path() -> Path:
    return data_dir("grammar") / "rules.lark"


def rulesets_dir() -> Path:
    return data_dir("rulesets")
