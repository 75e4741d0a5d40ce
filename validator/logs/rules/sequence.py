"""Records in an order the séance cannot have: no table record first, no shoe before a round, a round
naming another shoe than the one in play, a round id given to two rounds.

Checked by the replay of a log (`validator.replay.session`), as records follow each other.
"""

from __future__ import annotations

from validator.findings.ruledoc import log_rule
from validator.i18n import N_, _

NO_TABLE = "hand-log/no-table"
NO_SHOE = "hand-log/no-shoe"
OTHER_SHOE = "hand-log/other-shoe"
REPEATED_ROUND = "hand-log/repeated-round"

DOCS = (
    log_rule(
        NO_TABLE,
        checks=N_("A table record opens the séance before any other record."),
        why=N_("The table record says which game, which ruleset and which limits apply."),
        fails=N_("A file that starts with a shoe or a round."),
        passes=N_('A file that starts with `{"type": "table", …}`.'),
    ),
    log_rule(
        NO_SHOE,
        checks=N_("A shoe record comes before the first round of a table."),
        why=N_("The replay follows the cards out of the shoe: without a shoe it cannot know them."),
        fails=N_("A round right after the table record."),
        passes=N_("A table, a shoe, then rounds."),
    ),
    log_rule(
        OTHER_SHOE,
        checks=N_("A round names the shoe in play."),
        why=N_(
            "Each round's cards come from the current shoe; a round naming another shoe is mislabelled "
            "(it is still replayed with the shoe in play)."
        ),
        fails=N_('A round with `"shoe": "BJ-03/2025-03-14/2"` while shoe 1 is in play.'),
        passes=N_("A round naming the last shoe record's id."),
    ),
    log_rule(
        REPEATED_ROUND,
        checks=N_("Each round record of a log has a round id of its own."),
        why=N_(
            "The round id is how an auditor, the table's video and the findings name a round (docs/"
            "hand-log.md): two records under one id are a log written twice, a line duplicated or two "
            "rounds mislabelled. The later record is still replayed; its findings are told apart from the "
            "earlier one's (their fingerprints differ)."
        ),
        fails=N_("A log in which the round record of BJ-03/2025-03-14/1/1 appears twice."),
        passes=N_("A log whose rounds each have their own id."),
    ),
)


def repeated_round_message(round_id: str, first_line: int, occurrence: int) -> str:
    """hand-log/repeated-round: the id, where it was first given, and which time this is."""
    return _(
        "round id {round} was already given to the round at line {line} (this is its record number "
        "{occurrence}); each round needs an id of its own"
    ).format(round=round_id, line=first_line, occurrence=occurrence)
