"""The strategy `edge` computed, as a player at a simulated table uses it: for each decision, the action
whose expected return the computation found best, from the same composition (the initial two cards and
the dealer's first card removed from a full shoe). `simulate` plays it to check the figures."""

from __future__ import annotations

from collections.abc import Callable

from validator.casino.cards import BJ_VALUE
from validator.games.blackjack.maths import ACE, MainGame, Position, Rules
from validator.maths.shoe import full_shoe, without
from validator.replay.state import Dealer, Hand

Legal = Callable[[str], bool]


def _index(card: str) -> int:
    return BJ_VALUE[card[0]] - 1


class Strategy:
    """Callable as `strategy(hand, dealer, legal)` → "stand", "hit", "double", "split" or "surrender"."""

    def __init__(self, game: MainGame) -> None:
        self.game = game
        self.rules: Rules = game.rules
        self.full = full_shoe(self.rules.decks)
        self.positions: dict[tuple[int, int, int], Position] = {}

    def position(self, first: int, second: int, up: int) -> Position:
        key = (first, second, up)
        found = self.positions.get(key)
        if found is None:
            found = Position(self.rules, without(self.full, first, second, up), up)
            self.positions[key] = found
        return found

    def __call__(self, hand: Hand, dealer: Dealer, legal: Legal) -> str:
        up = _index(dealer.card_list[0])
        cards = [_index(c) for c in hand.card_list]
        if hand.split:
            first = second = cards[0]
        else:
            first, second = sorted(cards[:2])
        pos = self.position(first, second, up)
        planned = self.game.strategy[(first, second, up)]
        if len(cards) == 2 and not hand.split:
            # The first decision, as computed ("split (identical) / stand" where only some pairs split).
            choices = [planned.split(" ")[0]] + ([planned.split(" / ")[1]] if " / " in planned else [])
            for action in choices:
                if action == "stand" or legal(action):
                    return action
            return self._hit_or_stand(pos, cards, legal, split_aces=False)
        if len(cards) == 2 and hand.split:
            if cards[0] == cards[1] and planned.startswith("split") and legal("split"):
                return "split"
            _, action, _ = pos.two_cards(cards[0], cards[1], split=True, split_aces=hand.split_aces)
            if legal(action):
                return action
            return self._hit_or_stand(pos, cards, legal, split_aces=hand.split_aces)
        return self._hit_or_stand(pos, cards, legal, split_aces=hand.split_aces)

    @staticmethod
    def _hit_or_stand(pos: Position, cards: list[int], legal: Legal, *, split_aces: bool) -> str:
        hard = sum(cards) + len(cards)
        ace = ACE in cards
        if hard >= 21 or not legal("hit"):
            return "stand"
        hit = pos.hit(hard, ace, split_aces)[0]
        stand = pos.stand(hard, ace)[0]
        return "hit" if hit > stand else "stand"
