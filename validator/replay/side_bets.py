"""Side bets in the replay: lucky ladies (dames de cœur), hyper black jack, 2 + 1 cartes, JP1, égalité.

Mechanics only, as everywhere in `replay`: which cards a box received and in what order, what the
dealer holds, when in the round a side stake was settled, which settlements came before, what the
JP1 meters showed. What a side bet pays, who may bet it, and when and in which order it is settled are
the ruleset's: its `side_bet` blocks (paytables) and its rules on the events `bet`, `late_bet`,
`side_settle` and `jackpot`, and its `settle <side bet> => paytable …` clauses.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol, cast

from validator.casino.cards import normalize
from validator.casino.money import to_decimal
from validator.casino.stakes import Settlement, parse_stake
from validator.dsl.compiler import PRIZES
from validator.dsl.facts import BetFacts, JackpotFacts, SideFacts, StakeFacts
from validator.dsl.functions import EvaluationError
from validator.dsl.model import PaytableOutcome, Ruleset, SideBetDef
from validator.i18n import _
from validator.logs.decode import UNSET, Action, Approve, Bet, Deal, Double, Hit, Lose, Pay, Push, RoundRecord
from validator.replay.state import Box, Dealer, Hand, RoundFacts

if TYPE_CHECKING:
    from validator.replay.judge import Judge
    from validator.replay.state import TableState

# The meters a paytable line may pay out, as `player.other_jackpot_*` report them.
MAIN_PRIZE, SECONDARY_PRIZE = PRIZES
# Player decisions (and the other things a player does once the cards are out): play has begun.
PLAY = frozenset(("hit", "stand", "double", "split", "surrender", "insurance", "even_money", "war"))
SETTLEMENTS = frozenset(("pay", "lose", "push"))
# The side-bet facts of a main bet (`bet.side` none, …).
_MAIN_BET = {"side": None, "case": None, "side_offered": False, "player_main": True, "before_deal": True}


def side_of(kind: str, stakes: Mapping[str, str]) -> tuple[str | None, str | None]:
    """A stake's kind as parsed from the log → (side bet, case), by `stakes`, the side bets' stake names
    as the rulesets declare them (`stake_sides`): `hyper:17` → (hyper_blackjack, 17) where a side_bet
    block says `stake hyper`; `insurance`, `war`, main stakes and unknown names → (None, None)."""
    head, _unused, case = kind.partition(":")
    name = stakes.get(head)
    if name is None:
        return None, None
    return name, (case or None)


def stake_titles(rulesets: Iterable[Ruleset]) -> dict[str, str]:
    """Every stake name the rulesets declare → its side bet's title (the last version's where several
    give one): a report names a stake of a bet this version does not have by its title elsewhere."""
    return {bet.stake_name: bet.title for ruleset in rulesets for bet in ruleset.side_bets.values()}


def stake_sides(rulesets: Iterable[Ruleset]) -> dict[str, str]:
    """hand-log/1 stake names → the side bets that declare them, over `rulesets` (a later one wins)."""
    return {bet.stake_name: name for rs in rulesets for name, bet in rs.side_bets.items()}


# ---- cards -------------------------------------------------------------------------------------


def box_sequences(actions: Iterable[Sequence[Any]]) -> dict[int, list[str]]:
    """The cards each box received, in the order they came out (all its hands together, splits too):
    a box's first two and first three cards are the player's, as the side bets count them."""
    seen: dict[int, list[str]] = {}
    for action in actions:
        verb = action[0]
        if verb in ("deal", "hit") and len(action) >= 3:
            target, card = action[1], action[2]
        elif verb == "double" and len(action) >= 4:
            target, card = action[1], action[3]
        else:
            continue
        if not isinstance(target, str) or target == "D" or not isinstance(card, str):
            continue
        box = target.split("/")[0]
        if box.isdecimal():
            seen.setdefault(int(box), []).append(normalize(card))
    return seen


def split_boxes(actions: Iterable[Sequence[Any]]) -> frozenset[int]:
    """The boxes a round's actions (written as lists) split: their third card goes to one of two hands."""
    found: set[int] = set()
    for action in actions:
        if action and action[0] == "split" and len(action) >= 2 and isinstance(action[1], str):
            box = action[1].split("/")[0]
            if box.isdecimal():
                found.add(int(box))
    return frozenset(found)


