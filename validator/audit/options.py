"""What `report` was told: one frozen object, built once by the CLI (validator/cli.py) and taken as it is
by `validator/commands/report.py` and validator/audit/report.py::audit_html (and, for the one run's page of
`check --format html`, by validator/formats/html.py). Each default is written here, once: the CLI's
options show these defaults (tests/test_options.py holds it).

This module imports nothing but the standard library: the CLI reads it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """`casino-validator report DATASET...`."""

    datasets: tuple[Path, ...]
    output: Path | None = None
    start: str | None = None  # --from YYYY-MM-DD
    end: str | None = None  # --to YYYY-MM-DD
    casino: str | None = None
    table: str | None = None
    csv: Path | None = None
    rules: tuple[Path, ...] = ()
    # --csv-dialect comma|semicolon (validator/audit/dialects.py); None: the language's.
    csv_dialect: str | None = None
    as_of: str | None = None  # --as-of YYYY-MM-DD: the day the findings' video is counted from (today)
