"""Records in an order the séance cannot have: no table record first, no shoe before a round, a round
naming another shoe than the one in play.

Checked by the replay of a log (`validator.replay.session`), as records follow each other.
"""

from __future__ import annotations

from validator.findings.ruledoc import log_rule

NO_TABLE = "hand-log/no-table"
NO_SHOE = "hand-log/no-shoe"
OTHER_SHOE = "hand-log/other-shoe"

DOCS = (
    log_rule(
        NO_TABLE,
        checks="A table record opens the séance before any other record.",
        why="The table record says which game, which ruleset and which limits apply.",
        fails="A file that starts with a shoe or a round.",
        passes='A file that starts with `{"type": "table", …}`.',
    ),
    log_rule(
        NO_SHOE,
        checks="A shoe record comes before the first round of a table.",
        why="The replay follows the cards out of the shoe: without a shoe it cannot know them.",
        fails="A round right after the table record.",
        passes="A table, a shoe, then rounds.",
    ),
    log_rule(
        OTHER_SHOE,
        checks="A round names the shoe in play.",
        why="Each round's cards come from the current shoe; a round naming another shoe is mislabelled "
        "(it is still replayed with the shoe in play).",
        fails='A round with `"shoe": "BJ-03/2025-03-14/2"` while shoe 1 is in play.',
        passes="A round naming the last shoe record's id.",
    ),
)
