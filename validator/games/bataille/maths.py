"""The bataille's main stake: each first card against the dealer's, and on a tie the better of the two
ways the version's rules allow (surrender, war), settled stake by stake (`main`, and the war stake) by
the version's clauses. The burned cards are unseen and change no probability: each war card is any card
left in the shoe after the two tied ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from validator.casino.cards import BATAILLE_VALUE
from validator.i18n import N_
from validator.maths.probe import Probe

RANKS = "23456789TJQKA"
TIED = "9"  # the rank of the tie analysed: every rank gives the same figures
WAR_STAKE = "war"


@dataclass(frozen=True, slots=True)
class BatailleReturn:
    ev: float
    lines: tuple[tuple[str, float, float], ...]  # (label, probability, net per unit of initial stake)
    tie_choice: str
    # On a tie, each way the rules allow and its expected return per unit of initial stake.
    tie_options: tuple[tuple[str, float], ...] = ()


def _stake(probe: Probe, main: Decimal) -> Decimal:
    share = probe.param("war.stake_share")
    return main * (share.factor if share is not None else Decimal(1))


def bataille(probe: Probe) -> BatailleReturn:
    decks = int(probe.param("shoe.decks", 6))
    per_rank = 4 * decks
    total = per_rank * len(RANKS)
    p_tie = (per_rank - 1) / (total - 1)
    one = Decimal(1)
    # The first cards: higher, lower or equal; suits do not count.
    higher = probe.hand(["KS"])
    win = float(probe.settle(higher, probe.dealer(["2S"])) or 0)
    lose = float(probe.settle(probe.hand(["2S"]), probe.dealer(["KS"])) or 0)
    tied = probe.hand([TIED + "S"])
    tied.box.bataille_tie = True
    dealer = probe.dealer([TIED + "H"])
    options: list[tuple[float, str, list[tuple[str, float, float]]]] = []
    if probe.legal("surrender", tied, dealer):
        gone = probe.hand([TIED + "S"], surrendered=True)
        net = float(probe.settle(gone, dealer) or 0)
        options.append((net, "surrender", [(N_("tie, surrender"), 1.0, net)]))
    if probe.legal("war", tied, dealer, _stake(probe, one)):
        # After the tie: 2 cards of the tied rank are out, the war cards come from what is left.
        left = total - 2
        war_lines: dict[str, list[float]] = {}
        ev = 0.0
        for mine in RANKS:
            for theirs in RANKS:
                # The tied rank (any: ranks are alike) has two cards fewer in the shoe.
                n_mine = per_rank - (2 if mine == TIED else 0)
                n_theirs = per_rank - (2 if theirs == TIED else 0) - (mine == theirs)
                p = n_mine / left * n_theirs / (left - 1)
                hand = probe.hand([TIED + "S"])
                hand.went_to_war, hand.war_card = True, mine + "S"
                opp = probe.dealer([TIED + "H"])
                opp.war_card = theirs + "H"
                net = float(probe.settle(hand, opp) or 0)
                war = probe.hand([TIED + "S"], stake=_stake(probe, one))
                war.went_to_war, war.war_card = True, mine + "S"
                net += float(probe.settle(war, opp, WAR_STAKE) or 0)
                order = BATAILLE_VALUE[mine[0]] - BATAILLE_VALUE[theirs[0]]
                label = (
                    N_("tie, war won")
                    if order > 0
                    else N_("tie, war lost")
                    if order < 0
                    else N_("tie, war tied")
                )
                entry = war_lines.setdefault(label, [0.0, net])
                entry[0] += p
                ev += p * net
        options.append((ev, "war", [(label, p, net) for label, (p, net) in war_lines.items()]))
    if not options:
        options.append((0.0, "none", [("tie", 1.0, 0.0)]))
    tie_ev, choice, tie_lines = max(options, key=lambda o: o[0])
    p_other = (1 - p_tie) / 2
    lines = [(N_("higher card"), p_other, win), (N_("lower card"), p_other, lose)]
    lines += [(label, p_tie * p, net) for label, p, net in tie_lines]
    ev = p_other * (win + lose) + p_tie * tie_ev
    return BatailleReturn(ev, tuple(lines), choice, tuple((name, value) for value, name, _ in options))
