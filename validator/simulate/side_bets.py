"""Side bets in simulated séances: placed by the house options, settled by the ruleset's paytables and
in the order its rules give.

Which side bets a table offers is read from the house options: a side bet of the ruleset whose limits
the house declares (`lucky_ladies.minimum` …), JP1 when the house fixes its stake (`jp1.stake`), the
mise égalité when the house offers it (`egalite.offered`). What each stake gets comes from the
ruleset's `settle … => paytable …` clauses, through the same evaluation the replay uses.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from validator.replay.side_bets import (
    DealerCards,
    Meters,
    PlayerCards,
    box_sequences,
    expected_outcome,
    jackpot_facts,
    prize_hits,
    prizes_elsewhere,
    settle_context,
    side_of,
)
from validator.replay.state import facts
from validator.simulate.table import amount_json

if TYPE_CHECKING:
    from validator.replay.state import Box, Dealer
    from validator.simulate.table import TableSim

HYPER_CASES = ("17", "18", "19", "20", "21", "blackjack", "bust")
# The establishment's starting amounts of the JP1 meters in simulated séances ("montant de départ").
JP1_START = (Decimal("10000"), Decimal("1000"))
# How the simulated JP1 system divides a stake between the two meters (the text leaves it open).
JP1_SHARE_MAIN = Decimal("0.8")


def offered(sim: TableSim, name: str) -> bool:
    """Does this table offer the side bet? The ruleset must declare it, and the house choose it."""
    if name not in sim.ruleset.side_bets:
        return False
    house = sim.house
    if name == "jp1":
        return house.get("jp1.stake") is not None
    if f"{name}.offered" in sim.ruleset.options:
        return bool(house.get(f"{name}.offered"))
    return house.get(f"{name}.minimum") is not None or house.get(f"{name}.maximum") is not None


def _amount(sim: TableSim, name: str) -> Decimal:
    low, high = sim.house.get(f"{name}.minimum"), sim.house.get(f"{name}.maximum")
    low = Decimal(low) if low is not None else sim.minimum
    high = Decimal(high) if high is not None else max(low, sim.maximum)
    units = sim.rng.randint(1, 5)
    step = max(low, Decimal(1))
    return min(max(low, step * units), high)


def place(sim: TableSim, mains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Side bets of seated players on their own boxes, after their main bets."""
    names = [
        n for n in ("lucky_ladies", "hyper_blackjack", "two_plus_one", "jp1", "egalite") if offered(sim, n)
    ]
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
            if name == "jp1":
                placed.append(_bet(f"{box}:jp1", Decimal(sim.house["jp1.stake"]), bet))
            elif name == "hyper_blackjack":
                for case in sim.rng.sample(HYPER_CASES, sim.rng.randint(1, 2)):
                    placed.append(_bet(f"{box}:hyper:{case}", _amount(sim, name), bet))
            else:
                placed.append(_bet(f"{box}:{name}", _amount(sim, name), bet))
    return placed


