"""hand-log/1 records as typed structs, decoded and type-checked in one pass by msgspec.

Each record type is a `msgspec.Struct` tagged by its `type`; each action an array-like struct tagged by
its verb (the first item of the array). Fixed sets of values (cards, boxes, record types, reasons) are
literal lists, and so are the hands and stakes logs hold; decimal amounts keep the schema's pattern,
written with `[0-9]` and `\\Z` so that it means what the ECMA-262 pattern means; times are checked
against it after decoding, by their shape (`values.time_shaped`: no regular expression per record).

The structs accept exactly the records the JSON Schema (validator/schemas/hand-log.schema.json)
accepts, or fewer: a line msgspec refuses is read again by orjson and judged by the schema, which
alone words what is wrong (tests compare the two on thousands of broken records). Where msgspec is
stricter than the schema, a record that the schema then finds valid is converted from its dict
(`from_dict`), so every valid record has its struct.

An optional field left out of a record is `UNSET` (msgspec's marker), not None: an explicit `null`
is not a valid value of any field, and the two must not be confused.

Integers are bounded below 2^63 (msgspec bounds no further): orjson reads one past 2^64 as the nearest
float (and one past a double's range not at all), so a line with a larger integer takes the slow path,
where the struct is made from orjson's dict and holds the value the dict holds (no table pays 2^64 of
anything). Each action names its verb (`verb`, a class attribute): the replay reads actions as structs.
"""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, cast, get_args

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

from validator.games import GAMES
from validator.logs.patterns import expand
from validator.logs.values import time_shaped

__all__ = [
    "REFUSED",
    "UNSET",
    "Action",
    "Amount",
    "Bet",
    "Charge",
    "DealerRecord",
    "JackpotRecord",
    "LateBet",
    "LimitsRecord",
    "LogRecord",
    "MoneyRecord",
    "Request",
    "RoundRecord",
    "ShoeRecord",
    "TableRecord",
    "UnsetType",
    "Unsettled",
    "decode",
    "decode_or_raise",
    "from_dict",
]

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K")
Card = Literal[
    "AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C",
    "5S", "5H", "5D", "5C", "6S", "6H", "6D", "6C", "7S", "7H", "7D", "7C", "8S", "8H", "8D", "8C",
    "9S", "9H", "9D", "9C", "10S", "10H", "10D", "10C", "TS", "TH", "TD", "TC", "JS", "JH", "JD", "JC",
    "QS", "QH", "QD", "QC", "KS", "KH", "KD", "KC",
]  # fmt: skip
Box = Literal["1", "2", "3", "4", "5", "6", "7"]
BoxOrDealer = Literal["1", "2", "3", "4", "5", "6", "7", "D"]
CutBy = Literal["1", "2", "3", "4", "5", "6", "7", "dealer"]
# Hands, stakes: the schema's patterns are open ("3/12", "3/007" are hands), but a pattern costs msgspec a
# call into `re` for every value (a third of the decoding time). The values logs hold are listed
# instead: a box's first hand and the hands of up to 15 splits, each side bet of each box. A valid
# value outside the lists ("3/16") sends its line down the slow path, which reads it all the same.
# The side stakes read fast are the schema's own list (`x-read-fast`, the closed pattern of the bets the
# shipped rulesets declare, expanded): no bet is named here, and a bet only a ruleset from outside the
# package declares is valid by the schema's open pattern and read by the slow path.
_BOXES = ("1", "2", "3", "4", "5", "6", "7")
HANDS = (*_BOXES, *(f"{box}/{n}" for box in _BOXES for n in range(1, 17)))


def _side_stakes() -> tuple[str, ...]:
    schema = msgspec.json.decode(files("validator.schemas").joinpath("hand-log.schema.json").read_bytes())
    return tuple(
        value
        for choice in schema["$defs"]["stake"]["anyOf"]
        if "x-read-fast" in choice
        for value in expand(choice["x-read-fast"])
    )


STAKES = (*HANDS, *_side_stakes())
if TYPE_CHECKING:  # a Literal of a computed tuple is for msgspec; to a type checker they are strings
    Hand = str
    HandOrDealer = str
    Stake = str
else:
    Hand = Literal[HANDS]
    HandOrDealer = Literal[(*HANDS, "D")]
    Stake = Literal[STAKES]
