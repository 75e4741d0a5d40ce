"""The facts of the replay state: one class per namespace, one field per fact, its doc beside it.

Each class is declared once, here; `NAMESPACES` (name → fact → doc), `rules check`'s checks and the
vocabulary's documentation (validator/dsl/vocabulary.py) are read from these declarations. The facts of
events (`card.*`, `bet.*`, `stake.*`, …) are these very classes, made once per judge and updated in
place by the replay; the namespaces of the game's objects (`table`, `shoe`, `box`, `hand`, `dealer`,
`player`, `dealer_cards`) are the replay's own objects (`replay.state`, `replay.side_bets`), which offer
the fields declared here (a test holds them to it).

The classes are plain dataclasses (slotted, compared by identity), so that the compiled build makes
them native classes: the replay writes some 200 facts a round, and a native attribute is a store where
a Python one is a dictionary lookup (docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any

from mypy_extensions import mypyc_attr

Card = str  # a card's code: "QH", "TS" (tens written T)
Money = Decimal


def fact(default: Any, doc: str) -> Any:
    """A fact's declaration: its value before the replay sets it, and what it means."""
    return field(default=default, metadata={"doc": doc})


def stored(default: Any) -> Any:
    """A field the generic replay keeps for a fact that is a game's word: its doc, and which games own it,
    are in the game's declaration (`validator/games/<game>/vocabulary.py`), not here."""
    return field(default=default)


@mypyc_attr(allow_interpreted_subclasses=True)
class Facts:
    """The facts of one namespace: a subclass declares each as a field, `name: TYPE = fact(DEFAULT,
    "doc")`, and is a `dataclass(eq=False, slots=True)`. A game declares its own facts so, in its
    package (validator/games/<game>/vocabulary.py, or a game outside this package, not compiled)."""

    __slots__ = ()


def facts_of(declared: type[Facts]) -> dict[str, str]:
    """Fact → its doc, in the order declared (a field `stored` for a game's fact left out)."""
    return {
        item.name: item.metadata["doc"]
        for item in fields(declared)  # type: ignore[arg-type]
        if "doc" in item.metadata
    }


@dataclass(eq=False, slots=True)
class TableFacts(Facts):
    """`table.*`: the table the logs were dealt at, as its latest table and limits records say."""

    id: str = fact("", "the table's id")
    seats: int = fact(0, "boxes marked on the layout")
    minimum: Money = fact(Decimal(0), "minimum main bet shown at the table")
    maximum: Money = fact(Decimal(0), "maximum main bet shown at the table")
    new_cards: bool | None = fact(None, "the cards were new at the start of the séance")
    limits_displayed: bool | None = fact(None, "the limits in force are shown at the table")
    faces_logged: bool = fact(
        False,
        "the log says which cards are dealt face down (hand-log/1.1); under hand-log/1 it cannot say, "
        "and a `deal` is read as face up",
    )


@dataclass(eq=False, slots=True)
class ShoeFacts(Facts):
    """`shoe.*`: the shoe in play."""

    decks: int = fact(0, "decks in this shoe")
    backs: tuple[int, ...] | None = fact(None, "decks of each back colour, largest first")
    cards: int = fact(0, "cards in the shoe (decks × 52)")
    burned: int = fact(0, "cards burned when the shoe started")
    cut_card_behind: int | None = fact(None, "cards behind the cut card")
    cut_card: bool = fact(
        True, "the shoe has a cut card (false where a hand-log/1.2 shoe record says `cut_card: false`)"
    )
    cut_by: str | None = fact(
        None, 'who made the last cut: a box ("1" … "7") or "dealer"; none when the record does not say'
    )
    cut_card_at: str | None = fact(
        None,
        'where the cut card came out in the table\'s last round before this shoe: a box ("3") or "D" '
        "(the dealer's hand); none when it did not come out in that round",
    )
    rightmost_box: str | None = fact(
        None,
        "the highest box (farthest at the dealer's right) with a seated player's main bet in the table's "
        "last round before this shoe, as text; none before the table's first round",
    )
    reason: str | None = fact(None, "why the shoe started: open, cut_card, supervisor, exhausted")
    shuffle: str | None = fact(None, "manual or machine")


