"""Side bets by exact enumeration of the shoe: every combination of the cards a paytable reads, weighted by
its probability of being dealt from a full shoe, settled by the version's own `settle <bet> =>
paytable …` clause (so by the table the house chose).

Which cards are dealt is read from the facts the paytable's lines name: the player's first two or three
cards, the dealer's first card, the dealer's final result (drawn by the version's parameters), the case a
stake is on. Card functions in paytables (`total`, `same_suit`, `run`, …) do not depend on the order of
the cards, so the player's first two cards are enumerated as pairs, not sequences. Deals that a renaming
of the suits carries into one another, where the bet's expressions cannot tell them apart, are settled
once, weighted by their number (validator/maths/suits.py): 2 + 1 cartes settles 5 746 deals for 71 656.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from validator.casino.cards import RANKS, SUITS
from validator.dsl.facts import JackpotFacts, PlayerFacts, StakeFacts
from validator.dsl.model import PaytableOutcome, SideBetDef
from validator.dsl.vocabulary import NAMESPACES
from validator.i18n import N_
from validator.maths.game import maths_of
from validator.maths.probe import Probe
from validator.maths.suits import classes, suit_group
from validator.replay.side_bets import DealerCards

_FACT = re.compile(r"\b(player|dealer|hand|stake|jackpot|dealer_cards)\.([a-z_]+)")
_CASE = re.compile(r"\bstake\.case\s*==\s*\"([^\"]*)\"")


@dataclass(frozen=True, slots=True)
class Line:
    label: str
    probability: float
    net: float  # per unit staked: the winnings, or -1 when no line holds
    meter: str | None = None  # the meter a line pays out (its winnings then depend on it)


@dataclass(frozen=True, slots=True)
class SideBetReturn:
    name: str
    title: str
    case: str | None
    ev: float  # with every meter at 0
    lines: tuple[Line, ...]
    meters: dict[str, float]  # meter → probability a stake wins it


def _reads(bet: SideBetDef) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for lines in bet.paytables.values():
        for line in lines:
            found.update((m.group(1), m.group(2)) for m in _FACT.finditer(line.source))
    return found


def bet_cases(bet: SideBetDef) -> list[str | None]:
    found = sorted(
        {
            m.group(1)
            for lines in bet.paytables.values()
            for line in lines
            for m in _CASE.finditer(line.source)
        }
    )
    return list(found) or [None]


# What the enumeration settled: each set of paying lines' labels (() where no line pays) → [the
# probability of the deals settled so, their net per unit staked], in the order the deals first reached
# it (a figure re-read from it with other winnings, `settled`, is summed in the same order).
Tally = dict[tuple[str, ...], list[float]]

# Facts of the player the enumeration holds fixed: no other player at the table (so no jackpot hand of
# another), and no split before the third card (one hand holds the first three). `maths.content` reads
# a bet's expressions with them in place, as the enumeration evaluates them.
HELD_FACTS: Mapping[str, bool] = {
    "player.other_jackpot_main": False,
    "player.other_jackpot_secondary": False,
    "player.other_player_jackpot_main": False,
    "player.other_player_jackpot_secondary": False,
}
SAME_FACTS: Mapping[str, str] = {"player.first_three_one_hand": "player.first_three"}


def side_bets(probe: Probe, only: set[str] | None = None) -> list[SideBetReturn]:
    """Every side bet of the version (or those named in `only`), case by case."""
    return [result for result, _tally in side_tallies(probe, only)]


def side_tallies(probe: Probe, only: set[str] | None = None) -> list[tuple[SideBetReturn, Tally]]:
    """`side_bets`, each figure with the tally it was summed from."""
    ruleset = probe.ruleset
    results = []
    for name, bet in ruleset.side_bets.items():
        if not ruleset.settles_by_stake.get(name) or (only is not None and name not in only):
            continue
        for case in bet_cases(bet):
            tally = _enumerate(probe, name, bet, case)
            results.append((settled(name, bet, case, tally), tally))
    return results


def _player(player: list[str], dealer: list[str]) -> PlayerFacts:
    """The player's facts of a deal, the others held as `HELD_FACTS` and `SAME_FACTS` say."""
    return PlayerFacts(
        first_two=tuple(player[:2]),
        first_three=tuple(player[:3]),
        first_three_one_hand=tuple(player[:3]),
        with_dealer_first=(*player[:2], dealer[0]) if dealer else (),
        other_jackpot_main=HELD_FACTS["player.other_jackpot_main"],
        other_jackpot_secondary=HELD_FACTS["player.other_jackpot_secondary"],
        other_player_jackpot_main=HELD_FACTS["player.other_player_jackpot_main"],
        other_player_jackpot_secondary=HELD_FACTS["player.other_player_jackpot_secondary"],
    )


def _dealing(probe: Probe, bet: SideBetDef) -> tuple[int, bool, bool]:
    """What a bet's deals are made of, read from the facts its lines name: the player's cards dealt (0 to
    3), whether the dealer's first card is dealt, whether his final result is drawn."""
    reads = _reads(bet)
    fields = {f for ns, f in reads if ns == "player"}
    player_cards = (
        3
        if fields & {"first_three", "first_three_one_hand"}
        else 2
        if fields & {"first_two", "with_dealer_first"}
        else 0
    )
    if any(ns == "hand" for ns, _unused in reads):
        player_cards = max(player_cards, 1)
    # The dealer's facts that only his final result gives, where the game's dealer draws.
    maths = maths_of(probe.ruleset)
    dealer_first = "with_dealer_first" in fields or any(
        (ns == "dealer" and f not in maths.dealer_final) or ns == "dealer_cards" for ns, f in reads
    )
    dealer_final = any(ns == "dealer" and f in maths.dealer_final for ns, f in reads)
    return player_cards, dealer_first, dealer_final


