"""Side bets in the replay: lucky ladies (dames de cœur), hyper black jack, 2 + 1 cartes, JP1, égalité.

Mechanics only, as everywhere in `replay`: which cards a box received and in what order, what the
dealer holds, when in the round a side stake was settled, which settlements came before, what the
JP1 meters showed. What a side bet pays, who may bet it, and when and in which order it is settled are
the ruleset's: its `side_bet` blocks (paytables) and its rules on the events `bet`, `late_bet`,
`side_settle` and `jackpot`, and its `settle <side bet> => paytable …` clauses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from validator.dsl.expr import EvaluationError
from validator.dsl.model import PaytableOutcome, Ruleset, SideBetDef
from validator.dsl.vocabulary import SIDE_BET_STAKES, BetFacts, JackpotFacts, SideFacts, StakeFacts
from validator.money import to_decimal
from validator.replay.cards import normalize
from validator.replay.stakes import Settlement, parse_stake
from validator.replay.state import Box, Hand, RoundFacts

if TYPE_CHECKING:
    from validator.replay.judge import Judge
    from validator.replay.state import TableState

# Player decisions (and the other things a player does once the cards are out): play has begun.
PLAY = frozenset(("hit", "stand", "double", "split", "surrender", "insurance", "even_money", "war"))
SETTLEMENTS = frozenset(("pay", "lose", "push"))
# The side-bet facts of a main bet (`bet.side` none, …).
_MAIN_BET = {"side": None, "case": None, "side_offered": False, "player_main": True, "before_deal": True}


def side_of(kind: str) -> tuple[str | None, str | None]:
    """A stake's kind as parsed from the log → (side bet, case): `hyper:17` → (hyper_blackjack, 17),
    `lucky_ladies` → (lucky_ladies, None); `insurance`, `war` and main stakes → (None, None)."""
    head, _, case = kind.partition(":")
    name = SIDE_BET_STAKES.get(head)
    if name is None:
        return None, None
    return name, (case or None)


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
        if box.isdigit():
            seen.setdefault(int(box), []).append(normalize(card))
    return seen


def _three_sevens(cards: Sequence[str]) -> bool:
    return len(cards) >= 3 and all(c[0] == "7" for c in cards[:3])


def _one_suit(cards: Sequence[str]) -> bool:
    return len({c[1] for c in cards[:3]}) == 1


def _one_colour(cards: Sequence[str]) -> bool:
    return len({c[1] in "HD" for c in cards[:3]}) == 1


class PlayerCards:
    """`player.*`: one box's cards as the side bets read them."""

    __slots__ = (
        "first_three",
        "first_two",
        "other_jackpot_main",
        "other_jackpot_secondary",
        "with_dealer_first",
    )

    def __init__(self, box: int, sequences: dict[int, list[str]], dealer_first: str | None) -> None:
        cards = sequences.get(box, [])
        self.first_two = tuple(cards[:2])
        self.first_three = tuple(cards[:3])
        # The player's two cards and the dealer's first; empty until all three are out, so that no
        # combination of three cards can hold on two.
        self.with_dealer_first = (*cards[:2], dealer_first) if len(cards) >= 2 and dealer_first else ()
        others = [seq for number, seq in sequences.items() if number != box and _three_sevens(seq)]
        self.other_jackpot_main = any(_one_suit(seq) for seq in others)
        self.other_jackpot_secondary = any(_one_colour(seq) and not _one_suit(seq) for seq in others)


class DealerCards:
    """`dealer_cards.*`."""

    __slots__ = ("all", "first")

    def __init__(self, cards: Sequence[str]) -> None:
        self.first = cards[0] if cards else None
        self.all = tuple(cards)


# ---- JP1 meters --------------------------------------------------------------------------------


@dataclass
class Meters:
    """A table's JP1 meters as its last jackpot record showed them, and what happened since."""

    main: Decimal | None = None
    secondary: Decimal | None = None
    stakes: Decimal = Decimal(0)
    paid_main: bool = False
    paid_secondary: bool = False


def jackpot_reading(table: TableState, record: dict[str, Any]) -> Any:
    """A jackpot record read: the facts of the `jackpot` event, and the table's meters moved on.
    Raises AmountError for a meter that is not an amount."""
    main, secondary = to_decimal(record["main"]), to_decimal(record["secondary"])
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
    box: Box | None,
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
    record: dict[str, Any]
    boxes: dict[int, Box]
    hands: dict[str, Hand]
    side_stakes: dict[str, Decimal]
    settlements: dict[str, list[Settlement]]
    listening: dict[str, Any]
    ctx: dict[str, Any]
    facts: RoundFacts
    owed: list[str]
    dealer_started: bool

    def check(self, event: str, at: str | None = None, **namespaces: Any) -> bool: ...

    def all_stakes(self) -> dict[str, Decimal]: ...

    def judge_settlement(self, stake_kind: str, name: str, amount: Decimal, **namespaces: Any) -> None: ...


