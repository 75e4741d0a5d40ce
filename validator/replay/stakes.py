"""Stakes, amounts and settlements as a round's records write them, and the error for a round that
cannot be replayed as logged. A leaf of the replay: the engines and the side-bet mechanics both read
stakes through it."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from validator.money import AmountError, to_decimal

_STAKE = re.compile(r"^([1-9])(?:/(\d+))?(?::(.+))?$")


class MalformedRound(Exception):
    """A round that cannot be replayed as logged (a hand never opened, an amount that is no number…)."""

    def __init__(self, message: str, rule: str = "hand-log/inconsistent") -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True, slots=True)
class Settlement:
    verb: str  # pay, lose, push
    amount: Decimal | None
    index: int


@functools.lru_cache(maxsize=4096)  # a séance names the same few dozen stakes in every round
def parse_stake(stake: str) -> tuple[int, str | None, str]:
    """`3` → (3, None, "main"), `3/2` → (3, "2", "main"), `3:insurance` → (3, None, "insurance")."""
    match = _STAKE.match(stake)
    if not match:
        raise MalformedRound(f"{stake!r} is not a stake")
    box, split, side = match.groups()
    if side is not None and split is not None:
        raise MalformedRound(f"{stake!r} is not a stake")
    return int(box), split, side or "main"


def amount_of(value: Any, what: str) -> Decimal:
    try:
        amount = to_decimal(value)
    except AmountError as exc:
        raise MalformedRound(f"{what}: {exc}") from None
    if amount < 0:
        raise MalformedRound(f"{what}: a negative amount ({value})")
    return amount
