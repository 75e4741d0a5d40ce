"""Turning hand-log/1 times into what the replay computes with (amounts: validator.casino.money).

The reader leaves values as they are in the record; the replay converts them here, at the point of use.
"""

from __future__ import annotations

from datetime import datetime

from validator.i18n import _


def parse_time(text: str) -> datetime:
    """A hand-log time as an aware datetime; a time without a UTC offset is refused, because the
    version of the rules in force depends on the day, and the day depends on the offset."""
    try:
        moment = datetime.fromisoformat(text)
    except (TypeError, ValueError) as error:
        raise ValueError(
            _("{text} is not a valid date and time in ISO 8601 ({error})").format(
                text=repr(text), error=error
            )
        ) from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(_("{text} has no UTC offset").format(text=repr(text)))
    return moment
