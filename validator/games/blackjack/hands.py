"""Blackjack's hands: the evaluator of its cards (a total where an ace counts 1 or 11, soft or hard, a
bust, a blackjack, a pair) kept up to date as cards come and go, a split, and the facts its rules read of
a hand, a box and the dealer (validator/games/blackjack/vocabulary.py)."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from validator.casino.cards import BJ_VALUE, CARD_VALUE, best_total
from validator.i18n import _
from validator.replay.state import Box, Cards, Dealer, Hand, Hands

if TYPE_CHECKING:
    from validator.dsl.model import Ruleset

BUST: Final = 21


def _worth(card: str) -> int:
    """A card's blackjack value, an ace 1: one lookup by the whole code (written out for speed), by its
    rank for a code that is not a card's (the card rules judge it)."""
    worth = CARD_VALUE.get(card)
    return BJ_VALUE[card[0]] if worth is None else worth


def _added(hard: int, aces: int, card: str) -> tuple[int, int, int, bool, bool]:
    """A hand's or the dealer's count after `card` comes, from its count before (every ace counted 1;
    how many aces): the new count, its total (an ace 11 where that makes 21 or less), whether soft,
    whether bust. Some 16 cards a round come here: a native tuple once compiled."""
    worth = CARD_VALUE.get(card)  # `_worth`, written out
    if worth is None:
        worth = _worth(card)
    hard += worth
    if worth == 1:  # an ace, the one rank worth 1
        aces += 1
    if aces and hard <= 11:
        return hard, aces, hard + 10, True, False  # 21 at most: not bust
    return hard, aces, hard, False, hard > BUST


def _counted(cards: list[str]) -> tuple[int, int, int, bool, bool]:
    """The count of `cards` from nothing, as `_added` keeps it (a card taken back: a split)."""
    total, soft = best_total(cards)
    hard = sum(BJ_VALUE[card[0]] for card in cards)
    aces = sum(1 for card in cards if card[0] == "A")
    return hard, aces, total, soft, total > BUST


def _shown(cards: Cards, total: int, soft: bool) -> str:
    """The cards and their total, as `explain` shows them."""
    if len(cards.card_list) == 2 and total == BUST:
        made = _("21 (two cards)")
    elif total > BUST:
        made = _("{total} (bust)").format(total=total)
    else:
        made = _("{total} (soft)").format(total=total) if soft else str(total)
    return f"{' '.join(cards.card_list)} = {made}"


class BlackjackBox(Box["BlackjackHand"]):
    __slots__ = ("ace_splits", "player_ace_splits", "player_splits")

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.ace_splits = 0
        # At a split: the pairs of aces split so far this round on all the boxes of its seated player, and
        # the pairs of any rank.
        self.player_ace_splits = 0
        self.player_splits = 0

    @property
    def split_waiting(self) -> int:
        """How many of the box's hands wait for their second card after a split."""
        return sum(1 for hand in self.hand_list if len(hand.card_list) == 1)


class BlackjackHand(Hand):
    """A player's hand, its total kept as cards come (`add`) and go (`take_back`)."""

    __slots__ = (
        "aces",
        "busted",
        "doubled",
        "even_money",
        "hard",
        "soft",
        "split",
        "split_aces",
        "split_counts",
        "total",
    )

    def __init__(self, name: str, box: Box[Any], stake: Decimal, *, split_counts: bool) -> None:
        super().__init__(name, box, stake)
        self.total, self.soft, self.busted = 0, False, False
        self.hard = self.aces = 0  # every ace counted 1; how many aces
        self.split = False
        self.split_aces = False
        self.doubled = False
        self.even_money = False
        self.split_counts = split_counts

    def add(self, card: str) -> None:
        self.card_list.append(card)
        self.hard, self.aces, self.total, self.soft, self.busted = _added(self.hard, self.aces, card)

    def recount(self) -> None:
        self.hard, self.aces, self.total, self.soft, self.busted = _counted(self.card_list)

    def shown(self) -> str:
        return _shown(self, self.total, self.soft)

    def settled_in_play(self) -> bool:
        return self.busted

    @property
    def blackjack(self) -> bool:
        return len(self.card_list) == 2 and self.total == BUST and (self.split_counts or not self.split)

    @property
    def pair(self) -> bool:
        cards = self.card_list
        return len(cards) == 2 and BJ_VALUE[cards[0][0]] == BJ_VALUE[cards[1][0]]

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

    def split_off(self, stake: Decimal) -> BlackjackHand:
        """Splitting: the second card leaves for a new hand of the same box, staked `stake`."""
        box = self.box
        aces = self.pair_of_aces
        new = BlackjackHand(
            f"{box.number}/{len(box.hand_list) + 1}", box, stake, split_counts=self.split_counts
        )
        if len(self.card_list) >= 2:
            new.add(self.take_back())
        self.split = new.split = True
        if aces:
            if isinstance(box, BlackjackBox):
                box.ace_splits += 1
            self.split_aces = new.split_aces = True
        box.hand_list.append(new)
        return new


class BlackjackDealer(Dealer):
    """The dealer's cards, their total kept as for a hand."""

    __slots__ = ("aces", "busted", "hard", "soft", "total")

    def __init__(self) -> None:
        super().__init__()
        self.total, self.soft, self.busted = 0, False, False
        self.hard = self.aces = 0

    def add(self, card: str) -> None:
        self.card_list.append(card)
        self.hard, self.aces, self.total, self.soft, self.busted = _added(self.hard, self.aces, card)

    def recount(self) -> None:
        self.hard, self.aces, self.total, self.soft, self.busted = _counted(self.card_list)

    def shown(self) -> str:
        return _shown(self, self.total, self.soft)

    @property
    def blackjack(self) -> bool:
        return len(self.card_list) == 2 and self.total == BUST

    @property
    def up_ace(self) -> bool:
        return bool(self.card_list) and self.card_list[0][0] == "A"

    @property
    def up_ten(self) -> bool:
        return bool(self.card_list) and BJ_VALUE[self.card_list[0][0]] == 10


class BlackjackHands(Hands[BlackjackBox, BlackjackHand, BlackjackDealer]):
    """Blackjack's hands as a version plays them: whether a split hand's two-card 21 is a blackjack."""

    def __init__(self, split_counts: bool = False) -> None:
        self.split_counts = split_counts

    def box(self, number: int) -> BlackjackBox:
        return BlackjackBox(number)

    def hand(self, name: str, box: Box[Any], stake: Decimal) -> BlackjackHand:
        return BlackjackHand(name, box, stake, split_counts=self.split_counts)

    def dealer(self) -> BlackjackDealer:
        return BlackjackDealer()

    def under(self, ruleset: Ruleset) -> BlackjackHands:
        return BlackjackHands(bool(ruleset.param("blackjack.split_hand_counts")))


HANDS: Final = BlackjackHands()