_DEALING = frozenset((Deal, Hit, Double))  # told apart by class: see replay.blackjack


def dealt_by_box(actions: Iterable[Action]) -> dict[int, list[str]]:
    """`box_sequences` of a round's actions as the reader decoded them (structs, not lists)."""
    seen: dict[int, list[str]] = {}
    for one in actions:
        if type(one) in _DEALING:
            action = cast(Deal | Hit | Double, one)
            target = action.hand
            if target == "D":
                continue
            box = target.split("/")[0]
            if box.isdecimal():
                cards = seen.get(int(box))
                if cards is None:
                    cards = seen[int(box)] = []
                cards.append(normalize(action.card))
    return seen


class PlayerCards:
    """`player.*`: one box's cards as the side bets read them. `elsewhere`: the meters (prizes) other
    boxes' cards win this round (`prizes_elsewhere`), which consolation lines read."""

    __slots__ = (
        "first_three",
        "first_three_one_hand",
        "first_two",
        "other_jackpot_main",
        "other_jackpot_secondary",
        "other_player_jackpot_main",
        "other_player_jackpot_secondary",
        "with_dealer_first",
    )

    def __init__(
        self,
        box: int,
        sequences: dict[int, list[str]],
        dealer_first: str | None,
        elsewhere: frozenset[str] = frozenset(),
        split_boxes: frozenset[int] = frozenset(),
        elsewhere_other_players: frozenset[str] | None = None,
    ) -> None:
        """`split_boxes`: the boxes that split (a split comes before a box's third card, which then goes
        to one of two hands); `elsewhere_other_players`: the meters won by the boxes of players other
        than the box's seated player (`elsewhere` when they are not told apart)."""
        cards = sequences.get(box, [])
        self.first_two = tuple(cards[:2])
        self.first_three = tuple(cards[:3])
        self.first_three_one_hand = () if box in split_boxes else self.first_three
        # The player's two cards and the dealer's first; empty until all three are out, so that no
        # combination of three cards can hold on two.
        self.with_dealer_first = (*cards[:2], dealer_first) if len(cards) >= 2 and dealer_first else ()
        self.other_jackpot_main = MAIN_PRIZE in elsewhere
        self.other_jackpot_secondary = SECONDARY_PRIZE in elsewhere
        others = elsewhere if elsewhere_other_players is None else elsewhere_other_players
        self.other_player_jackpot_main = MAIN_PRIZE in others
        self.other_player_jackpot_secondary = SECONDARY_PRIZE in others


class DealerCards:
    """`dealer_cards.*`."""

    __slots__ = ("all", "first")

    def __init__(self, cards: Sequence[str]) -> None:
        self.first = cards[0] if cards else None
        self.all = tuple(cards)


# The meters one box's cards win (`prizes_elsewhere`), by what they read: kept for one round.
BoxPrizes = dict[tuple[Any, ...], frozenset[str]]

# A version's progressive side bets (those whose paytables pay a meter out), by the version's identity:
# `prizes_elsewhere` asks at every side stake settled, and `SideBetDef.prizes` walks every paytable line.
_PROGRESSIVE: dict[int, tuple[Ruleset, tuple[SideBetDef, ...]]] = {}


def _progressive(ruleset: Ruleset) -> tuple[SideBetDef, ...]:
    found = _PROGRESSIVE.get(id(ruleset))
    if found is None or found[0] is not ruleset:
        if len(_PROGRESSIVE) >= 64:  # rulesets read from outside, one after another: the oldest goes
            del _PROGRESSIVE[next(iter(_PROGRESSIVE))]
        found = _PROGRESSIVE[id(ruleset)] = (
            ruleset,
            tuple(bet for bet in ruleset.side_bets.values() if bet.prizes),
        )
    return found[1]


