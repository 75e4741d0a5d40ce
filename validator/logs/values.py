"""Turning hand-log/1 values (amounts, times, cards) into what the replay computes with.

The reader leaves values as they are in the record; the replay converts them here, at the point of use.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal, InvalidOperation

_CARD = re.compile(r"(A|[2-9]|10|T|J|Q|K)([SHDC])")


def to_decimal(value: int | float | str) -> Decimal:
    """An amount as an exact decimal.

    orjson has no option to keep a JSON number's text, so `7.50` arrives as the float 7.5. That loses
    nothing for money: a double holds 15 significant decimal digits exactly, and Python's float repr is
    the shortest text that reads back to the same double. So for any JSON number with at most 15
    significant digits, `Decimal(repr(f))` equals the number written in the log (`7.5` == `7.50`).
    Amounts beyond that (or integers beyond 64 bits, which orjson also turns into floats) must be
    written as strings to stay exact, which hand-log/1 allows.
    """
    # bool is an int to Python, but `true` is not an amount.
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not an amount")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        result = Decimal(repr(value))
    elif isinstance(value, str):
        try:
            result = Decimal(value)
        except InvalidOperation:
            raise ValueError(f"{value!r} is not an amount") from None
    else:
        raise ValueError(f"{value!r} is not an amount")
    # Decimal() also reads "NaN" and "Infinity", which no table pays out.
    if not result.is_finite():
        raise ValueError(f"{value!r} is not an amount")
    return result


def parse_time(text: str) -> datetime:
    """A hand-log time as an aware datetime; a time without a UTC offset is refused, because the
    version of the rules in force depends on the day, and the day depends on the offset."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{text!r} is not a valid date and time in ISO 8601 ({error})") from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{text!r} has no UTC offset")
    return moment


def normalize_card(text: str) -> str:
    """The two-character form of a card: `10H` becomes `TH`, so that every card compares by its text."""
    match = _CARD.fullmatch(text)  # not match(): "$" would accept a trailing newline
    if match is None:
        raise ValueError(f"{text!r} is not a card")
    rank, suit = match.groups()
    return ("T" if rank == "10" else rank) + suit
