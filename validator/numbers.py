"""Numbers as the language of the run writes them: `39 300`, `3,44 %`, `117 240,5` in French (CLDR's
symbols and patterns, through Babel's number formatting), `39,300`, `3.44 %`, `117,240.5` in English.

Babel (a dependency: pyproject.toml says why) is imported only when a number is written in a language
other than English, the first time one is: an English run, and every run's start-up, load none of it
(tests/test_startup.py). English keeps the forms the program always wrote. Money keeps every digit it
has (an amount is exact: `Decimal`, never rounded for display); other figures are written to the places
asked for. What a machine reads (JSON, JSONL, SARIF, the dataset) is never localized: only text a
person reads goes through here.
"""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

from validator.casino.money import fmt
from validator.i18n import DEFAULT, current

# The English forms: digits grouped by thousands with `sep`, a point before the decimals.
NARROW_SPACE = "\u202f"


def whole(value: int, sep: str = ",") -> str:
    """A count: `39 300` (fr), `39,300` (en; `sep` the grouping the page uses)."""
    lang = current()
    if lang == DEFAULT:
        return f"{value:,}".replace(",", sep)
    return str(_pattern(lang, "decimal", 0).apply(value, _locale(lang)))


def fixed(value: Any, places: int, sep: str = "") -> str:
    """A figure to `places` decimals: `3,44` (fr), `3.44` (en; grouped with `sep` when one is given)."""
    lang = current()
    if lang == DEFAULT:
        text = f"{Decimal(str(value)):,.{places}f}"
        return text.replace(",", sep)
    return str(_pattern(lang, "decimal", places).apply(Decimal(str(value)), _locale(lang)))


def percent(fraction: Any, places: int = 2) -> str:
    """A fraction as a percentage: `3,44 %` (fr, the space CLDR's French puts there), `3.44 %` (en)."""
    lang = current()
    if lang == DEFAULT:
        return f"{Decimal(str(fraction)) * 100:.{places}f} %"
    return str(_pattern(lang, "percent", places).apply(Decimal(str(fraction)), _locale(lang)))


def amount(value: Decimal | int, sep: str = ",") -> str:
    """Money, every digit kept: `117 240,5` (fr), `117,240.5` (en; `sep` the grouping)."""
    text = fmt(value) or "0"
    lang = current()
    if lang == DEFAULT:
        whole_part, dot, decimals = text.partition(".")
        sign = "-" if whole_part.startswith("-") else ""
        return sign + f"{int(whole_part.lstrip('-')):,}".replace(",", sep) + dot + decimals
    return localized(text)


def localized(text: str) -> str:
    """A figure already written as a plain decimal (`0.0536`, `-7.0699`, `1000000`) in the language of
    the run, its places kept; anything else as it is."""
    lang = current()
    if lang == DEFAULT:
        return text
    try:
        value = Decimal(text)
    except ArithmeticError:
        return text
    if not value.is_finite():
        return text
    places = len(text.partition(".")[2]) if "." in text else 0
    return str(_pattern(lang, "decimal", places).apply(value, _locale(lang)))


def decimal_mark() -> str:
    """The decimal mark of the language in use: `,` (fr), `.` (en)."""
    lang = current()
    if lang == DEFAULT:
        return "."
    from babel.numbers import get_decimal_symbol

    return str(get_decimal_symbol(_locale(lang)))


@functools.cache
def _locale(lang: str) -> Any:
    from babel import Locale

    return Locale.parse(lang)


@functools.cache
def _pattern(lang: str, kind: str, places: int) -> Any:
    """The locale's own pattern for `kind` (decimal, percent), written to exactly `places` decimals."""
    from babel.numbers import parse_pattern

    locale = _locale(lang)
    formats = locale.decimal_formats if kind == "decimal" else locale.percent_formats
    pattern = parse_pattern(formats[None].pattern)  # a copy: the locale keeps its own
    pattern.frac_prec = (places, places)
    return pattern
