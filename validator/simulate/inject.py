"""Planting known violations in simulated logs: `simulate --inject RULE[,RULE…] --rate R`.

Each planter edits one round of a clean log so that it breaks exactly one rule, and says which stake
the finding will name. No rule is known here by name: what a rule can be broken by is read from the
rule itself, by kind (`planters`), and the edit is decided from the game's mechanics, never by running
the checker on the log:

- payouts: a rule with `settle` clauses. The round's hands, dealer and side stakes are rebuilt from the
  record (simulate.settled) and put to the ruleset's clauses, as the simulator did when it played them:
  a stake the rule's clause settles is then paid more, or collected in part, or a stake returned is
  collected (the verb kept where the law has one, so that no timing rule reads the edit). A clause
  that reads the settlement logged (`stake.verb`, `stake.paid`) is broken by logging one it refuses: a
  payment at one of the payout ratios the version's parameters declare, a push or a collection. Each
  edit is put to the clauses as `check` will judge it (simulate.settled.judging), and kept only where
  the rule planned judges it, and finds it wrong.
- the order of the final settlement: a rule checked at each final settlement (event `settle`); two
  neighbouring final settlements of different boxes swapped.
- a stake settled once: a rule checked at each stake's end (`stake_end`) on `stake.settlements`; a
  collected stake collected again.
- the table's limits: a rule checked at each box (`box`) that bounds `box.stake` from above; a box's
  money multiplied past the maximum (the table's, or the text's own where the rule reads one).

The steps the simulator takes while it plays are broken there, by the plan both share
(simulate.violations): the players' decisions (surrender, split, double, a card, insurance, even
money, bataille's war), side-bet timing, the dealer's drawing, the deal's order, bataille's war burns,
play out of turn, a bust left on the layout, the table record (seats, cards), a shoe's record (burns,
stop card, decks, backs, cutter), a round past the cut card, the bets (simulate.bets_against, a side
bet the table does not offer: simulate.offered_against), a side stake settled that was never placed
(simulate.late_against), a player's boxes (simulate.boxes_against: too many, found at each), the
records between rounds (limits, a new dealer's burn, a jackpot reading) and a card out of the shoe
(simulate.interludes), and a losing insurance collected late (games.blackjack.late_insurance);
this module writes down what the simulator planted (a violation on a shoe or the table record with no
round and no stake, as `check` reports it). At most one violation is planted per round, shoe or table
record, so that the findings can be compared with the truth.
`injectable` lists the rules that can be broken.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from validator.casino.cards import normalize
from validator.dsl.ast import Name, Ratio
from validator.dsl.expr import names_in, unparse
from validator.dsl.model import CheckDef, Rule, Ruleset, SettleDef
from validator.errors import ValidatorError
from validator.games import GAMES
from validator.i18n import _
from validator.replay.judge import Judge
from validator.replay.side_bets import Meters
from validator.replay.state import Hands
from validator.simulate.settled import Judged, Rebuild, judging, rebuild, settled_by
from validator.simulate.table import amount_json
from validator.simulate.violations import Violations, between_key, breaks_a_decision, names_read

# The verbs that give a card to a hand or the dealer without a decision (face up, or face down: 1.1).
DEALS = ("deal", "deal_down")


@dataclass(frozen=True)
class Planted:
    """One violation written into the log: where it is and what finding it must give."""

    rule: str
    round: str | None  # None: a violation on a record between rounds (a shoe's)
    line: int
    stake: str | None
    what: str
    # The other stakes the same violation is found at, each a finding of the rule at this round and
    # line (a player on too many boxes: his other boxes); mostly none.
    also: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Edit:
    record: dict[str, Any]
    stake: str | None  # None: a finding on a card, which names no stake
    what: str


# An injector gets a deep-enough copy of a round record and the table's limits; None: not possible here.
Injector = Callable[[dict[str, Any], "RoundView", random.Random], Edit | None]


@dataclass(frozen=True, slots=True)
class GameInjection:
    """What `simulate --inject` needs of a game (its declaration's `inject`): how each action of a round's
    record changes the round rebuilt from it (`rebuild`: a card dealt, a decision); the planters of the
    rules only its rounds can break, by the kind of rule (`planters`); those of them that read only the
    record, no settle clause (`mechanical`)."""

    rebuild: Rebuild
    planters: Callable[[Rule], list[Injector]]
    mechanical: frozenset[Injector] = frozenset()


# How `check` would judge a stake of the round whose first settlement the log showed as (verb, paid).
JudgedAs = Callable[[str, str, Decimal | None], Judged | None]


def _not_judged(_stake: str, _verb: str, _paid: Decimal | None) -> Judged | None:
    return None


def _amount(value: Any) -> Decimal:
    return Decimal(str(value))


def _main(stake: str) -> bool:
    return ":" not in stake


class RoundView:
    """What a clean round shows: each hand's cards and stake, the dealer's cards, the settlements."""

    def __init__(self, record: dict[str, Any], maximum: Decimal, hands: Hands[Any, Any, Any]) -> None:
        self.record = record
        self.maximum = maximum
        self.hands = hands  # the game's, as the version plays them
        self.actions: list[list[Any]] = record["actions"]
        self.box_bets: dict[str, Decimal] = {}
        for bet in record["bets"]:
            self.box_bets[bet["stake"]] = self.box_bets.get(bet["stake"], Decimal(0)) + _amount(bet["amount"])
        self.cards: dict[str, list[str]] = {}
        self.stakes: dict[str, Decimal] = {s: a for s, a in self.box_bets.items() if _main(s)}
        self.surrendered: set[str] = set()
        self.even_money: set[str] = set()
        self.insured: dict[str, Decimal] = {}
        self.war_stakes: dict[str, Decimal] = {}
        self.last_decision = -1
        # Stake → (the rule whose clause settles it, the kind of stake), for payout planters; how `check`
        # judges a settlement the log shows; the payout ratios the version's parameters declare.
        self.settled: dict[str, tuple[str, str]] = {}
        self.judged: JudgedAs = _not_judged
        self.ratios: tuple[Ratio, ...] = ()
        for index, action in enumerate(self.actions):
            self._read(index, action)
        # The final settlement of each stake: the last one logged for it.
        self.final: dict[str, int] = {}
        for index, action in enumerate(self.actions):
            if action[0] in ("pay", "lose", "push"):
                self.final[action[1]] = index

    def amount_of(self, stake: str) -> Decimal | None:
        """The money a stake puts at risk: a hand's (doubles and splits in), an insurance's, a side stake's
        or a war stake's."""
        if stake in self.stakes:
            return self.stakes[stake]
        box, _unused, kind = stake.partition(":")
        if kind == "insurance":
            return self.insured.get(box)
        if kind == "war":
            return self.war_stakes.get(box)
        return self.box_bets.get(stake)

    def _read(self, index: int, action: list[Any]) -> None:
        verb = action[0]
        if verb in DEALS:
            self.cards.setdefault(action[1], []).append(normalize(action[2]))
        elif verb == "hit":
            self.cards[action[1]].append(normalize(action[2]))
        elif verb == "double":
            self.stakes[action[1]] += _amount(action[2])
            self.cards[action[1]].append(normalize(action[3]))
        elif verb == "split":
            box = action[1].split("/")[0]
            count = sum(1 for name in self.cards if name.split("/")[0] == box)
            new = f"{box}/{count + 1}"
            self.cards[new] = [self.cards[action[1]].pop()]
            self.stakes[new] = _amount(action[2])
        elif verb == "surrender":
            self.surrendered.add(action[1])
        elif verb == "even_money":
            self.even_money.add(action[1])
        elif verb == "insurance":
            self.insured[action[1]] = _amount(action[2])
        elif verb == "war":
            self.war_stakes[action[1].split("/")[0]] = _amount(action[2])
        if verb in ("hit", "stand", "double", "split", "surrender"):
            self.last_decision = index

    def settled_in_play(self, name: str) -> bool:
        """Is the hand settled while the players play, outside the final settlement (by its cards, as the
        game's hands say: blackjack's bust)?"""
        hand = self.hands.hand(name, self.hands.box(0), Decimal(0))
        for card in self.cards.get(name, []):
            hand.add(card)
        return bool(hand.settled_in_play())

    def finals(self, verb: str) -> Iterator[tuple[int, list[Any]]]:
        for index in self.final.values():
            action = self.actions[index]
            if action[0] == verb and index > self.last_decision:
                yield index, action


def choice(rng: random.Random, options: list[Any]) -> Any | None:
    return rng.choice(options) if options else None


# ---- procedure ----
def _settle_out_of_order(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """Swap two neighbouring final settlements of different boxes: the later-paid box is the finding."""
    # Surrendered and busted hands and even-money payments are settled when they happen, outside the
    # order of the final settlement; only stakes that wait for the dealer are swapped.
    final = sorted(
        i
        for s, i in view.final.items()
        if _main(s)
        and i > view.last_decision
        and s not in view.surrendered
        and not view.settled_in_play(s)
        and s.split("/")[0] not in view.even_money
    )
    pairs = [
        (a, b)
        for a, b in pairwise(final)
        if b == a + 1 and int(view.actions[a][1].split("/")[0]) > int(view.actions[b][1].split("/")[0])
    ]
    picked = choice(rng, pairs)
    if picked is None:
        return None
    a, b = picked
    actions = record["actions"]
    actions[a], actions[b] = actions[b], actions[a]
    return Edit(record, actions[b][1], f"{actions[a][1]} settled before {actions[b][1]}")


def _settled_twice(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    picked = choice(rng, [(i, a) for i, a in view.finals("lose") if _main(a[1]) and len(a) == 2])
    if picked is None:
        return None
    index, action = picked
    record["actions"].insert(index + 1, list(action))
    return Edit(record, action[1], f"{action[1]} collected twice")


def _bet_taken_late(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """hand-log/1.2: a box's stake doubled by a bet taken after its first card (`["bet", …]`), its
    winnings doubled with it, so that only the bet's time breaks a rule. Boxes whose money other actions
    tie to the stake (a double, a split, an insurance, a surrender, even money, a war) are left alone, and
    so is one that the doubled stake would take past the maximum."""
    tied = {str(a[1]).split("/")[0].split(":")[0] for a in view.actions if a[0] in _TIED_TO_THE_STAKE}
    boxes = [
        s for s, amount in view.box_bets.items() if _main(s) and s not in tied and amount * 2 <= view.maximum
    ]
    box = choice(rng, sorted(boxes))
    if box is None:
        return None
    actions = record["actions"]
    first = next((i for i, a in enumerate(actions) if a[0] == "deal" and a[1] == box), None)
    if first is None:
        return None
    bettor = next(b for b in record["bets"] if b["stake"] == box)
    late: list[Any] = ["bet", box, amount_json(view.box_bets[box])]
    if "player" in bettor:
        late += [bettor["player"], bettor.get("seated", True)]
    for action in actions:
        if action[0] == "pay" and action[1] == box:
            action[2] = amount_json(_amount(action[2]) * 2)
    actions.insert(first + 1, late)
    return Edit(record, box, f"box {box}'s stake doubled by a bet taken after its first card")


# The actions whose amounts are tied to a box's stake (_bet_taken_late leaves their boxes alone).
_TIED_TO_THE_STAKE = frozenset(("double", "split", "insurance", "surrender", "even_money", "war"))


def _over_the_maximum(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """Multiply one box's money by a whole factor that takes its stake past the maximum (the table's, or the
    text's own where the rule reads one)."""
    boxes = [s for s in view.box_bets if _main(s)]
    box = choice(rng, boxes)
    if box is None:
        return None
    factor = int(view.maximum // view.box_bets[box]) + 1

    # The stakes tied to the main one (war, insurance at half of it) grow with it, so only the limit breaks.
    def mine(stake: Any) -> bool:
        return isinstance(stake, str) and (
            stake.split("/")[0] == box or stake in (f"{box}:war", f"{box}:insurance")
        )

    def scaled(value: Any) -> int | str:
        return amount_json(_amount(value) * factor)

    for bet in record["bets"]:
        if bet["stake"] == box:
            bet["amount"] = scaled(bet["amount"])
    for action in record["actions"]:
        # The amounts logged with these verbs are the box's money (a `lose` with an amount: a surrender).
        if (
            action[0] in ("double", "split", "pay", "lose", "war", "insurance")
            and mine(action[1])
            and len(action) > 2
        ):
            action[2] = scaled(action[2])
    return Edit(record, box, f"box {box} staked {factor} times over, past the maximum {view.maximum}")


def _settled_before_dealer_done(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """Move the first stake of the final settlement to just before the dealer's last card, in a round
    with no insurance or side stake (whose own timing rules read the main settlement)."""
    actions = view.actions
    if view.insured or any(":" in stake for stake in view.box_bets):
        return None
    dealer_cards = [i for i, a in enumerate(actions) if a[0] in DEALS and a[1] == "D"]
    if not dealer_cards or dealer_cards[-1] <= view.last_decision:
        return None
    last_card = dealer_cards[-1]
    final = sorted(
        i
        for s, i in view.final.items()
        if _main(s) and i > last_card and s not in view.surrendered and not view.settled_in_play(s)
    )
    if not final or any(a[0] in ("pay", "lose", "push") for a in actions[last_card : final[0]]):
        return None
    first = final[0]
    moved = record["actions"].pop(first)
    record["actions"].insert(last_card, moved)
    return Edit(record, moved[1], f"{moved[1]} settled before the dealer's last card")


def _face_flipped(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """A card's face turned the other way (hand-log/1.1): the round's face-down card dealt face up (its
    reveal dropped), or, in a round with none, the dealer's first card dealt face down and revealed at
    once. The finding is the card's, which names no stake."""
    actions = record["actions"]
    down = [i for i, a in enumerate(actions) if a[0] == "deal_down"]
    if down:
        index = down[0]
        card = actions[index]
        reveal = next((i for i, a in enumerate(actions) if a[0] == "reveal" and a[1:] == card[1:]), None)
        if reveal is not None:
            del actions[reveal]
        actions[index] = ["deal", *card[1:]]
        return Edit(record, None, f"{card[2]}, dealt face down to {card[1]}, dealt face up")
    first = next((i for i, a in enumerate(actions) if a[0] == "deal" and a[1] == "D"), None)
    if first is None:
        return None
    card = actions[first]
    actions[first : first + 1] = [["deal_down", *card[1:]], ["reveal", *card[1:]]]
    return Edit(record, None, f"the dealer's {card[2]} dealt face down")


# Planters that read only the record (no settle clause): the shared ones, and those the games declare.
_MECHANICAL = frozenset(
    {
        _face_flipped,
        _settle_out_of_order,
        _settled_twice,
        _over_the_maximum,
        _settled_before_dealer_done,
    }
)


def _amounts_of_the_text(ruleset: Ruleset, rule_id: str) -> Decimal:
    """The largest amount among the parameters a rule reads (0: none): a limit the text fixes itself, such
    as a licence's maximum, against which a stake past the table's own maximum may still be allowed."""
    largest = Decimal(0)
    for checks in ruleset.checks_by_event.values():
        for rule, check in checks:
            if rule.id != rule_id:
                continue
            nodes = [check.require_node] + ([check.guard_node] if check.guard_node is not None else [])
            for node in nodes:
                for name in names_in(node):
                    if not isinstance(name, Name) or not name.path.startswith("param."):
                        continue
                    parameter = ruleset.parameters.get(name.path.removeprefix("param."))
                    value = parameter.value if parameter is not None else None
                    if isinstance(value, Decimal) and value.is_finite():
                        largest = max(largest, value)
    return largest


def _outcome(action: list[Any], amount: Decimal) -> tuple[str, Decimal]:
    """A settlement as the replay compares it: a loss or a push with the stake's amount where it names
    none."""
    verb = action[0]
    if verb in ("pay", "lose") and len(action) > 2:
        return verb, _amount(action[2])
    return verb, (Decimal(0) if verb == "pay" else amount)


def _breaks_only(view: RoundView, rule_id: str, edited: list[Any], amount: Decimal) -> bool:
    """Does `check` judge the edited settlement by `rule_id`'s clause, and find it wrong? (A clause that
    reads the settlement logged could otherwise take the stake over from the rule planned.)"""
    verb, paid = _outcome(edited, amount)
    judged = view.judged(edited[1], verb, paid if verb == "pay" else None)
    return judged is not None and judged.rule == rule_id and (judged.verb, judged.amount) != (verb, paid)


def _order_kept(view: RoundView, index: int, edited: list[Any]) -> bool:
    """Does the final settlement keep its order with the settlement at `index` edited? Where it collects
    every losing stake before it pays or returns any other (as a round with the hyper black jack must,
    6°), an edit that collects a stake the text pays or returns, or pays one it collects, among the
    others would break that order too: a second finding the plan did not make. Elsewhere the order the
    rules ask is the boxes', which no verb changes."""
    finals = sorted(
        i
        for stake, i in view.final.items()
        if i > view.last_decision and (_main(stake) or stake.endswith(":war"))
    )

    def losers_first(settled: list[list[Any]]) -> bool:
        # The losing stakes, then the others, each from the dealer's right (box 7) to his left.
        keys = [(action[0] != "lose", -int(str(action[1]).split("/")[0].split(":")[0])) for action in settled]
        return keys == sorted(keys)

    before = [view.actions[i] for i in finals]
    after = [edited if i == index else view.actions[i] for i in finals]
    return not losers_first(before) or losers_first(after)


def _first_settlements(view: RoundView, stakes: set[str]) -> list[tuple[str, int]]:
    """The index of each of these stakes' first settlement logged (the one `check` judges), by stake."""
    first: dict[str, int] = {}
    for index, action in enumerate(view.actions):
        if action[0] in ("pay", "lose", "push") and action[1] in stakes:
            first.setdefault(action[1], index)
    return sorted(first.items())


def _payout(rule_id: str) -> Injector:
    """Change the settlement of a stake that `rule_id`'s clause settles (the first one logged for it)."""

    def inject(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
        mine = {stake for stake, (rule, _kind) in view.settled.items() if rule == rule_id}
        picked = choice(rng, _first_settlements(view, mine))
        if picked is None:
            return None
        stake, index = picked
        action = view.actions[index]
        amount = view.amount_of(stake)
        if amount is None:
            return None
        if action[0] == "pay":
            edited = ["pay", stake, amount_json(_amount(action[2]) + amount)]
            what = f"{stake} paid {amount_json(amount)} more than the text gives"
        elif action[0] == "lose" and len(action) > 2 and _amount(action[2]) != amount:
            edited = ["lose", stake]
            what = f"{stake} collected whole where the text takes part of it"
        elif action[0] == "lose":
            edited = ["lose", stake, amount_json(amount / 2)]
            what = f"{stake} collected in part where the text takes it whole"
        else:
            edited = ["lose", stake]
            what = f"{stake} collected where the text returns it"
        if not _breaks_only(view, rule_id, edited, amount) or not _order_kept(view, index, edited):
            return None
        record["actions"][index] = edited
        return Edit(record, stake, what)

    return inject


def _misread(rule_id: str, kinds: frozenset[str]) -> Injector:
    """Settle a stake as a clause of `rule_id` that judges the settlement logged (`stake.verb`,
    `stake.paid`) refuses it: among the settlements a stake of a kind the clause settles can be given
    wrongly (a payment at each payout ratio the version's parameters declare, a push, a collection),
    one that `check` judges by that clause and finds wrong, chosen at random."""

    def inject(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
        stakes = {stake for stake, (_rule, kind) in view.settled.items() if kind in kinds}
        options: list[tuple[int, list[Any], str]] = []
        for stake, index in _first_settlements(view, stakes):
            amount = view.amount_of(stake)
            if amount is None:
                continue
            candidates = [
                (["pay", stake, amount_json(amount * ratio.factor)], f"paid at {ratio}")
                for ratio in view.ratios
            ]
            candidates += [(["push", stake], "returned"), (["lose", stake], "collected")]
            for edited, how in candidates:
                if _breaks_only(view, rule_id, edited, amount) and _order_kept(view, index, edited):
                    options.append((index, edited, f"{stake} {how}, which the text does not give"))
        picked = choice(rng, options)
        if picked is None:
            return None
        index, edited, what = picked
        record["actions"][index] = edited
        return Edit(record, edited[1], what)

    return inject


def reads(rule: Rule) -> set[str]:
    """The facts the rule's checks read, as written and as applied (a named condition in its place: the
    settlement order's `from_the_right` reads `settle.box`)."""
    applied = {
        name.path
        for check in rule.checks
        for node in (check.applied_require, check.applied_guard)
        if node is not None
        for name in names_in(node)
        if isinstance(name, Name)
    }
    return applied.union(*(names_read(check) for check in rule.checks))


def guarded_by(rule: Rule, fact: str) -> bool:
    """Does a guard of the rule read `fact` (a rule judging only some of the states it names, which a
    step to another of them does not break)?"""
    return any(
        isinstance(name, Name) and name.path == fact
        for check in rule.checks
        if check.guard_node is not None
        for name in names_in(check.guard_node)
    )


def _bounds_box_stake(rule: Rule) -> bool:
    """Does a check of the rule hold `box.stake` under a maximum (`box.stake <= …`)? Not one judged only
    on a box with standing players' bets (`box.standing`): `_over_the_maximum` multiplies a box's money as
    it is, and on a box of seated bets alone that breaks the limit of each bet, another rule."""
    for check in rule.checks:
        if check.event != "box":
            continue
        when = check.guard_node
        if when is not None and any(
            isinstance(name, Name) and name.path == "box.standing" for name in names_in(when)
        ):
            continue
        if re.search(r"\bbox\.stake\s*<=", unparse(check.require_node)):
            return True
    return False


def _reads_the_log(settle: SettleDef) -> bool:
    """A clause that judges the settlement the log shows (`stake.verb`, `stake.paid`: one reading of an
    ambiguous text against another) settles nothing the simulator plays: it is broken by a settlement
    logged that it refuses (`_misread`), not by changing one it gives."""
    nodes = (settle.guard_node, settle.amount_node)
    return any(
        isinstance(name, Name) and name.path in ("stake.verb", "stake.paid")
        for node in nodes
        if node is not None
        for name in names_in(node)
    )


def planters(rule: Rule, game: str) -> list[Injector]:
    """How the rule can be broken in a simulated round, by the kind of rule it is (see the docstring):
    the planters every game shares, then the game's own (its declaration's `inject`)."""
    declared = GAMES[game]
    injection: GameInjection = declared.load(declared.inject)
    return [*_shared_planters(rule), *injection.planters(rule)]


def _shared_planters(rule: Rule) -> list[Injector]:
    found: list[Injector] = []
    events = {check.event for check in rule.checks}
    if any(not _reads_the_log(settle) for settle in rule.settles):
        found.append(_payout(rule.id))
    misread = frozenset(settle.stake for settle in rule.settles if _reads_the_log(settle))
    if misread:
        found.append(_misread(rule.id, misread))
    if "settle" in events and {"settle.box", "settle.previous_box"} <= reads(rule):
        found.append(_settle_out_of_order)
    if "settle" in events and "settle.dealer_done" in reads(rule):
        found.append(_settled_before_dealer_done)
    if "stake_end" in events and "stake.settlements" in reads(rule):
        found.append(_settled_twice)
    if _bounds_box_stake(rule):
        found.append(_over_the_maximum)
    if "card" in events and "card.face_down" in reads(rule):
        found.append(_face_flipped)
    if any(check.event == "late_bet" and _of_main_bets(check) for check in rule.checks):
        found.append(_bet_taken_late)
    return found


def _of_main_bets(check: CheckDef) -> bool:
    """A `late_bet` check of main bets (`when bet.main`, hand-log/1.2 `bet`), not of side stakes."""
    guard = check.guard_node
    return isinstance(guard, Name) and guard.path == "bet.main"


def injectable(ruleset: Ruleset) -> list[str]:
    """The rule ids of this version that `--inject` can break: by editing a written round (`planters`),
    or, in a séance the simulator plays with the plan (`Violations`), by a player's decision."""
    game = ruleset.game
    return [rule.id for rule in ruleset.rules if planters(rule, game) or breaks_a_decision(rule, game)]


def resolve(ruleset: Ruleset, rule_ids: list[str]) -> dict[str, list[Injector]]:
    chosen = {}
    can = injectable(ruleset)
    for rule_id in rule_ids:
        if rule_id not in can:
            # One rule a line: a version's list is longer than a message line may be (errors.MAX_LINE).
            # The carnet's difference is planted by simulate.carnet, in every version (a French casino's).
            listed = "\n".join(f"  {rule}" for rule in [*can, "money/reconciliation"])
            raise ValidatorError(
                _(
                    "--inject {rule_id}: {version} has no such rule that the "
                    "simulator can break; it can break:\n{listed}"
                ).format(rule_id=rule_id, version=ruleset.version, listed=listed)
            )
        chosen[rule_id] = planters(ruleset.rule(rule_id), ruleset.game)
    return chosen


def inject(
    records: Iterator[dict[str, Any]],
    ruleset: Ruleset,
    rule_ids: list[str],
    rate: float,
    seed: int,
    planted: list[Planted],
    house: dict[str, Any] | None = None,
    violations: Violations | None = None,
) -> Iterator[dict[str, Any]]:
    """Pass records through, breaking one named rule in about `rate` of the rounds; fills `planted`.
    `house`: the options the séance was played with (default: the version's defaults). `violations`:
    the plan the simulator played the séance with (simulate(…, violations=…)), whose decisions it broke
    while playing; without it, only the rules a record's edit breaks are planted."""
    chosen = resolve(ruleset, rule_ids)
    if violations is None:
        violations = Violations(ruleset, list(chosen), rate, seed)
    planting = _Planting(ruleset, chosen, house, violations, planted)
    for line, record in enumerate(records, start=1):
        if record["type"] != "round":
            planting.between(record, line)
            yield record
        else:
            yield planting.round(record, line)


class _Planting:
    """What `inject` keeps from record to record: the rules chosen and their injectors, the judge the
    clean rounds are rebuilt with, the table's maximum and the jackpot's meters so far, and the list of
    what is planted."""

    def __init__(
        self,
        ruleset: Ruleset,
        chosen: dict[str, list[Injector]],
        house: dict[str, Any] | None,
        violations: Violations,
        planted: list[Planted],
    ) -> None:
        game = GAMES[ruleset.game]
        injection: GameInjection = game.load(game.inject)
        self.ruleset, self.chosen, self.violations, self.planted = ruleset, chosen, violations, planted
        self.hands: Hands[Any, Any, Any] = game.load(game.hands).under(ruleset)
        self.mechanical = _MECHANICAL | injection.mechanical
        self.judge = Judge(ruleset, house if house is not None else ruleset.house_defaults(), "<inject>")
        self.ratios = _payout_ratios(ruleset)
        # A stake is pushed past the table's maximum and past any the rule reads from the text.
        self.text_maximum = {rule_id: _amounts_of_the_text(ruleset, rule_id) for rule_id in chosen}
        self.maximum = Decimal(0)
        self.meters: Meters | None = None

    def between(self, record: dict[str, Any], line: int) -> None:
        """A record between rounds: the table's maximum and the jackpot's meters it sets, and a violation
        the simulator planted on it."""
        if record["type"] in ("table", "limits"):
            self.maximum = _amount(record["maximum"])
        if record["type"] == "jackpot":
            self.meters = Meters(_amount(record["main"]), _amount(record["secondary"]))
        key = between_key(record)
        played = self.violations.played.get(key)
        self.violations.done(key)
        if played is not None:
            self.planted.append(Planted(played.rule, None, line, played.stake, played.what))
            self.violations.planted(played.rule)

    def round(self, record: dict[str, Any], line: int) -> dict[str, Any]:
        """A round: the violation the simulator planted while playing it, else the record edited to break
        the first of the round's rules to break that an edit can."""
        round_id = record["round"]
        order = self.violations.order(round_id)
        played = self.violations.played.get(round_id)
        self.violations.done(round_id)
        if played is not None:
            self.planted.append(Planted(played.rule, round_id, line, played.stake, played.what, played.also))
            self.violations.planted(played.rule)
            return record
        settled: dict[str, tuple[str, str]] | None = None
        judged: JudgedAs = _not_judged
        for rule_id in order or ():
            injectors = self.chosen.get(rule_id, [])
            if not injectors:
                continue  # broken by a decision, while the simulator plays (none here)
            view = RoundView(record, max(self.maximum, self.text_maximum[rule_id]), self.hands)
            if settled is None and any(i not in self.mechanical for i in injectors):
                round_ = rebuild(
                    record, self.ruleset, self.judge, self.meters
                )  # the clean round: rebuilt once
                settled = settled_by(round_, self.judge)
                judged = judging(round_, self.judge)
            view.settled = settled or {}
            view.ratios = self.ratios
            view.judged = judged
            edit = self.edit(record, injectors, view)
            if edit is not None:
                self.planted.append(Planted(rule_id, edit.record["round"], line, edit.stake, edit.what))
                self.violations.planted(rule_id)
                return edit.record
        return record

    def edit(self, record: dict[str, Any], injectors: list[Injector], view: RoundView) -> Edit | None:
        """The first edit of a copy of the round that one of the rule's injectors makes."""
        for injector in injectors:
            copy = {
                **record,
                "bets": [dict(b) for b in record["bets"]],
                "actions": [list(a) for a in record["actions"]],
            }
            edit = injector(copy, view, self.violations.rng)
            if edit is not None:
                return edit
        return None


def _payout_ratios(ruleset: Ruleset) -> tuple[Ratio, ...]:
    """The payout ratios the version's parameters declare (3:2, 2:1, …), each value once, smallest first."""
    found: dict[Decimal, Ratio] = {}
    for parameter in ruleset.parameters.values():
        if isinstance(parameter.value, Ratio):
            found.setdefault(parameter.value.factor, parameter.value)
    return tuple(found[factor] for factor in sorted(found))


def truth_path(log: Path) -> Path:
    """`séance.jsonl.gz` → `séance.planted.json`: beside the log, and not a log a folder check would read."""
    name = log.name.removesuffix(".gz").removesuffix(".jsonl")
    return log.with_name(f"{name}.planted.json")


def write_truth(path: Path, ruleset: Ruleset, planted: list[Planted]) -> None:
    document = {"ruleset": ruleset.version, "planted": [p.as_dict() for p in planted]}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
