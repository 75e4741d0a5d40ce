"""Bataille (casino war): its replay engine (`replay`), its simulator (`simulator`), its mathematics
(`maths`, what `edge` reads of it in `edge`)."""

from validator.games.game import Game

GAME = Game(
    name="bataille",
    package=__name__,
    engine="replay:BatailleRound",
    simulator="simulator:BatailleSim",
    maths="edge:MATHS",
    events=frozenset(("war", "war_burn")),
    facts=frozenset(
        (
            "box.bataille_tie",
            "hand.rank",
            "hand.war_rank",
            "hand.went_to_war",
            "dealer.rank",
            "dealer.war_rank",
            "settle.went_to_war",
            "settle.previous_went_to_war",
        )
    ),
    decisions=frozenset(("war", "surrender", "deal", "war_burn")),
    second_card_is_war_card=True,
)
