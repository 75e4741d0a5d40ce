"""A round that cannot be replayed as logged: an action on a hand never opened, a settlement of a stake
never bet, an action of another game, or steps the game does not allow in that order. The round is
counted unreadable.

Checked by the round engines (`validator.replay.round_base`, `blackjack`, `bataille`), which raise
`MalformedRound` with one of these ids.
"""

from __future__ import annotations

from validator.findings.ruledoc import log_rule
from validator.i18n import N_

UNKNOWN_HAND = "hand-log/unknown-hand"
UNKNOWN_STAKE = "hand-log/unknown-stake"
WRONG_GAME = "hand-log/wrong-game"
INCONSISTENT = "hand-log/inconsistent"

_WHY = N_("A round the validator cannot replay as logged cannot be judged; it is counted unreadable.")

DOCS = (
    log_rule(
        UNKNOWN_HAND,
        checks=N_("An action names a hand that was opened in the round."),
        why=_WHY,
        fails=N_('`["hit", "4", "5C"]` where box 4 has no bet and no card.'),
        passes=N_("Actions only on hands dealt in the round."),
    ),
    log_rule(
        UNKNOWN_STAKE,
        checks=N_("A settlement names a stake that was bet in the round."),
        why=_WHY,
        fails=N_('`["pay", "2:insurance", 10]` with no insurance taken on box 2.'),
        passes=N_("Settlements of the stakes bet, split, doubled or insured in the round."),
    ),
    log_rule(
        WRONG_GAME,
        checks=N_("Every action is one of the table's game."),
        why=_WHY,
        fails=N_('`["war", "1", 10]` at a blackjack table.'),
        passes=N_('`["war", "1", 10]` at a bataille table after a tie.'),
    ),
    log_rule(
        INCONSISTENT,
        checks=N_("A round can be replayed as logged."),
        why=_WHY,
        fails=N_("A card dealt to a hand that is over, an amount that is no number."),
        passes=N_("A round whose actions follow each other as the game allows."),
    ),
)
