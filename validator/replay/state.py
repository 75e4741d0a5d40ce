"""The replay state a ruleset's conditions read: table, shoe, boxes, hands, dealer.

Each class offers one namespace of the vocabulary (`dsl.vocabulary`: `TableFacts`, `ShoeFacts`,
`BoxFacts`, `HandFacts`, `DealerFacts`); its attributes and properties are the facts a rule can name
(`shoe.burned`, `hand.stake`). The facts every game shares are here; a game's hands, boxes and dealer
subclass these with its own (`hand.total` is blackjack's: validator/games/<game>/hands.py), made by its
`Hands`. Game mechanics only: nothing here says what is allowed, the ruleset does.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from mypy_extensions import mypyc_attr

from validator.casino.cards import all_cards
from validator.dsl.facts import RoundFacts
from validator.logs.decode import UNSET, ShoeRecord

if TYPE_CHECKING:
    from validator.dsl.model import Ruleset

__all__ = ["Box", "Cards", "Dealer", "Hand", "Hands", "RoundFacts", "Shoe", "TableState"]

ZERO: Final = Decimal(0)  # Final: a C variable in the compiled build, not a dictionary lookup

BoxT = TypeVar("BoxT", bound="Box[Any]")
HandT = TypeVar("HandT", bound="Hand")
DealerT = TypeVar("DealerT", bound="Dealer")


@dataclass
class TableState:
    id: str
    game: str
    seats: int
    minimum: Decimal
    maximum: Decimal
    new_cards: bool | None
    ruleset: str | None
    line: int
    limits_displayed: bool | None = None
    # hand-log/1.1: the log says which cards are dealt face down (`deal_down`, `reveal`).
    faces_logged: bool = False
    # JP1: the progressive jackpot's meters as the table's jackpot records show them (side_bets.Meters).
    jackpot: Any = None


class Shoe:
    """The cards still in the shoe, by card, so that a seventh ace of spades is caught."""

    __slots__ = (
        "backs",
        "burned",
        "cards",
        "cut_by",
        "cut_card",
        "cut_card_at",
        "cut_card_behind",
        "cut_card_out",
        "decks",
        "id",
        "left",
        "reason",
        "remaining",
        "reshuffled_from",
        "rightmost_box",
        "shuffle",
        "taken",
        "taken_cut_card_out",
    )

    def __init__(
        self, record: ShoeRecord, cut_card_at: str | None = None, rightmost_box: str | None = None
    ) -> None:
        # A field the record leaves out is None here, as the rulesets read it.
        self.id: str = record.shoe
        self.decks: int = record.decks
        backs = record.backs
        self.backs = tuple(sorted(backs, reverse=True)) if backs is not UNSET else None
        self.cards = self.decks * 52
        burn = record.burn
        self.burned = len(burn) if burn is not UNSET else 0
        cut_card_behind = record.cut_card_behind
        self.cut_card_behind = cut_card_behind if cut_card_behind is not UNSET else None
        # hand-log/1.2 `cut_card: false`: the shoe has no cut card at all (it can never come out).
        self.cut_card = record.cut_card is not False
        cut_by = record.cut_by
        self.cut_by: str | None = cut_by if cut_by is not UNSET else None
        # The table's last round before this shoe: where the cut card came out in it (a box, "D"), and
        # the farthest box at the dealer's right with a seated player (Ontario, section 5).
        self.cut_card_at = cut_card_at
        self.rightmost_box = rightmost_box
        self.reason = record.reason
        shuffle = record.shuffle
        self.shuffle = shuffle if shuffle is not UNSET else None
        self.remaining: dict[str, int] = dict.fromkeys(all_cards(), self.decks)
        self.left = self.cards
        self.cut_card_out = False
        # The cards taken since the round began (`begin_round`), to put back if it cannot be replayed:
        # no copy of the whole shoe per round.
        self.taken: list[str] = []
        self.taken_cut_card_out = False
        # The shoe before the round, when the round reshuffled it (hand-log/1.1): what undo puts back.
        self.reshuffled_from: tuple[dict[str, int], int, bool] | None = None

    def take(self, card: str) -> bool:
        """Remove a card; False when no copy of it was left (the card is not this shoe's)."""
        copies = self.remaining.get(card, 0)
        if copies <= 0:
            return False
        self.remaining[card] = copies - 1
        self.left -= 1
        self.taken.append(card)
        return True

    def begin_round(self) -> None:
        self.taken.clear()
        self.taken_cut_card_out = self.cut_card_out
        self.reshuffled_from = None

    def reshuffle(self, on_table: list[str]) -> None:
        """The discards shuffled back in the middle of a round (hand-log/1.1 `reshuffle`): every card of
        the shoe is in it again but those still on the table (none, for a hand-log/1.2 reshuffle of `all`
        the cards, which takes them back too); the cut card is back in."""
        if self.reshuffled_from is None:
            self.reshuffled_from = self.snapshot_before_round()
        remaining = dict.fromkeys(all_cards(), self.decks)
        for card in on_table:
            if remaining.get(card, 0) > 0:
                remaining[card] -= 1
        self.remaining = remaining
        self.left = sum(remaining.values())
        self.taken.clear()
        self.cut_card_out = False

    def undo_round(self) -> None:
        """The shoe as it was when the round began."""
        if self.reshuffled_from is not None:
            self.restore(self.reshuffled_from)
            self.reshuffled_from = None
            return
        remaining = self.remaining
        for card in self.taken:
            remaining[card] += 1
        self.left += len(self.taken)
        self.taken.clear()
        self.cut_card_out = self.taken_cut_card_out

    def snapshot(self) -> tuple[dict[str, int], int, bool]:
        return self.remaining.copy(), self.left, self.cut_card_out

    def snapshot_before_round(self) -> tuple[dict[str, int], int, bool]:
        """`snapshot` as it was when the round began."""
        remaining = self.remaining.copy()
        for card in self.taken:
            remaining[card] += 1
        return remaining, self.left + len(self.taken), self.taken_cut_card_out

    def restore(self, snap: tuple[dict[str, int], int, bool]) -> None:
        self.remaining, self.left, self.cut_card_out = snap[0].copy(), snap[1], snap[2]
        self.taken.clear()


@mypyc_attr(allow_interpreted_subclasses=True)
class Cards:
    """The cards in front of a hand or the dealer. What they make (a total, a rank) is the game's: its
    hands (`Hands`) subclass these and keep their facts up to date as cards come and go (`add`,
    `take_back`), not recomputed at each reading."""

    __slots__ = ("card_list", "hidden", "revealed")

    def __init__(self) -> None:
        self.card_list: list[str] = []
        self.hidden: tuple[str, ...] = ()  # cards dealt face down and not yet revealed (hand-log/1.1)
        self.revealed = 0  # cards dealt face down and since turned over (hand-log/1.1 `reveal`)

    def add(self, card: str) -> None:
        self.card_list.append(card)

    def take_back(self) -> str:
        """The last card, taken off (a split moves it to the new hand)."""
        card = self.card_list.pop()
        self.recount()
        return card

    def recount(self) -> None:
        """The game's facts of the cards, counted again after one is taken back."""

    def on_table(self) -> list[str]:
        """The cards it holds on the table (a reshuffle leaves them out of the shoe)."""
        return list(self.card_list)

    def shown(self) -> str:
        """The cards and what they make, as `explain` shows them."""
        return " ".join(self.card_list)

    @property
    def cards(self) -> int:
        return len(self.card_list)

    @property
    def face_down(self) -> int:
        return len(self.hidden)


@mypyc_attr(allow_interpreted_subclasses=True)
class Hand(Cards):
    """One player's hand: a box's first hand (`3`) or, where the game splits, a hand made by splitting
    (`3/2`). A game's hand adds the facts its rules read (validator/games/<game>/hands.py)."""

    __slots__ = ("box", "initial_stake", "name", "stake", "surrendered")

    def __init__(self, name: str, box: Box[Any], stake: Decimal) -> None:
        super().__init__()
        self.name = name
        self.box = box
        self.stake = stake
        self.initial_stake = box.initial_stake
        self.surrendered = False

    def settled_in_play(self) -> bool:
        """Settled while the players play, outside the final settlement (by the cards alone: a blackjack
        hand that busts)."""
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class Box(Generic[HandT]):
    """A betting box: its stake, who bets on it, and the hands it holds after splitting."""

    __slots__ = (
        "bettor_boxes",
        "bettor_stakes",
        "drew",
        "hand_list",
        "initial_stake",
        "number",
        "player_boxes",
        "seated",
        "seated_players",
        "stake",
        "standing",
        "won_side_bets",
    )

    def __init__(self, number: int) -> None:
        self.number = number
        self.stake = ZERO
        self.initial_stake = ZERO
        self.seated = False
        self.standing = False
        self.seated_players: set[str] = set()
        # Each bettor's main stake on the box (seated and standing, by the bets' `player`): whose stake
        # an insurance is half of.
        self.bettor_stakes: dict[str, Decimal] = {}
        self.hand_list: list[HandT] = []  # the game's hands
        self.drew = False
        self.player_boxes = 0
        # The most boxes any bettor on the box, seated or standing, bets a main stake on.
        self.bettor_boxes = 0
        self.won_side_bets: tuple[str, ...] = ()

    @property
    def hands(self) -> int:
        """How many hands the box holds: the rulesets compare it with split limits."""
        return len(self.hand_list)

    @property
    def seated_stake(self) -> Decimal:
        """The main stakes of the box's seated players, the bettors behind them left out."""
        total = ZERO
        for name, amount in self.bettor_stakes.items():
            if name in self.seated_players:
                total += amount
        return total


@mypyc_attr(allow_interpreted_subclasses=True)
class Dealer(Cards):
    __slots__ = ()


@mypyc_attr(allow_interpreted_subclasses=True)
class Hands(Generic[BoxT, HandT, DealerT]):
    """A game's hands, as a version of its rules plays them: what the replay, the simulator and the
    mathematics make a round's boxes, hands and dealer of (the game's declaration names its own:
    `validator.games.game.Game.hands`)."""

    def box(self, number: int) -> BoxT:
        raise NotImplementedError

    def hand(self, name: str, box: Box[Any], stake: Decimal) -> HandT:
        raise NotImplementedError

    def dealer(self) -> DealerT:
        raise NotImplementedError

    def under(self, ruleset: Ruleset) -> Hands[BoxT, HandT, DealerT]:
        """The hands as `ruleset` plays them (by default, as every version does)."""
        return self