def prizes_elsewhere(
    ruleset: Ruleset,
    house: dict[str, Any],
    box: int,
    sequences: dict[int, list[str]],
    dealer_cards: Sequence[str],
    split_boxes: frozenset[int] = frozenset(),
    skip: frozenset[int] = frozenset(),
    staked: Mapping[int, Collection[str]] | None = None,
    won: BoxPrizes | None = None,
) -> frozenset[str]:
    """The meters the cards of boxes other than `box` (and other than those in `skip`) win this round:
    for each other box, the prize of the first line that holds in a paytable of a progressive side bet
    (one whose lines pay a meter out), whether or not that box bet it — unless the version's parameter
    `jackpot.elsewhere_staked` says a box's hand counts only where it staked that bet (`staked`: each box's
    side bets, by name). Which hands win a meter is the paytable's; nothing here names one.

    `won`: the meters each box's cards win, kept for one round of one ruleset and house (`BoxPrizes`):
    a round asks for every box's cards again for each other box and at each side stake it settles."""
    bets = _progressive(ruleset)
    if not bets:
        return frozenset()
    only_staked = bool(ruleset.param("jackpot.elsewhere_staked", False))
    dealt = tuple(dealer_cards)
    first = dealt[0] if dealt else None
    found: set[str] = set()
    for number, cards in sequences.items():
        if number == box or number in skip:
            continue
        mine = frozenset(staked.get(number, ())) if staked is not None and only_staked else None
        # What a box's prizes read: its first three cards, whether it split, the dealer's cards, the bets
        # it staked where only those count (PlayerCards, DealerCards; the other facts are None).
        key = (tuple(cards[:3]), number in split_boxes, dealt, mine)
        hits = won.get(key) if won is not None else None
        if hits is None:
            ctx = {
                "house": house,
                "player": PlayerCards(number, sequences, first, split_boxes=split_boxes),
                "dealer_cards": DealerCards(dealer_cards),
                **dict.fromkeys(("box", "hand", "dealer", "stake", "jackpot")),
            }
            hits = frozenset(
                hit
                for bet in bets
                if not (only_staked and bet.name not in (mine or ()))
                for hit in prize_hits(bet, ctx)
            )
            if won is not None:
                won[key] = hits
        found |= hits
    return frozenset(found)


def player_cards(
    ruleset: Ruleset,
    house: dict[str, Any],
    box: int,
    sequences: dict[int, list[str]],
    dealer_cards: Sequence[str],
    split_boxes: frozenset[int],
    staked: Mapping[int, Collection[str]] | None,
    seated: Mapping[int, Collection[str]],
    won: BoxPrizes | None = None,
) -> PlayerCards:
    """`player.*` of `box` with both sets of meters won elsewhere: by any other box (`other_jackpot_*`), and
    by the boxes of players other than the box's seated player (`other_player_jackpot_*`; `seated`: each
    box's seated players). The replay and the simulator both read a box's cards through here, so that the
    consolation a simulated round pays is the one its replay expects, under whichever reading is chosen.
    `won`: the round's `BoxPrizes` (see `prizes_elsewhere`)."""
    elsewhere = prizes_elsewhere(
        ruleset, house, box, sequences, dealer_cards, split_boxes, staked=staked, won=won
    )
    own = set(seated.get(box, ()))
    # The other boxes of the box's seated player: the meters they win are not another player's.
    same = frozenset(
        number for number, players in seated.items() if number != box and own and not own.isdisjoint(players)
    )
    others = (
        prizes_elsewhere(
            ruleset, house, box, sequences, dealer_cards, split_boxes, same, staked=staked, won=won
        )
        if same
        else elsewhere
    )
    first = dealer_cards[0] if dealer_cards else None
    return PlayerCards(box, sequences, first, elsewhere, split_boxes, others)


