"""House-rules values in the types the rules language computes with."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.dsl.ast import Ratio


def house_value(value: Any) -> Any:
    """YAML scalars → rule values: numbers become Decimal, "3:2" a Ratio; the rest as they are."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return Decimal(str(value))
    if isinstance(value, str) and ":" in value:
        num, _unused, den = value.partition(":")
        if num.isdigit() and den.isdigit() and int(den) > 0:
            return Ratio(int(num), int(den))
    return value
