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
) -> int:
    from validator.audit import audit_html, dataset_notes, parse_day

    names = [str(d) for d in datasets]
    for note in dataset_notes(names):
        common.error(f"warning: {note}")
    html = audit_html(
        names,
        common.registry(),
        start=parse_day(start, "--from"),
        end=parse_day(end, "--to"),
        casino=casino,
        table=table,
    )
    with common.output(output) as out:
        out.write(html)
    return 0
