"""What both games' simulators share: the shoe, the players at the table, the record skeletons."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta, tzinfo
from decimal import Decimal
from typing import Any

import orjson

from validator.casino.cards import all_cards
from validator.dsl.facts import BetFacts, DealFacts, RoundFacts, StakeFacts
from validator.dsl.model import PaytableOutcome, Ruleset
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.i18n import _
from validator.logs.decode import ShoeRecord, from_dict
from validator.replay.judge import Judge
from validator.replay.session import read_table
from validator.replay.state import Hands, Shoe, TableState
from validator.simulate.boxes_against import boxes_against, name_boxes, player_box
from validator.simulate.hours import Hours
from validator.simulate.pool import DealerTeam, Roster
from validator.simulate.violations import PlayedViolation, Violations

DEFAULT_CASINO = "Casino de démonstration"  # the table record's casino where no house file names one

# How far one round moves the séance's clock, at most and at least: a new shoe before it (`tick(60, 180)`),
# a jackpot reading (`tick(1, 5)`) and the round itself (`tick()`, at most 110 s; bataille's at least
# 20 s). `simulate` bounds the séance's end with them before playing it (simulate/plan.py).
LONGEST_ROUND_SECONDS = 180 + 5 + 110
SHORTEST_ROUND_SECONDS = 20


class SeanceOverrun(ValidatorError):
    """The clock would pass the last day the séance may reach (`day`), or the year 9999 (`day` None)."""

    def __init__(self, day: date | None) -> None:
        self.day = day
        super().__init__(
            _("the séance runs past {day}").format(day=day.isoformat())
            if day
            else _("the séance runs past the year 9999")
        )


def amount_json(value: Decimal) -> int | str:
    """Whole amounts as JSON numbers, others as exact decimal strings (hand-log/1 accepts both)."""
    return int(value) if value == value.to_integral_value() else format(value.normalize(), "f")


# The last box hand-log/1 names (boxes 1 to 7): a table of more seats is played on these.
LAST_BOX = 7


def bet_facts(amount: Decimal | None, **given: Any) -> BetFacts:
    """The facts the replay gives a bet the simulator weighs placing: by default a seated player's main
    bet of `amount` on a box of the layout, before the first card; `given` changes any of them."""
    bet: dict[str, Any] = {"seated": True, "main": True, "box_has_main": True, "box_seated": True}
    bet |= {"box_exists": True, "side": None, "case": None, "side_offered": False}
    bet |= {"player_main": True, "before_deal": True}
    return BetFacts(amount=amount, **{**bet, **given})


def settle_action(verb: str, name: str, money: Decimal | PaytableOutcome | None) -> list[Any]:
    """A settlement as hand-log/1 writes it: `pay` with its winnings, `push`, `lose` with the amount
    collected when the clause gives one (a surrender's half)."""
    if isinstance(money, PaytableOutcome):
        verb, money = ("pay", money.winnings) if money.winnings is not None else ("lose", None)
    if verb == "pay":
        return ["pay", name, amount_json(money if money is not None else Decimal(0))]
    if verb == "push":
        return ["push", name]
    return ["lose", name] if money is None else ["lose", name, amount_json(money)]


class SimShoe:
    """A shuffled six-deck shoe with its stop card; `draw` reports when the stop card comes out."""

    def __init__(self, rng: random.Random, decks: int, cut_behind: int) -> None:
        self.cards = [card for card in all_cards() for _unused in range(decks)]
        rng.shuffle(self.cards)
        self.pos = 0
        self.cut_at = len(self.cards) - cut_behind
        self.cut_out = False

    def draw(self, actions: list[list[Any]], target: str) -> str:
        if not self.cut_out and self.pos >= self.cut_at:
            self.cut_out = True
            actions.append(["cut_card", target.split("/")[0]])
        card = self.cards[self.pos]
        self.pos += 1
        return card

    def peek(self) -> str:
        """The card the next draw deals in a round given a violation of its own (asked before one is
        planted that deals it: games.blackjack.late_insurance)."""
        return self.cards[self.pos]

    def burn(self, count: int) -> list[str]:
        burned = self.cards[self.pos : self.pos + count]
        self.pos += count
        return burned

    @property
    def left(self) -> int:
        return len(self.cards) - self.pos


class TableSim:
    """One table's séance: the records around the rounds, and the bets of each round."""

    FIRST_DEALER = 101  # the number of the table's first dealer (D-101)

    def __init__(
        self,
        ruleset: Ruleset,
        house: dict[str, Any],
        *,
        seed: int,
        table_id: str,
        start: datetime,
        minimum: Decimal,
        maximum: Decimal,
        seats: int = LAST_BOX,
        until: date | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.house = house
        self.rng = random.Random(seed)
        self.seed = seed
        self.table_id = table_id
        self.clock = start
        # The last local day a record may carry: the end of the version played (None: no end).
        self.until = until
        self.minimum = minimum
        self.maximum = maximum
        self.seats = seats
        self.judge = Judge(ruleset, house, "<simulate>")
        # The game's hands as the version plays them (its declaration's `hands`).
        game = GAMES[ruleset.game]
        self.hands: Hands[Any, Any, Any] = game.load(game.hands).under(ruleset)
        self.judge.explained = False  # broken_by and legal read the rules broken, never their words
        self.state = TableState(table_id, ruleset.game, seats, minimum, maximum, True, ruleset.family, 0)
        self.state.faces_logged = bool(ruleset.param("dealer.hole_card"))  # hand-log/1.1 (table record)
        self.shoe_no = 0
        self.shoe_id = ""
        self.round_no = 0
        self.shoe: SimShoe | None = None
        # A player's strategy (`strategy(hand, dealer, legal) -> decision`); None: random legal play.
        self.strategy: Any = None
        # The violations to plant while playing (simulate --inject): decisions the rules refuse.
        self.violations: Violations | None = None
        self.to_break: list[str] = []  # this round's rules still to break by a decision
        self.round_id = ""  # the round in play
        # Seats the table record declares beyond the boxes played (a table of 8 seats planted by
        # simulate --inject: hand-log/1 has boxes 1 to 7): free seats all the same.
        self.seats_off_layout = 0
        # The last round: where its cut card came out, its farthest seated box at the dealer's right.
        self.last_cut_at: str | None = None
        self.last_rightmost: str | None = None
        # The dealer at the table (simulate.interludes changes dealers).
        self.dealer_id = f"D-{self.FIRST_DEALER}"
        # The table's time zone: each record's UTC offset is the zone's on its date (None: start's).
        self.zone: tzinfo | None = None
        self.casino = DEFAULT_CASINO  # the house file's `casino`, where the séance is played with one
        # simulate --players-pool: the players who come and go (None: each round's drawn afresh).
        self.roster: Roster | None = None
        # simulate --dealers: the dealers who deal in turn (None: one, or the relief the rules test).
        self.team: DealerTeam | None = None
        # simulate --hours: the casino's opening hours, and when the séance in play closes.
        self.hours: Hours | None = None
        self.closes_at: datetime | None = None
        self.day_start = 6 * 60  # the gaming day's start, minutes after midnight (house gaming_day_start)
        self.check_seats()

    def broken_by(self, event: str, ctx: Mapping[str, Any]) -> set[str]:
        """The rules this step would break (none: it is legal)."""
        self.judge.findings = []
        self.judge.check(event, {"house": self.house, "table": self.state, **ctx}, line=0, round_id=None)
        return {finding.rule for finding in self.judge.findings}

    def plan_round(self, round_id: str) -> None:
        """The rules to break by a decision in this round, if the plan gives it a violation."""
        self.round_id = round_id
        self.to_break = self.violations.decisions(round_id) if self.violations is not None else []
        if self.violations is not None and round_id in self.violations.played:
            self.to_break = []  # planted already: played past the cut card

    def breaking(
        self,
        round_id: str,
        candidates: Sequence[tuple[str, str | None, Mapping[str, Any]]],
        whats: list[str] | None = None,
        first_only: bool = False,
        rules: list[str] | None = None,
    ) -> int | None:
        """The first of `candidates` (event, stake, facts) that breaks exactly one of this round's rules
        to break, tried in the plan's order: its index, recorded as planted (`whats`: what each is, in
        words). None: none does. `first_only`: a step that can be broken in nearly every round (the
        deal's order, the dealer's drawing, the bets) is broken only for the round's first rule, so that
        it does not take the rounds of the rules whose occasions are rarer. `rules`: the rules to try
        instead (a record between rounds, the round after the cut card), this round's left as they are."""
        between = rules is not None
        if rules is None:
            rules = self.to_break
        if first_only:
            assert self.violations is not None
            order = self.violations.order(round_id) or []
            rules = [r for r in rules if r == order[0]] if order else []
        for rule in rules:
            for index, (event, stake, ctx) in enumerate(candidates):
                if self.broken_by(event, ctx) == {rule}:
                    assert self.violations is not None
                    what = whats[index] if whats else f"{event} on {stake}, which the rules refuse"
                    self.violations.played[round_id] = PlayedViolation(rule, stake, what)
                    if not between:
                        self.to_break = []
                    return index
        return None

    def reshuffles(self, least_left: int) -> bool:
        """Is a new shoe due before the next round: the cut card out in the last round, or fewer than
        `least_left` cards left? Where the next round plants it (simulate --inject), the round is played
        from the same shoe past the cut card (with enough cards left), if exactly one of the rules to
        break refuses it."""
        shoe = self.shoe
        assert shoe is not None
        if shoe.left < least_left:
            return True
        if not shoe.cut_out:
            return False
        if self.violations is None:
            return True
        upcoming = f"{self.shoe_id}/{self.round_no + 1}"
        alone = self.fewest_boxes_alone()
        due = RoundFacts(players=1, boxes=alone, free_seats=self.seats - alone, reshuffle_due=True)
        whats = [f"round {upcoming} played on after the cut card came out"]
        rules = self.violations.decisions(upcoming)
        picked = self.breaking(upcoming, [("round", None, {"round": due})], whats, rules=rules)
        return picked is None

    def deal_order(self, receivers: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
        """The receivers of the initial deal's first cards (name, hand; "D" the dealer), in the text's
        order, or, where this round plants it (simulate --inject), with two neighbours swapped where
        exactly one of the rules to break refuses the later one's card first."""
        if not self.to_break:
            return receivers
        names = [name for name, _unused in receivers]
        pairs = list(range(len(names) - 1))
        candidates = [
            ("deal", names[i + 1], {"deal": self.swapped_deal(names[i + 1], names[i])}) for i in pairs
        ]
        whats = [f"{names[i + 1]} dealt its card before {names[i]}" for i in pairs]
        picked = self.breaking(self.round_id, candidates, whats, first_only=True)
        if picked is None:
            return receivers
        swapped = list(receivers)
        swapped[picked], swapped[picked + 1] = swapped[picked + 1], swapped[picked]
        return swapped

    @staticmethod
    def swapped_deal(target: str, expected: str) -> DealFacts:
        """The `deal` facts of `target`'s card dealt where `expected` was owed it, as the replay gives them:
        `expected_hand` leaves the dealer's place aside (his own card is his; a box's card when the dealer
        was owed one goes to the next hand owed, which is `target` in the text's order)."""
        hand = "D" if target == "D" else (expected if expected != "D" else target)
        return DealFacts(hand=target, expected=expected, expected_hand=hand)

    def legal(self, event: str, ctx: dict[str, Any]) -> bool:
        """Would the ruleset accept this step? Asked before a simulated player makes a decision."""
        self.judge.findings = []
        return self.judge.check(
            event, {"house": self.house, "table": self.state, **ctx}, line=0, round_id=None
        )

    def settlement(self, kind: str, name: str, amount: Decimal, **namespaces: Any) -> list[Any]:
        """The action that settles stake `name` (of kind `main`, `insurance`, `war` or a side bet) as the
        ruleset's settle clauses give it: the same compiled clauses, read in the same order, that the
        replay judges a log's settlement by. One implementation of the money."""
        stake = StakeFacts(name=name, amount=amount, settlements=1)
        ctx = {"house": self.house, "table": self.state, **namespaces, "stake": stake}
        decided = self.judge.expected_settlement(kind, ctx)
        if decided is None:
            why = "; ".join(sorted(self.judge.unjudged)) or _("no settle clause applies")
            raise ValidatorError(
                _("{version} cannot settle the {kind} stake {name}: {why}").format(
                    version=self.ruleset.version, kind=kind, name=name, why=why
                )
            )
        _rule, settle, money = decided
        return settle_action(settle.verb, name, money)

    def fewest_boxes_alone(self) -> int:
        """The fewest boxes the rules let a player alone at the table play (a house may ask for more)."""
        return self.boxes_alone() or 1

    def boxes_alone(self) -> int | None:
        """The fewest boxes the rules let a player alone play on the table's seats; None: no number."""
        for boxes in range(1, self.seats + 1):
            if self.legal(
                "round", {"round": RoundFacts(players=1, boxes=boxes, free_seats=self.seats - boxes)}
            ):
                return boxes
        return None

    def check_seats(self) -> None:
        """Refuse a table too small for the rules: a player alone must be able to play on its seats."""
        if self.boxes_alone() is None:
            seats = f"{self.seats} seat{'s' if self.seats > 1 else ''}"
            raise ValidatorError(
                _(
                    "a table of {seats}: the rules have a player alone play on "
                    "more boxes than it has; give more seats with --seats"
                ).format(seats=seats)
            )

    def boxes_allowed(self, boxes: int) -> bool:
        """May a player play `boxes` boxes beside another player?"""
        ctx = {
            "round": RoundFacts(players=2, boxes=boxes + 1, free_seats=self.seats - boxes - 1),
            "box": player_box(self.minimum, boxes),
        }
        return self.legal("box", ctx)

    def standing_allowed(self, players: int, boxes: int, free_seats: int) -> bool:
        """May a standing player bet the minimum on a seated player's box, with `free_seats` free?"""
        bet = bet_facts(self.minimum, seated=False)
        ctx = {"round": RoundFacts(players=players, boxes=boxes, free_seats=free_seats), "bet": bet}
        return self.legal("bet", ctx)

    def dealer_must_draw(self) -> bool:
        """Must the dealer draw another card now? Never, unless the game's dealer draws (blackjack)."""
        return False

    def keep_hours(self) -> Iterator[dict[str, Any]]:
        """simulate --hours: where the next round could not be dealt before closing, the table closes
        and opens at the next opening: a new séance (its `table` record, new cards, a new shoe), the
        players gone, the next dealer of the team at the table."""
        if self.hours is None or self.closes_at is None:
            return
        if self.clock + timedelta(seconds=LONGEST_ROUND_SECONDS) < self.closes_at:
            return
        opening = self.hours.next_opening(self.closes_at)
        if self.until is not None and opening.date() > self.until:
            raise SeanceOverrun(self.until)
        self.clock = opening
        self.closes_at = self.hours.closing_after(opening)
        if self.roster is not None:
            self.roster.close()
        if self.team is not None:
            self.dealer_id = self.team.relieve(opening)
        self.last_cut_at = self.last_rightmost = None
        yield self.table_record_as_opened()
        yield self.new_shoe("open")

    def gaming_day(self) -> date:
        """The day a shoe is named by: the casino's gaming day where the séance keeps its hours (a shoe
        opened at 01:00 belongs to the day before, until `day_start`), else the clock's date."""
        if self.hours is None:
            return self.clock.date()
        return (self.clock.replace(tzinfo=None) - timedelta(minutes=self.day_start)).date()

    def tick(self, low: int = 40, high: int = 110) -> str:
        try:
            step = timedelta(seconds=self.rng.randint(low, high))
            if self.zone is None:
                self.clock += step
            else:  # counted in UTC, written at the zone's offset of that moment (summer time or not)
                self.clock = (self.clock.astimezone(UTC) + step).astimezone(self.zone)
        except OverflowError:
            raise SeanceOverrun(None) from None
        if self.until is not None and self.clock.date() > self.until:
            raise SeanceOverrun(self.until)
        return self.clock.isoformat()

    def table_record(self) -> dict[str, Any]:
        record = self.table_record_as_opened()
        if self.violations is not None and (rules := self.violations.between_rounds(self.table_id)):
            self.break_table(record, rules)
        return record

    def break_table(self, record: dict[str, Any], rules: list[str]) -> None:
        """simulate --inject: the table record written against exactly one of `rules`, and the séance
        played as written: a seat more than the text allows (free all the séance: the boxes played stay
        those hand-log/1 names), cards that are not new, or a maximum above the one played."""
        edits: list[tuple[dict[str, Any], str]] = [
            ({"seats": self.seats + 1}, f"a table of {self.seats + 1} seats")
        ]
        edits.append(({"new_cards": False}, "the séance opened with cards not new"))
        # A maximum above the one played (every bet placed stays within both), another multiple of the
        # minimum, or past what the text allows.
        higher = self.maximum + self.minimum
        edits.append(({"maximum": amount_json(higher)}, f"the table opened with a maximum of {higher}"))
        written = [{**record, **edit} for edit, _unused in edits]
        candidates = [("table", None, {"table": read_table(r, 1)}) for r in written]
        picked = self.breaking(self.table_id, candidates, [what for _unused, what in edits], rules=rules)
        if picked is None:
            return
        record.update(written[picked])
        self.seats_off_layout = record["seats"] - self.seats
        self.state = read_table(record, 1)

    def table_record_as_opened(self) -> dict[str, Any]:
        return {
            "type": "table",
            # hand-log/1.1 where the dealer keeps a hole card: the log says it is dealt face down.
            "format": "hand-log/1.1" if self.ruleset.param("dealer.hole_card") else "hand-log/1",
            "table": self.table_id,
            "casino": self.casino,
            "game": self.ruleset.game,
            "ruleset": self.ruleset.family,
            "at": self.clock.isoformat(),
            "seats": self.seats,
            "minimum": amount_json(self.minimum),
            "maximum": amount_json(self.maximum),
            "new_cards": True,
        }

    def new_shoe(self, reason: str) -> dict[str, Any]:
        # The decks the house declares where its text leaves them to it (a `decks` house option: the
        # popular description), else the text's.
        declared = self.house.get("decks") if "decks" in self.ruleset.options else None
        decks = int(declared) if declared is not None else int(self.ruleset.param("shoe.decks", 6))
        total = decks * 52
        least = int(self.ruleset.param("shoe.cut_min_cards") or 0)
        share = self.ruleset.param("shoe.cut_min_share")
        if share is not None:
            least = max(
                least, int((Decimal(total) * share.factor).to_integral_value(rounding="ROUND_CEILING"))
            )
        cut_behind = self.rng.randint(max(least, 52) + 4, max(least, 52) + 40)
        self.shoe = SimShoe(self.rng, decks, cut_behind)
        self.shoe_no += 1
        # Named once, when it opens: a séance running past midnight keeps dealing from the same shoe.
        self.shoe_id = f"{self.table_id}/{self.gaming_day().isoformat()}/{self.shoe_no}"
        burn = self.shoe.burn(int(self.ruleset.param("shoe.burn", 0)))
        backs = self.ruleset.param("shoe.backs")
        record = {
            "type": "shoe",
            "shoe": self.shoe_id,
            "at": self.tick(60, 180),
            "reason": reason,
            "decks": decks,
            "backs": [int(b) for b in backs] if backs else [decks],
            "shuffle": self.rng.choice(["manual", "machine"]),
            "cut_by": self.cutter(reason),
            "cut_card_behind": cut_behind,
            "burn": burn,
        }
        if self.violations is not None and (rules := self.violations.between_rounds(self.shoe_id)):
            self.break_shoe(record, rules, least)
        return record

    def break_shoe(self, record: dict[str, Any], rules: list[str], least: int) -> None:
        """simulate --inject: one field of the shoe's record written against exactly one of `rules`, the
        shoe dealt as written (a card burned more or less, the stop card moved, a shoe of another number
        of decks): a burn too many or too few, the stop card nearer the end than the least depth, or none
        at all (hand-log/1.2), another
        number of decks or colours of backs, the last cut by the dealer or by another player, a record
        that leaves out who cut or the backs."""
        shoe = self.shoe
        assert shoe is not None
        decks, burn, cut_behind = record["decks"], record["burn"], record["cut_card_behind"]
        edits: list[tuple[dict[str, Any], str]] = [
            ({"burn": [*burn, shoe.cards[shoe.pos]]}, f"the shoe burns {len(burn) + 1} cards"),
        ]
        if burn:
            edits.append(({"burn": burn[:-1]}, f"the shoe burns {len(burn) - 1} cards"))
        if least > 0:
            edits.append(({"cut_card_behind": least - 1}, f"the cut card put {least - 1} cards from the end"))
        # hand-log/1.2: no cut card at all (the shoe is then dealt until too few cards are left).
        edits.append(({"cut_card": False, "cut_card_behind": None}, "a shoe without a cut card"))
        edits.append(({"decks": decks + 1, "backs": None}, f"a shoe of {decks + 1} decks"))
        for backs in ([decks], [decks - decks // 2, decks // 2]):
            if sorted(backs, reverse=True) != sorted(record["backs"], reverse=True) and all(backs):
                edits.append(({"backs": backs}, f"a shoe of backs {backs}"))
        # A record that leaves out who cut, or the backs: what the log must say, not said.
        edits.append(({"cut_by": None}, "a shoe record that does not say who made the last cut"))
        edits.append(({"backs": None}, "a shoe record that does not give the backs of its decks"))
        for cutter in ["dealer", *(str(box) for box in range(1, self.seats + 1))]:
            if cutter != record["cut_by"]:
                edits.append(({"cut_by": cutter}, f"the last cut made by {cutter}"))
        written = [{k: v for k, v in {**record, **edit}.items() if v is not None} for edit, _unused in edits]
        candidates = [
            ("shoe", None, {"shoe": Shoe(_shoe_record(r), self.last_cut_at, self.last_rightmost)})
            for r in written
        ]
        picked = self.breaking(self.shoe_id, candidates, [what for _unused, what in edits], rules=rules)
        if picked is None:
            return
        record.clear()
        record.update(written[picked])
        if record["decks"] != decks:  # a shoe of that many decks, shuffled and burned as written
            shoe = self.shoe = SimShoe(self.rng, record["decks"], cut_behind)
            record["burn"] = shoe.burn(len(burn))
        else:
            shoe.pos += len(record["burn"]) - len(burn)  # a card more burned, or one left to deal
        # No cut card (hand-log/1.2): none comes out, and the shoe is dealt until it is exhausted.
        behind = record.get("cut_card_behind")
        shoe.cut_at = len(shoe.cards) + 1 if behind is None else len(shoe.cards) - behind

    def remember_round(self, record: dict[str, Any]) -> dict[str, Any]:
        """Note where the round's cut card came out and its farthest seated box; the record, unchanged."""
        self.last_cut_at = next((str(a[1]) for a in record["actions"] if a[0] == "cut_card"), None)
        seated = [int(b["stake"]) for b in record["bets"] if b["seated"] and ":" not in b["stake"]]
        self.last_rightmost = str(max(seated)) if seated else None
        return record

    def cutter(self, reason: str) -> str:
        """The box whose player makes the last cut. Always a player (the French texts: « présenté à un
        joueur pour une nouvelle et dernière coupe »); the one Ontario's section 5 names where the last
        round shows it: the box the cut card came out before, else the farthest seated box at the
        dealer's right (cut card in his hand, a reshuffle asked for by the supervisor). The draw is made
        every time, so the séance's other cards do not depend on it."""
        drawn = str(self.rng.randint(1, self.seats))
        if reason == "cut_card" and self.last_cut_at not in (None, "D"):
            return str(self.last_cut_at)
        if reason in ("cut_card", "supervisor") and self.last_rightmost is not None:
            return self.last_rightmost
        return drawn

    def bets(self) -> list[dict[str, Any]]:
        """Seated players on some boxes, now and then a standing player riding on a seated box. How many
        boxes a player takes, alone or beside others, and whether a player may stand, are asked of the
        ruleset's `round`, `box` and `bet` rules (with the house's choices), never read by name."""
        lone_min = self.fewest_boxes_alone()
        per_player = 2 if self.boxes_allowed(2) else 1
        if self.roster is not None:
            return self.pool_bets(self.roster, lone_min, per_player)
        n_players = self.rng.randint(1, min(4, self.seats))
        free = list(range(1, self.seats + 1))
        self.rng.shuffle(free)
        bets: list[dict[str, Any]] = []
        for p in range(n_players):
            want = self.rng.randint(1, per_player)
            if n_players == 1:
                want = max(want, lone_min)
            name_them = False
            if p == 0 and self.to_break:  # simulate --inject: too few boxes alone, or too many
                want, name_them = boxes_against(self, n_players, want, lone_min)
            for _unused in range(want):
                if not free:
                    break
                box = free.pop()
                units = self.rng.randint(1, 10)
                amount = min(self.minimum * units, self.maximum)
                bets.append({"stake": str(box), "amount": amount, "player": f"P{p + 1}", "seated": True})
            if name_them:
                name_boxes(self, bets, f"P{p + 1}")
        standing_ok = self.standing_allowed(n_players, len(bets), len(free) + self.seats_off_layout)
        if standing_ok and bets and self.rng.random() < 0.15:
            host = self.rng.choice(bets)
            room = self.maximum - host["amount"]
            if room >= self.minimum:
                bets.append({"stake": host["stake"], "amount": self.minimum, "player": "P9", "seated": False})
        bets.sort(key=lambda b: int(b["stake"]))
        return [{**b, "amount": amount_json(b["amount"])} for b in bets]

    def pool_bets(self, roster: Roster, lone_min: int, per_player: int) -> list[dict[str, Any]]:
        """The bets of the players of the pool seated for this round (simulate.pool), each on his boxes
        (a player alone on the boxes the rules ask of a lone player, taken for the round), now and then
        a member of the pool standing behind one of them. The same rules as `bets` are asked."""
        players = roster.before_round(self.clock, self.seats, per_player)
        free = roster.free_boxes(self.seats)
        self.rng.shuffle(free)
        bets: list[dict[str, Any]] = []
        for p, player in enumerate(players):
            boxes = list(player.boxes)
            want = max(len(boxes), lone_min) if len(players) == 1 else len(boxes)
            name_them = False
            if p == 0 and self.to_break:  # simulate --inject: too few boxes alone, or too many
                want, name_them = boxes_against(self, len(players), want, lone_min)
            while len(boxes) < want and free:
                boxes.append(free.pop())
            for box in boxes[:want]:
                units = self.rng.randint(1, 10)
                amount = min(self.minimum * units, self.maximum)
                bets.append({"stake": str(box), "amount": amount, "player": player.name, "seated": True})
            if name_them:
                name_boxes(self, bets, player.name)
        taken = len({b["stake"] for b in bets})
        free_seats = self.seats - taken + self.seats_off_layout
        standing_ok = self.standing_allowed(len(players), taken, free_seats)
        if standing_ok and bets and self.rng.random() < 0.15:
            host = self.rng.choice(bets)
            behind = roster.standing()
            if behind is not None and self.maximum - host["amount"] >= self.minimum:
                stake = host["stake"]
                bets.append({"stake": stake, "amount": self.minimum, "player": behind, "seated": False})
        bets.sort(key=lambda b: int(b["stake"]))
        return [{**b, "amount": amount_json(b["amount"])} for b in bets]


def write_records(records: Iterator[dict[str, Any]], out: Any) -> int:
    count = 0
    for record in records:
        out.write(orjson.dumps(record))
        out.write(b"\n")
        count += 1
    return count


def _shoe_record(record: dict[str, Any]) -> ShoeRecord:
    """A shoe record the simulator wrote, as the replay's Shoe reads it (the struct the reader makes)."""
    struct = from_dict(record)
    assert isinstance(struct, ShoeRecord)
    return struct
