"""The words a ruleset may use: the game parameters, the replay events a rule can listen to, and the
facts of the replay state each event exposes.

This is the boundary the project keeps: Python knows the game mechanics (what a total is, whether an
ace counts 11, whose turn it is, which card is next out of the shoe); the ruleset says what the law
requires of them. A name not listed here is an error in `rules check`, at its line and column.
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, ClassVar, TypeVar, dataclass_transform

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
}


# ---- the facts of the replay state: one class per namespace, one field per fact, its doc beside it. ----
#
# Each class is declared once, here; `NAMESPACES` (name → fact → doc), `rules check`'s checks and the
# vocabulary's documentation are read from these declarations. The facts of events (`card.*`,
# `bet.*`, `stake.*`, …) are these very classes, slotted, made once per round and updated in place; the
# namespaces of the game's objects (`table`, `shoe`, `box`, `hand`, `dealer`, `player`,
# `dealer_cards`) are the replay's own objects (`replay.state`, `replay.side_bets`), which offer the
# fields declared here (a test holds them to it).


class Facts:
    """The facts of one namespace: a subclass declares each as an annotated field with its default,
    `Annotated[TYPE, "doc"]`, and `namespace` makes it a slotted class."""

    __slots__ = ()
    # Fact → its doc, in the order declared (set by `namespace`).
    FACTS: ClassVar[dict[str, str]] = {}


_Declared = TypeVar("_Declared", bound=Facts)


@dataclass_transform()
def namespace(declared: type[_Declared]) -> type[_Declared]:
    """A namespace's declaration made into the class of its facts: one slot per annotated field, a
    constructor taking any of them by name (the others keep the declared default), and `FACTS`, the
    facts with their docs in the order declared. Lighter than a dataclass: the vocabulary is imported
    by every command."""
    annotations: dict[str, Any] = vars(declared).get("__annotations__", {})
    names = tuple(annotations)
    defaults = tuple(declared.__dict__[name] for name in names)
    body = {
        key: value
        for key, value in declared.__dict__.items()
        if key not in names and key not in ("__dict__", "__weakref__")
    }
    body["__slots__"] = names
    body["FACTS"] = {name: annotations[name].__metadata__[0] for name in names}
    body["__init__"] = _constructor(declared.__name__, names, defaults)
    body["__repr__"] = _repr
    return type(declared.__name__, declared.__bases__, body)


def _constructor(title: str, names: tuple[str, ...], defaults: tuple[Any, ...]) -> Callable[..., None]:
    pairs = tuple(zip(names, defaults, strict=True))

    def __init__(self: Any, **values: Any) -> None:
        for name, default in pairs:
            setattr(self, name, values.pop(name, default))
        if values:
            raise TypeError(f"{title} has no fact {', '.join(sorted(values))}")

    return __init__


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name, '<unset>')!r}" for name in self.__slots__)
    return f"{type(self).__name__}({shown})"


Card = str  # a card's code: "QH", "TS" (tens written T)
Money = Decimal


@namespace
class TableFacts(Facts):
    """`table.*`: the table the logs were dealt at, as its latest table and limits records say."""

    id: Annotated[str, "the table's id"] = ""
    seats: Annotated[int, "boxes marked on the layout"] = 0
    minimum: Annotated[Money, "minimum main bet shown at the table"] = Decimal(0)
    maximum: Annotated[Money, "maximum main bet shown at the table"] = Decimal(0)
    new_cards: Annotated[bool | None, "the cards were new at the start of the séance"] = None
    limits_displayed: Annotated[bool | None, "the limits in force are shown at the table"] = None


@namespace
class ShoeFacts(Facts):
    """`shoe.*`: the shoe in play."""

    decks: Annotated[int, "decks in this shoe"] = 0
    backs: Annotated[tuple[int, ...] | None, "decks of each back colour, largest first"] = None
    cards: Annotated[int, "cards in the shoe (decks × 52)"] = 0
    burned: Annotated[int, "cards burned when the shoe started"] = 0
    cut_card_behind: Annotated[int | None, "cards behind the cut card"] = None
    cut_by: Annotated[
        str | None, 'who made the last cut: a box ("1" … "7") or "dealer"; none when the record does not say'
    ] = None
    cut_card_at: Annotated[
        str | None,
        'where the cut card came out in the table\'s last round before this shoe: a box ("3") or "D" '
        "(the dealer's hand); none when it did not come out in that round",
    ] = None
    rightmost_box: Annotated[
        str | None,
        "the highest box (farthest at the dealer's right) with a seated player's main bet in the table's "
        "last round before this shoe, as text; none before the table's first round",
    ] = None
    reason: Annotated[str | None, "why the shoe started: open, cut_card, supervisor, exhausted"] = None
    shuffle: Annotated[str | None, "manual or machine"] = None


@namespace
class ChangeFacts(Facts):
    """`change.*`: a change of dealer."""

    burned: Annotated[int, "cards the new dealer burned"] = 0


@namespace
class RoundFacts(Facts):
    """`round.*`: facts about the whole coup."""

    players: Annotated[int, "players with a seated main bet"] = 0
    boxes: Annotated[int, "boxes with a main bet"] = 0
    free_seats: Annotated[int, "boxes with no seated player's bet"] = 0
    table_drew: Annotated[
        bool,
        "a player has drawn a card beyond the first two: a hit, a double's card, or the card dealt to a "
        "split hand",
    ] = False
    same_shoe: Annotated[bool, "the round names the shoe in play"] = True
    reshuffle_due: Annotated[bool, "the cut card came out in an earlier round of this shoe"] = False
    cards_left: Annotated[int, "cards left in the shoe before the round"] = 0
    second_cards_dealt: Annotated[bool, "every box has received the second card of the initial deal"] = False
    live_hands: Annotated[
        int,
        "at the dealer's stand: hands still on the layout waiting for his point (not busted, "
        "surrendered or paid even money), blackjacks included",
    ] = 0
    live_blackjacks: Annotated[int, "at the dealer's stand: how many of those live hands are blackjacks"] = 0


@namespace
class BoxFacts(Facts):
    """`box.*`: a betting box."""

    number: Annotated[int, "the box number, 1 at the dealer's left"] = 0
    stake: Annotated[Money, "main stake on the box (seated and standing bets)"] = Decimal(0)
    seated: Annotated[bool, "a seated player bets on the box"] = False
    standing: Annotated[bool, "a standing player bets on the box"] = False
    player_boxes: Annotated[int, "boxes played by the box's seated player"] = 0
    hands: Annotated[int, "hands the box holds after splitting"] = 0
    ace_splits: Annotated[int, "pairs of aces split in the box"] = 0
    drew: Annotated[
        bool, "the box has drawn a card beyond its first two (a hit, a double, a split hand's card)"
    ] = False
    bataille_tie: Annotated[bool, "bataille: the box's first card ties the dealer's"] = False
    won_side_bets: Annotated[
        tuple[str, ...],
        "the side bets whose stakes on the box win by the ruleset's paytables on the cards dealt so "
        "far (at a split)",
    ] = ()


@namespace
class BetFacts(Facts):
    """`bet.*`: one of the round's bets, or a side stake the log first shows in the actions."""

    amount: Annotated[Money | None, "the bet's amount"] = None
    seated: Annotated[bool | None, "the bettor is seated"] = None
    main: Annotated[bool, "a main bet"] = False
    side: Annotated[
        str | None,
        "the side bet's name, as its side_bet block names it (lucky_ladies, hyper_blackjack, "
        "two_plus_one, jp1, egalite; none for a main bet)",
    ] = None
    case: Annotated[
        str | None, "hyper black jack: the case bet on (17, 18, 19, 20, 21, blackjack, bust); none otherwise"
    ] = None
    side_offered: Annotated[
        bool, "the ruleset version in force declares this side bet (a side_bet block of that name)"
    ] = False
    player_main: Annotated[
        bool | None,
        "the bettor has a main bet on the same box (by the bets' player; the box's main bet when the "
        "bet names no player)",
    ] = None
    before_deal: Annotated[
        bool,
        "the bet is among the round's bets, placed before the first card (false for a side stake the "
        "log first shows in the actions)",
    ] = True
    box_has_main: Annotated[bool, "the box carries a main bet"] = False
    box_seated: Annotated[bool, "a seated player has a main bet on the box"] = False
    box_exists: Annotated[bool, "the box is marked on the layout"] = False


