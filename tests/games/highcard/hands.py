"""High card's hands: one card, ranked ace high."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from validator.replay.state import Box, Dealer, Hand, Hands

RANKS = {rank: value for value, rank in enumerate("23456789TJQKA", start=2)}


def rank_of(cards: list[str]) -> int | None:
    return RANKS[cards[0][0]] if cards else None


class HighCardHand(Hand):
    @property
    def rank(self) -> int | None:
        return rank_of(self.card_list)


class HighCardDealer(Dealer):
    @property
    def rank(self) -> int | None:
        return rank_of(self.card_list)


class HighCardHands(Hands[Box[HighCardHand], HighCardHand, HighCardDealer]):
    def box(self, number: int) -> Box[HighCardHand]:
        return Box(number)

    def hand(self, name: str, box: Box[Any], stake: Decimal) -> HighCardHand:
        return HighCardHand(name, box, stake)

    def dealer(self) -> HighCardDealer:
        return HighCardDealer()


HANDS = HighCardHands()
