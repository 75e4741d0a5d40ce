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


class Costs:
    """What a logged decision costs the player against the best play the figures assume, per unit of
    the hand's stake when it decided: the expected return of the best action these rules allowed on
    these cards, less that of the action taken, each valued as `edge` values it (the same `Against`
    values, the later play best). Summed over the decisions of the rounds, it is what the players'
    play gave the house beyond the edge of the best play: the expected return of any play is that of
    the best play less the costs of its decisions along the way (the performance-difference identity,
    as the decisions' values are those of the best play that follows).

    Where the dealer looks at his cards for a blackjack first, a decision is taken knowing he has none:
    the values (joint with his having none) are divided by its probability. A resplit the rules allow costs
    nothing (the split's value resplits every pair it may). None: a decision these values do not price
    (even money, an action the rules do not allow on these cards); the report counts them and prices
    them as the best play."""

    def __init__(self, play: Play | MainGame) -> None:
        self.strategy = Strategy(play)
        self.play = self.strategy.play
        self.rules = self.play.rules

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
        if not dealer or len(cards) < 2 or any(card[0] not in BJ_VALUE for card in (*cards, dealer[0])):
            return None
        up = _index(dealer[0])
        against = self.play.against(up)
        if verb == "split" and split:
            # A resplit: the split's value (`Against.split`) resplits every pair the rules allow, so a
            # resplit they allow is the play the figure assumes.
            pair = _index(cards[0])
            allowed = len(cards) == 2 and cards[0][0] == cards[1][0] and self.rules.can_split(pair, hands)
            return 0.0 if allowed else None
        options = self.options(against, [_index(c) for c in cards], cards, up, split, split_aces)
        if options is None or verb not in options[0]:
            return None
        values, removed = options
        scale = 1.0 - against.p_natural(removed) if self.rules.peeks else 1.0
        if scale <= 0.0:
            return None
        return (max(values.values()) - values[verb]) / scale

    def options(
        self,
        against: Against,
        indexes: list[int],
        cards: tuple[str, ...],
        up: int,
        split: bool,
        split_aces: bool,
    ) -> tuple[dict[str, float], Removed] | None:
        """The value of each action the rules allow on these cards, and the cards out of the shoe."""
        rules = self.rules
        hard = sum(indexes) + len(indexes)
        ace = ACE in indexes
        total = hard + 10 if ace and hard + 10 <= 21 else hard
        values: dict[str, float] = {}
        if hard > 21:
            return None
        removed = self.strategy.removed(indexes, split)
        if len(indexes) == 2:
            first, second = (indexes[0], indexes[1]) if split else tuple(sorted(indexes))
            if total == 21:
                values["stand"] = against.value(removed, "split21" if split else "blackjack")
            else:
                values["stand"] = against.stand(removed, hard, ace)
            if not (split_aces and not rules.can_hit(hard, ace, 2, True)) and (
                total < 21 or rules.can_hit(hard, ace, 2, split_aces)
            ):
                limit = sum(removed) - 2 + self.play.tracked
                values["hit"] = against.hit(removed, hard, ace, split_aces, limit)
            if not (split_aces and not rules.can_hit(hard, ace, 2, True)) and rules.can_double(
                first, second, split, split_aces
            ):
                values["double"] = against.double(removed, hard, ace)
            if not split:
                if rules.can_surrender(first, second, up):
                    values["surrender"] = against.value(removed, "surrender")
                if first == second:
                    most = rules.max_hands(first)
                    if most > 1 and rules.can_split(first, 1, identical=cards[0][0] == cards[1][0]):
                        values["split"] = against.split(first, most)[0]
            return values, removed
        values["stand"] = against.stand(removed, hard, ace)
        if total < 21 or rules.can_hit(hard, ace, 3, split_aces):
            limit = self.play.tracked + (1 if split else 0)
            values["hit"] = against.hit(removed, hard, ace, split_aces, limit)
        return values, removed