@dataclass(eq=False, slots=True)
class ChangeFacts(Facts):
    """`change.*`: a change of dealer."""

    burned: int = fact(0, "cards the new dealer burned")


@dataclass(eq=False, slots=True)
class RoundFacts(Facts):
    """`round.*`: facts about the whole coup."""

    players: int = fact(0, "players with a seated main bet")
    bettors: int = fact(0, "bettors with a main bet, seated or standing")
    boxes: int = fact(0, "boxes with a main bet")
    free_seats: int = fact(0, "boxes with no seated player's bet")
    table_drew: bool = fact(
        False,
        "a player has drawn a card beyond the first two: a hit, a double's card, or the card dealt to a "
        "split hand",
    )
    same_shoe: bool = fact(True, "the round names the shoe in play")
    reshuffle_due: bool = fact(False, "the cut card came out in an earlier round of this shoe")
    cards_left: int = fact(0, "cards left in the shoe before the round")
    second_cards_dealt: bool = fact(False, "every box has received the second card of the initial deal")
    side_bets: tuple[str, ...] = fact(
        (), "the side bets staked before the first card (their names, each once)"
    )
    live_hands: int = fact(
        0,
        "at the dealer's stand: hands still on the layout waiting for his point (not busted, "
        "surrendered or paid even money), blackjacks included",
    )
    live_blackjacks: int = stored(0)
    players_done: bool = fact(
        True,
        "at a card the dealer draws: every player has played his hands (no player's decision comes later "
        "in the round); at a peek (hand-log/1.1): the dealer had begun drawing for himself, after the "
        "players",
    )


@dataclass(eq=False, slots=True)
class BoxFacts(Facts):
    """`box.*`: a betting box."""

    number: int = fact(0, "the box number, 1 at the dealer's left")
    stake: Money = fact(Decimal(0), "main stake on the box (seated and standing bets)")
    seated: bool = fact(False, "a seated player bets on the box")
    standing: bool = fact(False, "a standing player bets on the box")
    player_boxes: int = fact(0, "boxes played by the box's seated player")
    bettor_boxes: int = fact(
        0, "the most boxes any bettor on the box, seated or standing, bets a main stake on this round"
    )
    seated_stake: Money = fact(
        Decimal(0), "the main stakes of the box's seated players (standing bets left out)"
    )
    hands: int = fact(0, "hands the box holds (at a split, before it: the split adds one)")
    drew: bool = fact(
        False, "the box has drawn a card beyond its first two (a hit, a double, a split hand's card)"
    )
    won_side_bets: tuple[str, ...] = fact(
        (),
        "the side bets whose stakes on the box win by the ruleset's paytables on the cards dealt so "
        "far (at a split)",
    )


@dataclass(eq=False, slots=True)
class BetFacts(Facts):
    """`bet.*`: one of the round's bets, or a side stake the log first shows in the actions."""

    amount: Money | None = fact(None, "the bet's amount")
    seated: bool | None = fact(None, "the bettor is seated")
    main: bool = fact(False, "a main bet")
    side: str | None = fact(
        None,
        "the side bet's name, as its side_bet block names it (lucky_ladies, hyper_blackjack, "
        "two_plus_one, jp1, egalite; none for a main bet)",
    )
    case: str | None = fact(
        None, "hyper black jack: the case bet on (17, 18, 19, 20, 21, blackjack, bust); none otherwise"
    )
    side_offered: bool = fact(
        False, "the ruleset version in force declares this side bet (a side_bet block of that name)"
    )
    player_main: bool | None = fact(
        None,
        "the bettor has a main bet on the same box (by the bets' player; the box's main bet when the "
        "bet names no player)",
    )
    before_deal: bool = fact(
        True,
        "the bet is among the round's bets, placed before the first card (false for a side stake the "
        "log first shows in the actions, and for a bet hand-log/1.2 says was taken during the round)",
    )
    box_has_main: bool = fact(False, "the box carries a main bet")
    box_seated: bool = fact(False, "a seated player has a main bet on the box")
    box_exists: bool = fact(False, "the box is marked on the layout")


