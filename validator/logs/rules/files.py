"""A file that cannot be read to its end: cut short (or corrupt), over the bytes the reader takes from one
log, or so damaged that its broken records are counted rather than reported one by one; or a file with
nothing in it to read.

Checked by the reader (`validator.logs.reader`) as it streams a file.
"""

from __future__ import annotations

from validator.findings.ruledoc import log_rule
from validator.i18n import N_, _

TOO_LARGE = "hand-log/too-large"
BROKEN_SKIPPED = "hand-log/broken-records-skipped"
TRUNCATED = "hand-log/truncated"
EMPTY = "hand-log/empty"

DOCS = (
    log_rule(
        TOO_LARGE,
        checks=N_(
            "A log stays under the bytes the reader takes from one file (--max-log-bytes, 16G by "
            "default), counted after decompression."
        ),
        why=N_(
            "A small compressed file can unfold into gigabytes; past the limit the rest of the file is not "
            "read, and this finding says so, rather than the run going on for hours."
        ),
        fails=N_("A 1 MB gzip that decompresses to more than --max-log-bytes."),
        passes=N_("A séance's log of any realistic size."),
    ),
    log_rule(
        BROKEN_SKIPPED,
        checks=N_(
            "How many records that cannot be read, past --max-broken-records in a row (100 by default), "
            "were only counted rather than reported one by one."
        ),
        why=N_(
            "A damaged file can hold millions of identical broken lines; one finding with their count and "
            "lines keeps the report readable, and each is still counted in the summary."
        ),
        fails=N_("101 lines in a row that are not JSON: 100 findings, then this one for the last line."),
        passes=N_("A log whose broken lines are fewer than the limit in a row: each is reported."),
    ),
    log_rule(
        TRUNCATED,
        checks=N_("A file ends after a complete record."),
        why=N_("A file (or gzip stream) cut short has lost its last records: the séance is incomplete."),
        fails=N_("A `.jsonl.gz` copied while it was still being written."),
        passes=N_("A file whose last line is a complete record."),
    ),
    log_rule(
        EMPTY,
        checks=N_("A log holds at least one record."),
        why=N_(
            "A log with nothing in it (no byte, or blank lines only) is a séance that was not exported, "
            "an export that failed or the wrong file: 0 rounds read is not a clean séance, and a CI job "
            "must not pass on it unseen. The policy decides, as for any finding: --ignore hand-log/empty "
            "where an empty log is expected."
        ),
        fails=N_("A file of 0 bytes, or `check -` fed nothing on its standard input."),
        passes=N_("A log with its table record, even a séance of no round."),
    ),
)


def too_large_message(budget: int) -> str:
    """hand-log/too-large: where the reader stopped."""
    return _(
        "the file holds more than {budget} bytes (uncompressed), the limit of --max-log-bytes; "
        "the rest of it was not read"
    ).format(budget=f"{budget:,}")


def truncated_message(lines_read: int, error: BaseException) -> str:
    """hand-log/truncated: how far the file could be read, and what stopped it."""
    detail = str(error) or type(error).__name__
    if lines_read == 0:
        return _("the file cannot be read from its first line ({detail}); nothing in it was checked").format(
            detail=detail
        )
    return _(
        "the file ends early or is corrupt after line {line} ({detail}); the rest of the file cannot be read"
    ).format(line=lines_read, detail=detail)


def empty_message() -> str:
    """hand-log/empty: the file holds no record."""
    return _("the file holds no record (it is empty, or blank lines only): nothing in it was checked")


def skipped_message(skipped: int, first: int, last: int, limit: int) -> str:
    """hand-log/broken-records-skipped: how many broken records were only counted, and their lines."""
    lines = _("line {first}") if skipped == 1 else _("lines {first} to {last}")
    return _(
        "{skipped} more records that cannot be read ({lines}) are not reported one by one: over {limit} "
        "in a row (--max-broken-records); they are counted in the summary"
    ).format(skipped=f"{skipped:,}", lines=lines.format(first=first, last=last), limit=f"{limit:,}")
