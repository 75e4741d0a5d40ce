"""The words a ruleset may use: the game parameters, the replay events a rule can listen to, and the
facts of the replay state each event exposes.

This is the boundary the project keeps: Python knows the game mechanics (what a total is, whether an
ace counts 11, whose turn it is, which card is next out of the shoe); the ruleset says what the law
requires of them. A name not listed here is an error in `rules check`, at its line and column.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- parameters: name → (type, description). Types: int, bool, ratio, decimal, symbol, list, int_or_none.


@dataclass(frozen=True, slots=True)
class ParamSpec:
    type: str
    doc: str
    symbols: tuple[str, ...] = ()
    # What the game mechanics (Python) do with the parameter, for those it reads through
    # `Ruleset.param`; empty: only rules read it, and a version that sets it must have one that does.
    mechanics: str = ""


PARAMETERS: dict[str, ParamSpec] = {
    "shoe.decks": ParamSpec(
        "int", "decks of 52 cards in the shoe", mechanics="the exact edge: the shoe its odds are counted on"
    ),
    "shoe.backs": ParamSpec("list", "how many decks of each back colour"),
    "shoe.burn": ParamSpec("int", "cards burned when a shoe starts"),
    "shoe.cut_min_cards": ParamSpec("int", "fewest cards that must lie behind the cut card"),
    "shoe.cut_min_share": ParamSpec("ratio", "smallest share of the shoe that must lie behind the cut card"),
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
    "insurance.share": ParamSpec("ratio", "the insurance stake as a share of the main stake"),
    "insurance.settled_at_second_card": ParamSpec(
        "bool", "insurances are settled as soon as the dealer shows his second card (the simulator plays it)"
    ),
    "insurance.offered": ParamSpec("bool", "insurance is offered against a dealer's ace"),
    "even_money.offered": ParamSpec("bool", "a player with blackjack may take even money against an ace"),
    "double.first_two_cards_only": ParamSpec("bool", "doubling only on a hand's first two cards"),
    "double.after_split": ParamSpec("bool", "a split hand may double (before house options)"),
    "double.on_blackjack": ParamSpec("bool", "a blackjack may be doubled"),
    "split.same_value": ParamSpec("bool", "a pair is two cards of the same value (else: same rank)"),
    "split.max_hands": ParamSpec("int_or_none", "most hands a box may reach by splitting (none: no limit)"),
    "split.aces_max_splits": ParamSpec("int_or_none", "most splits of aces in one box (none: no limit)"),
    "split.aces_one_card": ParamSpec("bool", "a split ace receives one card only"),
    "surrender.offered": ParamSpec("symbol", "whether surrender exists", ("never", "house_option", "always")),
    "surrender.share_lost": ParamSpec("ratio", "the share of the stake a surrender loses"),
    "hit.on_21": ParamSpec("symbol", "hitting a 21", ("allowed", "house_option", "forbidden")),
    "bust.collected_at_once": ParamSpec("bool", "a busted hand is collected before the next hand plays"),
    "limits.minimum": ParamSpec("decimal", "fixed minimum bet (none: the table's)"),
    "limits.maximum": ParamSpec("decimal", "fixed maximum bet (none: the table's)"),
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
}


# ---- the facts of the replay state, by namespace. ----

NAMESPACES: dict[str, dict[str, str]] = {
    "table": {
        "id": "the table's id",
        "seats": "boxes marked on the layout",
        "minimum": "minimum main bet shown at the table",
        "maximum": "maximum main bet shown at the table",
        "new_cards": "the cards were new at the start of the séance",
        "limits_displayed": "the limits in force are shown at the table",
    },
    "shoe": {
        "decks": "decks in this shoe",
        "backs": "decks of each back colour, largest first",
        "cards": "cards in the shoe (decks × 52)",
        "burned": "cards burned when the shoe started",
        "cut_card_behind": "cards behind the cut card",
        "cut_by": 'who made the last cut: a box ("1" … "7") or "dealer"; none when the record does not say',
        "cut_card_at": (
            'where the cut card came out in the table\'s last round before this shoe: a box ("3") or "D" '
            "(the dealer's hand); none when it did not come out in that round"
        ),
        "rightmost_box": (
            "the highest box (farthest at the dealer's right) with a seated player's main bet in the table's "
            "last round before this shoe, as text; none before the table's first round"
        ),
        "reason": "why the shoe started: open, cut_card, supervisor, exhausted",
        "shuffle": "manual or machine",
    },
    "change": {"burned": "cards the new dealer burned"},
    "round": {
        "players": "players with a seated main bet",
        "boxes": "boxes with a main bet",
        "free_seats": "boxes with no seated player's bet",
        "table_drew": (
            "a player has drawn a card beyond the first two: a hit, a double's card, or the card dealt to a "
            "split hand"
        ),
        "same_shoe": "the round names the shoe in play",
        "reshuffle_due": "the cut card came out in an earlier round of this shoe",
        "cards_left": "cards left in the shoe before the round",
        "second_cards_dealt": "every box has received the second card of the initial deal",
        "live_hands": (
            "at the dealer's stand: hands still on the layout waiting for his point (not busted, "
            "surrendered or paid even money), blackjacks included"
        ),
        "live_blackjacks": "at the dealer's stand: how many of those live hands are blackjacks",
    },
    "box": {
        "number": "the box number, 1 at the dealer's left",
        "stake": "main stake on the box (seated and standing bets)",
        "seated": "a seated player bets on the box",
        "standing": "a standing player bets on the box",
        "player_boxes": "boxes played by the box's seated player",
        "hands": "hands the box holds after splitting",
        "ace_splits": "pairs of aces split in the box",
        "drew": "the box has drawn a card beyond its first two (a hit, a double, a split hand's card)",
        "bataille_tie": "bataille: the box's first card ties the dealer's",
        "lucky_ladies_won": (
            "the box's lucky ladies (dames de cœur) stake wins by the ruleset's paytable, on the cards "
            "dealt so far"
        ),
    },
    "bet": {
        "amount": "the bet's amount",
        "seated": "the bettor is seated",
        "main": "a main bet",
        "side": (
            "the side bet's name, as its side_bet block names it (lucky_ladies, hyper_blackjack, "
            "two_plus_one, jp1, egalite; none for a main bet)"
        ),
        "case": "hyper black jack: the case bet on (17, 18, 19, 20, 21, blackjack, bust); none otherwise",
        "side_offered": "the ruleset version in force declares this side bet (a side_bet block of that name)",
        "player_main": (
            "the bettor has a main bet on the same box (by the bets' player; the box's main bet when the "
            "bet names no player)"
        ),
        "before_deal": (
            "the bet is among the round's bets, placed before the first card (false for a side stake the "
            "log first shows in the actions)"
        ),
        "box_has_main": "the box carries a main bet",
        "box_seated": "a seated player has a main bet on the box",
        "box_exists": "the box is marked on the layout",
    },
    "hand": {
        "name": "the hand (3, 3/2)",
        "total": "best total (an ace counts 11 unless that busts)",
        "soft": "an ace counts 11 in the total",
        "cards": "number of cards",
        "blackjack": "21 with two cards, as the ruleset counts it",
        "busted": "total over 21",
        "pair": "two cards of the same value",
        "identical_pair": "two cards of the same rank",
        "pair_of_aces": "two aces",
        "split": "the hand comes from a split",
        "split_aces": "the hand comes from splitting aces",
        "doubled": "the hand was doubled",
        "stake": "the hand's stake",
        "initial_stake": "the box's main stake before any split or double",
        "surrendered": "the hand surrendered",
        "even_money": "the player took even money",
        "rank": "bataille: the value of the hand's card, 2…14 (ace high)",
        "war_rank": "bataille: the value of the war card",
        "went_to_war": "bataille: the hand went to war",
    },
    "dealer": {
        "total": "dealer's best total",
        "soft": "an ace counts 11 in the dealer's total",
        "cards": "number of dealer's cards",
        "up_ace": "the dealer's first card is an ace",
        "up_ten": "the dealer's first card is worth 10",
        "blackjack": "dealer's 21 with two cards",
        "busted": "dealer's total over 21",
        "rank": "bataille: the value of the dealer's card",
        "war_rank": "bataille: the value of the dealer's war card",
    },
    "action": {
        "verb": "the action's verb",
        "hand": "the hand the action names",
        "amount": "the amount the action names",
    },
    "deal": {"hand": "who received the card", "expected": "who should receive the next card"},
    "turn": {
        "box": "the box that acted",
        "current": "the box whose turn it was (none once the dealer has started drawing)",
        "dealer_drawing": "the dealer has started drawing: no player acts any more",
        "whose": 'whose turn it was, in words ("box 3\'s", "the dealer\'s"), for messages',
    },
    "bust": {"collected_at_once": "the next action collects the busted hand"},
    "settle": {
        "box": "the box being settled",
        "previous_box": "the box settled before (0 for the first)",
    },
    "stake": {
        "name": "the stake (3, 3/2, 3:insurance)",
        "amount": "the money riding on the stake",
        "settlements": "how many times the log settled the stake",
        "verb": "in a settle clause: how the log first settles the stake (pay, lose, push); else none",
        "paid": "in a settle clause: the winnings the log's first settlement pays (none unless it pays)",
        "case": (
            "hyper black jack: the case the stake is on (17, 18, 19, 20, 21, blackjack, bust); none for "
            "other stakes"
        ),
    },
    "side": {
        "name": "the side bet settled (lucky_ladies, hyper_blackjack, two_plus_one, jp1, egalite)",
        "case": "hyper black jack: the case of the stake settled; none otherwise",
        "box": "the box of the side stake settled",
        "verb": "how the log settles it: pay, lose or push",
        "previous_box": (
            "the box of the previous settlement of the same side bet in this round (0 for the first)"
        ),
        "previous_verb": "the verb of that previous settlement (none for the first)",
        "initial_deal_done": (
            "every card of the initial deal has been dealt (two to each box, the dealer's first)"
        ),
        "play_started": (
            "play has begun: a player's decision, insurance or even money, or a dealer's card beyond the "
            "initial deal"
        ),
        "box_cards": "cards the box has received so far",
        "dealer_done": "the dealer holds at least two cards and draws no more in this round",
        "main_settled": (
            "main and insurance stakes already settled in the final settlement (busts, surrenders and even "
            "money settled during play not counted)"
        ),
        "main_unsettled": "main and insurance stakes not settled yet",
        "approved": "a supervisor's approve action for this stake came before",
    },
    "jackpot": {
        "main": (
            "JP1: the main jackpot's meter as the last jackpot record showed it (at a jackpot record: as it "
            "shows it)"
        ),
        "secondary": "JP1: the secondary jackpot's meter, likewise",
        "main_hands": (
            "JP1: stakes of this round that the main jackpot's paytable line pays (the hands that share it)"
        ),
        "secondary_hands": "JP1: stakes of this round that the secondary jackpot's paytable line pays",
        "previous_main": (
            "at a jackpot record: the main meter of the table's previous jackpot record (none for the first)"
        ),
        "previous_secondary": (
            "at a jackpot record: the secondary meter of the previous jackpot record (none for the first)"
        ),
        "stakes": "at a jackpot record: the JP1 stakes bet at the table since the previous jackpot record",
        "paid_main": "at a jackpot record: the main jackpot was paid out since the previous jackpot record",
        "paid_secondary": (
            "at a jackpot record: the secondary jackpot was paid out since the previous jackpot record"
        ),
    },
    "card": {"code": "the card", "in_shoe": "a copy of the card was still in the shoe"},
    "burn": {"count": "cards burned", "expected": "cards to burn"},
    "player": {
        "first_two": "the player's first two cards",
        "first_three": "the player's first three cards (with the next card he receives)",
        "with_dealer_first": "the player's first two cards and the dealer's first card",
        "other_jackpot_main": (
            "JP1: a player other than the bettor was dealt three 7s of one suit in his first three cards "
            "this round (the main-jackpot hand)"
        ),
        "other_jackpot_secondary": (
            "JP1: a player other than the bettor was dealt three 7s of one colour, not all of one suit, "
            "in his first three cards this round (the secondary-jackpot hand)"
        ),
    },
    "dealer_cards": {"first": "the dealer's first card", "all": "the dealer's cards"},
}

# How a message shows a fact whose value is an identifier rather than a word: a receiver of cards ("D",
# "3", "3/2", "dealer") as "the dealer", "box 3", "box 3, hand 2"; a side bet by its title. Everything
# else is shown as its value. Only where a finding is written: the replay keeps the identifiers.
SHOWN_AS: dict[str, str] = {
    "deal.hand": "receiver",
    "deal.expected": "receiver",
    "shoe.cut_by": "receiver",
    "shoe.cut_card_at": "receiver",
    "shoe.rightmost_box": "receiver",
    "bet.side": "side_bet",
}

# Namespaces every event may use.
_ALWAYS = ("table", "param", "house")

_HAND_EVENT = ("round", "box", "hand", "dealer", "action")

EVENTS: dict[str, tuple[str, ...]] = {
    "table": (),
    "limits": (),
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
    "settle": ("round", "settle"),
    # An insurance paid or collected by the log (settle.box its box, settle.previous_box the last box of
    # the final settlement so far, 0 before it starts; action.verb pay, lose or push).
    "insurance_settle": ("round", "settle", "dealer", "action"),
    "stake_end": ("round", "stake"),
    "war_burn": ("round", "burn"),
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
# hand-log/1 side stakes ("3:hyper:17") → the side_bet block that declares them, and the stake's case.
SIDE_BET_STAKES: dict[str, str] = {
    "lucky_ladies": "lucky_ladies",
    "hyper": "hyper_blackjack",
    "two_plus_one": "two_plus_one",
    "jp1": "jp1",
    "egalite": "egalite",
}

# The functions a rule may call are registered in validator/dsl/functions.py (name, arity, doc).


def namespaces_for(event: str) -> tuple[str, ...]:
    return (*_ALWAYS, *EVENTS[event])
