"""What `edge` reads of the bataille's mathematics (validator.maths.game.GameMaths): the main stake's
return, a tie played the better of the ways the rules allow, which `simulate` plays to check it. The
dealer holds one card and draws none."""

from __future__ import annotations

from typing import Any

from validator.games.bataille.maths import BatailleReturn, bataille
from validator.i18n import N_
from validator.maths.edge import outcome_line
from validator.maths.game import DealerResults, DecisionCosts
from validator.maths.probe import Probe

STRATEGY = N_("on a tie, the better of the ways the rules allow (war or surrender)")


class BatailleMaths:
    dealer_final: frozenset[str] = frozenset()
    decisions = ("war", "surrender")

    def main_return(self, probe: Probe, base: Any) -> tuple[float, dict[str, Any], Any]:
        result = bataille(probe)
        lines = [outcome_line(label, net, p) for label, p, net in result.lines]
        return result.ev, {"strategy": STRATEGY, "tie": result.tie_choice, "lines": lines}, result

    def played(self, probe: Probe) -> tuple[float, Any]:
        tie = bataille(probe)

        def strategy(hand: Any, dealer: Any, legal: Any) -> str:
            return tie.tie_choice

        return tie.ev, strategy

    def player(self, probe: Probe) -> Any:
        return self.played(probe)[1]

    def dealer_results(self, probe: Probe) -> DealerResults | None:
        return None

    def costs(self, game: Any) -> DecisionCosts:
        """On a tie, what a way costs against the better one, per unit of the main stake (the war
        stake's result included, as in `bataille`); None: another decision, or a way the rules do not
        allow."""
        ways: dict[str, float] = dict(game.tie_options) if isinstance(game, BatailleReturn) else {}

        def cost(
            verb: str, cards: tuple[str, ...], dealer: tuple[str, ...], split: bool, aces: bool, hands: int
        ) -> float | None:
            if verb not in ways:
                return None
            return max(ways.values()) - ways[verb]

        return cost

    def chart(self, game: Any) -> None:
        return None  # one decision, on a tie: `main`'s `tie` says it


MATHS = BatailleMaths()