def staked_sides(stakes: Iterable[str], sides: Mapping[str, str]) -> dict[int, frozenset[str]]:
    """Each box's side bets, by name, from the round's side stakes (`3:jp1`) and the rulesets' stake
    names (`stake_sides`): what `prizes_elsewhere` reads where a hand counts only on a staked box."""
    found: dict[int, set[str]] = {}
    for stake in stakes:
        number, _colon, kind = stake.partition(":")
        side = side_of(kind, sides)[0]
        if side is not None and number.isdecimal():
            found.setdefault(int(number), set()).add(side)
    return {number: frozenset(names) for number, names in found.items()}


# ---- JP1 meters --------------------------------------------------------------------------------


@dataclass
class Meters:
    """A table's JP1 meters as its last jackpot record showed them, and what happened since."""

    main: Decimal | None = None
    secondary: Decimal | None = None
    stakes: Decimal = Decimal(0)
    paid_main: bool = False
    paid_secondary: bool = False


def jackpot_reading(table: TableState, main_meter: Any, secondary_meter: Any) -> Any:
    """A jackpot record's meters read: the facts of the `jackpot` event, and the table's meters moved
    on. Raises AmountError for a meter that is not an amount."""
    main, secondary = to_decimal(main_meter), to_decimal(secondary_meter)
    meters: Meters = table.jackpot if table.jackpot is not None else Meters()
    reading = JackpotFacts(
        main=main,
        secondary=secondary,
        previous_main=meters.main,
        previous_secondary=meters.secondary,
        stakes=meters.stakes,
        paid_main=meters.paid_main,
        paid_secondary=meters.paid_secondary,
        main_hands=None,
        secondary_hands=None,
    )
    table.jackpot = Meters(main, secondary)
    return reading


# ---- evaluating paytables outside a settlement (the simulator, split checks) ------------------------


def settle_context(
    house: dict[str, Any],
    *,
    box: Box[Any] | None,
    hand: Any,
    dealer: Any,
    stake: Any,
    player: PlayerCards,
    dealer_cards: DealerCards,
    jackpot: Any,
    **more: Any,
) -> dict[str, Any]:
    return {
        "house": house,
        "box": box,
        "hand": hand,
        "dealer": dealer,
        "stake": stake,
        "player": player,
        "dealer_cards": dealer_cards,
        "jackpot": jackpot,
        **more,
    }


def prize_hits(bet: SideBetDef, ctx: dict[str, Any]) -> set[str]:
    """The meters (jackpot.main, jackpot.secondary) a stake's cards win: in each of the side bet's
    paytables, the first line that holds, when that line pays a meter out."""
    hits = set()
    for lines in bet.paytables.values():
        for line in lines:
            try:
                held = line.when(ctx)
            except (EvaluationError, TypeError, AttributeError):
                break
            if held:
                if line.prize is not None:
                    hits.add(line.prize)
                break
    return hits


def expected_outcome(
    judge: Judge, side: str, ctx: dict[str, Any]
) -> tuple[str, Decimal | None, tuple[str, ...]] | None:
    """What the ruleset gives a side stake in this context: (verb, amount, paytable lines), or None
    when no clause settles it or it cannot be computed."""
    decided = judge.expected_settlement(side, ctx)
    if decided is None:
        return None
    _rule, settle, amount = decided
    if isinstance(amount, PaytableOutcome):
        if amount.winnings is None:
            return "lose", None, ()
        return "pay", amount.winnings, amount.lines
    return settle.verb, amount, ()


def jackpot_facts(meters: Meters | None, main_hands: int, secondary_hands: int) -> JackpotFacts:
    return JackpotFacts(
        main=meters.main if meters else None,
        secondary=meters.secondary if meters else None,
        main_hands=main_hands,
        secondary_hands=secondary_hands,
        previous_main=None,
        previous_secondary=None,
        stakes=None,
        paid_main=None,
        paid_secondary=None,
    )


# ---- one round ---------------------------------------------------------------------------------


