"""A line that cannot be read as a record: not UTF-8, not JSON (or not an object), or too long to load.

Checked by the reader (`validator.logs.reader`), line by line, before any record is replayed.
"""

from __future__ import annotations

from validator.findings.ruledoc import log_rule
from validator.i18n import N_, _

INVALID_JSON = "hand-log/invalid-json"
INVALID_UTF8 = "hand-log/invalid-utf8"
LINE_TOO_LONG = "hand-log/line-too-long"

DOCS = (
    log_rule(
        INVALID_JSON,
        checks=N_("Every line of a log is one JSON object."),
        why=N_(
            "hand-log/1 is JSON Lines: a line that is not JSON cannot be read, and may have been a round."
        ),
        fails=N_('A line cut in the middle, or with a stray character: `{"type": "deal", &`.'),
        passes=N_(
            '`{"type": "round", "round": "BJ-03/1/17", …}` on one line.',
        ),
    ),
    log_rule(
        INVALID_UTF8,
        checks=N_("A log is UTF-8 text."),
        why=N_("hand-log/1 files are UTF-8; bytes that are not cannot be read as a record."),
        fails=N_(
            "A line written in Latin-1 with an accented casino name; a file saved as UTF-16 (one finding "
            "for the whole file, which is then read as UTF-16 and replayed)."
        ),
        passes=N_("The same line written in UTF-8 (a UTF-8 byte order mark at the start is allowed)."),
    ),
    log_rule(
        LINE_TOO_LONG,
        checks=N_("A line stays under the reader's limit (--max-line-bytes, one mebibyte by default)."),
        why=N_(
            "A record of a round is a few hundred bytes; a line over the limit is damage, and is skipped "
            "without being loaded."
        ),
        fails=N_("A file whose newlines were lost, read as one huge line."),
        passes=N_("One record per line."),
    ),
)


def utf16_message(file: str, encoding: str) -> str:
    """hand-log/invalid-utf8 of a whole file in UTF-16: which UTF-16, and the command that re-encodes it."""
    return _(
        "the file is {encoding}, not UTF-8 as hand-log/1 is: read as {encoding} and replayed; re-encode it: "
        "iconv -f {encoding} -t UTF-8 {file} > {file}.utf8"
    ).format(encoding=encoding, file=file)


def too_long_message(length: int, limit: int) -> str:
    """hand-log/line-too-long: the line's length and the limit it went over."""
    return _(
        "the line is {length} bytes long, over the {limit}-byte limit (--max-line-bytes); it was skipped"
    ).format(length=f"{length:,}", limit=f"{limit:,}")
