"""A round's facts for the audit dataset: where and when it was dealt, by whom, to whom, and the money
of each stake — wagered, paid by the house, collected by it, and what the rules give.

Built only when a run asks for it (`check --dataset`, `--format html`): the normal replay never makes
these objects. The money comes from the replay itself (the stakes after doubles and splits, every
settlement the log shows, and the settlement the ruleset's `settle` clauses decide), so the dataset says
what the findings say, never a second reading of the log.

With the money come what the audit's theoretical figures and shoe tests read (`validator.audit.theory`,
`validator.audit.shoes`): each decision a player took, with the cards it was taken on (`Decision`), and the
cards the round took out of the shoe, in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal
from typing import Any

ZERO = Decimal(0)


@dataclass(frozen=True, slots=True)
class StakeMoney:
    """One stake of a round: `3`, `3/2` (a split hand), `3:insurance`, `3:lucky_ladies`."""

    stake: str
    bet: str  # "main" or the side bet's name (insurance, lucky_ladies, hyper:21, war, …)
    player: str | None
    wagered: Decimal
    paid: Decimal  # by the house to the player, every `pay` of the stake
    collected: Decimal  # by the house from the player, every `lose` (all the stake when no amount)
    rules_net: Decimal | None  # the player's net the rules give (pay +, lose −, push 0); None: not judged
    # Part of the main game whose house edge `edge` gives (the main stake, doubles and splits; bataille's
    # war stake too, as the game's engine declares in `main_game`), not a bet of its own (insurance, a
    # side bet): the hold's main line counts exactly these, as the theoretical figure does.
    main_game: bool = True

    def __reduce__(self) -> tuple[Any, ...]:
        return _remade(self)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision a player took in the round, with what it was taken on: the hand's cards and the dealer's
    cards in sight at that moment. Its worth against the best play is the mathematics' to say
    (`validator.maths.api.TableTheory.cost`)."""

    hand: str  # the hand (`3`, `3/2`); a bataille decision names its box's hand
    verb: str  # hit, stand, double, split, surrender, even_money; bataille: war, surrender
    cards: tuple[str, ...]  # the hand's cards when it decided
    dealer: tuple[str, ...]  # the dealer's cards in sight (face up) when it decided
    stake: Decimal  # the hand's stake when it decided (before a double adds to it)
    split: bool = False  # a hand of a split pair
    split_aces: bool = False  # a hand of a split pair of aces
    hands: int = 1  # the hands of its box then

    def __reduce__(self) -> tuple[Any, ...]:
        return _remade(self)


@dataclass(frozen=True, slots=True)
class RoundFacts:
    casino: str | None
    table: str | None
    shoe: str | None
    at: str | None
    dealer: str | None
    ruleset: str | None
    boxes: int
    players: tuple[str, ...]
    stakes: tuple[StakeMoney, ...]
    # `explain`'s step-by-step account of the round, kept for rounds with findings only.
    trace: str | None = None
    # The main bets as placed (the record's `bets` on a box, before any double or split): the stake the
    # house edge is a fraction of. None when the record names no amount.
    staked_main: Decimal | None = None
    # Each decision taken, in order (rounds replayed whole).
    decisions: tuple[Decision, ...] = ()
    # The cards the round took out of the shoe, in order, burns and discards included, each two characters
    # ("9HTD8S"): what the shoe tests read (`validator.audit.shoes`). Empty where the round was not replayed.
    cards: str = ""
    # Each box's main bets as placed (the boxes' `staked_main`): the band's variance sums their squares
    # and their products, two boxes of one round moving together (`validator.audit.theory`).
    staked_boxes: tuple[Decimal, ...] = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return _remade(self)


def _remade(made: StakeMoney | RoundFacts | Decision) -> tuple[Any, ...]:
    """How a Dask worker's facts are pickled: as a call to their class with every field. A compiled
    frozen dataclass cannot be restored field by field (its `__setattr__` refuses), which is how
    pickle restores an object that does not say otherwise."""
    return (type(made), tuple(getattr(made, item.name) for item in fields(made)))


def box_players(record: Mapping[str, Any]) -> dict[int, str]:
    """Box → the player who plays it: the seated player of its main bet, else the first one named."""
    players: dict[int, str] = {}
    seated: dict[int, str] = {}
    for bet in _listed(record.get("bets")):
        if not isinstance(bet, dict):
            continue
        player, stake = bet.get("player"), bet.get("stake")
        if not isinstance(player, str) or not isinstance(stake, str) or not stake[:1].isdecimal():
            continue
        box = int(stake[0])
        players.setdefault(box, player)
        if ":" not in stake and bet.get("seated", True):
            seated.setdefault(box, player)
    return {**players, **seated}


