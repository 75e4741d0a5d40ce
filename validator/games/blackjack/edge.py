"""What `edge` reads of blackjack's mathematics (validator.maths.game.GameMaths): the main stake's return
by the best play, its variance and covariance, what is not exact, the insurance stake, the strategy
`simulate` plays to check it, the dealer's drawing that side bets reading his final hand are weighed by."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from validator.casino.cards import BJ_VALUE
from validator.games.blackjack import dealer as dealer_table
from validator.games.blackjack import split_exact
from validator.games.blackjack.chart import chart
from validator.games.blackjack.chart import text as chart_text
from validator.games.blackjack.dealer import DealerRule, shared_distribution
from validator.games.blackjack.maths import MainGame, Play, Rules, asked, dealer_cards, dealer_rule, main_game
from validator.games.blackjack.spread import with_spread
from validator.games.blackjack.strategy import Costs, Strategy
from validator.i18n import N_, _
from validator.maths.edge import number, outcome_line, percent
from validator.maths.game import DealerResults, DecisionCosts
from validator.maths.numeric import np
from validator.maths.probe import Probe
from validator.maths.shoe import VALUES, full_shoe
from validator.numbers import localized

STRATEGY = N_(
    "best play at every decision, composition-dependent: the initial cards, the dealer's first card and "
    "the hand's cards taken out of a full shoe (a split hand: the pair's cards out so far too); no "
    "insurance"
)
INSURANCE = "insurance"  # the stake kind (hand-log/1 "3:insurance") a version may settle


class BlackjackMaths:
    dealer_final = frozenset(("total", "busted", "blackjack", "soft", "cards"))
    decisions = ("stand", "hit", "double", "split", "surrender")

    def main_return(self, probe: Probe, base: Any) -> tuple[float, dict[str, Any], Any]:
        if base is not None:
            before = base.rules.probe
            if before.house == probe.house and asked(before.ruleset) == asked(probe.ruleset):
                return base.ev, {}, base  # the same rules asked: the same game
            rules = Rules.read(probe)
            if base.rules.same_game(rules):
                return base.ev, {}, base
            game: MainGame = main_game(probe, rules)
        else:
            game = with_spread(main_game(probe))
        return game.ev, _main_json(probe, game, bound=True), game

    def report_return(self, probe: Probe) -> tuple[float, dict[str, Any]]:
        """`main_return`'s return and `main` object without its `approximations` (the split hands' bound:
        a third of the figures' time), which the report does not read (`maths.game.ReportReturn`)."""
        game = with_spread(main_game(probe))
        return game.ev, _main_json(probe, game, bound=False)

    def main_figures(self, probe: Probe) -> tuple[float, str] | None:
        """The main stake's return and variance as `main_return` gives them (`maths.game.MainFigures`),
        without computing the split hands' bound and the insurance that only `edge` prints; None where
        the game has no spread (`main_return` then says what it has)."""
        game = with_spread(main_game(probe))
        if game.spread is None:
            return None
        return game.ev, number(game.spread.variance, 6)

    def played(self, probe: Probe) -> tuple[float, Any]:
        game = main_game(probe)
        return game.ev, Strategy(game)

    def player(self, probe: Probe) -> Any:
        return Strategy(Play(Rules.read(probe)))  # computed at the séance's first decision

    def dealer_results(self, probe: Probe) -> DealerResults | None:
        rule = dealer_rule(probe)  # his drawing alone: the main stake's payoffs are not read
        return lambda decks, player, dealer: _dealer_results(rule, decks, player, dealer)

    def costs(self, game: Any) -> DecisionCosts:
        return Costs(game)

    def play_costs(self, probe: Probe) -> DecisionCosts:
        """`costs` of the main game `main_return` computes (`main_game`: the same best play, values and
        rules, without the distribution and the split bound `main_return` adds), computed when the first
        decision is priced, or given again where this process has it."""
        made: list[DecisionCosts] = []

        def cost(
            verb: str, cards: tuple[str, ...], dealer: tuple[str, ...], split: bool, aces: bool, hands: int
        ) -> float | None:
            if not made:
                made.append(Costs(main_game(probe)))
            return made[0](verb, cards, dealer, split, aces, hands)

        return cost

    def chart(self, game: Any) -> tuple[dict[str, Any], str]:
        data = chart(game)
        return data, chart_text(data)


MATHS = BlackjackMaths()


def _main_json(probe: Probe, game: MainGame, bound: bool) -> dict[str, Any]:
    """The `main` object of edge/1 for the game (empty where it has no spread); `bound`: with what is not
    exact (`approximations`), which measures the split hands' method against their exact return."""
    if game.spread is None:
        return {}
    spread = game.spread
    lines = [outcome_line(f"net {label}", net, p) for label, p, net in game.lines]
    main_json: dict[str, Any] = {
        "strategy": STRATEGY,
        "lines": lines,
        "variance": number(spread.variance, 6),
        "covariance": number(spread.covariance, 6),
    }
    if bound:
        main_json["approximations"] = approximations(game)
    insurance = insurance_json(probe, game)
    if insurance is not None:
        main_json["insurance"] = insurance
    return main_json