class RoundHost(Protocol):
    """What the side-bet mechanics see of the round that carries them: its records, its stakes and
    settlements so far, where the deal has got to, and the two ways to have a rule judged. The engines
    (replay.round_base.RoundReplay) provide it; nothing else of theirs is reached."""

    judge: Judge
    table: TableState
    record: RoundRecord

    @property
    def boxes(self) -> Mapping[int, Box[Any]]: ...

    @property
    def hands(self) -> Mapping[str, Hand]: ...

    side_stakes: dict[str, Decimal]
    settlements: dict[str, list[Settlement]]
    listening: dict[str, Any]
    ctx: dict[str, Any]
    facts: RoundFacts
    owed: list[str]
    dealer_started: bool

    @property
    def dealer(self) -> Dealer: ...

    final_main: int  # the main stakes (and insurances) settled so far in the final settlement
    final_main_stakes: int  # the main stakes alone

    def check(self, event: str, at: str | None = None, **namespaces: Any) -> bool: ...

    def all_stakes(self) -> dict[str, Decimal]: ...

    def judge_settlement(self, stake_kind: str, name: str, amount: Decimal, **namespaces: Any) -> None: ...


class RoundSideBets:
    """The side stakes of one round, followed as the engine walks the actions."""

    def __init__(self, engine: RoundHost) -> None:
        self.engine = engine
        self.judge = engine.judge
        self.ruleset: Ruleset = engine.judge.ruleset
        self.actions: list[Action] = engine.record.actions
        self.late: set[str] = set()
        self.approved: set[str] = set()
        self.previous: dict[str, tuple[int, str]] = {}
        self.won: BoxPrizes = {}  # each box's prizes by its cards (`prizes_elsewhere`), for this round

    # ---- bets ----
    def bet_facts(self, kind: str, box_no: int, bet: Bet, entries: list[Bet]) -> dict[str, Any]:
        """The side-bet facts of one entry of the round's bets (`bet.side`, `bet.case`, …)."""
        if kind == "main":
            return _MAIN_BET
        side, case = side_of(kind, self.judge.stake_sides)
        player = bet.player
        mains = [e for e in entries if e.stake == str(box_no)]
        # A player left out (UNSET) is no player: a main bet of anyone on the box then counts.
        player_main = (
            any(e.player is not UNSET and e.player == player for e in mains)
            if player is not UNSET
            else bool(mains)
        )
        return {
            "side": side or kind,
            "case": case,
            "side_offered": side is not None and side in self.ruleset.side_bets,
            "player_main": player_main,
            "before_deal": True,
        }

    # ---- actions ----
    def approve(self, action: Approve) -> None:
        stake = action.stake
        self.first_seen(stake, None)
        self.approved.add(stake)

    def first_seen(self, stake: str, amount: Decimal | None) -> None:
        """A side stake named by an action: one not among the bets was placed after the first card."""
        engine = self.engine
        if stake in engine.side_stakes:
            return

        box_no, _unused, kind = parse_stake(stake)
        side, case = side_of(kind, self.judge.stake_sides)
        if side is None:
            return  # insurance and war stakes are made by actions; an unknown one is the engine's to report
        info = BetFacts(
            amount=amount,
            seated=None,
            main=False,
            side=side,
            case=case,
            side_offered=side in self.ruleset.side_bets,
            player_main=None,
            before_deal=False,
            box_has_main=box_no in engine.boxes and engine.boxes[box_no].stake > 0,
            box_seated=box_no in engine.boxes and engine.boxes[box_no].seated,
            box_exists=1 <= box_no <= engine.table.seats,
        )
        engine.check("late_bet", at=stake, bet=info)
        engine.side_stakes[stake] = amount if amount is not None else Decimal(0)
        self.late.add(stake)

    def settled(self, action: Pay | Lose | Push, index: int) -> None:
        """A side stake (or an insurance) settled by the log, at `index` of the actions."""

        engine = self.engine
        verb, stake = action.verb, action.stake
        box_no, _unused, kind = parse_stake(stake)
        side, case = side_of(kind, self.judge.stake_sides)
        if side is None:
            # An insurance settled before the dealer's second card is not part of the final settlement
            # (its time is its own rule's finding, not a side bet's).
            if (kind == "insurance" or kind.startswith("insurance:")) and len(engine.dealer.card_list) >= 2:
                engine.final_main += 1
            return
        amount = engine.settlements[stake][-1].amount if verb == "lose" else None
        self.first_seen(stake, amount)
        if "side_settle" not in engine.listening:
            return
        dealer = engine.ctx.get("dealer")
        dealer_list = list(dealer.card_list) if dealer is not None else []
        sequences = dealt_by_box(self.actions)
        so_far = dealt_by_box(self.actions[:index])
        later_dealer_card = any(type(a) is Deal and a.hand == "D" for a in self.actions[index + 1 :])
        stakes = engine.all_stakes()
        main_like = [n for n in stakes if ":" not in n or n.endswith(":insurance")]
        previous_box, previous_verb = self.previous.get(side, (0, None))
        info = SideFacts(
            name=side,
            case=case,
            box=box_no,
            verb=verb,
            previous_box=previous_box,
            previous_verb=previous_verb,
            initial_deal_done=not engine.owed,
            play_started=engine.dealer_started or any(a.verb in PLAY for a in self.actions[:index]),
            box_cards=len(so_far.get(box_no, ())),
            dealer_done=len(dealer_list) >= 2 and not later_dealer_card,
            main_settled=engine.final_main,
            main_unsettled=sum(1 for n in main_like if not engine.settlements.get(n)),
            main_stakes_settled=engine.final_main_stakes,
            main_stakes_unsettled=sum(1 for n in main_like if ":" not in n and not engine.settlements.get(n)),
            approved=stake in self.approved,
        )
        player = self._player(box_no, sequences, dealer_list)
        engine.check("side_settle", at=stake, side=info, player=player, dealer_cards=DealerCards(dealer_list))
        self.previous[side] = (box_no, verb)

    def _player(self, box_no: int, sequences: dict[int, list[str]], dealer_list: list[str]) -> PlayerCards:
        boxes = self.engine.boxes
        split = frozenset(number for number, box in boxes.items() if box.hands > 1)
        staked = staked_sides(self.engine.side_stakes, self.judge.stake_sides)
        seated = {number: box.seated_players for number, box in boxes.items()}
        return player_cards(
            self.ruleset, self.judge.house, box_no, sequences, dealer_list, split, staked, seated, self.won
        )

    def mark_split(self, box: Box[Any], index: int) -> None:
        """Before the split at `index` is judged: which of the box's side stakes win by the ruleset's
        paytables on the cards dealt so far (`box.won_side_bets`, their side bets' names)?"""
        won: list[str] = []
        prefix = f"{box.number}:"
        unjudged: set[str] | None = None  # a stake not yet settled says nothing of what is judged
        meters: Any = None
        for stake, amount in self.engine.side_stakes.items():
            if not stake.startswith(prefix):
                continue
            side = side_of(stake[len(prefix) :], self.judge.stake_sides)[0]
            if side is None or side not in self.ruleset.side_bets or side in won:
                continue
            if unjudged is None:  # made for the first side stake of the box only: most splits have none
                unjudged = set(self.judge.unjudged)
                meters = jackpot_facts(self.engine.table.jackpot, 1, 1)
            ctx = self._context(box.number, stake, amount, self.actions[:index], meters)
            if ctx is None:
                continue
            try:
                decided = expected_outcome(self.judge, side, ctx)
            except (EvaluationError, TypeError, AttributeError, ArithmeticError):
                decided = None  # an amount that cannot be known yet: the stake is not seen to win
            if decided is not None and decided[0] == "pay":
                won.append(side)
        if unjudged is not None:
            self.judge.unjudged = unjudged
        box.won_side_bets = tuple(won)

    # ---- end of the round ----
    def _context(
        self,
        box_no: int,
        stake: str,
        amount: Decimal,
        actions: list[Action],
        jackpot: Any,
        settlements: int = 1,
    ) -> dict[str, Any] | None:
        engine = self.engine
        hand = engine.hands.get(str(box_no))
        if hand is None:
            return None  # no cards on the box: nothing a paytable can read
        dealer = engine.ctx.get("dealer")
        dealer_list = list(dealer.card_list) if dealer is not None else []
        sequences = dealt_by_box(actions)
        _unused, _unused, kind = stake.partition(":")
        return settle_context(
            self.judge.house,
            box=hand.box,
            hand=hand,
            dealer=dealer,
            stake=StakeFacts(
                name=stake,
                amount=amount,
                settlements=settlements,
                case=side_of(kind, self.judge.stake_sides)[1],
            ),
            player=self._player(box_no, sequences, dealer_list),
            dealer_cards=DealerCards(dealer_list),
            jackpot=jackpot,
            round=engine.facts,
        )

    def finish(self) -> None:
        """Judge every side stake's settlement by the ruleset's paytables."""

        engine = self.engine
        if not engine.side_stakes:
            return
        meters: Meters | None = engine.table.jackpot
        pending = []
        hits: dict[str, set[str]] = {}
        for stake, amount in engine.side_stakes.items():
            box_no, _seat, kind = parse_stake(stake)
            side, _case = side_of(kind, self.judge.stake_sides)
            if side is None:
                continue
            if side not in self.ruleset.settles_by_stake:
                self.judge.unjudged.add(
                    _("side bet « {title} »: {version} does not settle it; not judged").format(
                        title=self.judge.side_titles.get(side, kind), version=self.ruleset.version
                    )
                )
                continue
            if stake in self.late:
                continue  # placed after the first card: its amount is not known, one finding is enough
            ctx = self._context(box_no, stake, amount, self.actions, jackpot_facts(meters, 0, 0))
            if ctx is None:
                continue
            bet = self.ruleset.side_bets.get(side)
            if bet is not None:
                hits[stake] = prize_hits(bet, ctx)
            pending.append((stake, side, box_no, amount))
        main_hands = sum(1 for h in hits.values() if MAIN_PRIZE in h)
        secondary_hands = sum(1 for h in hits.values() if SECONDARY_PRIZE in h)
        for stake, side, box_no, amount in pending:
            done = engine.settlements.get(stake, ())
            ctx = self._context(
                box_no,
                stake,
                amount,
                self.actions,
                jackpot_facts(meters, main_hands, secondary_hands),
                settlements=len(done),
            )
            assert ctx is not None
            namespaces = {k: v for k, v in ctx.items() if k not in ("house", "stake")}
            engine.judge_settlement(side, stake, amount, **namespaces)

    def after_round(self) -> None:
        """The round is replayed: the stakes of its progressive side bets (those whose paytables pay a
        meter out) join the meters, and a meter whose hand was dealt is paid."""

        engine = self.engine
        if not engine.side_stakes:
            return
        stakes = Decimal(0)
        main = secondary = False
        for stake, amount in engine.side_stakes.items():
            _box, _unused, kind = parse_stake(stake)
            side = side_of(kind, self.judge.stake_sides)[0]
            bet = self.ruleset.side_bets.get(side) if side is not None else None
            if bet is None or not bet.prizes:
                continue
            stakes += amount
            ctx = self._context(_box, stake, amount, self.actions, jackpot_facts(engine.table.jackpot, 1, 1))
            if ctx is not None:
                found = prize_hits(bet, ctx)
                main = main or MAIN_PRIZE in found
                secondary = secondary or SECONDARY_PRIZE in found
        if not stakes and not main and not secondary:
            return
        if engine.table.jackpot is None:
            engine.table.jackpot = Meters()
        meters = engine.table.jackpot
        meters.stakes += stakes
        meters.paid_main = meters.paid_main or main
        meters.paid_secondary = meters.paid_secondary or secondary
