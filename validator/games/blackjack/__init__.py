"""Blackjack: its replay engine (`replay`), its simulator (`simulator`), its mathematics (`maths`, the
dealer's drawing in `dealer`, the player's best play in `strategy`, what `edge` reads of them in `edge`)."""

from validator.games.game import Game

GAME = Game(
    name="blackjack",
    package=__name__,
    engine="replay:BlackjackRound",
    simulator="simulator:BlackjackSim",
    maths="edge:MATHS",
    events=frozenset(
        (
            "turn",
            "hit",
            "stand",
            "double",
            "split",
            "insurance",
            "even_money",
            "bust",
            "dealer_draw",
            "dealer_stand",
            "insurance_settle",
        )
    ),
    facts=frozenset(
        (
            "round.live_blackjacks",
            "box.ace_splits",
            "hand.soft",
            "hand.blackjack",
            "hand.busted",
            "hand.pair",
            "hand.identical_pair",
            "hand.pair_of_aces",
            "hand.split",
            "hand.split_aces",
            "hand.doubled",
            "hand.even_money",
            "dealer.soft",
            "dealer.blackjack",
            "dealer.busted",
            "dealer.up_ace",
            "dealer.up_ten",
            "dealer.face_down",
            "card.hole",
            "action.by_seated",
        )
    ),
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
)
