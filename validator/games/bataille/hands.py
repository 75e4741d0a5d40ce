"""Bataille's hands: one card each, ranked ace high (`rank`), and on a tie a war card (`war_rank`); the
facts its rules read of a hand, a box and the dealer (validator/games/bataille/vocabulary.py)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Final

from validator.casino.cards import BATAILLE_VALUE
from validator.replay.state import Box, Dealer, Hand, Hands


class BatailleBox(Box["BatailleHand"]):
    __slots__ = ("bataille_tie",)

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.bataille_tie = False


def _on_table(cards: list[str], war_card: str | None) -> list[str]:
    """A hand's or the dealer's cards in front of it, its war card last."""
    return [*cards, *((war_card,) if war_card else ())]


def _rank(card: str | None) -> int | None:
    """A card's rank at bataille (an ace highest); none for no card."""
    return BATAILLE_VALUE[card[0]] if card else None


class BatailleHand(Hand):
    __slots__ = ("war_card", "went_to_war")

    def __init__(self, name: str, box: Box[Any], stake: Decimal) -> None:
        super().__init__(name, box, stake)
        self.war_card: str | None = None
        self.went_to_war = False

    def on_table(self) -> list[str]:
        return _on_table(self.card_list, self.war_card)

    @property
    def rank(self) -> int | None:
        return _rank(self.card_list[0] if self.card_list else None)

    @property
    def war_rank(self) -> int | None:
        return _rank(self.war_card)


class BatailleDealer(Dealer):
    __slots__ = ("war_card",)

    def __init__(self) -> None:
        super().__init__()
        self.war_card: str | None = None

    def on_table(self) -> list[str]:
        return _on_table(self.card_list, self.war_card)

    @property
    def rank(self) -> int | None:
        return _rank(self.card_list[0] if self.card_list else None)

    @property
    def war_rank(self) -> int | None:
        return _rank(self.war_card)


class BatailleHands(Hands[BatailleBox, BatailleHand, BatailleDealer]):
    def box(self, number: int) -> BatailleBox:
        return BatailleBox(number)

    def hand(self, name: str, box: Box[Any], stake: Decimal) -> BatailleHand:
        return BatailleHand(name, box, stake)

    def dealer(self) -> BatailleDealer:
        return BatailleDealer()


HANDS: Final = BatailleHands()
