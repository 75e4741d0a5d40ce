"""Which rounds of a simulated séance get a planted violation, and of which rule: one plan shared by the
simulator, which breaks the rules of the players' decisions while it plays (a split, a double, a
surrender, a card drawn, an insurance or even money that the rules refuse), and by `inject`, which
breaks the other kinds by editing a round's record once it is written (simulate.inject).

A decision is planted where exactly one rule refuses it: the simulator asks the ruleset, as it asks it
before every legal decision, which rules the decision would break, and takes it only when the answer is
the one rule to break. The round then goes on by the rules (the money through the settle clauses).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from validator.dsl.ast import Name
from validator.dsl.expr import names_in
from validator.dsl.model import CheckDef, Rule, Ruleset
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.i18n import _

# The steps each game's simulator can take against the rules while it plays, as the events their rules
# listen to: the players' decisions, side-bet timing, the dealer's drawing (each game's package declares
# its own, validator/games/<game>/__init__.py).
DECISIONS = {name: game.decisions for name, game in GAMES.items()}
# Where split hands lie (hand-log/1.1 `layout`): the simulator writes it only in the séances of a game
# with a hole card (the usage text's), which orders no split hands by place; the texts that do are
# played as hand-log/1, without places. A check that reads them is not broken by the simulator's play.
LAYOUT_FACTS = frozenset(("turn.place", "turn.current_place", "settle.place", "settle.previous_place"))


# The records the simulator writes between rounds with fields it can write against the rules: a shoe's
# (its decks, backs, burned cards, cut card, cutter); a change of limits, a new dealer's burn, a jackpot
# reading (simulate.interludes); and the table's seats, cards and limits.
BETWEEN_ROUNDS = frozenset(("shoe", "limits", "dealer_change", "jackpot"))
TABLE_FACTS = frozenset(("table.seats", "table.new_cards", "table.minimum", "table.maximum"))


def breaks_a_decision(rule: Rule, game: str) -> bool:
    """Is the rule checked at a step the simulator can take against it while it plays (a decision, the
    dealer's drawing), or on a record it writes between rounds (a shoe)?"""
    return broken_in_play(rule, game) or broken_between_rounds(rule)


def broken_in_play(rule: Rule, game: str) -> bool:
    """Is the rule checked at a step the simulator takes while it plays a round: a decision, the
    dealer's drawing, a round past the cut card, a bet placed against it?"""
    decisions = DECISIONS.get(game, frozenset())
    return (
        any(check.event in decisions and not names_read(check) & LAYOUT_FACTS for check in rule.checks)
        or played_past_the_cut_card(rule)
        or placed_against(rule)
    )


def played_past_the_cut_card(rule: Rule) -> bool:
    """Is the rule checked at a round's start on whether a reshuffle is due (the cut card out in an
    earlier round of the shoe)? The simulator can play one round more from that shoe."""
    return any(check.event == "round" and "round.reshuffle_due" in names_read(check) for check in rule.checks)


def placed_against(rule: Rule) -> bool:
    """Is the rule checked at a bet on who places it (a standing player's) or on its box being on the
    layout (a table of fewer seats than hand-log/1 names boxes), or at a side bet on its
    amount, its player or which side bet it is (one the table may not offer), or at a side stake the
    log settles on whether it was placed before the deal, or at a round or a box on how many boxes a
    player takes? The simulator can place such bets (simulate.bets_against, simulate.boxes_against)
    and settle such stakes (simulate.late_against)."""
    return any(
        (check.event == "bet" and {"bet.seated", "bet.box_exists"} & names_read(check))
        or (check.event == "late_bet" and "bet.before_deal" in names_read(check))
        or (check.event == "round" and {"round.players", "round.boxes"} <= names_read(check))
        or (check.event == "box" and "box.player_boxes" in names_read(check))
        or (
            check.event == "side_bet"
            and {"bet.amount", "bet.seated", "bet.player_main", "bet.side", "bet.side_offered"}
            & names_read(check)
        )
        for check in rule.checks
    )


def names_read(check: CheckDef) -> set[str]:
    return {
        name.path
        for node in (check.require_node, check.guard_node)
        if node is not None
        for name in names_in(node)
        if isinstance(name, Name)
    }


def broken_between_rounds(rule: Rule) -> bool:
    """Checked on a record written between rounds, on the table record on its seats, its cards or its
    limits (TableSim.break_table), or on a card on whether a copy was left in the shoe (the shoe planned
    between rounds: simulate.interludes)."""
    return any(
        check.event in BETWEEN_ROUNDS
        or (check.event == "table" and TABLE_FACTS & names_read(check))
        or (check.event == "card" and "card.in_shoe" in names_read(check))
        for check in rule.checks
    )


def between_key(record: dict[str, Any]) -> str:
    """The name the plan gives a record written between rounds: a shoe's or the table's id, else its
    type and time (simulate.interludes writes at most one of each type between two rounds)."""
    kind = record["type"]
    return str(record[kind]) if kind in ("shoe", "table") else f"{kind}@{record['at']}"


@dataclass(frozen=True, slots=True)
class PlayedViolation:
    """A violation the simulator planted while playing a round, or on a shoe: the rule, the stake it
    names (none on a shoe), what, and the other stakes it is found at."""

    rule: str
    stake: str | None
    what: str
    # The other stakes `check` finds the same violation at (a player on too many boxes: each of his
    # boxes), in the order it reports them.
    also: tuple[str, ...] = ()


@dataclass
class Violations:
    """The plan: about `rate` of the rounds get a violation of one of `rules`, tried in turn: the rules
    planted fewest times so far first (ties in a random order), so that a rule whose occasions are rare
    is tried first whenever it lags, and the rules with many occasions fill the other rounds. Besides, a
    rule not planted yet is tried at every round until it is (at most one violation more per rule than
    the rate gives): every named rule is planted where the séance gives it an occasion."""

    ruleset: Ruleset
    rules: list[str]
    rate: float
    seed: int
    rng: random.Random = field(init=False)
    _by_decision: frozenset[str] = field(init=False)
    _between_rounds: frozenset[str] = field(init=False)
    _orders: dict[str, list[str] | None] = field(init=False, default_factory=dict)
    played: dict[str, PlayedViolation] = field(init=False, default_factory=dict)
    counts: dict[str, int] = field(init=False, default_factory=dict)  # rule → violations planted

    def __post_init__(self) -> None:
        if not 0 < self.rate <= 1:
            raise ValidatorError(
                _("--rate {rate}: give a share of rounds between 0 (excluded) and 1").format(rate=self.rate)
            )
        self.rng = random.Random(f"inject/{self.seed}")
        game = self.ruleset.game
        self._by_decision = frozenset(r.id for r in self.ruleset.rules if broken_in_play(r, game))
        self._between_rounds = frozenset(r.id for r in self.ruleset.rules if broken_between_rounds(r))

    def order(self, round_id: str) -> list[str] | None:
        """The rules to try breaking in this round, in order; None: the round is left clean. Decided
        once per round, by whichever of the simulator and `inject` asks first."""
        if round_id not in self._orders:
            order = None
            if self.rng.random() < self.rate:
                ties = {rule: self.rng.random() for rule in self.rules}
                order = sorted(self.rules, key=lambda rule: (self.counts.get(rule, 0), ties[rule]))
            else:
                # A named rule not planted yet is tried at every round (and record between rounds) until it
                # is: a rule with one occasion a shoe, or a rare hand, is planted wherever the séance gives
                # it one, and one never planted had no occasion at all (`waiting`).
                order = [rule for rule in self.rules if not self.counts.get(rule)] or None
            self._orders[round_id] = order
        return self._orders[round_id]

    def decisions(self, round_id: str) -> list[str]:
        """This round's rules that a decision breaks, in the round's order."""
        order = self.order(round_id) or []
        return [r for r in order if r in self._by_decision]

    def between_rounds(self, record_id: str) -> list[str]:
        """The rules to break on the record written between rounds named `record_id` (`between_key`), in
        order; asked of the plan only where some rule to break is checked there, so that a plan without
        such rules draws the same rounds as before."""
        if not self._between_rounds & set(self.rules):
            return []
        order = self.order(record_id) or []
        return [r for r in order if r in self._between_rounds]

    def planted(self, rule: str) -> None:
        """A violation of `rule` was written: it goes after the rules planted fewer times."""
        self.counts[rule] = self.counts.get(rule, 0) + 1

    def done(self, round_id: str) -> None:
        """`inject` has written the round: its plan is no longer needed."""
        self._orders.pop(round_id, None)
        self.played.pop(round_id, None)