Id = Annotated[str, Meta(min_length=1)]
# A time: the schema's pattern, checked after decoding by `time_shaped` rather than by msgspec (whose
# pattern costs a regular expression per record): `decode` refuses a record whose time it refuses.
Time = str
# orjson reads an integer past 2^64 as a float; msgspec bounds an integer at 2^63 at most: see the docstring.
_MAX_INT = 2**63 - 1
Amount = (
    Annotated[int, Meta(ge=0, le=_MAX_INT)]
    | Annotated[float, Meta(ge=0)]
    | Annotated[str, Meta(pattern=r"^[0-9]+(?:\.[0-9]+)?\Z")]
)
Count = Annotated[int, Meta(ge=1, le=_MAX_INT)]


# ---- actions: arrays, verb first ---------------------------------------------------------------------


class _Action(Struct, array_like=True, forbid_unknown_fields=True, frozen=True, gc=False):
    verb: ClassVar[str]  # the tag, as the replay reads it (set from the tag below, `_VERBS`)


class Deal(_Action, tag="deal", frozen=True):
    hand: HandOrDealer
    card: Card


class DealDown(_Action, tag="deal_down", frozen=True):
    """hand-log/1.1: a card dealt face down (the dealer's hole card), `reveal`ed later."""

    hand: HandOrDealer
    card: Card


class Reveal(_Action, tag="reveal", frozen=True):
    """hand-log/1.1: a card dealt face down turned face up; `card` is the card that was dealt down."""

    hand: HandOrDealer
    card: Card


class Peek(_Action, tag="peek", frozen=True):
    """hand-log/1.1: the dealer looks at his cards for a blackjack before the players play (a peek); what
    he saw is the cards the log gives him."""

    hand: Literal["D"]


class Hit(_Action, tag="hit", frozen=True):
    hand: Hand
    card: Card
    # hand-log/1.1: the bettors of the box who decide (the `player` of their bets); left out: not said.
    by: Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=1)] | UnsetType = UNSET


class Stand(_Action, tag="stand", frozen=True):
    hand: Hand
    # hand-log/1.1: the bettors of the box who decide (the `player` of their bets); left out: not said.
    by: Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=1)] | UnsetType = UNSET


class Double(_Action, tag="double", frozen=True):
    hand: Hand
    amount: Amount
    card: Card
    # hand-log/1.1: the bettors of the box who decide (the `player` of their bets); left out: not said.
    by: Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=1)] | UnsetType = UNSET


class Split(_Action, tag="split", frozen=True):
    hand: Hand
    amount: Amount
    # hand-log/1.1: the bettors of the box who decide (the `player` of their bets); left out: not said.
    by: Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=1)] | UnsetType = UNSET


class Surrender(_Action, tag="surrender", frozen=True):
    hand: Hand
    # hand-log/1.1: the bettors of the box who decide (the `player` of their bets); left out: not said.
    by: Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=1)] | UnsetType = UNSET


class Insurance(_Action, tag="insurance", frozen=True):
    # A box (its first hand's insurance, stake "<box>:insurance"); hand-log/1.2: a split hand, "3/2", whose
    # own insurance is stake "3:insurance:2" (several insurances on one box, one per split hand).
    box: Hand
    amount: Amount
    # hand-log/1.1: the bettors of the box who insure (the `player` of their bets), where the box has
    # bettors behind the seated player; left out: the log does not say.
    by: Annotated[list[Annotated[str, Meta(min_length=1)]], Meta(min_length=1)] | UnsetType = UNSET


class EvenMoney(_Action, tag="even_money", frozen=True):
    box: Box


class War(_Action, tag="war", frozen=True):
    box: Box
    amount: Amount


class Burn(_Action, tag="burn", frozen=True):
    card: Card


class Discard(_Action, tag="discard", frozen=True):
    card: Card


class Mistake(_Action, tag="mistake", frozen=True):
    """hand-log/1.1: a card exposed or drawn by mistake (`what`), and what became of it (`fate`)."""

    card: Card
    what: Literal["exposed_in_shoe", "drawn_unexposed", "drawn_exposed", "dealer_extra"]
    fate: Literal["discarded", "used"]


class Reshuffle(_Action, tag="reshuffle", frozen=True):
    """hand-log/1.1: the discards shuffled back into the shoe in the middle of a round; `discarded`: the
    cards then taken out unseen, in order. hand-log/1.2 `scope`: "discards" (as 1.1) or "all", every card
    of the decks shuffled, the cards on the table taken back too."""

    discarded: list[Card]
    scope: Literal["discards", "all"] | UnsetType = UNSET