def standing_egalite(sim: TableSim, mains: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Now and then a standing player's mise égalité on his own, on a box in play (bataille, al. 10)."""
    if not offered(sim, "egalite") or not mains or sim.rng.random() >= 0.1:
        return []
    box = sim.rng.choice(mains)["stake"]
    return [
        {
            "stake": f"{box}:egalite",
            "amount": amount_json(_amount(sim, "egalite")),
            "player": "P8",
            "seated": False,
        }
    ]


def _bet(stake: str, amount: Decimal, main: dict[str, Any]) -> dict[str, Any]:
    return {"stake": stake, "amount": amount_json(amount), "player": main["player"], "seated": True}


class RoundSides:
    """One simulated round's side stakes: what each gets, and the actions that settle them."""

    def __init__(self, sim: TableSim, bets: list[dict[str, Any]], actions: list[list[Any]]) -> None:
        self.sim = sim
        self.actions = actions
        self.stakes: dict[str, Decimal] = {}
        for bet in bets:
            if ":" in bet["stake"]:
                self.stakes[bet["stake"]] = self.stakes.get(bet["stake"], Decimal(0)) + Decimal(
                    str(bet["amount"])
                )
        self.held: list[str] = []

    def of(self, side: str) -> list[str]:
        """This round's stakes of one side bet, from the dealer's right (box 7) to his left."""
        found = [s for s in self.stakes if side_of(s.split(":", 1)[1], self.sim.judge.stake_sides)[0] == side]
        return sorted(found, key=lambda s: -int(s.split(":")[0]))

    def outcome(
        self, stake: str, boxes: dict[int, Box], dealer: Dealer, jackpot: Any = None
    ) -> tuple[str, Decimal | None]:
        box_no = int(stake.split(":")[0])
        box = boxes[box_no]
        ctx = self.context(stake, box, dealer, jackpot)
        decided = expected_outcome(
            self.sim.judge, side_of(stake.split(":", 1)[1], self.sim.judge.stake_sides)[0] or "", ctx
        )
        if decided is None:
            return "lose", None
        verb, amount, _lines = decided
        return verb, amount

    def context(self, stake: str, box: Box, dealer: Dealer, jackpot: Any) -> dict[str, Any]:
        sequences = box_sequences(self.actions)
        kind = stake.split(":", 1)[1]
        return settle_context(
            self.sim.house,
            box=box,
            hand=box.hand_list[0],
            dealer=dealer,
            stake=facts(
                name=stake,
                amount=self.stakes[stake],
                settlements=1,
                case=side_of(kind, self.sim.judge.stake_sides)[1],
            ),
            player=PlayerCards(
                box.number,
                sequences,
                dealer.card_list[0] if dealer.card_list else None,
                prizes_elsewhere(
                    self.sim.ruleset, self.sim.judge.house, box.number, sequences, dealer.card_list
                ),
            ),
            dealer_cards=DealerCards(dealer.card_list),
            jackpot=jackpot if jackpot is not None else jackpot_facts(None, 0, 0),
            round=getattr(self.sim, "round_facts", None),
        )

    def settle(self, stake: str, verb: str, amount: Decimal | None) -> None:
        if verb == "pay":
            self.actions.append(["pay", stake, amount_json(amount if amount is not None else Decimal(0))])
        elif verb == "push":
            self.actions.append(["push", stake])
        else:
            self.actions.append(["lose", stake])

    # ---- blackjack ----
    def after_second_cards(self, boxes: dict[int, Box], dealer: Dealer) -> None:
        """2 + 1 cartes, then dames de cœur: settled once the initial deal is out, before the play."""
        for stake in self.of("two_plus_one"):
            self.settle(stake, *self.outcome(stake, boxes, dealer))
        outcomes = {stake: self.outcome(stake, boxes, dealer) for stake in self.of("lucky_ladies")}
        for stake, (verb, _amount) in outcomes.items():
            if verb == "pay":
                box = boxes[int(stake.split(":")[0])]
                box.won_side_bets = (*box.won_side_bets, "lucky_ladies")
        up = dealer.card_list[0] if dealer.card_list else "--"
        for stake in list(outcomes):
            cards = box_sequences(self.actions).get(int(stake.split(":")[0]), [])[:2]
            # b): a pair of queens of hearts against a dealer's ace or ten waits for his second card.
            if cards.count("QH") == 2 and (up[0] == "A" or (up[0] in "TJQK")):
                self.held.append(stake)
                del outcomes[stake]
        losers = [s for s, (verb, _a) in outcomes.items() if verb != "pay"]
        winners = [s for s, (verb, _a) in outcomes.items() if verb == "pay"]
        for stake in [*losers, *winners]:
            self.settle(stake, *outcomes[stake])

    def needs_dealer(self) -> bool:
        """Stakes that wait for the dealer's cards: hyper black jack, held queens of hearts."""
        return bool(self.held or self.of("hyper_blackjack"))

    def before_main(self, boxes: dict[int, Box], dealer: Dealer) -> None:
        """After the dealer's point, before the main settlement: losing hyper bets, then the queens of
        hearts held against a dealer who made no black jack."""
        for stake in self.of("hyper_blackjack"):
            verb, amount = self.outcome(stake, boxes, dealer)
            if verb != "pay":
                self.settle(stake, verb, amount)
        if not dealer.blackjack:
            for stake in self.held:
                self.settle(stake, *self.outcome(stake, boxes, dealer))

    def after_main(self, boxes: dict[int, Box], dealer: Dealer, meters: Meters | None) -> tuple[bool, bool]:
        """After the main settlement: winning hyper bets, the queens of hearts held against a dealer's
        black jack, then JP1. Returns which JP1 jackpots were won."""
        for stake in self.of("hyper_blackjack"):
            verb, amount = self.outcome(stake, boxes, dealer)
            if verb == "pay":
                self.settle(stake, verb, amount)
        if dealer.blackjack:
            for stake in self.held:
                self.settle(stake, *self.outcome(stake, boxes, dealer))
        return self.settle_jp1(boxes, dealer, meters)

    def settle_jp1(self, boxes: dict[int, Box], dealer: Dealer, meters: Meters | None) -> tuple[bool, bool]:
        jp1 = self.of("jp1")
        bet = self.sim.ruleset.side_bets.get("jp1")
        if not jp1 or bet is None:
            return False, False
        hits = {
            s: prize_hits(
                bet, self.context(s, boxes[int(s.split(":")[0])], dealer, jackpot_facts(meters, 0, 0))
            )
            for s in jp1
        }
        main = sum(1 for h in hits.values() if "jackpot.main" in h)
        secondary = sum(1 for h in hits.values() if "jackpot.secondary" in h)
        facts_now = jackpot_facts(meters, main, secondary)
        for stake in jp1:
            verb, amount = self.outcome(stake, boxes, dealer, facts_now)
            if verb == "pay" and hits[stake]:
                # 8°: the two best hands are paid after the supervisor's review of the video.
                self.actions.append(["approve", stake, "S-01"])
            self.settle(stake, verb, amount)
        return main > 0, secondary > 0

    # ---- bataille ----
    def settle_bataille(self, boxes: dict[int, Box], dealer: Dealer) -> None:
        for stake in self.of("egalite"):
            self.settle(stake, *self.outcome(stake, boxes, dealer))


class JackpotSim:
    """The simulated JP1 system: meters, their readings, stakes added and jackpots paid out."""

    def __init__(self, sim: TableSim) -> None:
        self.sim = sim
        self.meters = Meters(*JP1_START)
        self.shown: tuple[Decimal, Decimal] | None = None

    def reading(self) -> dict[str, Any] | None:
        """A jackpot record when the meters moved since the last one (and before the first round)."""
        main, secondary = self.meters.main, self.meters.secondary
        assert main is not None and secondary is not None  # the simulator opens its meters at the start
        now = (main, secondary)
        if now == self.shown:
            return None
        self.shown = now
        return {
            "type": "jackpot",
            "at": self.sim.tick(1, 5),
            "main": amount_json(now[0]),
            "secondary": amount_json(now[1]),
        }

    def after_round(self, stakes: Iterable[Decimal], main_paid: bool, secondary_paid: bool) -> None:
        total = sum(stakes, Decimal(0))
        share = (total * JP1_SHARE_MAIN).quantize(Decimal("0.01"))
        assert self.meters.main is not None and self.meters.secondary is not None
        self.meters.main += share
        self.meters.secondary += total - share
        if main_paid:
            self.meters.main = JP1_START[0]
        if secondary_paid:
            self.meters.secondary = JP1_START[1]
