"""Money is exact: amounts from the log become `Decimal`, and are shown without exponent or float noise."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any


class AmountError(ValueError):
    pass


def to_decimal(value: Any) -> Decimal:
    """An amount of hand-log/1: a JSON number or a decimal string.

    orjson gives numbers with a fraction as floats; `str()` of a float is its shortest round-trip
    text, so `7.50` in the log becomes Decimal("7.5") exactly, never 7.4999….
    """
    if isinstance(value, bool) or value is None:
        raise AmountError(f"{value!r} is not an amount")
    if isinstance(value, int | Decimal):
        return Decimal(value)
    try:
        return Decimal(str(value))
    except InvalidOperation:
        raise AmountError(f"{value!r} is not an amount") from None


def fmt(amount: Decimal | int | None) -> str | None:
    """`30`, `7.5`, `12.25`: the shortest exact text, never `1E+2`."""
    if amount is None:
        return None
    amount = Decimal(amount)
    if amount == amount.to_integral_value():
        return str(int(amount))
    return format(amount.normalize(), "f")