def _fixed(name: str, case: str | None) -> tuple[StakeFacts, JackpotFacts]:
    """The stake and the meters the enumeration holds fixed: one unit, the meters at 0."""
    jackpot = JackpotFacts(main=Decimal(0), secondary=Decimal(0), main_hands=1, secondary_hands=1)
    return StakeFacts(name=name, amount=Decimal(1), settlements=1, case=case), jackpot


def bet_group(probe: Probe, name: str, bet: SideBetDef, case: str | None) -> tuple[str, ...]:
    """The renamings of the suits the enumeration of this bet and case groups deals by (`maths.suits`)."""
    _cards, _first, dealer_final = _dealing(probe, bet)
    drawn = dealer_final and maths_of(probe.ruleset).dealer_results(probe) is not None
    stake, jackpot = _fixed(name, case)
    constants = _constants(probe, {"stake": stake, "jackpot": jackpot, "box": probe.hand([]).box})
    return suit_group(probe.ruleset, name, bet, constants, dealer_drawn=drawn)


def _enumerate(probe: Probe, name: str, bet: SideBetDef, case: str | None) -> Tally:
    player_cards, dealer_first, dealer_final = _dealing(probe, bet)
    reads = _reads(bet)
    decks = int(probe.param("shoe.decks", 6))
    results = maths_of(probe.ruleset).dealer_results(probe) if dealer_final else None
    tally: Tally = {}
    stake, jackpot = _fixed(name, case)
    reads_hand = any(ns == "hand" for ns, _unused in reads)
    reads_dealer = any(ns == "dealer" for ns, _unused in reads)
    empty_hand, empty_dealer = probe.hand([]), probe.dealer([])
    group = bet_group(probe, name, bet, case)
    for cards, size in classes(player_cards, dealer_first, group):
        player, dealer = list(cards[:player_cards]), list(cards[player_cards:])
        p = _probability(decks, player, dealer) * size
        if not p:
            continue  # a card the shoe does not hold so often (one deck)
        dealers = results(decks, player, dealer) if results is not None else [(list(dealer), 1.0)]
        for dealer_list, q in dealers:
            # Only what the paytable reads is built (a hand, the dealer), the rest stays empty.
            hand = probe.hand(player[:1] if player_cards == 1 else player[:2]) if reads_hand else empty_hand
            ctx: dict[str, Any] = {
                "house": probe.house,
                "box": hand.box,
                "hand": hand,
                "dealer": probe.dealer(dealer_list) if reads_dealer else empty_dealer,
                "stake": stake,
                "player": _player(player, dealer),
                "dealer_cards": DealerCards(dealer_list),
                "jackpot": jackpot,
            }
            decided = probe.judge.expected_settlement(name, ctx)
            winnings: Decimal | None = None
            labels: tuple[str, ...] = ()
            if decided is not None:
                amount = decided[2]
                if isinstance(amount, PaytableOutcome):
                    winnings, labels = amount.winnings, amount.lines
                elif decided[1].verb == "pay":
                    winnings = amount
            key = labels if winnings is not None else ()
            entry = tally.setdefault(key, [0.0, float(winnings) if winnings is not None else -1.0])
            entry[0] += p * q
    return tally


def settled(name: str, bet: SideBetDef, case: str | None, tally: Tally) -> SideBetReturn:
    """The bet's figure from its tally: each line's probability and net, best first, and the return."""
    prizes = {line.label: line.prize for lines in bet.paytables.values() for line in lines if line.prize}
    lines = []
    meters: dict[str, float] = {}
    ev = 0.0
    for labels, (p, net) in sorted(tally.items(), key=lambda kv: -kv[1][1]):
        meter = next((prizes[label] for label in labels if label in prizes), None)
        label = " + ".join(labels) if labels else N_("no line (stake lost)")
        lines.append(Line(label, p, net, meter))
        ev += p * net
        if meter is not None:
            meters[meter] = meters.get(meter, 0.0) + p
    return SideBetReturn(name, bet.title, case, ev, tuple(lines), meters)


def _constants(probe: Probe, fixed: Mapping[str, Any]) -> dict[str, Any]:
    """The values the enumeration holds fixed, by the path the rules read them by (see maths.suits)."""
    found: dict[str, Any] = {f"house.{option}": value for option, value in probe.house.items()}
    found.update((f"param.{name}", value.value) for name, value in probe.ruleset.parameters.items())
    for namespace, holder in fixed.items():
        for fact in NAMESPACES[namespace]:
            if hasattr(holder, fact):
                found[f"{namespace}.{fact}"] = getattr(holder, fact)
    return found


def _probability(decks: int, player: list[str], dealer: list[str]) -> float:
    """The probability of dealing the player's cards (his first two in either order) and the dealer's
    first card, in that order, from a full shoe of `decks` decks; 0 where it does not hold them."""
    left = decks * len(RANKS) * len(SUITS)
    if len(player) >= 2:
        first, second = player[:2]
        pairs = decks * (decks - 1) if first == second else 2 * decks * decks
        p = pairs / (left * (left - 1))
        left -= 2
        for index in range(2, len(player)):
            p = p * ((decks - player[:index].count(player[index])) / left)
            left -= 1
    elif player:
        p = decks / left
        left -= 1
    else:
        p = 1.0
    for card in dealer:
        p = p * ((decks - player.count(card)) / left)
    return p
