"""Side bets in simulated séances: placed by the house options, settled by the ruleset's paytables, at
the moment of the round its rules give.

Nothing here names a side bet. Which side bets a table offers is read from the house options: a side
bet of the ruleset with an `<bet>.offered` option when the house sets it, else when the house declares
its stake or limits (`<bet>.stake`, `<bet>.minimum`, `<bet>.maximum`). A bet whose block declares cases
(`stake hyper cases …`) is staked on one or two of them. What each stake gets comes from the ruleset's
`settle … => paytable …` clauses, through the same evaluation the replay uses, on the round's cards.

When a stake is settled is decided by the ruleset's `side_settle` rules, asked as the replay will ask
them: the game's simulator marks the moments of a round where a croupier settles side stakes (blackjack:
once the initial deal is out, once the dealer's hand is made, after the main settlement; bataille: after
the main settlement), and each stake is settled at the latest of them at which the rules accept it (a
supervisor's approval first, where the rules want one), losing stakes before winning ones, from the
dealer's right. A stake that no moment suits is settled at the last, and `check` says which rule it
breaks. A side bet whose paytables pay a meter out is a progressive jackpot: its stakes feed the
simulated meters (JackpotSim).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from validator.dsl.facts import RoundFacts, SideFacts, StakeFacts
from validator.dsl.model import SideBetDef
from validator.replay.side_bets import (
    MAIN_PRIZE,
    PLAY,
    SECONDARY_PRIZE,
    BoxPrizes,
    DealerCards,
    Meters,
    PlayerCards,
    box_sequences,
    expected_outcome,
    jackpot_facts,
    player_cards,
    prize_hits,
    settle_context,
    side_of,
    split_boxes,
    staked_sides,
)
from validator.replay.state import Dealer
from validator.simulate.table import amount_json, bet_facts

if TYPE_CHECKING:
    from validator.replay.state import Box
    from validator.simulate.table import TableSim

# The establishment's starting amounts of a progressive jackpot's meters in simulated séances
# ("montant de départ").
JACKPOT_START = (Decimal("10000"), Decimal("1000"))
# How the simulated jackpot system divides a stake between the two meters (the text leaves it open).
JACKPOT_SHARE_MAIN = Decimal("0.8")
# Settled first at any one moment: losing stakes, then stakes returned, then winning ones.
_VERB_RANK = {"lose": 0, "push": 1, "pay": 2}


def offered(sim: TableSim, name: str) -> bool:
    """Does this table offer the side bet? The ruleset must declare it, and the house choose it."""
    if name not in sim.ruleset.side_bets:
        return False
    house = sim.house
    if f"{name}.offered" in sim.ruleset.options:
        return bool(house.get(f"{name}.offered"))
    return any(house.get(f"{name}.{key}") is not None for key in ("stake", "minimum", "maximum"))


def offered_bets(sim: TableSim) -> list[str]:
    """The side bets the table offers, in the ruleset's order."""
    return [name for name in sim.ruleset.side_bets if offered(sim, name)]


def progressive(sim: TableSim) -> list[str]:
    """The offered side bets whose paytables pay a meter out (a progressive jackpot)."""
    return [name for name in offered_bets(sim) if sim.ruleset.side_bets[name].prizes]


def _low(sim: TableSim, name: str) -> Decimal:
    low = sim.house.get(f"{name}.minimum")
    return Decimal(low) if low is not None else sim.minimum


def _amount(sim: TableSim, name: str) -> Decimal:
    """A stake's amount: the house's fixed stake for the bet, else a few units within its limits."""
    fixed = sim.house.get(f"{name}.stake")
    if fixed is not None:
        return Decimal(fixed)
    low, high = _low(sim, name), sim.house.get(f"{name}.maximum")
    high = Decimal(high) if high is not None else max(low, sim.maximum)
    units = sim.rng.randint(1, 5)
    step = max(low, Decimal(1))
    return min(max(low, step * units), high)


def side_stake(box: Any, bet: SideBetDef, case: str | None = None) -> str:
    """The stake's name in hand-log/1: `3:<stake name>`, or `3:<stake name>:<case>`."""
    return f"{box}:{bet.stake_name}:{case}" if case is not None else f"{box}:{bet.stake_name}"


