"""One package per game: everything a game is (its words of the rules language, its hands, its replay
engine, its simulator, its mathematics), each declared once in its package's `__init__`
(`validator.games.game.Game`).

This is the registration: the games the package plays, in the order messages list them, then the games
other distributions register under the entry point group `casino_validator.games` (each entry point names
a `Game`: `highcard = "acme_highcard:GAME"` in their pyproject's `[project.entry-points.
"casino_validator.games"]`), in the order of their names. The rules language, the replay, `simulate` and
`edge` derive their registries from it, once, when they are first imported; a game not listed here is an
error where it is named (a ruleset's `game` header, a log's table record), never another game's mechanics
by default.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from validator.errors import ValidatorError
from validator.games import bataille, blackjack
from validator.games.game import Game
from validator.i18n import _

ENTRY_POINTS = "casino_validator.games"


def _plugged(entry: EntryPoint) -> Game:
    """The game an entry point names, or a ValidatorError that says which and why it cannot be one."""
    where = f"{entry.name} = {entry.value!r} ({ENTRY_POINTS})"
    try:
        game = entry.load()
    except Exception as error:  # a plugin's own import error, whatever it is: reported, not a traceback
        raise ValidatorError(
            _("the game {where} cannot be loaded: {error}").format(where=where, error=error)
        ) from error
    if not isinstance(game, Game):
        raise ValidatorError(_("the game {where} is not a validator.games.game.Game").format(where=where))
    return game


def registered() -> dict[str, Game]:
    """The games: the package's own, then those of the entry point group, by name; a name given twice is
    an error (a game's name is what rulesets and logs name it by)."""
    games: dict[str, Game] = {game.name: game for game in (blackjack.GAME, bataille.GAME)}
    for entry in sorted(entry_points(group=ENTRY_POINTS), key=lambda entry: entry.name):
        game = _plugged(entry)
        if game.name in games:
            raise ValidatorError(
                _("the game {name!r} of {where} is registered twice").format(
                    name=game.name, where=f"{entry.name} = {entry.value!r} ({ENTRY_POINTS})"
                )
            )
        games[game.name] = game
    return games


GAMES: dict[str, Game] = registered()
