"""A séance whose table's money does not match its rounds: the carnet's result (hand-log/1.2 `money`
records) against the sum of what the rounds collected and paid.

Checked by the replay at the end of each séance (`validator.replay.money`), or, where `check --jobs`
replays a séance in several shares, by the client once it has every share's part of it
(`validator.checking.cluster`).
"""

from __future__ import annotations

from validator.casino.seance import RECONCILIATION
from validator.findings.ruledoc import RuleDoc
from validator.i18n import N_

__all__ = ["DOCS", "MONEY_REF", "RECONCILIATION"]
# The arrêté du 14 mai 2007, art. 69 (as replaced by the arrêté du 29 juillet 2009, art. 14): the carnets
# d'avances kept per table and séance, totalled daily on the registre de contrôle.
MONEY_REF = "Arrêté du 14 mai 2007, art. 69"

DOCS = (
    RuleDoc(
        RECONCILIATION,
        "money",
        "error",
        MONEY_REF,
        checks=N_(
            "The table's result by its carnet (encaisse − avance initiale − avances complémentaires; or, "
            "counted the US way, closing inventory + credits + drop − opening inventory − fills) equals, "
            "to the cent, the sum over the séance's rounds of the stakes collected less the amounts paid, "
            "side bets included."
        ),
        why=N_(
            "Art. 69 has « des carnets spéciaux » kept « par table … par séance : pour les jeux de "
            "contrepartie, le montant de l'avance initiale et des avances complémentaires éventuelles et le "
            "montant de l'encaisse constatée en fin de séance », recapitulated « sur un registre de "
            "contrôle ». What the table's chips say it won must be what its rounds won: any difference is "
            "money the rounds do not explain. A séance whose carnet is incomplete, or one of whose rounds "
            "cannot be replayed, is not reconciled (the summary says so) rather than accused."
        ),
        fails=N_(
            "Avance initiale 5,000, no avance complémentaire, encaisse 5,165, and three rounds that "
            "collected 470 and paid 300 (a result of 170): 5 missing from the table."
        ),
        passes=N_("The same séance with an encaisse of 5,170."),
    ),
)