def place(sim: TableSim, mains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Side bets of seated players on their own boxes, after their main bets."""
    names = offered_bets(sim)
    if not names:
        return []
    placed: list[dict[str, Any]] = []
    for bet in mains:
        if not bet["seated"]:
            continue
        box = bet["stake"]
        for name in names:
            if sim.rng.random() >= 0.35:
                continue
            side = sim.ruleset.side_bets[name]
            if side.cases:
                for case in sim.rng.sample(side.cases, sim.rng.randint(1, 2)):
                    placed.append(beside(side_stake(box, side, case), _amount(sim, name), bet))
            else:
                placed.append(beside(side_stake(box, side), _amount(sim, name), bet))
    return placed


def standing_alone(sim: TableSim, mains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Now and then a standing player's side bet on his own, on a box in play, where the ruleset's bet
    rules let one be placed so (the mise égalité, bataille al. 10)."""
    names = [name for name in offered_bets(sim) if mains and _alone_allowed(sim, name)]
    if not names or sim.rng.random() >= 0.1:
        return []
    side = sim.ruleset.side_bets[names[0]]
    box = sim.rng.choice(mains)["stake"]
    case = sim.rng.choice(side.cases) if side.cases else None
    return [
        {
            "stake": side_stake(box, side, case),
            "amount": amount_json(_amount(sim, names[0])),
            "player": "P8",
            "seated": False,
        }
    ]


def _alone_allowed(sim: TableSim, name: str) -> bool:
    """Do the ruleset's bet rules accept a standing player's bet on `name` alone, on a box with a main bet
    of a seated player (at the least amount the house allows)?"""
    side = sim.ruleset.side_bets[name]
    case = side.cases[0] if side.cases else None
    given = {"seated": False, "main": False, "side": name, "case": case, "player_main": False}
    bet = bet_facts(_low(sim, name), side_offered=True, **given)
    ctx = {"round": RoundFacts(players=1, boxes=1, free_seats=sim.seats - 1), "bet": bet}
    return sim.legal("bet", ctx) and sim.legal("side_bet", ctx)


def beside(stake: str, amount: Decimal, main: dict[str, Any]) -> dict[str, Any]:
    """A side stake placed by the seated player of `main` (a main bet as the log writes it), as the log
    writes it."""
    return {"stake": stake, "amount": amount_json(amount), "player": main["player"], "seated": True}


@dataclass(frozen=True, slots=True)
class Moment:
    """A moment of the round where side stakes may be settled: how far the actions had got, the dealer's
    cards then, and the main stakes settled in the final settlement and still unsettled."""

    index: int
    dealer_cards: tuple[str, ...]
    main_settled: int
    main_unsettled: int
    # The same counts of the main stakes alone, insurances left out (None: as the counts above).
    main_stakes_settled: int | None = None
    main_stakes_unsettled: int | None = None


class RoundSides:
    """One simulated round's side stakes: what each gets, and the actions that settle them."""

    def __init__(
        self,
        sim: TableSim,
        bets: list[dict[str, Any]],
        actions: list[list[Any]],
        seated: Mapping[int, Collection[str]],
    ) -> None:
        """`seated`: each box's seated players (whose other boxes' best hands are no other player's, for
        the JP1 consolation as the ruleset reads it)."""
        self.sim = sim
        self.seated = seated
        self.actions = actions
        self.stakes: dict[str, Decimal] = {}
        for bet in bets:
            if ":" in bet["stake"]:
                self.stakes[bet["stake"]] = self.stakes.get(bet["stake"], Decimal(0)) + Decimal(
                    str(bet["amount"])
                )
        self.moments: list[Moment] = []
        self.initial_dealer = 0
        # Stakes collected whatever the cards (simulate --inject: a side stake settled that was never
        # placed, simulate.late_against).
        self.collected: set[str] = set()
        # A box's cards as the side bets read them, with the meters the other boxes' (and other players')
        # cards win, by the cards on the table: the settlement of a round asks for the same cards again at
        # every verb and moment it weighs (sixty times a round with side bets).
        self.elsewhere: dict[tuple[Any, ...], PlayerCards] = {}
        # The meters each box's cards win, by its cards: read for every other box (`prizes_elsewhere`).
        self.won: BoxPrizes = {}
        # The cards each box received, by the actions' values (asked again at every verb and moment too).
        self.received: dict[tuple[tuple[Any, ...], ...], dict[int, list[str]]] = {}

    def sequences(self, actions: list[list[Any]]) -> dict[int, list[str]]:
        """`box_sequences(actions)`, worked out once for the same actions (a copy: the caller keeps it).
        Only strings are cards and boxes there, and a string equals only a string: actions that compare
        equal give the same cards."""
        key = tuple(map(tuple, actions))
        try:
            found = self.received.get(key)
        except TypeError:  # an unhashable value in an action
            return box_sequences(actions)
        if found is None:
            found = self.received[key] = box_sequences(actions)
        return {box: list(cards) for box, cards in found.items()}

    def side(self, stake: str) -> tuple[str | None, str | None]:
        return side_of(stake.split(":", 1)[1], self.sim.judge.stake_sides)

    def of(self, names: Iterable[str]) -> list[str]:
        """This round's stakes of these side bets, from the dealer's right (box 7) to his left."""
        wanted = set(names)
        found = [s for s in self.stakes if self.side(s)[0] in wanted]
        return sorted(found, key=lambda s: -int(s.split(":")[0]))

    # ---- moments ----
    def mark(
        self,
        dealer: Dealer,
        main_settled: int = 0,
        main_unsettled: int = 0,
        main_stakes: tuple[int, int] | None = None,
    ) -> None:
        """A moment where the croupier may settle side stakes, as the round stands now; `main_stakes`: the
        main stakes alone settled and unsettled, where insurances make them differ from the counts."""
        if not self.moments:
            self.initial_dealer = len(dealer.card_list)
        alone = main_stakes or (None, None)
        self.moments.append(
            Moment(len(self.actions), tuple(dealer.card_list), main_settled, main_unsettled, *alone)
        )

    def mark_wins(self, boxes: Mapping[int, Box[Any]], dealer: Dealer) -> None:
        """Each box's side bets that win on the cards dealt so far (`box.won_side_bets`)."""
        for stake in self.of(self.sim.ruleset.side_bets):
            side = self.side(stake)[0]
            box = boxes[int(stake.split(":")[0])]
            if (
                side is not None
                and side not in box.won_side_bets
                and self.outcome(stake, box, self.actions, dealer)[0] == "pay"
            ):
                box.won_side_bets = (*box.won_side_bets, side)

    def waits_for_dealer(self, boxes: Mapping[int, Box[Any]], dealer: Dealer) -> bool:
        """Is there a stake that the rules do not let be settled now, and whose paytables read the
        dealer's cards? Then the dealer makes his hand, whatever the boxes did."""
        moment = self.moments[-1]
        for stake in self.stakes:
            side = self.side(stake)[0]
            bet = self.sim.ruleset.side_bets.get(side) if side is not None else None
            if bet is None or not any(
                "dealer" in line.reads or "dealer_cards" in line.reads
                for lines in bet.paytables.values()
                for line in lines
            ):
                continue
            verb = self.outcome(stake, boxes[int(stake.split(":")[0])], self.actions, dealer)[0]
            if not self.allowed(stake, verb, moment, approved=False, done=False):
                return True
        return False

    # ---- what a stake gets ----
    def outcome(
        self, stake: str, box: Box[Any], actions: list[list[Any]], dealer: Dealer, jackpot: Any = None
    ) -> tuple[str, Decimal | None]:
        side = self.side(stake)[0] or ""
        ctx = self.context(stake, box, actions, dealer, jackpot)
        try:
            decided = expected_outcome(self.sim.judge, side, ctx)
        except (TypeError, AttributeError, ArithmeticError):
            decided = None  # an amount not known yet (a jackpot's share before the round is over)
        if decided is None:
            return "lose", None
        verb, amount, _lines = decided
        return verb, amount

    def context(
        self, stake: str, box: Box[Any], actions: list[list[Any]], dealer: Dealer, jackpot: Any
    ) -> dict[str, Any]:
        sequences = self.sequences(actions)
        cards = list(dealer.card_list)
        return settle_context(
            self.sim.house,
            box=box,
            hand=box.hand_list[0],
            dealer=dealer,
            stake=StakeFacts(name=stake, amount=self.stakes[stake], settlements=1, case=self.side(stake)[1]),
            player=self.player(box.number, sequences, cards),
            dealer_cards=DealerCards(cards),
            jackpot=jackpot if jackpot is not None else jackpot_facts(None, 0, 0),
            round=getattr(self.sim, "round_facts", None),
        )

    def player(self, box: int, sequences: dict[int, list[str]], cards: list[str]) -> PlayerCards:
        split = split_boxes(self.actions)
        key = (box, tuple((n, tuple(s)) for n, s in sequences.items()), tuple(cards), split)
        found = self.elsewhere.get(key)
        if found is None:
            staked = staked_sides(self.stakes, self.sim.judge.stake_sides)
            found = self.elsewhere[key] = player_cards(
                self.sim.ruleset,
                self.sim.judge.house,
                box,
                sequences,
                cards,
                split,
                staked,
                self.seated,
                self.won,
            )
        return found

    # ---- when ----
    def allowed(self, stake: str, verb: str, moment: Moment, *, approved: bool, done: bool) -> bool:
        """Would the ruleset's `side_settle` rules accept `verb` on `stake` at `moment`, the first side
        stake settled? (`done`: the round's actions are all known, so whether the dealer draws again is
        known too.)"""
        facts = self.settle_facts(stake, verb, moment, (0, None), approved, done)
        return self.sim.legal("side_settle", facts)

    def settle_facts(
        self,
        stake: str,
        verb: str,
        moment: Moment,
        previous: tuple[int, str | None],
        approved: bool,
        done: bool,
    ) -> dict[str, Any]:
        """The facts the `side_settle` rules read of `verb` on `stake` at `moment`, as the replay reads
        them from the log."""
        side, case = self.side(stake)
        box_no = int(stake.split(":")[0])
        before = self.actions[: moment.index]
        cards = list(moment.dealer_cards)
        later_dealer_card = any(
            a[0] in ("deal", "deal_down") and a[1] == "D" for a in self.actions[moment.index :]
        )
        dealer_done = len(cards) >= 2 and (not later_dealer_card if done else not self.sim.dealer_must_draw())
        dealer_started = len(cards) > self.initial_dealer
        info = SideFacts(
            name=side,
            case=case,
            box=box_no,
            verb=verb,
            previous_box=previous[0],
            previous_verb=previous[1],
            initial_deal_done=True,
            play_started=dealer_started or any(a[0] in PLAY for a in before),
            box_cards=len(self.sequences(before).get(box_no, ())),
            dealer_done=dealer_done,
            main_settled=moment.main_settled,
            main_unsettled=moment.main_unsettled,
            main_stakes_settled=(
                moment.main_settled if moment.main_stakes_settled is None else moment.main_stakes_settled
            ),
            main_stakes_unsettled=(
                moment.main_unsettled
                if moment.main_stakes_unsettled is None
                else moment.main_stakes_unsettled
            ),
            approved=approved,
        )
        dealer = self.sim.hands.dealer()
        for card in cards:
            dealer.add(card)
        ctx = {
            "round": getattr(self.sim, "round_facts", None),
            "side": info,
            "player": self.player(box_no, self.sequences(self.actions), cards),
            "dealer": dealer,
            "dealer_cards": DealerCards(cards),
        }
        return ctx

    def settle_all(
        self, boxes: Mapping[int, Box[Any]], dealer: Dealer, meters: Meters | None
    ) -> tuple[bool, bool]:
        """Settle every side stake at its moment (see the module's docstring), on the round's cards.
        Returns whether a progressive jackpot's main and secondary meters were won."""
        if not self.stakes or not self.moments:
            return False, False
        progressive_bets = [n for n, b in self.sim.ruleset.side_bets.items() if b.prizes]
        hits: dict[str, set[str]] = {}
        for stake in self.of(progressive_bets):
            side = self.side(stake)[0]
            assert side is not None
            box = boxes[int(stake.split(":")[0])]
            ctx = self.context(stake, box, self.actions, dealer, jackpot_facts(meters, 0, 0))
            hits[stake] = prize_hits(self.sim.ruleset.side_bets[side], ctx)
        main = sum(1 for h in hits.values() if MAIN_PRIZE in h)
        secondary = sum(1 for h in hits.values() if SECONDARY_PRIZE in h)
        jackpot = jackpot_facts(meters, main, secondary)
        order = list(self.sim.ruleset.side_bets)
        verbs: dict[str, tuple[str, Decimal | None]] = {}
        for stake in self.stakes:
            verbs[stake] = self.outcome(stake, boxes[int(stake.split(":")[0])], self.actions, dealer, jackpot)
            if stake in self.collected:
                verbs[stake] = ("lose", None)

        def key(stake: str) -> tuple[int, int, int]:
            # Stakes of one box on several cases keep the order they were placed in (a stable sort).
            side = self.side(stake)[0]
            return (
                order.index(side) if side in order else len(order),
                _VERB_RANK.get(verbs[stake][0], 1),
                -int(stake.split(":")[0]),
            )

        pending = sorted(self.stakes, key=key)
        last = len(self.moments) - 1
        # Each stake's moment: the latest at which the rules accept it (approved, where they want it).
        when: dict[str, tuple[int, bool]] = {}
        for stake in pending:
            verb = verbs[stake][0]
            for at in range(last, -1, -1):
                moment = self.moments[at]
                if self.allowed(stake, verb, moment, approved=False, done=True):
                    when[stake] = (at, False)
                    break
                if self.allowed(stake, verb, moment, approved=True, done=True):
                    when[stake] = (at, True)
                    break
            else:
                when[stake] = (last, False)
        if self.sim.to_break:
            self.break_timing(pending, verbs, when)
        inserted: dict[int, list[list[Any]]] = {}
        for stake in pending:
            at, approval = when[stake]
            actions = inserted.setdefault(self.moments[at].index, [])
            if approval:
                actions.append(["approve", stake, "S-01"])
            verb, amount = verbs[stake]
            actions.append(_settlement(stake, verb, amount))
        for index in sorted(inserted, reverse=True):
            self.actions[index:index] = inserted[index]
        return main > 0, secondary > 0

    def break_timing(
        self,
        pending: list[str],
        verbs: dict[str, tuple[str, Decimal | None]],
        when: dict[str, tuple[int, bool]],
    ) -> None:
        """simulate --inject: a stake settled at another moment, without the approval the rules want, or
        after the other stakes of its side at its moment, where exactly one of this round's rules to
        break refuses it (see simulate.violations)."""
        # (stake, moment, approved, the stake of its side it now follows at that moment, if moved last)
        options: list[tuple[str, int, bool, str | None]] = []
        for stake in pending:
            at, approval = when[stake]
            options += [(stake, other, False, None) for other in range(len(self.moments)) if other != at]
            if approval:
                options.append((stake, at, False, None))
            side = self.side(stake)[0]
            same = [s for s in pending if s != stake and when[s][0] == at and self.side(s)[0] == side]
            if same and pending.index(stake) < pending.index(same[-1]):
                options.append((stake, at, approval, same[-1]))
        candidates = []
        for stake, at, approved, after in options:
            previous = (int(after.split(":")[0]), verbs[after][0]) if after is not None else (0, None)
            facts_then = self.settle_facts(stake, verbs[stake][0], self.moments[at], previous, approved, True)
            candidates.append(("side_settle", stake, facts_then))
        picked = self.sim.breaking(getattr(self.sim, "round_id", ""), candidates)
        if picked is not None:
            stake, at, approved, after = options[picked]
            when[stake] = (at, approved)
            if after is not None:
                pending.remove(stake)
                pending.insert(pending.index(after) + 1, stake)


def _settlement(stake: str, verb: str, amount: Decimal | None) -> list[Any]:
    if verb == "pay":
        return ["pay", stake, amount_json(amount if amount is not None else Decimal(0))]
    if verb == "push":
        return ["push", stake]
    return ["lose", stake]


class JackpotSim:
    """The simulated progressive jackpot: meters, their readings, stakes added and jackpots paid out."""

    def __init__(self, sim: TableSim) -> None:
        self.sim = sim
        self.meters = Meters(*JACKPOT_START)
        self.shown: tuple[Decimal, Decimal] | None = None
        # The meters as the last reading showed them, with the JP1 stakes bet and the jackpots paid since
        # (as the replay keeps them); `previous`: the same before the last reading.
        self.since = Meters()
        self.previous = Meters()

    def reading(self) -> dict[str, Any] | None:
        """A jackpot record when the meters moved since the last one (and before the first round)."""
        main, secondary = self.meters.main, self.meters.secondary
        assert main is not None and secondary is not None  # the simulator opens its meters at the start
        now = (main, secondary)
        if now == self.shown:
            return None
        self.shown = now
        self.previous, self.since = self.since, Meters(*now)
        return {
            "type": "jackpot",
            "at": self.sim.tick(1, 5),
            "main": amount_json(now[0]),
            "secondary": amount_json(now[1]),
        }

    def after_round(self, stakes: Iterable[Decimal], main_paid: bool, secondary_paid: bool) -> None:
        total = sum(stakes, Decimal(0))
        share = (total * JACKPOT_SHARE_MAIN).quantize(Decimal("0.01"))
        assert self.meters.main is not None and self.meters.secondary is not None
        self.meters.main += share
        self.meters.secondary += total - share
        self.since.stakes += total
        self.since.paid_main = self.since.paid_main or main_paid
        self.since.paid_secondary = self.since.paid_secondary or secondary_paid
        if main_paid:
            self.meters.main = JACKPOT_START[0]
        if secondary_paid:
            self.meters.secondary = JACKPOT_START[1]
