"""`casino-validator report`: the audit report, one offline HTML file, from datasets queried with DuckDB."""

from __future__ import annotations

from pathlib import Path

from validator.commands import common


def run(
    datasets: list[Path],
    *,
    output: Path | None,
    start: str | None,
    end: str | None,
    casino: str | None,
    table: str | None,
    csv: Path | None = None,
) -> int:
    from validator.extras import require

    require("audit", "report")
    from validator.audit import audit_html, parse_day

    html = audit_html(
        [str(d) for d in datasets],
        common.registry(),
        start=parse_day(start, "--from"),
        end=parse_day(end, "--to"),
        casino=casino,
        table=table,
        csv_folder=str(csv) if csv is not None else None,
    )
    with common.output(output) as out:
        out.write(html)
    return 0