@namespace
class HandFacts(Facts):
    """`hand.*`: one player's hand."""

    name: Annotated[str, "the hand (3, 3/2)"] = ""
    total: Annotated[int, "best total (an ace counts 11 unless that busts)"] = 0
    soft: Annotated[bool, "an ace counts 11 in the total"] = False
    cards: Annotated[int, "number of cards"] = 0
    blackjack: Annotated[bool, "21 with two cards, as the ruleset counts it"] = False
    busted: Annotated[bool, "total over 21"] = False
    pair: Annotated[bool, "two cards of the same value"] = False
    identical_pair: Annotated[bool, "two cards of the same rank"] = False
    pair_of_aces: Annotated[bool, "two aces"] = False
    split: Annotated[bool, "the hand comes from a split"] = False
    split_aces: Annotated[bool, "the hand comes from splitting aces"] = False
    doubled: Annotated[bool, "the hand was doubled"] = False
    stake: Annotated[Money, "the hand's stake"] = Decimal(0)
    initial_stake: Annotated[Money, "the box's main stake before any split or double"] = Decimal(0)
    surrendered: Annotated[bool, "the hand surrendered"] = False
    even_money: Annotated[bool, "the player took even money"] = False
    rank: Annotated[int | None, "bataille: the value of the hand's card, 2…14 (ace high)"] = None
    war_rank: Annotated[int | None, "bataille: the value of the war card"] = None
    went_to_war: Annotated[bool, "bataille: the hand went to war"] = False