class RoundSideBets:
    """The side stakes of one round, followed as the engine walks the actions."""

    def __init__(self, engine: RoundHost) -> None:
        self.engine = engine
        self.judge = engine.judge
        self.ruleset: Ruleset = engine.judge.ruleset
        self.actions: list[list[Any]] = engine.record.get("actions", [])
        self.late: set[str] = set()
        self.approved: set[str] = set()
        self.previous: dict[str, tuple[int, str]] = {}
        self.final_main = 0

    # ---- bets ----
    def bet_facts(
        self, kind: str, box_no: int, bet: dict[str, Any], entries: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The side-bet facts of one entry of the round's bets (`bet.side`, `bet.case`, …)."""
        if kind == "main":
            return _MAIN_BET
        side, case = side_of(kind)
        player = bet.get("player")
        mains = [e for e in entries if e["stake"] == str(box_no)]
        player_main = any(e.get("player") == player for e in mains) if player is not None else bool(mains)
        return {
            "side": side or kind,
            "case": case,
            "side_offered": side is not None and side in self.ruleset.side_bets,
            "player_main": player_main,
            "before_deal": True,
        }

    # ---- actions ----
    def main_settled(self) -> None:
        """The engine settled a main stake in the final settlement."""
        self.final_main += 1

    def approve(self, action: list[Any]) -> None:
        stake = action[1]
        self.first_seen(stake, None)
        self.approved.add(stake)

    def first_seen(self, stake: str, amount: Decimal | None) -> None:
        """A side stake named by an action: one not among the bets was placed after the first card."""
        engine = self.engine
        if stake in engine.side_stakes:
            return

        box_no, _, kind = parse_stake(stake)
        side, case = side_of(kind)
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

    def settled(self, action: list[Any], index: int) -> None:
        """A side stake (or an insurance) settled by the log, at `index` of the actions."""

        engine = self.engine
        verb, stake = action[0], action[1]
        box_no, _, kind = parse_stake(stake)
        side, case = side_of(kind)
        if side is None:
            if kind == "insurance":
                self.final_main += 1
            return
        amount = engine.settlements[stake][-1].amount if verb == "lose" else None
        self.first_seen(stake, amount)
        if "side_settle" not in engine.listening:
            return
        dealer = engine.ctx.get("dealer")
        dealer_list = list(dealer.card_list) if dealer is not None else []
        sequences = box_sequences(self.actions)
        so_far = box_sequences(self.actions[:index])
        later_dealer_card = any(a[0] == "deal" and a[1] == "D" for a in self.actions[index + 1 :])
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
            play_started=engine.dealer_started or any(a[0] in PLAY for a in self.actions[:index]),
            box_cards=len(so_far.get(box_no, ())),
            dealer_done=len(dealer_list) >= 2 and not later_dealer_card,
            main_settled=self.final_main,
            main_unsettled=sum(1 for n in main_like if not engine.settlements.get(n)),
            approved=stake in self.approved,
        )
        player = PlayerCards(box_no, sequences, dealer_list[0] if dealer_list else None)
        engine.check("side_settle", at=stake, side=info, player=player, dealer_cards=DealerCards(dealer_list))
        self.previous[side] = (box_no, verb)

    def mark_split(self, box: Box, index: int) -> None:
        """Before the split at `index` is judged: does the box's lucky ladies stake win on the cards
        dealt so far (`box.lucky_ladies_won`)?"""
        stake = f"{box.number}:lucky_ladies"
        box.lucky_ladies_won = False
        if stake not in self.engine.side_stakes or "lucky_ladies" not in self.ruleset.side_bets:
            return
        ctx = self._context(box.number, stake, self.engine.side_stakes[stake], self.actions[:index], None)
        if ctx is None:
            return
        decided = expected_outcome(self.judge, "lucky_ladies", ctx)
        box.lucky_ladies_won = decided is not None and decided[0] == "pay"

    # ---- end of the round ----
    def _context(
        self,
        box_no: int,
        stake: str,
        amount: Decimal,
        actions: list[list[Any]],
        jackpot: Any,
        settlements: int = 1,
    ) -> dict[str, Any] | None:
        engine = self.engine
        hand = engine.hands.get(str(box_no))
        if hand is None:
            return None  # no cards on the box: nothing a paytable can read
        dealer = engine.ctx.get("dealer")
        dealer_list = list(dealer.card_list) if dealer is not None else []
        sequences = box_sequences(actions)
        _, _, kind = stake.partition(":")
        return settle_context(
            self.judge.house,
            box=hand.box,
            hand=hand,
            dealer=dealer,
            stake=StakeFacts(name=stake, amount=amount, settlements=settlements, case=side_of(kind)[1]),
            player=PlayerCards(box_no, sequences, dealer_list[0] if dealer_list else None),
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
            box_no, _, kind = parse_stake(stake)
            side, _case = side_of(kind)
            if side is None:
                continue
            if side not in self.ruleset.settles_by_stake:
                self.judge.unjudged.add(
                    f"side bet {kind}: {self.ruleset.version} does not settle it; not judged"
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
        main_hands = sum(1 for h in hits.values() if "jackpot.main" in h)
        secondary_hands = sum(1 for h in hits.values() if "jackpot.secondary" in h)
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
        """The round is replayed: its JP1 stakes join the meters, and a meter whose hand was dealt is paid."""

        engine = self.engine
        if not engine.side_stakes:
            return
        stakes = Decimal(0)
        main = secondary = False
        bet = self.ruleset.side_bets.get("jp1")
        for stake, amount in engine.side_stakes.items():
            _box, _, kind = parse_stake(stake)
            if side_of(kind)[0] != "jp1":
                continue
            stakes += amount
            if bet is not None:
                ctx = self._context(
                    _box, stake, amount, self.actions, jackpot_facts(engine.table.jackpot, 1, 1)
                )
                if ctx is not None:
                    found = prize_hits(bet, ctx)
                    main = main or "jackpot.main" in found
                    secondary = secondary or "jackpot.secondary" in found
        if not stakes and not main and not secondary:
            return
        if engine.table.jackpot is None:
            engine.table.jackpot = Meters()
        meters = engine.table.jackpot
        meters.stakes += stakes
        meters.paid_main = meters.paid_main or main
        meters.paid_secondary = meters.paid_secondary or secondary