class Charge(_Action, tag="charge", frozen=True):
    """hand-log/1.2: `amount` taken from the bettor for `stake` (its placing, a double's or a split's added
    stake, an insurance), as the engine's account of the player shows it."""

    stake: Stake
    amount: Amount


class Unsettled(_Action, tag="unsettled", frozen=True):
    """hand-log/1.2: the engine left `stake` without a settlement at the end of the round."""

    stake: Stake


class Request(_Action, tag="request", frozen=True):
    """hand-log/1.2: the player asked for `asked` on `hand`, and the engine refused it (`done` "refused")
    or did `done` instead (the action done follows, as the log writes any)."""

    hand: Hand
    asked: Literal["hit", "stand", "double", "split", "surrender"]
    done: Literal["refused", "hit", "stand", "double", "split", "surrender"]


class LateBet(_Action, tag="bet", frozen=True):
    """hand-log/1.2: a bet taken once the round had begun (during the deal or the play), where it was
    taken: as a `bets` entry."""

    stake: Stake
    amount: Amount
    player: str | UnsetType = UNSET
    seated: bool | UnsetType = UNSET


class CutCard(_Action, tag="cut_card", frozen=True):
    place: BoxOrDealer


class Approve(_Action, tag="approve", frozen=True):
    stake: Stake
    who: Id


class Pay(_Action, tag="pay", frozen=True):
    stake: Stake
    amount: Amount


class Lose(_Action, tag="lose", frozen=True):
    stake: Stake
    # Left out: the whole stake is collected.
    amount: Amount | UnsetType = UNSET


class Push(_Action, tag="push", frozen=True):
    stake: Stake


Action = (
    Deal | DealDown | Reveal | Peek | Hit | Stand | Double | Split | Surrender | Insurance | EvenMoney | War
    | Burn | Discard | Mistake | Reshuffle | CutCard | Approve | Pay | Lose | Push | Charge | Unsettled
    | Request | LateBet
)  # fmt: skip


# ---- records: objects tagged by `type` ---------------------------------------------------------------
# hand-log/1 allows fields it does not name (forward compatibility), but msgspec skips such a field's
# value without checking it as JSON (invalid UTF-8, a number past a double's range): a record or a bet
# with one is left to the slow path, which reads it whole with orjson.


