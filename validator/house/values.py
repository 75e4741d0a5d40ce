"""House-rules values in the types the rules language computes with."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from validator.dsl.ast import Ratio

# A ratio's terms: ASCII digits only ("²" is a digit to str.isdigit, not to int()), and few enough that
# int() takes them (Python refuses more than 4,300 digits); a longer or odd one stays text, which the
# rules judge (an option's values, a payout) as not one of theirs.
_RATIO = re.compile(r"([0-9]{1,30}):([0-9]{1,30})")


def house_value(value: Any) -> Any:
    """YAML scalars → rule values: numbers become Decimal, "3:2" a Ratio; the rest as they are."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return Decimal(str(value))
    if isinstance(value, str) and (ratio := _RATIO.fullmatch(value)) is not None:
        num, den = int(ratio.group(1)), int(ratio.group(2))
        if den > 0:
            return Ratio(num, den)
    return value