def approximations(game: MainGame) -> list[dict[str, str]]:
    """What the figures do not take exactly, and how much it moves them, each measured on these figures
    (docs/edge.md): the split hands' method by the exact return of the play it describes
    (`split_exact.gap`: the best play's exact return is at least the figure less the higher bound), the
    distribution by its mean's gap to the figure."""
    gap = game.spread.split_gap if game.spread else 0.0
    low, high = split_exact.gap(game)
    return [
        {
            "what": _(
                "split hands: each played on its own cards and the pair's cards out so far, the cards "
                "drawn to the box's other hands unseen to it, as Wizard of Odds' Appendix 9 computes them"
            ),
            "size": _(
                "a bound measured on this figure: at most {high} points above the best play's exact "
                "return (the exact return of this play, computed for this version, is {low} to {high} "
                "points below the figure)"
            ).format(
                low=localized(number(math.floor(low * 1e8) / 1e6, 6)),
                high=localized(number(math.ceil(high * 1e8) / 1e6, 6)),
            ),
        },
        {
            "what": _("distribution: a split box's hands independent given the dealer's result"),
            "size": _("the distribution's mean {gap} points from the figure").format(
                gap=localized(number(gap * 100, 6))  # prose in the language of the run, its number too
            ),
        },
    ]


def insurance_json(probe: Probe, game: MainGame) -> dict[str, Any] | None:
    """The insurance stake, where the version settles one: taken against the dealer's ace (the player's
    cards unknown), paid by the version's clauses when the dealer makes blackjack."""
    if INSURANCE not in probe.ruleset.settles_by_stake:
        return None
    rules = game.rules
    full = full_shoe(rules.decks)
    ace, tens = full[0], full[-1]
    natural = tens / (sum(full) - 1)  # his second card is a ten, given his ace
    hand = probe.hand(["TS", "8S"])
    won = probe.settle(hand, probe.dealer(["AS", "TS"]), INSURANCE)
    lost = probe.settle(hand, probe.dealer(["AS", "8H", "9H"]), INSURANCE)
    if won is None or lost is None or not ace:
        return None
    ev = natural * float(won) + (1 - natural) * float(lost)
    return {
        "return": number(ev),
        "house_edge_percent": percent(ev),
        "lines": [
            outcome_line(N_("dealer's blackjack"), float(won), natural),
            outcome_line(N_("no dealer's blackjack"), float(lost), 1 - natural),
        ],
    }


def _dealer_results(
    rule: DealerRule, decks: int, player: list[str], dealer: list[str]
) -> list[tuple[list[str], float]]:
    """The dealer's final results, from the shoe without the cards already seen."""
    counts = list(full_shoe(decks))
    for card in player + dealer:
        counts[BJ_VALUE[card[0]] - 1] -= 1
    key = tuple(counts)
    dist = [0.0] * rule.size
    if dealer:
        up = BJ_VALUE[dealer[0][0]] - 1
        dist = list(shared_distribution(rule, key, up))
    else:
        left = sum(counts)
        by_first = _first_unseen(rule, decks).get(key) if len(player) == 2 else None
        for up in range(VALUES):
            if counts[up]:
                if by_first is not None:
                    results = by_first[up]
                else:
                    comp = list(counts)
                    comp[up] -= 1
                    results = shared_distribution(rule, tuple(comp), up)
                for i, x in enumerate(results):
                    dist[i] += counts[up] / left * x
    return [(dealer_cards(rule, o), x) for o, x in enumerate(dist) if x]


@lru_cache(maxsize=8)
def _first_unseen(rule: DealerRule, decks: int) -> dict[tuple[int, ...], tuple[tuple[float, ...], ...]]:
    """For each two cards of the player (the shoe they leave, by value): the dealer's results given each
    first card of his, all computed at once (`dealer.table`, as the main game computes them) rather than
    one shoe and first card at a time: a side bet that reads his final result but not his first card
    (dames de cœur's blackjack of the dealer) asks them of every pair of the player's cards."""
    full = full_shoe(decks)
    shoes = []
    for first in range(VALUES):
        for second in range(first, VALUES):
            removed = [0] * VALUES
            removed[first] += 1
            removed[second] += 1
            if all(r <= c for r, c in zip(removed, full, strict=True)):
                shoes.append(removed)
    found = dealer_table.table(rule, full, np.array(shoes, dtype=np.int64))
    return {
        tuple(c - r for c, r in zip(full, removed, strict=True)): tuple(
            tuple(float(x) for x in found[index, up]) for up in range(VALUES)
        )
        for index, removed in enumerate(shoes)
    }