@namespace
class DealerFacts(Facts):
    """`dealer.*`: the dealer's hand."""

    total: Annotated[int, "dealer's best total"] = 0
    soft: Annotated[bool, "an ace counts 11 in the dealer's total"] = False
    cards: Annotated[int, "number of dealer's cards"] = 0
    up_ace: Annotated[bool, "the dealer's first card is an ace"] = False
    up_ten: Annotated[bool, "the dealer's first card is worth 10"] = False
    blackjack: Annotated[bool, "dealer's 21 with two cards"] = False
    busted: Annotated[bool, "dealer's total over 21"] = False
    rank: Annotated[int | None, "bataille: the value of the dealer's card"] = None
    war_rank: Annotated[int | None, "bataille: the value of the dealer's war card"] = None


@namespace
class ActionFacts(Facts):
    """`action.*`: a player's decision."""

    verb: Annotated[str | None, "the action's verb"] = None
    hand: Annotated[str | None, "the hand the action names"] = None
    amount: Annotated[Money | None, "the amount the action names"] = None


@namespace
class DealFacts(Facts):
    """`deal.*`: a card dealt to a hand or the dealer."""

    hand: Annotated[str | None, "who received the card"] = None
    expected: Annotated[str | None, "who should receive the next card"] = None


@namespace
class TurnFacts(Facts):
    """`turn.*`: whose turn it was when a box acted."""

    box: Annotated[int, "the box that acted"] = 0
    current: Annotated[int | None, "the box whose turn it was (none once the dealer has started drawing)"] = 0
    dealer_drawing: Annotated[bool, "the dealer has started drawing: no player acts any more"] = False
    whose: Annotated[str, 'whose turn it was, in words ("box 3\'s", "the dealer\'s"), for messages'] = ""


@namespace
class BustFacts(Facts):
    """`bust.*`: a hand that has just busted."""

    collected_at_once: Annotated[bool, "the next action collects the busted hand"] = False


@namespace
class SettleFacts(Facts):
    """`settle.*`: a stake settled in the final settlement."""

    box: Annotated[int, "the box being settled"] = 0
    previous_box: Annotated[int, "the box settled before (0 for the first)"] = 0


@namespace
class StakeFacts(Facts):
    """`stake.*`: a stake, at the end of the round or in a settle clause."""

    name: Annotated[str | None, "the stake (3, 3/2, 3:insurance)"] = None
    amount: Annotated[Money | None, "the money riding on the stake"] = None
    settlements: Annotated[int, "how many times the log settled the stake"] = 0
    verb: Annotated[
        str | None, "in a settle clause: how the log first settles the stake (pay, lose, push); else none"
    ] = None
    paid: Annotated[
        Money | None, "in a settle clause: the winnings the log's first settlement pays (none unless it pays)"
    ] = None
    case: Annotated[
        str | None,
        "hyper black jack: the case the stake is on (17, 18, 19, 20, 21, blackjack, bust); none for "
        "other stakes",
    ] = None


@namespace
class SideFacts(Facts):
    """`side.*`: a side bet's stake settled by the log."""

    name: Annotated[
        str | None, "the side bet settled (lucky_ladies, hyper_blackjack, two_plus_one, jp1, egalite)"
    ] = None
    case: Annotated[str | None, "hyper black jack: the case of the stake settled; none otherwise"] = None
    box: Annotated[int, "the box of the side stake settled"] = 0
    verb: Annotated[str | None, "how the log settles it: pay, lose or push"] = None
    previous_box: Annotated[
        int, "the box of the previous settlement of the same side bet in this round (0 for the first)"
    ] = 0
    previous_verb: Annotated[str | None, "the verb of that previous settlement (none for the first)"] = None
    initial_deal_done: Annotated[
        bool, "every card of the initial deal has been dealt (two to each box, the dealer's first)"
    ] = False
    play_started: Annotated[
        bool,
        "play has begun: a player's decision, insurance or even money, or a dealer's card beyond the "
        "initial deal",
    ] = False
    box_cards: Annotated[int, "cards the box has received so far"] = 0
    dealer_done: Annotated[bool, "the dealer holds at least two cards and draws no more in this round"] = (
        False
    )
    main_settled: Annotated[
        int,
        "main and insurance stakes already settled in the final settlement (busts, surrenders and even "
        "money settled during play not counted)",
    ] = 0
    main_unsettled: Annotated[int, "main and insurance stakes not settled yet"] = 0
    approved: Annotated[bool, "a supervisor's approve action for this stake came before"] = False