@dataclass(eq=False, slots=True)
class HandFacts(Facts):
    """`hand.*`: one player's hand."""

    name: str = fact("", "the hand (3, 3/2)")
    card_list: tuple[Card, ...] = fact((), "the hand's cards, in the order it received them")
    cards: int = fact(0, "number of cards")
    stake: Money = fact(Decimal(0), "the hand's stake")
    initial_stake: Money = fact(Decimal(0), "the box's main stake before any split or double")
    surrendered: bool = fact(False, "the hand surrendered")


@dataclass(eq=False, slots=True)
class DealerFacts(Facts):
    """`dealer.*`: the dealer's hand."""

    card_list: tuple[Card, ...] = fact((), "the dealer's cards, in the order he received them")
    cards: int = fact(0, "number of dealer's cards")


@dataclass(eq=False, slots=True)
class ActionFacts(Facts):
    """`action.*`: a player's decision."""

    verb: str | None = fact(None, "the action's verb")
    hand: str | None = fact(None, "the hand the action names")
    amount: Money | None = fact(None, "the amount the action names")
    insurer_stake: Money | None = fact(
        None,
        "at an insurance: the main stake of whoever insures, on the box before any split or double (the "
        "box's stake when one player bets on it; with bettors behind the seated player, the stakes of "
        "those the log names as insuring, hand-log/1.1 `by`); none when the log cannot say",
    )
    by_seated: bool | None = stored(None)


@dataclass(eq=False, slots=True)
class DealFacts(Facts):
    """`deal.*`: a card dealt to a hand or the dealer."""

    hand: str | None = fact(None, "who received the card")
    expected: str | None = fact(None, "who should receive the next card")
    expected_hand: str | None = fact(
        None,
        "who should receive the next card, the dealer's place in the initial deal aside: the first hand "
        "still owed one, or the dealer while his card is owed (where a text does not say when he takes it)",
    )


@dataclass(eq=False, slots=True)
class TurnFacts(Facts):
    """`turn.*`: whose turn it was when a box acted."""

    box: int = fact(0, "the box that acted")
    current: int | None = fact(0, "the box whose turn it was (none once the dealer has started drawing)")
    dealer_drawing: bool = fact(False, "the dealer has started drawing: no player acts any more")
    whose: str = fact("", 'whose turn it was, in words ("box 3\'s", "the dealer\'s"), for messages')
    hand: str = stored("")
    place: int | None = stored(None)
    current_place: int | None = stored(None)


@dataclass(eq=False, slots=True)
class BustFacts(Facts):
    """`bust.*`: a hand that has just busted."""

    collected_at_once: bool = fact(False, "the next action collects the busted hand")


@dataclass(eq=False, slots=True)
class SettleFacts(Facts):
    """`settle.*`: a stake settled in the final settlement."""

    box: int = fact(0, "the box being settled")
    previous_box: int = fact(0, "the box settled before (0 for the first)")
    final_begun: bool = fact(
        False, "the final settlement of the hands had begun: a hand paid, collected or returned before it"
    )
    verb: str | None = fact(None, "how this settlement settles its stake: pay, lose or push")
    previous_verb: str | None = fact(None, "how the settlement before settled its stake (none for the first)")
    went_to_war: bool = stored(False)
    previous_went_to_war: bool = stored(False)
    place: int | None = stored(None)
    previous_place: int | None = stored(None)
    dealer_done: bool = fact(
        True,
        "the dealer has determined his point: he draws no card after this settlement (whether he stopped "
        "too soon is for the rules on his drawing)",
    )


