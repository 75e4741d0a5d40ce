"""The strategy `edge` computed, as a player at a simulated table uses it: for each decision, the action
whose expected return the computation found best, keyed by the same cards (the hand's, the dealer's
first, taken out of a full shoe). `simulate` plays it to check the figures."""

from __future__ import annotations

from collections.abc import Callable

from validator.casino.cards import BJ_VALUE
from validator.games.blackjack.hands import BlackjackDealer as Dealer
from validator.games.blackjack.hands import BlackjackHand as Hand
from validator.games.blackjack.maths import ACE, Against, MainGame, Play, Removed, Rules
from validator.maths.shoe import VALUES

Legal = Callable[[str], bool]


def _index(card: str) -> int:
    return BJ_VALUE[card[0]] - 1


class Strategy:
    """Callable as `strategy(hand, dealer, legal)` → "stand", "hit", "double", "split" or "surrender":
    the decision the computation found best for these cards (a split hand as the computation valued it:
    the pair's two cards and its own taken out)."""

    def __init__(self, play: Play | MainGame) -> None:
        self.play = play if isinstance(play, Play) else Play.of(play)
        self.rules: Rules = self.play.rules

    def removed(self, cards: list[int], split: bool) -> Removed:
        """The cards out of the shoe for this hand's values, as the computation keyed them."""
        counts = [0] * VALUES
        if split:
            counts[cards[0]] += 2  # the pair's cards
            kept = cards[1:]
            limit = self.play.tracked - 1
        else:
            kept = cards
            limit = self.play.tracked
        for card in kept[:limit]:
            counts[card] += 1
        return tuple(counts)

    def __call__(self, hand: Hand, dealer: Dealer, legal: Legal) -> str:
        up = _index(dealer.card_list[0])
        against = self.play.against(up)
        cards = [_index(c) for c in hand.card_list]
        if len(cards) == 2 and not hand.split:
            first, second = sorted(cards)
            planned = self.play.action(first, second, up)
            # The first decision, as computed ("split (identical) / stand" where only some pairs split).
            choices = [planned.split(" ")[0]] + ([planned.split(" / ")[1]] if " / " in planned else [])
            for action in choices:
                if action == "stand" or legal(action):
                    return action
        elif len(cards) == 2:
            pair = cards[0]
            if cards[1] == pair and self.play.action(pair, pair, up).startswith("split") and legal("split"):
                return "split"
            removed = self.removed(cards, True)
            _, action = against.two_cards(removed, pair, cards[1], split=True, split_aces=hand.split_aces)
            if action == "stand" or legal(action):
                return action
        return self._hit_or_stand(against, cards, hand, legal)

    def _hit_or_stand(self, against: Against, cards: list[int], hand: Hand, legal: Legal) -> str:
        hard = sum(cards) + len(cards)
        ace = ACE in cards
        if hard >= 21 or not legal("hit"):
            return "stand"
        removed = self.removed(cards, hand.split)
        if len(cards) == 2:
            hit = against.hit(removed, hard, ace, hand.split_aces, sum(removed) - 2 + self.play.tracked)
            return "hit" if hit > against.stand(removed, hard, ace) else "stand"
        limit = self.play.tracked + (1 if hand.split else 0)
        return "hit" if against.play(removed, hard, ace, hand.split_aces, limit)[1] else "stand"
