"""The words a ruleset may use: the game parameters, the replay events a rule can listen to, and the
facts of the replay state each event exposes.

This is the boundary the project keeps: Python knows the game mechanics (what a total is, whether an
ace counts 11, whose turn it is, which card is next out of the shoe); the ruleset says what the law
requires of them. A name not listed here is an error in `rules check`, at its line and column.
"""

from collections.abc import Callable, Mapping
from typing import TypeVar

from validator.dsl.facts import FACT_CLASSES, facts_of
from validator.dsl.words import GameWords, ParamSpec
from validator.games import GAMES

__all__ = ["FACT_CLASSES", "GameWords", "ParamSpec"]

# ---- parameters every game shares: name → its ParamSpec (types: int, bool, ratio, decimal, symbol, list,
# int_or_none). A game's own are in its declaration (validator/games/<game>/vocabulary.py).

_SHARED_PARAMETERS: dict[str, ParamSpec] = {
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
    "pays.even": ParamSpec("ratio", "payout of an ordinary winning hand"),
    "surrender.offered": ParamSpec("symbol", "whether surrender exists", ("never", "house_option", "always")),
    "surrender.share_lost": ParamSpec("ratio", "the share of the stake a surrender loses"),
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
    "hands.max_per_player": ParamSpec("int_or_none", "most hands one player may hold (none: no limit)"),
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
    "card.code": "cards",
    "hand.card_list": "cards",
    "dealer.card_list": "cards",
}

# Namespaces every event may use.
_ALWAYS = ("table", "param", "house")

# The events every game's rounds give: event → the namespaces it offers (beside _ALWAYS).
_SHARED_EVENTS: dict[str, tuple[str, ...]] = {
    "table": (),
    "limits": (),
    "dealer_change": ("change",),
    "shoe": ("shoe",),
    "round": ("round",),
    "box": ("round", "box"),
    "bet": ("round", "bet"),
    "card": ("card", "round"),
    "deal": ("deal", "round"),
    "surrender": ("round", "box", "hand", "dealer", "action"),
    "settle": ("round", "settle"),
    "stake_end": ("round", "stake"),
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

# Stakes a `settle` clause of every game can name, and the namespaces its guard and amount may use.
_SHARED_STAKES: dict[str, tuple[str, ...]] = {"main": ("round", "box", "hand", "dealer", "stake")}
# Paytable lines see the bettor's cards, the dealer, the stake and the JP1 meters.
PAYTABLE_NAMESPACES = ("player", "dealer", "dealer_cards", "hand", "stake", "jackpot")
# A side bet's stake is settled (`settle lucky_ladies …`) with these namespaces; its name is a side_bet
# block of the ruleset.
SIDE_SETTLE_NAMESPACES = ("round", "box", "hand", "dealer", "stake", "player", "dealer_cards", "jackpot")

# The functions a rule may call are registered in validator/dsl/functions.py (name, arity, doc).


# ---- each game's own words (validator/games/<game>/vocabulary.py), joined to the shared ones ----

# Game → what it declares (the registration's order).
WORDS: dict[str, GameWords] = {name: game.load(game.vocabulary) for name, game in GAMES.items()}


_Word = TypeVar("_Word")


def _joined(shared: Mapping[str, _Word], own: Callable[[GameWords], Mapping[str, _Word]]) -> dict[str, _Word]:
    """The shared words, then each game's own, in the registration's order; a word two games declare is
    listed once, where the first declares it."""
    joined = dict(shared)
    for words in WORDS.values():
        for word, value in own(words).items():
            joined.setdefault(word, value)
    return joined


PARAMETERS: dict[str, ParamSpec] = _joined(_SHARED_PARAMETERS, lambda words: words.parameters)
EVENTS: dict[str, tuple[str, ...]] = _joined(_SHARED_EVENTS, lambda words: words.events)
SETTLE_STAKES: dict[str, tuple[str, ...]] = _joined(_SHARED_STAKES, lambda words: words.stakes)


def _namespaces() -> dict[str, dict[str, str]]:
    namespaces = {name: facts_of(cls) for name, cls in FACT_CLASSES.items()}
    for words in WORDS.values():
        for namespace, declared in words.facts.items():
            known = namespaces.setdefault(namespace, {})
            for name, doc in facts_of(declared).items():
                known.setdefault(name, doc)
    return namespaces


# Namespace → fact → doc: what `rules check`, messages and the documentation read.
NAMESPACES: dict[str, dict[str, str]] = _namespaces()

# Word → the games that declare it as their own (a word of every game is in none): an event, a fact
# ("namespace.field"), a kind of stake, a parameter. `rules check` refuses another game's word.
OWN_EVENTS: dict[str, tuple[str, ...]] = {}
OWN_FACTS: dict[str, tuple[str, ...]] = {}
OWN_STAKES: dict[str, tuple[str, ...]] = {}
OWN_PARAMETERS: dict[str, tuple[str, ...]] = {}
for _game, _words in WORDS.items():
    for _event in _words.events:
        OWN_EVENTS[_event] = (*OWN_EVENTS.get(_event, ()), _game)
    for _namespace, _declared in _words.facts.items():
        for _fact in facts_of(_declared):
            _path = f"{_namespace}.{_fact}"
            OWN_FACTS[_path] = (*OWN_FACTS.get(_path, ()), _game)
    for _stake in _words.stakes:
        OWN_STAKES[_stake] = (*OWN_STAKES.get(_stake, ()), _game)
    for _parameter in _words.parameters:
        OWN_PARAMETERS[_parameter] = (*OWN_PARAMETERS.get(_parameter, ()), _game)


def namespaces_for(event: str) -> tuple[str, ...]:
    return (*_ALWAYS, *EVENTS[event])
