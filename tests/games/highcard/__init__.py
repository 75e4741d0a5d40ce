"""High card: a minimal banking card game, a game package outside casino-validator (a test of the plugin
mechanism, not a game any law governs). One card to each box, then one to the dealer; a card higher than
the dealer's wins even money, a lower one loses, a tie pushes; ranks ace high, suits do not count.

It is everything a new game needs: this declaration, its words of the rules language (`vocabulary`), its
hands (`hands`), its replay engine (`replay`), its simulator (`simulator`) and what `simulate --inject`
needs of it (`inject`); its rules are a ruleset of their own (`rules/highcard.rules`). It registers as a
distribution does, under the entry point group `casino_validator.games` (tests/games/conftest.py makes
the entry point the tests run with): `highcard = "highcard:GAME"`. It has no mathematics (`edge` says so).
"""

from validator.games.game import Game

GAME = Game(
    name="highcard",
    package=__name__,
    vocabulary="vocabulary:WORDS",
    hands="hands:HANDS",
    engine="replay:HighCardRound",
    simulator="simulator:HighCardSim",
    inject="inject:INJECTION",
    decisions=frozenset(("deal",)),
)
