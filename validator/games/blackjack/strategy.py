"""The strategy `edge` computed, as a player at a simulated table uses it: for each decision, the action
whose expected return the computation found best, keyed by the same cards (the hand's, the dealer's
first; for a split hand, the pair's cards out so far: one per hand of the box). `simulate` plays it to
check the figures."""

from __future__ import annotations

from collections.abc import Callable

from validator.casino.cards import BJ_VALUE
from validator.games.blackjack.hands import BlackjackDealer as Dealer
from validator.games.blackjack.hands import BlackjackHand as Hand
from validator.games.blackjack.holdings import UNSPLIT
from validator.games.blackjack.maths import ACTIONS, MainGame, Play, Rules
from validator.maths.shoe import VALUES

Legal = Callable[[str], bool]


def _index(card: str) -> int:
    return BJ_VALUE[card[0]] - 1


class Strategy:
    """Callable as `strategy(hand, dealer, legal)` → "stand", "hit", "double", "split" or "surrender":
    the decision the computation found best for these cards."""

    def __init__(self, play: Play | MainGame) -> None:
        self.play = play if isinstance(play, Play) else Play.of(play)
        self.rules: Rules = self.play.rules

    def family(self, hand: Hand, cards: list[int]) -> int:
        """The family the computation valued this hand in: the round's own, or its split pair's with the
        pair's cards out so far (one per hand of the box: each began with one of them)."""
        if not hand.split:
            return 0
        out = max(2, len(hand.box.hand_list))
        found = [
            (fam.out, index)
            for index, fam in enumerate(self.play.game.hands.families)
            if fam.pair == cards[0] != UNSPLIT and fam.out <= out
        ]
        return max(found)[1] if found else 0

    def __call__(self, hand: Hand, dealer: Dealer, legal: Legal) -> str:
        game = self.play.game
        up = _index(dealer.card_list[0])
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
        counts = [0] * VALUES
        for card in cards:
            counts[card] += 1
        k = game.hands.find(self.family(hand, cards), counts)
        if k is None:
            return "stand"  # a hand the computation never reaches: the rules gave it no card
        values = game.values
        action = ACTIONS[int(values.action[k, up])]
        if action == "double" and not legal("double"):
            action = "hit" if values.hit[k, up] > values.stand[k, up] else "stand"
        return action if action == "stand" or legal(action) else "stand"
