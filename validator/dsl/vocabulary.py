"""The words a ruleset may use: the game parameters, the replay events a rule can listen to, and the
facts of the replay state each event exposes.

This is the boundary the project keeps: Python knows the game mechanics (what a total is, whether an
ace counts 11, whose turn it is, which card is next out of the shoe); the ruleset says what the law
requires of them. A name not listed here is an error in `rules check`, at its line and column.
"""

from dataclasses import dataclass

from validator.dsl.facts import FACT_CLASSES, facts_of

# ---- parameters: name → (type, description). Types: int, bool, ratio, decimal, symbol, list, int_or_none.


@dataclass(frozen=True, slots=True)
class ParamSpec:
    type: str
    doc: str
    symbols: tuple[str, ...] = ()
    # What the game mechanics (Python) do with the parameter, for those it reads through
    # `Ruleset.param`; empty: only rules read it, and a version that sets it must have one that does.
    mechanics: str = ""
    # What the simulator does with it to play a séance by the rules, for those it reads through
    # `Ruleset.param` too. The rules alone apply it: a version that sets it must still have a rule that
    # reads it (unlike `mechanics`, this does not count as reading it).
    simulator: str = ""


PARAMETERS: dict[str, ParamSpec] = {
    "shoe.decks": ParamSpec(
        "int", "decks of 52 cards in the shoe", mechanics="the exact edge: the shoe its odds are counted on"
    ),
    "shoe.backs": ParamSpec(
        "list",
        "how many decks of each back colour",
        simulator="how many decks of each back colour it puts in a new shoe",
    ),
    "shoe.burn": ParamSpec(
        "int", "cards burned when a shoe starts", simulator="how many cards it burns when a shoe starts"
    ),
    "shoe.cut_min_cards": ParamSpec(
        "int",
        "fewest cards that must lie behind the cut card",
        simulator="how deep it may place the cut card",
    ),
    "shoe.cut_min_share": ParamSpec(
        "ratio",
        "smallest share of the shoe that must lie behind the cut card",
        simulator="how deep it may place the cut card",
    ),
    "shoe.new_cards_each_session": ParamSpec("bool", "cards must be new / in perfect state at the séance"),
    "dealer.change_burn": ParamSpec("int", "cards a new dealer burns before dealing"),
    "table.max_seats": ParamSpec("int", "most boxes marked on the layout"),
    "table.deal_order": ParamSpec("symbol", "the order cards are dealt", ("left_to_right",)),
    "table.settlement_order": ParamSpec(
        "symbol", "the order bets are settled across boxes", ("right_to_left", "left_to_right", "any")
    ),
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
        "int", "the total at which the dealer stops drawing", mechanics="the exact edge: the dealer's drawing"
    ),
    "pays.even": ParamSpec("ratio", "payout of an ordinary winning hand"),
    "pays.blackjack": ParamSpec("ratio", "payout of a blackjack (none: the house declares it)"),
    "pays.insurance": ParamSpec("ratio", "payout of a winning insurance"),
    "pays.war_win": ParamSpec("ratio", "bataille: payout of the initial stake when the war is won"),
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
    "split.max_hands": ParamSpec("int_or_none", "most hands a box may reach by splitting (none: no limit)"),
    "split.aces_max_splits": ParamSpec("int_or_none", "most splits of aces in one box (none: no limit)"),
    "split.aces_one_card": ParamSpec(
        "bool", "a split ace receives one card only", simulator="whether a split ace's hand stops at its card"
    ),
    "surrender.offered": ParamSpec("symbol", "whether surrender exists", ("never", "house_option", "always")),
    "surrender.share_lost": ParamSpec("ratio", "the share of the stake a surrender loses"),
    "hit.on_21": ParamSpec("symbol", "hitting a 21", ("allowed", "house_option", "forbidden")),
    "bust.collected_at_once": ParamSpec(
        "bool",
        "a busted hand is collected before the next hand plays",
        simulator="whether it collects a busted hand before the next hand plays",
    ),
    "limits.minimum": ParamSpec(
        "decimal",
        "fixed minimum bet (none: the table's)",
        simulator="the table minimum of a séance, when none is given",
    ),
    "limits.maximum": ParamSpec(
        "decimal",
        "fixed maximum bet (none: the table's)",
        simulator="the table maximum of a séance, when none is given",
    ),
    "limits.max_multiples": ParamSpec("list", "allowed maximum as multiples of the minimum"),
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
    "hands.max_per_player": ParamSpec("int_or_none", "most hands one player may hold (none: no limit)"),
    "jackpot.elsewhere_staked": ParamSpec(
        "bool",
        "JP1: a best hand dealt on another box wins the others their consolation only where that box staked "
        "the bet (false: any player's hand at the table)",
        mechanics="the replay and the simulator: which boxes' hands count in player.other_*jackpot*",
    ),
}


