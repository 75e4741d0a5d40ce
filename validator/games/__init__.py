"""One package per game: everything a game is (its replay engine, its simulator, its mathematics), each
declared once in its package's `__init__` (`validator.games.game.Game`).

This is the registration: the games the package plays, in the order messages list them. The rules
language, the replay, `simulate` and `edge` derive their registries from it; a game not listed here is
an error where it is named (a ruleset's `game` header), never another game's mechanics by default.
"""

from validator.games import bataille, blackjack
from validator.games.game import Game

GAMES: dict[str, Game] = {game.name: game for game in (blackjack.GAME, bataille.GAME)}