@dataclass(eq=False, slots=True)
class StakeFacts(Facts):
    """`stake.*`: a stake, at the end of the round or in a settle clause."""

    name: str | None = fact(None, "the stake (3, 3/2, 3:insurance)")
    amount: Money | None = fact(None, "the money riding on the stake")
    settlements: int = fact(0, "how many times the log settled the stake")
    verb: str | None = fact(
        None, "in a settle clause: how the log first settles the stake (pay, lose, push); else none"
    )
    paid: Money | None = fact(
        None, "in a settle clause: the winnings the log's first settlement pays (none unless it pays)"
    )
    case: str | None = fact(
        None,
        "hyper black jack: the case the stake is on (17, 18, 19, 20, 21, blackjack, bust); none for "
        "other stakes",
    )


@dataclass(eq=False, slots=True)
class SideFacts(Facts):
    """`side.*`: a side bet's stake settled by the log."""

    name: str | None = fact(
        None, "the side bet settled (lucky_ladies, hyper_blackjack, two_plus_one, jp1, egalite)"
    )
    case: str | None = fact(None, "hyper black jack: the case of the stake settled; none otherwise")
    box: int = fact(0, "the box of the side stake settled")
    verb: str | None = fact(None, "how the log settles it: pay, lose or push")
    previous_box: int = fact(
        0, "the box of the previous settlement of the same side bet in this round (0 for the first)"
    )
    previous_verb: str | None = fact(None, "the verb of that previous settlement (none for the first)")
    initial_deal_done: bool = fact(
        False, "every card of the initial deal has been dealt (two to each box, the dealer's first)"
    )
    play_started: bool = fact(
        False,
        "play has begun: a player's decision, insurance or even money, or a dealer's card beyond the "
        "initial deal",
    )
    box_cards: int = fact(0, "cards the box has received so far")
    dealer_done: bool = fact(False, "the dealer holds at least two cards and draws no more in this round")
    main_settled: int = fact(
        0,
        "main and insurance stakes already settled in the final settlement (busts, surrenders and even "
        "money settled during play not counted)",
    )
    main_unsettled: int = fact(0, "main and insurance stakes not settled yet")
    main_stakes_settled: int = fact(
        0, "main stakes only (insurances left out) already settled in the final settlement"
    )
    main_stakes_unsettled: int = fact(0, "main stakes only (insurances left out) not settled yet")
    approved: bool = fact(False, "a supervisor's approve action for this stake came before")


@dataclass(eq=False, slots=True)
class JackpotFacts(Facts):
    """`jackpot.*`: JP1's progressive jackpot."""

    main: Money | None = fact(
        None,
        "JP1: the main jackpot's meter as the last jackpot record showed it (at a jackpot record: as it "
        "shows it)",
    )
    secondary: Money | None = fact(None, "JP1: the secondary jackpot's meter, likewise")
    main_hands: int | None = fact(
        None, "JP1: stakes of this round that the main jackpot's paytable line pays (the hands that share it)"
    )
    secondary_hands: int | None = fact(
        None, "JP1: stakes of this round that the secondary jackpot's paytable line pays"
    )
    previous_main: Money | None = fact(
        None,
        "at a jackpot record: the main meter of the table's previous jackpot record (none for the first)",
    )
    previous_secondary: Money | None = fact(
        None, "at a jackpot record: the secondary meter of the previous jackpot record (none for the first)"
    )
    stakes: Money | None = fact(
        None, "at a jackpot record: the JP1 stakes bet at the table since the previous jackpot record"
    )
    paid_main: bool | None = fact(
        None, "at a jackpot record: the main jackpot was paid out since the previous jackpot record"
    )
    paid_secondary: bool | None = fact(
        None, "at a jackpot record: the secondary jackpot was paid out since the previous jackpot record"
    )


