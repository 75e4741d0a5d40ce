"""Bataille (casino war): its words of the rules language (`vocabulary`), its hands and their ranks
(`hands`), its replay engine (`replay`), its simulator (`simulator`) and what `--inject` needs of it
(`inject`), its mathematics (`maths`, what `edge` reads of it in `edge`)."""

from validator.games.game import Game

GAME = Game(
    name="bataille",
    package=__name__,
    vocabulary="vocabulary:WORDS",
    hands="hands:HANDS",
    engine="replay:BatailleRound",
    simulator="simulator:BatailleSim",
    inject="inject:INJECTION",
    decisions=frozenset(("war", "surrender", "deal", "war_burn")),
    maths="edge:MATHS",
)