class Bet(Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    stake: Stake
    amount: Amount
    player: str | UnsetType = UNSET
    seated: bool | UnsetType = UNSET


class _Record(Struct, tag_field="type", forbid_unknown_fields=True, frozen=True, gc=False):
    pass


class TableRecord(_Record, tag="table", frozen=True):
    format: Literal["hand-log/1", "hand-log/1.1", "hand-log/1.2"]
    table: Id
    game: str  # one the package plays (validator/games/): see __post_init__
    at: Time
    seats: Annotated[int, Meta(ge=1, le=99)]
    minimum: Amount
    maximum: Amount
    casino: str | UnsetType = UNSET
    ruleset: Annotated[str, Meta(min_length=1)] | UnsetType = UNSET
    new_cards: bool | UnsetType = UNSET

    def __post_init__(self) -> None:
        # A game no package declares: msgspec refuses the line (a ValueError raised here is its
        # ValidationError), and the schema, whose `game` lists the same games, says why.
        if self.game not in GAMES:
            raise ValueError(
                f"unknown game {self.game!r}"
            )  # i18n: not shown (msgspec's; the schema words it)


class LimitsRecord(_Record, tag="limits", frozen=True):
    at: Time
    minimum: Amount
    maximum: Amount
    displayed: bool | UnsetType = UNSET


class DealerRecord(_Record, tag="dealer", frozen=True):
    at: Time
    dealer: Id
    burn: list[Card] | UnsetType = UNSET


class ShoeRecord(_Record, tag="shoe", frozen=True):
    shoe: Id
    at: Time
    reason: Literal["open", "cut_card", "supervisor", "exhausted"]
    decks: Count
    backs: list[Count] | UnsetType = UNSET
    shuffle: Literal["manual", "machine"] | UnsetType = UNSET
    cut_by: CutBy | UnsetType = UNSET
    cut_card_behind: Annotated[int, Meta(ge=0, le=_MAX_INT)] | UnsetType = UNSET
    burn: list[Card] | UnsetType = UNSET
    # hand-log/1.2: False, the shoe has no cut card (no stop card at all); left out: as before.
    cut_card: bool | UnsetType = UNSET


class JackpotRecord(_Record, tag="jackpot", frozen=True):
    at: Time
    main: Amount
    secondary: Amount


class RoundRecord(_Record, tag="round", frozen=True):
    round: Id
    shoe: Id
    at: Time
    bets: list[Bet]
    actions: list[Action]
    dealer: Id | UnsetType = UNSET
    # hand-log/1.1: the round was declared void, for this reason: its stakes returned, its play not judged.
    void: Id | UnsetType = UNSET
    # hand-log/1.1: where a box's hands lie on the layout, from the player's right (the dealer's left, the
    # side dealt first) to his left: {"3": ["3", "3/3", "3/2"]}.
    layout: dict[Box, list[Hand]] | UnsetType = UNSET


# hand-log/1.2: the entries of the table's money (the carnet d'avances, art. 69 of the arrêté du 14 mai 2007;
# or a US count), docs/hand-log.md. Which reconcile a séance: validator.replay.money.
MoneyEntry = Literal[
    "avance_initiale",
    "avance_complementaire",
    "encaisse",
    "opening_inventory",
    "fill",
    "credit",
    "drop",
    "closing_inventory",
]
MONEY_ENTRIES: tuple[str, ...] = get_args(MoneyEntry)


class MoneyRecord(_Record, tag="money", frozen=True):
    """hand-log/1.2: one entry of the table's money for the séance in play (`entry`, `amount`); `slip`:
    the carnet's page or the slip's number, as the casino writes it."""

    at: Time
    entry: MoneyEntry
    amount: Amount
    slip: Id | UnsetType = UNSET


LogRecord = TableRecord | LimitsRecord | DealerRecord | ShoeRecord | JackpotRecord | RoundRecord | MoneyRecord

_DECODER = msgspec.json.Decoder(LogRecord)
# `decode` without its refusals caught nor its time checked: the reader's loop calls it so, catching
# `REFUSED` and calling `time_shaped` itself (one interpreted call less a line, for speed).
decode_or_raise = _DECODER.decode
# What msgspec raises for a line it refuses: msgspec.ValidationError is a DecodeError; RecursionError,
# a value nested deeper than the stack left (in a tag msgspec reads first).
REFUSED = (msgspec.DecodeError, UnicodeDecodeError, RecursionError)


def decode(line: bytes) -> LogRecord | None:
    """The record a line holds, or None if msgspec refuses it (then the schema says why, or finds it
    valid after all: see `from_dict`). The record's time has the pattern's shape (`time_shaped`), but is
    not yet known to be a real date."""
    try:
        record: LogRecord = _DECODER.decode(line)
    except REFUSED:
        return None
    return record if time_shaped(record.at) else None


def from_dict(data: dict[str, Any]) -> LogRecord:
    """The struct of a record the schema finds valid but msgspec refused as a line (a hand "3/17", an
    integer written 7.0, a key written twice), built from the dict orjson read. The schema has checked
    every value, so the structs are made without msgspec's checks (which refused the line); whole
    floats become integers where the schema wants an integer (JSON Schema counts 7.0 as one)."""
    record_type = _RECORD_TYPES[data["type"]]
    fields = _known(record_type, data)
    for key in _INTEGER_FIELDS:
        value = fields.get(key)
        if isinstance(value, float):
            fields[key] = int(value)
        elif isinstance(value, list):
            fields[key] = [int(v) if isinstance(v, float) else v for v in value]
    if record_type is RoundRecord:
        fields["bets"] = [Bet(**_known(Bet, bet)) for bet in data["bets"]]
        fields["actions"] = [_VERBS[action[0]](*action[1:]) for action in data["actions"]]
    return cast(LogRecord, record_type(**fields))


def _known(struct: type[Struct], data: dict[str, Any]) -> dict[str, Any]:
    return {name: data[name] for name in struct.__struct_fields__ if name in data}


# The fields the schema types as integers (`backs` a list of them); every other number is an amount.
_INTEGER_FIELDS = ("seats", "decks", "backs", "cut_card_behind")
_RECORD_TYPES: dict[str, type[Struct]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (TableRecord, LimitsRecord, DealerRecord, ShoeRecord, JackpotRecord, RoundRecord, MoneyRecord)
}
_VERBS: dict[str, type[_Action]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        Deal, DealDown, Reveal, Peek, Hit, Stand, Double, Split, Surrender, Insurance, EvenMoney, War, Burn,
        Discard, Mistake, Reshuffle, CutCard, Approve, Pay, Lose, Push, Charge, Unsettled, Request, LateBet,
    )
}  # fmt: skip
for _verb, _action in _VERBS.items():
    _action.verb = _verb
