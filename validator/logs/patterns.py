"""Every string a closed pattern of the hand-log/1 schema matches, listed.

The schema names the side stakes a log may hold by a pattern (`^[1-7]:(insurance|…|hyper:(17|…))$`):
the format's own list, kept in the schema, not in Python. The msgspec decoder wants the values as a
literal list (a pattern costs a call into `re` for every value), so the pattern is expanded here. Only
the closed forms the schema uses are understood: literal characters, character ranges (`[1-7]`) and
groups of alternatives (`(a|b)`), between `^` and `$`; anything else is refused.
"""

from __future__ import annotations

import itertools


class OpenPattern(ValueError):
    """The pattern matches strings that cannot be listed (a repetition, an escape, a wildcard)."""


def expand(pattern: str) -> tuple[str, ...]:
    """The strings `pattern` matches, in the order its alternatives are written."""
    if not (pattern.startswith("^") and pattern.endswith("$")):
        raise OpenPattern(f"{pattern!r} is not anchored at both ends")
    values, end = _sequence(pattern, 1, closing="$")
    if end != len(pattern) - 1:
        raise OpenPattern(f"{pattern!r}: unexpected {pattern[end]!r} at {end}")
    return values


def _sequence(pattern: str, at: int, closing: str) -> tuple[tuple[str, ...], int]:
    """The strings one alternative matches, from `at` to the `|`, `)` or end that closes it."""
    parts: list[tuple[str, ...]] = []
    while (
        at < len(pattern)
        and pattern[at] not in ("|", ")")
        and not (closing == "$" and at == len(pattern) - 1)
    ):
        char = pattern[at]
        if char == "(":
            choices, at = _group(pattern, at + 1)
            parts.append(choices)
        elif char == "[":
            close = pattern.index("]", at)
            parts.append(_range(pattern[at + 1 : close], pattern))
            at = close + 1
        elif char in "\\.*+?{}^$":
            raise OpenPattern(f"{pattern!r}: {char!r} at {at} is not a closed form")
        else:
            parts.append((char,))
            at += 1
    return tuple("".join(p) for p in itertools.product(*parts)), at


def _group(pattern: str, at: int) -> tuple[tuple[str, ...], int]:
    values: list[str] = []
    while True:
        alternative, at = _sequence(pattern, at, closing=")")
        values.extend(alternative)
        if at >= len(pattern):
            raise OpenPattern(f"{pattern!r}: a group is not closed")
        if pattern[at] == ")":
            return tuple(values), at + 1
        at += 1  # past "|"


def _range(inside: str, pattern: str) -> tuple[str, ...]:
    if len(inside) == 3 and inside[1] == "-" and inside[0] <= inside[2]:
        return tuple(chr(c) for c in range(ord(inside[0]), ord(inside[2]) + 1))
    if inside and all(c.isalnum() for c in inside):
        return tuple(inside)
    raise OpenPattern(f"{pattern!r}: [{inside}] is not a closed range")