# ---- the facts of the replay state: declared in validator/dsl/facts.py, one class per namespace. ----

# Namespace → fact → doc: what `rules check`, messages and the documentation read.
NAMESPACES: dict[str, dict[str, str]] = {name: facts_of(cls) for name, cls in FACT_CLASSES.items()}

# How a message shows a fact whose value is an identifier rather than a word: a receiver of cards ("D",
# "3", "3/2", "dealer") as "the dealer", "box 3", "box 3, hand 2"; a side bet by its title. Everything
# else is shown as its value. Only where a finding is written: the replay keeps the identifiers.
SHOWN_AS: dict[str, str] = {
    "deal.hand": "receiver",
    "deal.expected": "receiver",
    "deal.expected_hand": "receiver",
    "shoe.cut_by": "receiver",
    "shoe.cut_card_at": "receiver",
    "shoe.rightmost_box": "receiver",
    "bet.side": "side_bet",
    "card.code": "cards",
    "hand.card_list": "cards",
    "dealer.card_list": "cards",
}

# Namespaces every event may use.
_ALWAYS = ("table", "param", "house")

_HAND_EVENT = ("round", "box", "hand", "dealer", "action")

EVENTS: dict[str, tuple[str, ...]] = {
    "table": (),
    "limits": (),
    # A version of the ruleset that came into force while the table was open, at the table's first round
    # under it (the table record was judged by an earlier version).
    "in_force": (),
    "dealer_change": ("change",),
    "shoe": ("shoe",),
    "round": ("round",),
    "box": ("round", "box"),
    "bet": ("round", "bet"),
    "card": ("card", "round"),
    "deal": ("deal", "round"),
    "turn": ("turn", "round"),
    "hit": _HAND_EVENT,
    "stand": _HAND_EVENT,
    "double": _HAND_EVENT,
    "split": _HAND_EVENT,
    "surrender": _HAND_EVENT,
    "insurance": _HAND_EVENT,
    "even_money": _HAND_EVENT,
    "war": _HAND_EVENT,
    "bust": (*_HAND_EVENT, "bust"),
    "dealer_draw": ("round", "dealer"),
    "dealer_stand": ("round", "dealer"),
    # hand-log/1.1: the dealer looks at his cards for a blackjack (`peek`); round.players_done says
    # whether his own drawing had begun, after the players.
    "peek": ("round", "dealer"),
    # A main stake settled by the log; `dealer` the dealer's cards as they then are (bataille: his first
    # card, the war card apart).
    "settle": ("round", "settle", "dealer"),
    # An insurance paid or collected by the log (settle.box its box, settle.previous_box the last box of
    # the final settlement so far, 0 before it starts; action.verb pay, lose or push).
    "insurance_settle": ("round", "settle", "dealer", "action"),
    "stake_end": ("round", "stake"),
    "war_burn": ("round", "burn"),
    # hand-log/1.1: a card exposed or drawn by mistake (`mistake`), a reshuffle in the middle of a round.
    "mistake": ("round", "mistake"),
    "reshuffle": ("round", "reshuffle"),
    # A side bet's stake settled by the log (pay, lose or push), when it happens in the round.
    "side_settle": ("round", "side", "player", "dealer", "dealer_cards"),
    # Each of the round's bets on a side stake (after the `bet` event every bet goes through).
    "side_bet": ("round", "bet"),
    # A side stake the log first shows in the actions, not among the bets placed before the first card.
    "late_bet": ("round", "bet"),
    # A jackpot record: the JP1 meters read at the table.
    "jackpot": ("jackpot",),
}

# Stakes a `settle` clause can name, and the namespaces its guard and amount may use.
SETTLE_STAKES: dict[str, tuple[str, ...]] = {
    "main": ("round", "box", "hand", "dealer", "stake"),
    "insurance": ("round", "box", "hand", "dealer", "stake"),
    "war": ("round", "box", "hand", "dealer", "stake"),
}
# Paytable lines see the bettor's cards, the dealer, the stake and the JP1 meters.
PAYTABLE_NAMESPACES = ("player", "dealer", "dealer_cards", "hand", "stake", "jackpot")
# A side bet's stake is settled (`settle lucky_ladies …`) with these namespaces; its name is a side_bet
# block of the ruleset.
SIDE_SETTLE_NAMESPACES = ("round", "box", "hand", "dealer", "stake", "player", "dealer_cards", "jackpot")

# The functions a rule may call are registered in validator/dsl/functions.py (name, arity, doc).


def namespaces_for(event: str) -> tuple[str, ...]:
    return (*_ALWAYS, *EVENTS[event])
