"""A ruleset from outside, written by a test: the French text of 2024-11-01 amended with named conditions
and one rule (`r1`, on `dealer_draw`) requiring a condition (tests of issue 42's bounds and exits)."""

from __future__ import annotations

from pathlib import Path

HEAD = """ruleset zz/bounds
amends fr/blackjack@2024-11-01
title "Bounds (test fixture, not law)"
source "none"
in force from 2025-01-01
note "Not law." note fr "Pas du droit."
amendment "a" {
"""
RULE = """    add rule r1 {{
        ref "x"
        severity error
        message "m"
        message fr "m"
        on dealer_draw require {condition}
        checks "c"
        checks fr "c"
        why "w"
        why fr "w"
        fails "f"
        fails fr "f"
        passes "p"
        passes fr "p"
    }}
}}
"""
HEAD_LINES = HEAD.count("\n")


def write(tmp_path: Path, defines: list[str], condition: str, name: str = "bounds.rules") -> Path:
    path = tmp_path / name
    lines = [f'    add define {d} ref "x"\n' for d in defines]
    path.write_text(HEAD + "".join(lines) + RULE.format(condition=condition), encoding="utf-8")
    return path
