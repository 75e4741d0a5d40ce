"""A round no version of its ruleset governs: its local date is before the first wording encoded, or after
the last one's end.

Checked by the replay when it picks the version in force for a table or a round
(`validator.replay.session`).
"""

from __future__ import annotations

from validator.findings.ruledoc import LOG_REF, RuleDoc
from validator.i18n import N_

NO_VERSION_IN_FORCE = "ruleset/no-version-in-force"

DOCS = (
    RuleDoc(
        NO_VERSION_IN_FORCE,
        "format",
        "error",
        LOG_REF,
        checks=N_("A version of the table's ruleset is in force on the round's date."),
        why=N_(
            "Each round is judged by the text in force on its local date; where no version is encoded, "
            "there is no silent fallback to another one."
        ),
        fails=N_("A French blackjack round dated 2010, before the first wording encoded (2013)."),
        passes=N_("A French blackjack round dated 2025-03-14."),
    ),
)
