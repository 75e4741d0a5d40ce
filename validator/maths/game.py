"""What `edge` asks of a game's mathematics, and where it finds them: the game's package declares its
`maths` (validator.games.game.Game), which implements `GameMaths`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.i18n import _
from validator.maths.probe import Probe

# The dealer's final results after a deal (his cards, their probability), from the player's cards and
# the dealer's first card dealt out of a shoe of `decks` decks. The cards given stand for his results;
# renaming the suits of the cards dealt changes none of them (`maths.suits` groups deals by it; tested
# for blackjack, whose dealer draws by ranks alone).
DealerResults = Callable[[int, list[str], list[str]], list[tuple[list[str], float]]]

# What a logged decision costs the player against the best play, per unit of the hand's stake when it
# decided: (verb, the hand's cards, the dealer's cards in sight, split, split aces, the box's hands) →
# the expected return of the best action less that of the action taken; None: not priced.
DecisionCosts = Callable[[str, tuple[str, ...], tuple[str, ...], bool, bool, int], float | None]


@runtime_checkable
class MainFigures(Protocol):
    """What a game's mathematics may give beside `GameMaths` for the report's bands: the main stake's
    return and its variance as `main_return`'s object prints it (a string), without the rest of what
    `edge` prints of the main stake (a game whose figures cost more to print: blackjack's split bound).
    A game without it, or that answers None, is asked `main_return`."""

    def main_figures(self, probe: Probe) -> tuple[float, str] | None: ...


@runtime_checkable
class ReportReturn(Protocol):
    """What a game's mathematics may give beside `GameMaths` for the report: `main_return`'s return and
    `main` object without what the report does not read and costs more to compute (blackjack's split
    bound, its `approximations`). A game without it is asked `main_return`."""

    def report_return(self, probe: Probe) -> tuple[float, dict[str, Any]]: ...


@runtime_checkable
class PlayCosts(Protocol):
    """What a game's mathematics may give beside `GameMaths` for the report: `costs` of the game
    `main_return` computes, without computing what only `edge` prints (blackjack's distribution and
    split bound), and only when a decision is first priced. A game without it is asked `main_return`."""

    def play_costs(self, probe: Probe) -> DecisionCosts: ...


class GameMaths(Protocol):
    # The dealer's facts that only his final hand gives (a paytable reading one is weighed by the
    # dealer's drawing); the others read his first card.
    dealer_final: frozenset[str]
    # The decisions a player may take (`simulate --players random|mix` draws among those the rules allow).
    decisions: tuple[str, ...]

    def main_return(self, probe: Probe, base: Any) -> tuple[float, dict[str, Any], Any]:
        """The main stake's return per unit of initial stake, its `main` object of edge/1 (the strategy,
        the outcomes), and what a later call may pass as `base` (None: nothing to reuse): a computation
        whose rules answer every question as base's did is not made again (an empty object is then
        returned with base's return)."""
        ...

    def played(self, probe: Probe) -> tuple[float, Any]:
        """The exact return, and the strategy `simulate` plays it by (None: the simulator's own)."""
        ...

    def player(self, probe: Probe) -> Any:
        """The best strategy (`simulate --players best`), computed as the séance's hands need it."""
        ...

    def dealer_results(self, probe: Probe) -> DealerResults | None:
        """How the dealer's final results follow a deal, where the dealer draws (None: he does not)."""
        ...

    def costs(self, game: Any) -> DecisionCosts:
        """What each logged decision costs against the best play (`DecisionCosts`), by the values the
        main stake's figure was computed with (`game`, as `main_return` gave it back)."""
        ...

    def chart(self, game: Any) -> tuple[dict[str, Any], str] | None:
        """The strategy the figures assume, as `edge --strategy` prints it: edge/1's `strategy` object and
        its text, from what `main_return` gave back (None: the game has no strategy to chart)."""
        ...


def maths_of(ruleset: Ruleset) -> GameMaths:
    """The mathematics of the version's game."""
    game = GAMES[ruleset.game]
    if game.maths is None:
        raise ValidatorError(
            _("the game {game} declares no mathematics: its figures cannot be computed").format(
                game=game.name
            )
        )
    maths: GameMaths = game.load(game.maths)
    return maths
