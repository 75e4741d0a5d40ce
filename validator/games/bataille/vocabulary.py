"""Bataille's words of the rules language: the facts only its replay sets (a card's rank, ace high; the
war), the war and its burns, the war stake, and the parameters of the war."""

from __future__ import annotations

from dataclasses import dataclass

from validator.dsl.facts import Facts, fact
from validator.dsl.words import GameWords, ParamSpec


@dataclass(eq=False, slots=True)
class BatailleBoxFacts(Facts):
    """`box.*`, bataille's."""

    bataille_tie: bool = fact(False, "bataille: the box's first card ties the dealer's")


@dataclass(eq=False, slots=True)
class BatailleHandFacts(Facts):
    """`hand.*`, bataille's: what its evaluator (validator.games.bataille.hands) makes of the cards."""

    rank: int | None = fact(None, "bataille: the value of the hand's card, 2…14 (ace high)")
    war_rank: int | None = fact(None, "bataille: the value of the war card")
    went_to_war: bool = fact(False, "bataille: the hand went to war")


@dataclass(eq=False, slots=True)
class BatailleDealerFacts(Facts):
    """`dealer.*`, bataille's."""

    rank: int | None = fact(None, "bataille: the value of the dealer's card")
    war_rank: int | None = fact(None, "bataille: the value of the dealer's war card")


@dataclass(eq=False, slots=True)
class BatailleSettleFacts(Facts):
    """`settle.*`, bataille's."""

    went_to_war: bool = fact(False, "bataille: the box settled went to war")
    previous_went_to_war: bool = fact(
        False, "bataille: the box settled before went to war (false for the first)"
    )


@dataclass(eq=False, slots=True)
class BurnFacts(Facts):
    """`burn.*`: bataille: the cards burned before a war card."""

    count: int = fact(0, "cards burned")
    expected: int | None = fact(None, "cards to burn")


WORDS = GameWords(
    facts={
        "box": BatailleBoxFacts,
        "hand": BatailleHandFacts,
        "dealer": BatailleDealerFacts,
        "settle": BatailleSettleFacts,
        "burn": BurnFacts,
    },
    events={"war": ("round", "box", "hand", "dealer", "action"), "war_burn": ("round", "burn")},
    stakes={"war": ("round", "box", "hand", "dealer", "stake")},
    parameters={
        "pays.war_win": ParamSpec("ratio", "bataille: payout of the initial stake when the war is won"),
        "war.burn_before": ParamSpec(
            "int",
            "bataille: cards burned before the war cards",
            mechanics="the replay: burn.expected before the war cards",
        ),
        "war.burn_among_players": ParamSpec(
            "int",
            "bataille: cards burned between two players' war cards (none: not judged)",
            mechanics="the replay: burn.expected between two players' war cards",
        ),
        "war.burn_between": ParamSpec(
            "int",
            "bataille: cards burned between players' and dealer's war card",
            mechanics="the replay: burn.expected before the dealer's war card",
        ),
        "war.stake_share": ParamSpec(
            "ratio",
            "bataille: the war stake as a share of the initial stake",
            mechanics="the exact edge: the stake a war adds",
        ),
    },
)
