"""Blackjack: its words of the rules language (`vocabulary`), its hands and their totals (`hands`), its
replay engine (`replay`), its simulator (`simulator`) and what `--inject` needs of it (`inject`), its
mathematics (`maths`, every hand a player can hold in `holdings`, the dealer's drawing in `dealer`, the
player's best play in `strategy`, what `edge` reads of them in `edge`)."""

from validator.games.game import Game

GAME = Game(
    name="blackjack",
    package=__name__,
    vocabulary="vocabulary:WORDS",
    hands="hands:HANDS",
    engine="replay:BlackjackRound",
    simulator="simulator:BlackjackSim",
    inject="inject:INJECTION",
    decisions=frozenset(
        (
            "surrender",
            "split",
            "double",
            "hit",
            "insurance",
            "even_money",
            "side_settle",
            "dealer_draw",
            "dealer_stand",
            "deal",
            "turn",
            "bust",
            "insurance_settle",
        )
    ),
    maths="edge:MATHS",
)