@namespace
class JackpotFacts(Facts):
    """`jackpot.*`: JP1's progressive jackpot."""

    main: Annotated[
        Money | None,
        "JP1: the main jackpot's meter as the last jackpot record showed it (at a jackpot record: as it "
        "shows it)",
    ] = None
    secondary: Annotated[Money | None, "JP1: the secondary jackpot's meter, likewise"] = None
    main_hands: Annotated[
        int | None,
        "JP1: stakes of this round that the main jackpot's paytable line pays (the hands that share it)",
    ] = None
    secondary_hands: Annotated[
        int | None, "JP1: stakes of this round that the secondary jackpot's paytable line pays"
    ] = None
    previous_main: Annotated[
        Money | None,
        "at a jackpot record: the main meter of the table's previous jackpot record (none for the first)",
    ] = None
    previous_secondary: Annotated[
        Money | None,
        "at a jackpot record: the secondary meter of the previous jackpot record (none for the first)",
    ] = None
    stakes: Annotated[
        Money | None, "at a jackpot record: the JP1 stakes bet at the table since the previous jackpot record"
    ] = None
    paid_main: Annotated[
        bool | None, "at a jackpot record: the main jackpot was paid out since the previous jackpot record"
    ] = None
    paid_secondary: Annotated[
        bool | None,
        "at a jackpot record: the secondary jackpot was paid out since the previous jackpot record",
    ] = None


@namespace
class CardFacts(Facts):
    """`card.*`: a card taken out of the shoe."""

    code: Annotated[Card | None, "the card"] = None
    in_shoe: Annotated[bool, "a copy of the card was still in the shoe"] = True


@namespace
class BurnFacts(Facts):
    """`burn.*`: bataille: the cards burned before a war card."""

    count: Annotated[int, "cards burned"] = 0
    expected: Annotated[int | None, "cards to burn"] = None


@namespace
class PlayerFacts(Facts):
    """`player.*`: one box's cards as the side bets read them."""

    first_two: Annotated[tuple[Card, ...], "the player's first two cards"] = ()
    first_three: Annotated[
        tuple[Card, ...], "the player's first three cards (with the next card he receives)"
    ] = ()
    with_dealer_first: Annotated[
        tuple[Card, ...], "the player's first two cards and the dealer's first card"
    ] = ()
    other_jackpot_main: Annotated[
        bool,
        "JP1: a player other than the bettor was dealt three 7s of one suit in his first three cards "
        "this round (the main-jackpot hand)",
    ] = False
    other_jackpot_secondary: Annotated[
        bool,
        "JP1: a player other than the bettor was dealt three 7s of one colour, not all of one suit, "
        "in his first three cards this round (the secondary-jackpot hand)",
    ] = False


@namespace
class DealerCardsFacts(Facts):
    """`dealer_cards.*`: the dealer's cards as the side bets read them."""

    first: Annotated[Card | None, "the dealer's first card"] = None
    all: Annotated[tuple[Card, ...], "the dealer's cards"] = ()


# Namespace → the class that declares its facts.
FACT_CLASSES: dict[str, type[Facts]] = {
    "table": TableFacts,
    "shoe": ShoeFacts,
    "change": ChangeFacts,
    "round": RoundFacts,
    "box": BoxFacts,
    "bet": BetFacts,
    "hand": HandFacts,
    "dealer": DealerFacts,
    "action": ActionFacts,
    "deal": DealFacts,
    "turn": TurnFacts,
    "bust": BustFacts,
    "settle": SettleFacts,
    "stake": StakeFacts,
    "side": SideFacts,
    "jackpot": JackpotFacts,
    "card": CardFacts,
    "burn": BurnFacts,
    "player": PlayerFacts,
    "dealer_cards": DealerCardsFacts,
}


# Namespace → fact → doc: what `rules check`, messages and the documentation read.
NAMESPACES: dict[str, dict[str, str]] = {name: cls.FACTS for name, cls in FACT_CLASSES.items()}

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

# The functions a rule may call are registered in validator/dsl/functions.py (name, arity, doc).


def namespaces_for(event: str) -> tuple[str, ...]:
    return (*_ALWAYS, *EVENTS[event])
