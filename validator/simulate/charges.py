"""simulate --hand-log 1.2: the séance written as hand-log/1.2, each stake charged where it is placed.

A record-level pass over what the simulator wrote (after any planted violation): the table record says
hand-log/1.2, and each round that is played (not void) gets a `charge` of every bet before its first
action, and of every stake its actions add, just before the action that adds it (a double's, a split
hand's, an insurance, bataille's war). The charges equal the stakes, so `check` reads them and reports
nothing of them; a converter's output can be set beside it (docs/converting-logs.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from validator.errors import ValidatorError
from validator.i18n import _

__all__ = ["VERSIONS", "as_version", "with_charges"]

# The versions --hand-log writes (the version's own, hand-log/1 or 1.1, when it is not given).
VERSIONS = ("1.2",)


def as_version(records: Iterator[dict[str, Any]], version: str | None) -> Iterator[dict[str, Any]]:
    """The records as `version` writes them (None: as the simulator wrote them)."""
    if version is None:
        return records
    if version not in VERSIONS:
        raise ValidatorError(
            _("--hand-log {version}: the simulator writes {versions}").format(
                version=version, versions=", ".join(VERSIONS)
            )
        )
    return with_charges(records)


def with_charges(records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for record in records:
        kind = record.get("type")
        if kind == "table":
            record = {**record, "format": "hand-log/1.2"}
        elif kind == "round" and "void" not in record:
            record = {**record, "actions": charged(record)}
        yield record


def charged(record: dict[str, Any]) -> list[list[Any]]:
    """The round's actions with each stake's charge where it is placed."""
    out: list[list[Any]] = [["charge", bet["stake"], bet["amount"]] for bet in record.get("bets", [])]
    # hand-log/1 names a box's hands in the order of its splits: the next split of box 3 opens "3/<n+1>".
    hands: dict[str, int] = {}
    for action in record.get("actions", []):
        verb = action[0] if action else None
        if verb == "double":
            out.append(["charge", action[1], action[2]])
        elif verb == "split":
            box = str(action[1]).split("/", 1)[0]
            hands[box] = hands.get(box, 1) + 1
            out.append(["charge", f"{box}/{hands[box]}", action[2]])
        elif verb == "insurance":
            box, _slash, split = str(action[1]).partition("/")
            out.append(["charge", f"{box}:insurance:{split}" if split else f"{box}:insurance", action[2]])
        elif verb == "war":
            out.append(["charge", f"{action[1]}:war", action[2]])
        out.append(action)
    return out
