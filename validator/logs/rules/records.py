"""A record that is not one of hand-log/1's: an unknown `type`, or fields missing or of the wrong form.

Checked by the reader (`validator.logs.reader.check_record`, against the hand-log/1 JSON Schema), and by
the replay for the table, limits and jackpot records whose values it reads (`validator.replay.session`).
"""

from __future__ import annotations

from validator.findings.ruledoc import log_rule
from validator.i18n import N_

SCHEMA = "hand-log/schema"
UNKNOWN_TYPE = "hand-log/unknown-type"

DOCS = (
    log_rule(
        SCHEMA,
        checks=N_("Each record has the fields its type requires, with values of the right form."),
        why=N_(
            'The replay relies on every field docs/hand-log.md defines: a card `"AS"`, an amount, a time '
            "with its UTC offset."
        ),
        fails=N_(
            'A round without `at`, a card `"1S"`, an amount `"ten"` or one of 16 digits before the point.'
        ),
        passes=N_("A record as docs/hand-log.md shows it."),
    ),
    log_rule(
        UNKNOWN_TYPE,
        checks=N_("A record's `type` is one of hand-log/1's."),
        why=N_(
            "Record types are closed: an unknown type may be a misspelt round, which would otherwise be lost."
        ),
        fails=N_('`{"type": "rnd", "round": "BJ-03/1/17", …}`.'),
        passes=N_('`{"type": "round", …}`.'),
    ),
)
