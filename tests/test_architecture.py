"""The boundary the project keeps: the law is in the rulesets, not in Python."""

from __future__ import annotations

import ast
from pathlib import Path

import validator

PACKAGE = Path(validator.__file__).resolve().parent
FAMILY_WORDS = ("fr/", "on/", "blackjack@", "bataille@", "usage-blackjack", "fair-blackjack")


def _code_strings(path: Path):
    """String constants that are code, not docstrings or help texts of the CLI."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def test_no_python_branches_on_ruleset_ids():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in _code_strings(path):
            if any(word in node.value for word in FAMILY_WORDS) and "such as" not in node.value:
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}")
    assert offenders == []