@dataclass(eq=False, slots=True)
class CardFacts(Facts):
    """`card.*`: a card taken out of the shoe."""

    code: Card | None = fact(None, "the card")
    in_shoe: bool = fact(True, "a copy of the card was still in the shoe")
    copies: int = fact(0, "copies of each card the shoe holds (one a deck)")
    face_down: bool = fact(
        False, "the card was dealt face down (hand-log/1.1 deal_down; every other card is face up)"
    )
    hole: bool = stored(False)


@dataclass(eq=False, slots=True)
class MistakeFacts(Facts):
    """`mistake.*`: hand-log/1.1: a card exposed or drawn by mistake, and what became of it."""

    code: Card | None = fact(None, "the card")
    what: str = fact(
        "",
        "what happened: exposed_in_shoe (seen face up in the shoe), drawn_unexposed (drawn by mistake, not "
        "shown), drawn_exposed (drawn by mistake, shown), dealer_extra (a card the dealer drew by accident)",
    )
    fate: str = fact("", "what became of it: discarded (out of play), used (as the next card drawn)")


@dataclass(eq=False, slots=True)
class ReshuffleFacts(Facts):
    """`reshuffle.*`: hand-log/1.1: the discards shuffled back into the shoe in the middle of a round."""

    cards_left: int = fact(0, "cards left in the shoe when it was reshuffled")
    discarded: int = fact(0, "cards discarded unseen after the reshuffle, before the round went on")
    # Every hand-log/1.1 `reshuffle` is one; a rule reads it to say so in its expected and actual.
    in_round: bool = fact(True, "the cards reshuffled in the middle of a round, before it was finished")
    with_table: bool = fact(
        False,
        "hand-log/1.2 scope all: every card of the decks was shuffled, the cards on the table taken back "
        "too (false: the discards only)",
    )


@dataclass(eq=False, slots=True)
class RequestFacts(Facts):
    """`request.*`: hand-log/1.2: what a player asked for, and what the engine did with it."""

    asked: str = fact("", "what the player asked for: hit, stand, double, split, surrender")
    done: str = fact(
        "",
        "what the engine did: refused, or the action it did instead (hit, stand, double, split, surrender)",
    )


@dataclass(eq=False, slots=True)
class PlayerFacts(Facts):
    """`player.*`: one box's cards as the side bets read them."""

    first_two: tuple[Card, ...] = fact((), "the player's first two cards")
    first_three: tuple[Card, ...] = fact(
        (), "the player's first three cards (with the next card he receives)"
    )
    first_three_one_hand: tuple[Card, ...] = fact(
        (), "the player's first three cards when one hand holds them all; empty when the box split"
    )
    with_dealer_first: tuple[Card, ...] = fact((), "the player's first two cards and the dealer's first card")
    other_jackpot_main: bool = fact(
        False,
        "JP1: a player other than the bettor was dealt three 7s of one suit in his first three cards "
        "this round (the main-jackpot hand)",
    )
    other_jackpot_secondary: bool = fact(
        False,
        "JP1: a player other than the bettor was dealt three 7s of one colour, not all of one suit, "
        "in his first three cards this round (the secondary-jackpot hand)",
    )
    other_player_jackpot_main: bool = fact(
        False,
        "JP1: as other_jackpot_main, the boxes of the bettor's own seated player left out",
    )
    other_player_jackpot_secondary: bool = fact(
        False,
        "JP1: as other_jackpot_secondary, the boxes of the bettor's own seated player left out",
    )


@dataclass(eq=False, slots=True)
class DealerCardsFacts(Facts):
    """`dealer_cards.*`: the dealer's cards as the side bets read them."""

    first: Card | None = fact(None, "the dealer's first card")
    all: tuple[Card, ...] = fact((), "the dealer's cards")


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
    "mistake": MistakeFacts,
    "reshuffle": ReshuffleFacts,
    "request": RequestFacts,
    "player": PlayerFacts,
    "dealer_cards": DealerCardsFacts,
}
