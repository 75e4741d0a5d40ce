"""The CSV the report writes (`report --csv`, the page's CSV links), as the spreadsheet that opens it
reads it: `comma` (`,` between cells, `.` before decimals: English spreadsheets) or `semicolon` (`;`
between cells, `,` before decimals: French spreadsheets, which read a comma as the decimal mark and so
open a comma-separated file as one column). The language of the run chooses, unless `--csv-dialect`
does. A light module: the command line reads its choices without loading the audit's libraries."""

from __future__ import annotations

from dataclasses import dataclass

from validator.i18n import DEFAULT, current


@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    delimiter: str
    decimal: str


DIALECTS = {"comma": Dialect("comma", ",", "."), "semicolon": Dialect("semicolon", ";", ",")}
CSV_DIALECTS = tuple(DIALECTS)


def dialect(name: str | None = None) -> Dialect:
    """The dialect named, else the language's: `comma` in English, `semicolon` in French."""
    if name is not None:
        return DIALECTS[name]
    return DIALECTS["comma" if current() == DEFAULT else "semicolon"]