def record_facts(
    casino: str | None,
    table: str | None,
    record: Mapping[str, Any],
    ruleset: str | None = None,
    engine: Any = None,
    rules_give: Mapping[str, tuple[str, Decimal]] | None = None,
) -> RoundFacts:
    """The facts of a round record; with the money of each stake when `engine` replayed it whole."""
    players = box_players(record)
    stakes: tuple[StakeMoney, ...] = ()
    bets = [b.get("stake") for b in _listed(record.get("bets")) if isinstance(b, dict)]
    boxes = len({s[0] for s in bets if isinstance(s, str) and s[:1].isdecimal()})
    if engine is not None:
        stakes = tuple(_stakes(engine, players, rules_give or {}))
        boxes = engine.facts.boxes
    staked = _staked_main(record)
    by_box = _staked_boxes(record)
    decisions: tuple[Decision, ...] = ()
    cards = ""
    if engine is not None:
        decisions = tuple(engine.decisions or ())
        cards = "".join(engine.shoe.taken)
    return RoundFacts(
        casino=casino,
        table=table,
        shoe=_text(record.get("shoe")),
        at=_text(record.get("at")),
        dealer=_text(record.get("dealer")),
        ruleset=ruleset,
        boxes=boxes,
        players=tuple(sorted(set(players.values()))),
        stakes=stakes,
        staked_main=staked,
        decisions=decisions,
        cards=cards,
        staked_boxes=by_box,
    )


def _main_bets(record: Mapping[str, Any]) -> Iterator[tuple[int, Decimal]]:
    """Each main bet of the record (a bet on a box, `3`, not a side bet `3:lucky_ladies`): its box and
    amount, in the record's order; an entry that is not a bet, or whose amount is not a number, is passed
    over (the hand-log/schema finding says so)."""
    for bet in _listed(record.get("bets")):
        if not isinstance(bet, dict):
            continue
        stake, amount = bet.get("stake"), bet.get("amount")
        if isinstance(stake, str) and stake.isdecimal() and isinstance(amount, int | float | str):
            try:
                value = Decimal(str(amount))
            except ArithmeticError:
                continue
            yield int(stake), value


def _staked_main(record: Mapping[str, Any]) -> Decimal | None:
    """The sum of the record's main bets; none when it has none. A sum the decimal context refuses (a
    signalling NaN, an overflow) leaves that bet out, as an amount that is not a number is."""
    total, seen = ZERO, False
    for _box, amount in _main_bets(record):
        try:
            total += amount
        except ArithmeticError:
            continue
        seen = True
    return total if seen else None


def _listed(value: Any) -> list[Any]:
    """A record's list (its `bets`), or none when the record holds something else there (`"bets": true`:
    the hand-log/schema finding says so; its facts are read as a round without bets)."""
    return value if isinstance(value, list) else []


def _staked_boxes(record: Mapping[str, Any]) -> tuple[Decimal, ...]:
    """Each box's main bets as placed (every bettor's on the box), in the boxes' order."""
    boxes: dict[int, Decimal] = {}
    for box, amount in _main_bets(record):
        try:
            boxes[box] = boxes.get(box, ZERO) + amount
        except ArithmeticError:
            continue
    return tuple(boxes[box] for box in sorted(boxes))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _stakes(
    engine: Any, players: dict[int, str], rules_give: Mapping[str, tuple[str, Decimal]]
) -> Iterator[StakeMoney]:
    main_game: frozenset[str] = engine.main_game
    for name, wagered in engine.all_stakes().items():
        box, _unused, bet = name.partition(":")
        paid = collected = ZERO
        for settlement in engine.settlements.get(name, ()):
            if settlement.verb == "pay":
                paid += settlement.amount or ZERO
            elif settlement.verb == "lose":
                collected += wagered if settlement.amount is None else settlement.amount
        given = rules_give.get(name)
        rules_net = None
        if given is not None:
            verb, amount = given
            rules_net = amount if verb == "pay" else (-amount if verb == "lose" else ZERO)
        yield StakeMoney(
            stake=name,
            bet=bet or "main",
            player=players.get(int(box.split("/")[0])),
            wagered=Decimal(wagered),
            paid=paid,
            collected=collected,
            rules_net=rules_net,
            main_game=(bet or "main") in main_game,
        )
