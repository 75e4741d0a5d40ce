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
from validator.games.blackjack.maths import ACTIONS, NEVER, MainGame, Play, Rules, choices, p_natural
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


class Costs:
    """What a logged decision costs the player against the best play the figures assume, per unit of
    the hand's stake when it decided: the expected return of the best action these rules allowed on
    these cards, less that of the action taken, each valued as `edge` values it (the same `Values` of
    the same hands, the later play best). Summed over the decisions of the rounds, it is what the
    players' play gave the house beyond the edge of the best play: the expected return of any play is
    that of the best play less the costs of its decisions along the way (the performance-difference
    identity, as the decisions' values are those of the best play that follows).

    Where the dealer looks at his cards for a blackjack first, a decision is taken knowing he has none:
    the values (joint with his having none) are divided by its probability. A resplit the rules allow
    costs nothing (the split's value resplits every pair it may). None: a decision these values do not
    price (even money, an action the rules do not allow on these cards, a hand the computation never
    reaches); the report counts them and prices them as the best play."""

    def __init__(self, play: Play | MainGame) -> None:
        self.play = play if isinstance(play, Play) else Play.of(play)
        self.rules: Rules = self.play.rules

    def __call__(
        self,
        verb: str,
        cards: tuple[str, ...],
        dealer: tuple[str, ...],
        split: bool,
        split_aces: bool,
        hands: int,
    ) -> float | None:
        if verb == "insurance":
            return 0.0  # a stake of its own, priced on its own line: the main stake's play is unchanged
        if not dealer or len(cards) < 2 or any(card[:1] not in BJ_VALUE for card in (*cards, dealer[0])):
            return None
        game = self.play.game
        up = _index(dealer[0])
        indexes = [_index(c) for c in cards]
        if verb == "split" and split:
            # A resplit: the split's value resplits every pair the rules allow, so a resplit they allow
            # is the play the figure assumes.
            pair = indexes[0]
            allowed = len(cards) == 2 and cards[0][0] == cards[1][0] and self.rules.can_split(pair, hands)
            return 0.0 if allowed else None
        counts = [0] * VALUES
        for index in indexes:
            counts[index] += 1
        if len(indexes) == 2 and not split:
            first, second = sorted(indexes)
            options = choices(game, first, second, up)
            identical = cards[0][0] == cards[1][0]
            if "split" in options and not self.rules.can_split(first, 1, identical=identical):
                del options["split"]
        else:
            k = game.hands.find(self.family(indexes, split, hands), counts)
            if k is None:
                return None
            values = game.values
            options = {"stand": float(values.stand[k, up])}
            for name, table in (("hit", values.hit), ("double", values.double)):
                if table[k, up] != NEVER:
                    options[name] = float(table[k, up])
        if verb not in options:
            return None
        scale = 1.0 - p_natural(game.full, counts, up) if self.rules.peeks else 1.0
        if scale <= 0.0:
            return None
        return (max(options.values()) - options[verb]) / scale

    def family(self, indexes: list[int], split: bool, hands: int) -> int:
        """The family the computation valued this hand in (as `Strategy.family`): the round's own, or its
        split pair's with the pair's cards out so far (one per hand of the box)."""
        if not split:
            return 0
        out = max(2, hands)
        found = [
            (fam.out, index)
            for index, fam in enumerate(self.play.game.hands.families)
            if fam.pair == indexes[0] != UNSPLIT and fam.out <= out
        ]
        return max(found)[1] if found else 0
