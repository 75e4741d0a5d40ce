"""Money is exact: amounts from the log become `Decimal`, and are shown without exponent or float noise."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from validator.i18n import _


class AmountError(ValueError):
    pass


# No table stakes or pays a quadrillion, or a millionth: bounding amounts keeps every sum and product
# the rules make of them exact within Decimal's 28 digits (a wider amount would be rounded silently).
MAX_INTEGER_DIGITS = 15
MAX_FRACTION_DIGITS = 6


def to_decimal(value: Any) -> Decimal:
    """An amount of hand-log/1: a JSON number or a decimal string.

    orjson gives numbers with a fraction as floats; `str()` of a float is its shortest round-trip
    text, so `7.50` in the log becomes Decimal("7.5") exactly, never 7.4999…: a double holds 15
    significant digits exactly. Amounts beyond that must be written as strings, which hand-log/1 allows.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise AmountError(_("{value} is not an amount").format(value=repr(value)))
    try:
        amount = (
            value if isinstance(value, Decimal) else Decimal(value if isinstance(value, int) else str(value))
        )
    except InvalidOperation:
        raise AmountError(_("{value} is not an amount").format(value=repr(value))) from None
    # Decimal() also reads "NaN" and "Infinity", which no table pays out.
    if not amount.is_finite():
        raise AmountError(_("{value} is not an amount").format(value=repr(value)))
    if amount and amount.adjusted() >= MAX_INTEGER_DIGITS:
        raise AmountError(
            _("{value} is too large for an amount (over {digits} digits)").format(
                value=repr(value), digits=MAX_INTEGER_DIGITS
            )
        )
    if amount.normalize().as_tuple().exponent < -MAX_FRACTION_DIGITS:  # type: ignore[operator]
        raise AmountError(
            _("{value} has more than {digits} decimals").format(value=repr(value), digits=MAX_FRACTION_DIGITS)
        )
    return amount


def fmt(amount: Decimal | int | None) -> str | None:
    """`30`, `7.5`, `12.25`: the shortest exact text, never `1E+2`."""
    if amount is None:
        return None
    amount = Decimal(amount)
    if amount == amount.to_integral_value():
        return str(int(amount))
    return format(amount.normalize(), "f")
