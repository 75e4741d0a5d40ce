"""`casino-validator report`: the audit report, one offline HTML file, from datasets queried with DuckDB."""

from __future__ import annotations

from typing import TYPE_CHECKING

from validator.audit.report import audit_html, dataset_notes
from validator.commands import common
from validator.extras import require

if TYPE_CHECKING:
    from validator.commands.options import ReportOptions

WRITE_CHARS = 1 << 16


def run(options: ReportOptions) -> int:
    require("audit", "report")
    names = [str(d) for d in options.datasets]
    for note in dataset_notes(names):
        common.error(f"warning: {note}")
    html = audit_html(options, common.registry())
    with common.output(options.output) as out:
        # In pieces, each flushed: one write of the whole page to a pipe whose reader has gone
        # (`| head -c 10`) can end as a short write the interpreter never reports; the next piece
        # meets the closed pipe, and the run ends with status 2, as `check` does.
        for piece in range(0, len(html), WRITE_CHARS):
            out.write(html[piece : piece + WRITE_CHARS])
            out.flush()
    return 0
