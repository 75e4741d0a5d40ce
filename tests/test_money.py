"""Amounts: exact, and bounded so that the rules' arithmetic on them stays exact."""

from __future__ import annotations

from decimal import Decimal

import orjson
import pytest

from validator.casino.money import AmountError, fmt, to_decimal


def test_amounts_are_exact() -> None:
    assert to_decimal(20) == Decimal(20)
    assert to_decimal("7.50") == Decimal("7.50")
    assert to_decimal(orjson.loads(b"7.50")) == Decimal("7.5")
    assert to_decimal(orjson.loads(b"0.1")) + to_decimal(orjson.loads(b"0.2")) == Decimal("0.3")
    assert to_decimal(orjson.loads(b"123456789012.345")) == Decimal("123456789012.345")
    assert to_decimal("999999999999999.999999") == Decimal("999999999999999.999999")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "True is not an amount"),
        (None, "None is not an amount"),
        ([], "[] is not an amount"),
        ("abc", "'abc' is not an amount"),
        ("NaN", "'NaN' is not an amount"),
        ("Infinity", "'Infinity' is not an amount"),
        ("1000000000000000", "'1000000000000000' is too large for an amount (over 15 digits)"),
        ("1e400", "'1e400' is too large for an amount (over 15 digits)"),
        (1e300, "1e+300 is too large for an amount (over 15 digits)"),
        ("0.0000001", "'0.0000001' has more than 6 decimals"),
    ],
)
def test_what_is_not_an_amount(value, message) -> None:
    with pytest.raises(AmountError) as caught:
        to_decimal(value)
    assert str(caught.value) == message


def test_fmt() -> None:
    assert [fmt(Decimal("30.00")), fmt(Decimal("7.50")), fmt(Decimal("1E+2")), fmt(None)] == [
        "30",
        "7.5",
        "100",
        None,
    ]
