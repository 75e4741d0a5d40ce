"""`casino-validator report`: the audit report, one offline HTML file, from datasets queried with DuckDB."""

from __future__ import annotations

from pathlib import Path

from validator.audit import audit_html, dataset_notes, parse_day
from validator.commands import common
from validator.extras import require

WRITE_CHARS = 1 << 16


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
    require("audit", "report")
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
        csv_folder=str(csv) if csv is not None else None,
    )
    with common.output(output) as out:
        # In pieces, each flushed: one write of the whole page to a pipe whose reader has gone
        # (`| head -c 10`) can end as a short write the interpreter never reports; the next piece
        # meets the closed pipe, and the run ends with status 2, as `check` does.
        for piece in range(0, len(html), WRITE_CHARS):
            out.write(html[piece : piece + WRITE_CHARS])
            out.flush()
    return 0
