"""Blackjack's words of the rules language: the facts only its replay sets (a hand's total and what it
makes of it, the dealer's up card, splits, the turn), the events of its play (decisions, the dealer's
drawing, insurance), the insurance stake, and the parameters of its mechanics and its law."""

from __future__ import annotations

from dataclasses import dataclass

from validator.dsl.facts import Facts, fact
from validator.dsl.words import GameWords, ParamSpec


@dataclass(eq=False, slots=True)
class BlackjackRoundFacts(Facts):
    """`round.*`, blackjack's."""

    live_blackjacks: int = fact(0, "at the dealer's stand: how many of those live hands are blackjacks")


@dataclass(eq=False, slots=True)
class BlackjackBoxFacts(Facts):
    """`box.*`, blackjack's."""

    split_waiting: int = fact(0, "the box's hands waiting for their second card after a split")
    ace_splits: int = fact(0, "pairs of aces split in the box")
    player_ace_splits: int = fact(
        0, "at a split: pairs of aces split so far this round on all the boxes of the box's seated player"
    )
    player_splits: int = fact(
        0,
        "at a split: pairs split so far this round, of any rank, on all the boxes of the box's seated player",
    )


@dataclass(eq=False, slots=True)
class BlackjackHandFacts(Facts):
    """`hand.*`, blackjack's: what its evaluator (validator.games.blackjack.hands) makes of the cards."""

    total: int = fact(0, "best total (an ace counts 11 unless that busts)")
    soft: bool = fact(False, "an ace counts 11 in the total")
    blackjack: bool = fact(False, "21 with two cards, as the ruleset counts it")
    busted: bool = fact(False, "total over 21")
    pair: bool = fact(False, "two cards of the same value")
    identical_pair: bool = fact(False, "two cards of the same rank")
    pair_of_aces: bool = fact(False, "two aces")
    split: bool = fact(False, "the hand comes from a split")
    split_aces: bool = fact(False, "the hand comes from splitting aces")
    doubled: bool = fact(False, "the hand was doubled")
    even_money: bool = fact(
        False,
        "the player took even money, where the version settles it (a main settle clause reads this fact); "
        "under a text without even money the hand stays a blackjack waiting for the dealer's point",
    )


@dataclass(eq=False, slots=True)
class BlackjackDealerFacts(Facts):
    """`dealer.*`, blackjack's."""

    total: int = fact(0, "dealer's best total")
    soft: bool = fact(False, "an ace counts 11 in the dealer's total")
    up_ace: bool = fact(False, "the dealer's first card is an ace")
    up_ten: bool = fact(False, "the dealer's first card is worth 10")
    aces: int = fact(0, "how many aces the dealer's cards hold")
    blackjack: bool = fact(False, "dealer's 21 with two cards")
    busted: bool = fact(False, "dealer's total over 21")
    face_down: int = fact(0, "the dealer's cards still face down (dealt with deal_down, not yet revealed)")
    revealed: int = fact(0, "the dealer's cards dealt face down and since turned over (hand-log/1.1 reveal)")


@dataclass(eq=False, slots=True)
class BlackjackActionFacts(Facts):
    """`action.*`, blackjack's."""

    by_seated: bool | None = fact(
        None,
        "at a decision (hit, stand, double, split, surrender): whether those the log names as deciding "
        "(hand-log/1.1 `by`) are all seated players of the box; none when the log does not say",
    )


@dataclass(eq=False, slots=True)
class BlackjackTurnFacts(Facts):
    """`turn.*`, blackjack's."""

    hand: str = fact("", "the hand that acted (3, 3/2)")
    place: int | None = fact(
        None,
        "hand-log/1.1 layout: the acting hand's place in its box, 1 the hand at the player's right (dealt "
        "first); none where the log does not give the box's layout",
    )
    current_place: int | None = fact(
        None,
        "hand-log/1.1 layout: the place of the box's hand that made the box's last decision (a split "
        "excepted); none before it, in another box, or where the log does not give the layout",
    )


@dataclass(eq=False, slots=True)
class BlackjackSettleFacts(Facts):
    """`settle.*`, blackjack's."""

    place: int | None = fact(
        None,
        "hand-log/1.1 layout: the settled hand's place in its box, 1 the hand at the player's right; none "
        "where the log does not give the box's layout",
    )
    previous_place: int | None = fact(
        None,
        "hand-log/1.1 layout: the place of the hand settled just before, when it is of the same box; "
        "else none",
    )


@dataclass(eq=False, slots=True)
class BlackjackCardFacts(Facts):
    """`card.*`, blackjack's."""

    hole: bool = fact(
        False, "the card is the dealer's second card of the initial deal, dealt before any decision"
    )


_HAND_EVENT = ("round", "box", "hand", "dealer", "action")

