"""The replay state a ruleset's conditions read: table, shoe, boxes, hands, dealer.

Each class offers one namespace of the vocabulary (`dsl.vocabulary`: `TableFacts`, `ShoeFacts`,
`BoxFacts`, `HandFacts`, `DealerFacts`); its attributes and properties are the facts a rule can name
(`hand.total`, `shoe.burned`). Game mechanics only: nothing here says what is allowed, the ruleset does.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace
from typing import Any, Final

from validator.casino.cards import BATAILLE_VALUE, BJ_VALUE, CARD_VALUE, all_cards, best_total, value
from validator.dsl.facts import RoundFacts
from validator.logs.decode import UNSET, ShoeRecord

__all__ = ["Box", "Cards", "Dealer", "Hand", "RoundFacts", "Shoe", "TableState", "facts"]

ZERO: Final = Decimal(0)  # Final: a C variable in the compiled build, not a dictionary lookup


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
        the shoe is in it again but those still on the table; the cut card is back in."""
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


class Cards:
    """The cards in front of a hand or the dealer, with the totals many rules read at every card: kept
    up to date as cards come and go (add, take_back), not recomputed at each reading."""

    __slots__ = ("aces", "busted", "card_list", "hard", "hidden", "soft", "total", "war_card")

    def __init__(self) -> None:
        self.card_list: list[str] = []
        self.hidden: tuple[str, ...] = ()  # cards dealt face down and not yet revealed (hand-log/1.1)
        self.war_card: str | None = None
        self.total, self.soft, self.busted = 0, False, False
        self.hard = self.aces = 0  # every ace counted 1; how many aces

    def add(self, card: str) -> None:
        self.card_list.append(card)
        worth = CARD_VALUE.get(card)  # one lookup by the whole code, written out for speed
        if worth is None:  # not a card's code (the card rules judge it): by its rank, as before
            worth = BJ_VALUE[card[0]]
        hard = self.hard = self.hard + worth
        if worth == 1:  # an ace, the one rank worth 1
            self.aces += 1
        if self.aces and hard <= 11:
            self.total, self.soft = hard + 10, True
        else:
            self.total, self.soft = hard, False
        self.busted = self.total > 21

    def take_back(self) -> str:
        """The last card, taken off (a split moves it to the new hand)."""
        card = self.card_list.pop()
        self._count()
        return card

    def _count(self) -> None:
        self.total, self.soft = best_total(self.card_list)
        self.busted = self.total > 21
        self.hard = sum(BJ_VALUE[card[0]] for card in self.card_list)
        self.aces = sum(1 for card in self.card_list if card[0] == "A")

    @property
    def cards(self) -> int:
        return len(self.card_list)

    @property
    def face_down(self) -> int:
        return len(self.hidden)

    # ---- bataille facts ----
    @property
    def rank(self) -> int | None:
        return BATAILLE_VALUE[self.card_list[0][0]] if self.card_list else None

    @property
    def war_rank(self) -> int | None:
        return BATAILLE_VALUE[self.war_card[0]] if self.war_card else None


class Hand(Cards):
    """One player's hand: a box's first hand (`3`) or a hand made by splitting (`3/2`)."""

    __slots__ = (
        "box",
        "doubled",
        "even_money",
        "initial_stake",
        "name",
        "split",
        "split_aces",
        "split_counts",
        "stake",
        "surrendered",
        "went_to_war",
    )

    def __init__(self, name: str, box: Box, stake: Decimal, *, split_counts: bool) -> None:
        super().__init__()
        self.name = name
        self.box = box
        self.stake = stake
        self.initial_stake = box.initial_stake
        self.split = False
        self.split_aces = False
        self.doubled = False
        self.surrendered = False
        self.even_money = False
        self.split_counts = split_counts
        self.went_to_war = False

    # ---- blackjack facts ----
    @property
    def blackjack(self) -> bool:
        return len(self.card_list) == 2 and self.total == 21 and (self.split_counts or not self.split)

    @property
    def pair(self) -> bool:
        return len(self.card_list) == 2 and value(self.card_list[0]) == value(self.card_list[1])

    @property
    def identical_pair(self) -> bool:
        return len(self.card_list) == 2 and self.card_list[0][0] == self.card_list[1][0]

    @property
    def pair_of_aces(self) -> bool:
        return len(self.card_list) == 2 and self.card_list[0][0] == "A" == self.card_list[1][0]

    @property
    def live(self) -> bool:
        """Still on the layout, waiting for the dealer's point."""
        return not (self.busted or self.surrendered or self.even_money)

    def split_off(self, stake: Decimal) -> Hand:
        """Splitting: the second card leaves for a new hand of the same box, staked `stake`."""
        box = self.box
        aces = self.pair_of_aces
        new = Hand(f"{box.number}/{len(box.hand_list) + 1}", box, stake, split_counts=self.split_counts)
        if len(self.card_list) >= 2:
            new.add(self.take_back())
        self.split = new.split = True
        if aces:
            box.ace_splits += 1
            self.split_aces = new.split_aces = True
        box.hand_list.append(new)
        return new


class Box:
    """A betting box: its stake, who bets on it, and the hands it holds after splitting."""

    __slots__ = (
        "ace_splits",
        "bataille_tie",
        "bettor_boxes",
        "bettor_stakes",
        "drew",
        "hand_list",
        "initial_stake",
        "number",
        "player_ace_splits",
        "player_boxes",
        "player_splits",
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
        self.hand_list: list[Hand] = []
        self.ace_splits = 0
        # At a split: the pairs of aces split so far this round on all the boxes of its seated player, and
        # the pairs of any rank.
        self.player_ace_splits = 0
        self.player_splits = 0
        self.drew = False
        self.player_boxes = 0
        # The most boxes any bettor on the box, seated or standing, bets a main stake on.
        self.bettor_boxes = 0
        self.bataille_tie = False
        self.won_side_bets: tuple[str, ...] = ()

    @property
    def hands(self) -> int:
        """How many hands the box holds: the rulesets compare it with split limits."""
        return len(self.hand_list)

    @property
    def split_waiting(self) -> int:
        """How many of the box's hands wait for their second card after a split."""
        return sum(1 for hand in self.hand_list if len(hand.card_list) == 1)

    @property
    def seated_stake(self) -> Decimal:
        """The main stakes of the box's seated players, the bettors behind them left out."""
        total = ZERO
        for name, amount in self.bettor_stakes.items():
            if name in self.seated_players:
                total += amount
        return total


class Dealer(Cards):
    __slots__ = ()

    @property
    def blackjack(self) -> bool:
        return len(self.card_list) == 2 and self.total == 21

    @property
    def up_ace(self) -> bool:
        return bool(self.card_list) and self.card_list[0][0] == "A"

    @property
    def up_ten(self) -> bool:
        return bool(self.card_list) and value(self.card_list[0]) == 10


# The replay's events read the vocabulary's fact classes (`dsl.vocabulary`), updated in place. The
# simulator and the maths still make ad-hoc namespaces of facts with this.
facts = SimpleNamespace