WORDS = GameWords(
    facts={
        "round": BlackjackRoundFacts,
        "box": BlackjackBoxFacts,
        "hand": BlackjackHandFacts,
        "dealer": BlackjackDealerFacts,
        "action": BlackjackActionFacts,
        "turn": BlackjackTurnFacts,
        "settle": BlackjackSettleFacts,
        "card": BlackjackCardFacts,
    },
    events={
        "turn": ("turn", "round"),
        "hit": _HAND_EVENT,
        "stand": _HAND_EVENT,
        "double": _HAND_EVENT,
        "split": _HAND_EVENT,
        "insurance": _HAND_EVENT,
        "even_money": _HAND_EVENT,
        "bust": (*_HAND_EVENT, "bust"),
        "dealer_draw": ("round", "dealer"),
        "dealer_stand": ("round", "dealer"),
        # hand-log/1.1: the dealer looks at his cards for a blackjack (`peek`); round.players_done says
        # whether his own drawing had begun, after the players.
        "peek": ("round", "dealer"),
        # An insurance paid or collected by the log (settle.box its box, settle.previous_box the last box
        # of the final settlement so far, 0 before it starts; action.verb pay, lose or push).
        "insurance_settle": ("round", "settle", "dealer", "action"),
        # hand-log/1.2: a player's request the engine refused or turned into another action (`request`).
        "request": ("round", "box", "hand", "dealer", "request"),
    },
    stakes={"insurance": ("round", "box", "hand", "dealer", "stake")},
    parameters={
        "dealer.hole_card": ParamSpec(
            "bool",
            "the dealer takes a second, face-down card in the initial deal",
            mechanics="the replay: the initial deal owes the dealer a second card (deal.expected)",
        ),
        "dealer.peeks": ParamSpec(
            "bool",
            "the dealer looks at his hole card for a blackjack before the players decide (default: no)",
            mechanics="the exact edge: the players decide knowing the dealer has no blackjack",
        ),
        "dealer.hits_soft_17": ParamSpec(
            "bool", "the dealer draws on a soft 17", mechanics="the exact edge: the dealer's drawing"
        ),
        "dealer.hits_17_with_an_ace": ParamSpec(
            "bool",
            "the dealer draws on any 17 holding an ace, a hard one (A-6-K) too",
            mechanics="the exact edge: the dealer's drawing",
            simulator="the simulated dealer draws on such a 17",
        ),
        "dealer.stands_on": ParamSpec(
            "int",
            "the total at which the dealer stops drawing",
            mechanics="the exact edge: the dealer's drawing",
        ),
        "pays.blackjack": ParamSpec("ratio", "payout of a blackjack (none: the house declares it)"),
        "pays.insurance": ParamSpec("ratio", "payout of a winning insurance"),
        "blackjack.split_hand_counts": ParamSpec(
            "bool",
            "a two-card 21 on a split hand counts as blackjack",
            mechanics="the replay: what hand.blackjack is for a split hand",
        ),
        "blackjack.beats_dealer_blackjack": ParamSpec(
            "bool", "a player's blackjack beats a dealer's two-card 21 (else: push)"
        ),
        "insurance.share": ParamSpec(
            "ratio",
            "the insurance stake as a share of the main stake",
            simulator="the insurance stake its players take",
        ),
        "insurance.settled_at_second_card": ParamSpec(
            "bool",
            "insurances are settled as soon as the dealer shows his second card (the simulator plays it)",
            simulator="when it settles the insurances",
        ),
        "insurance.offered": ParamSpec(
            "bool",
            "insurance is offered against a dealer's ace",
            simulator="whether its players are offered insurance",
        ),
        "even_money.offered": ParamSpec(
            "bool",
            "a player with blackjack may take even money against an ace",
            simulator="whether its players are offered even money",
        ),
        "double.first_two_cards_only": ParamSpec("bool", "doubling only on a hand's first two cards"),
        "double.after_split": ParamSpec("bool", "a split hand may double (before house options)"),
        "double.on_blackjack": ParamSpec("bool", "a blackjack may be doubled"),
        "split.same_value": ParamSpec("bool", "a pair is two cards of the same value (else: same rank)"),
        "split.max_hands": ParamSpec(
            "int_or_none", "most hands a box may reach by splitting (none: no limit)"
        ),
        "split.aces_max_splits": ParamSpec("int_or_none", "most splits of aces in one box (none: no limit)"),
        "split.aces_one_card": ParamSpec(
            "bool",
            "a split ace receives one card only",
            simulator="whether a split ace's hand stops at its card",
        ),
        "hit.on_21": ParamSpec("symbol", "hitting a 21", ("allowed", "house_option", "forbidden")),
        "bust.collected_at_once": ParamSpec(
            "bool",
            "a busted hand is collected before the next hand plays",
            simulator="whether it collects a busted hand before the next hand plays",
        ),
    },
)
