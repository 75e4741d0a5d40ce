"""Planting known violations in simulated logs: `simulate --inject RULE[,RULE…] --rate R`.

Each injector edits one round of a clean log so that it breaks exactly one rule, and says which stake
the finding will name. What the edit breaks is decided here from the game's mechanics (totals, who was
paid what), never by running the checker: the ground truth must not come from the program it tests.
At most one violation is planted per round, so a round's findings can be compared with its truth.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from validator.dsl.ast import Name
from validator.dsl.expr import names_in
from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.replay.cards import BATAILLE_VALUE, best_total, normalize
from validator.simulate.table import amount_json


@dataclass(frozen=True)
class Planted:
    """One violation written into the log: where it is and what finding it must give."""

    rule: str
    round: str
    line: int
    stake: str
    what: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Edit:
    record: dict[str, Any]
    stake: str
    what: str


# An injector gets a deep-enough copy of a round record and the table's limits; None: not possible here.
Injector = Callable[[dict[str, Any], "RoundView", random.Random], Edit | None]


def _amount(value: Any) -> Decimal:
    return Decimal(str(value))


def _main(stake: str) -> bool:
    return ":" not in stake


class RoundView:
    """What a clean round shows: each hand's cards and stake, the dealer's cards, the settlements."""

    def __init__(self, record: dict[str, Any], maximum: Decimal) -> None:
        self.record = record
        self.maximum = maximum
        self.actions: list[list[Any]] = record["actions"]
        self.box_bets: dict[str, Decimal] = {}
        for bet in record["bets"]:
            self.box_bets[bet["stake"]] = self.box_bets.get(bet["stake"], Decimal(0)) + _amount(bet["amount"])
        self.cards: dict[str, list[str]] = {}
        self.stakes: dict[str, Decimal] = {s: a for s, a in self.box_bets.items() if _main(s)}
        self.split_boxes: set[str] = set()
        self.surrendered: set[str] = set()
        self.even_money: set[str] = set()
        self.insured: dict[str, Decimal] = {}
        self.war: set[str] = set()
        self.last_decision = -1
        for index, action in enumerate(self.actions):
            self._read(index, action)
        # The final settlement of each stake: the last one logged for it.
        self.final: dict[str, int] = {}
        for index, action in enumerate(self.actions):
            if action[0] in ("pay", "lose", "push"):
                self.final[action[1]] = index

    def _read(self, index: int, action: list[Any]) -> None:
        verb = action[0]
        if verb == "deal":
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
            self.split_boxes.add(box)
        elif verb == "surrender":
            self.surrendered.add(action[1])
        elif verb == "even_money":
            self.even_money.add(action[1])
        elif verb == "insurance":
            self.insured[action[1]] = _amount(action[2])
        elif verb == "war":
            self.war.add(action[1])
        if verb in ("hit", "stand", "double", "split", "surrender"):
            self.last_decision = index

    # ---- blackjack facts ----
    def total(self, name: str) -> int:
        return best_total(self.cards.get(name, []))[0]

    def natural(self, name: str) -> bool:
        cards = self.cards.get(name, [])
        return len(cards) == 2 and best_total(cards)[0] == 21 and name.split("/")[0] not in self.split_boxes

    def plain_hand(self, name: str) -> bool:
        """A main hand played to the end: not surrendered, not paid even money, no blackjack."""
        return (
            _main(name)
            and name in self.cards
            and name not in self.surrendered
            and name.split("/")[0] not in self.even_money
            and not self.natural(name)
            and self.total(name) <= 21
        )

    @property
    def dealer_natural(self) -> bool:
        return self.natural("D")

    def finals(self, verb: str) -> Iterator[tuple[int, list[Any]]]:
        for index in self.final.values():
            action = self.actions[index]
            if action[0] == verb and index > self.last_decision:
                yield index, action


def _choice(rng: random.Random, options: list[Any]) -> Any | None:
    return rng.choice(options) if options else None


# ---- blackjack payouts ----
def _flip_final(
    verb: str, holds: Callable[[RoundView, str], bool], to: Callable[[RoundView, str], list[Any]], what: str
) -> Injector:
    def inject(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
        picked = _choice(rng, [(i, a) for i, a in view.finals(verb) if _main(a[1]) and holds(view, a[1])])
        if picked is None:
            return None
        index, action = picked
        record["actions"][index] = to(view, action[1])
        return Edit(record, action[1], what.format(stake=action[1]))

    return inject


def _dealer_stood(view: RoundView) -> bool:
    return not view.dealer_natural and view.total("D") <= 21


def _pay_stake(view: RoundView, stake: str) -> list[Any]:
    return ["pay", stake, amount_json(view.stakes[stake])]


def _lose(_view: RoundView, stake: str) -> list[Any]:
    return ["lose", stake]


def _blackjack_paid_even(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    picked = _choice(
        rng,
        [
            (i, a)
            for i, a in view.finals("pay")
            if _main(a[1]) and view.natural(a[1]) and not view.dealer_natural and a[1] not in view.even_money
        ],
    )
    if picked is None:
        return None
    index, action = picked
    record["actions"][index] = ["pay", action[1], amount_json(view.stakes[action[1]])]
    return Edit(record, action[1], f"blackjack on {action[1]} paid even money")


def _insurance_paid_even(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    picked = _choice(
        rng, [(i, a) for i, a in enumerate(view.actions) if a[0] == "pay" and a[1].endswith(":insurance")]
    )
    if picked is None:
        return None
    index, action = picked
    record["actions"][index] = ["pay", action[1], amount_json(view.insured[action[1].split(":")[0]])]
    return Edit(record, action[1], f"insurance {action[1]} paid 1 to 1")


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
        and view.total(s) <= 21
        and s.split("/")[0] not in view.even_money
    )
    pairs = [
        (a, b)
        for a, b in pairwise(final)
        if b == a + 1 and int(view.actions[a][1].split("/")[0]) > int(view.actions[b][1].split("/")[0])
    ]
    picked = _choice(rng, pairs)
    if picked is None:
        return None
    a, b = picked
    actions = record["actions"]
    actions[a], actions[b] = actions[b], actions[a]
    return Edit(record, actions[b][1], f"{actions[a][1]} settled before {actions[b][1]}")


def _settled_twice(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    picked = _choice(rng, [(i, a) for i, a in view.finals("lose") if _main(a[1]) and len(a) == 2])
    if picked is None:
        return None
    index, action = picked
    record["actions"].insert(index + 1, list(action))
    return Edit(record, action[1], f"{action[1]} collected twice")


def _over_the_maximum(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
    """Multiply one box's money by a whole factor that takes its stake past the maximum (the table's, or the
    text's own where the rule reads one)."""
    boxes = [s for s in view.box_bets if _main(s)]
    box = _choice(rng, boxes)
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


# ---- bataille ----
def _bataille_flip(verb: str, higher: bool) -> Injector:
    def inject(record: dict[str, Any], view: RoundView, rng: random.Random) -> Edit | None:
        dealer = view.cards.get("D", [])
        if not dealer:
            return None
        first = BATAILLE_VALUE[dealer[0][0]]
        options = []
        for index, action in view.finals(verb):
            stake = action[1]
            cards = view.cards.get(stake)
            if (
                not _main(stake)
                or not cards
                or stake in view.surrendered
                or stake in view.war
                or (len(action) > 2 and verb == "lose")
            ):
                continue
            mine = BATAILLE_VALUE[cards[0][0]]
            if (mine > first) if higher else (mine < first):
                options.append((index, action))
        picked = _choice(rng, options)
        if picked is None:
            return None
        index, action = picked
        record["actions"][index] = (
            ["lose", action[1]] if verb == "pay" else ["pay", action[1], amount_json(view.stakes[action[1]])]
        )
        return Edit(
            record, action[1], f"{action[1]} {'collected' if verb == 'pay' else 'paid'} against the card"
        )

    return inject


# Rule names (the part after the family) → how to break them. The same name means the same article in
# every family that has it, which `rules show` lists.
INJECTORS: dict[str, dict[str, Injector]] = {
    "blackjack": {
        "lower-total-loses": _flip_final(
            "lose",
            lambda v, s: v.plain_hand(s) and _dealer_stood(v) and v.total(s) < v.total("D"),
            _pay_stake,
            "{stake} paid with fewer points than the dealer",
        ),
        "higher-total-wins": _flip_final(
            "pay",
            lambda v, s: v.plain_hand(s) and _dealer_stood(v) and v.total(s) > v.total("D"),
            _lose,
            "{stake} collected with more points than the dealer",
        ),
        "dealer-bust-pays": _flip_final(
            "pay",
            lambda v, s: v.plain_hand(s) and v.total("D") > 21,
            _lose,
            "{stake} collected though the dealer busted",
        ),
        "tie-is-push": _flip_final(
            "push",
            lambda v, s: v.plain_hand(s) and _dealer_stood(v) and v.total(s) == v.total("D"),
            _lose,
            "{stake} collected on a tie",
        ),
        "blackjack-pays-3-2": _blackjack_paid_even,
        "insurance-pays-2-1": _insurance_paid_even,
        "settlement-order": _settle_out_of_order,
        "stake-settled-once": _settled_twice,
        "bet-within-limits": _over_the_maximum,
    },
    "bataille": {
        "higher-card-wins": _bataille_flip("pay", higher=True),
        "lower-card-loses": _bataille_flip("lose", higher=False),
        "settlement-order": _settle_out_of_order,
        "stake-settled-once": _settled_twice,
        "bet-within-limits": _over_the_maximum,
    },
}


def injectable(ruleset: Ruleset) -> list[str]:
    """The rule ids of this version that `--inject` can break."""
    known = INJECTORS.get(ruleset.game, {})
    return [rule.id for rule in ruleset.rules if rule.name in known]


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


def resolve(ruleset: Ruleset, rule_ids: list[str]) -> list[tuple[str, Injector]]:
    chosen = []
    can = injectable(ruleset)
    for rule_id in rule_ids:
        if rule_id not in can:
            listed = ", ".join(can) or "none"
            raise ValidatorError(
                f"--inject {rule_id}: {ruleset.version} has no such rule that the simulator can break; "
                f"it can break: {listed}"
            )
        chosen.append((rule_id, INJECTORS[ruleset.game][rule_id.rsplit("/", 1)[1]]))
    return chosen


def inject(
    records: Iterator[dict[str, Any]],
    ruleset: Ruleset,
    rule_ids: list[str],
    rate: float,
    seed: int,
    planted: list[Planted],
) -> Iterator[dict[str, Any]]:
    """Pass records through, breaking one named rule in about `rate` of the rounds; fills `planted`."""
    if not 0 < rate <= 1:
        raise ValidatorError(f"--rate {rate}: give a share of rounds between 0 (excluded) and 1")
    chosen = resolve(ruleset, rule_ids)
    # A stake is pushed past the table's maximum and past any the rule reads from the text.
    text_maximum = {rule_id: _amounts_of_the_text(ruleset, rule_id) for rule_id, _ in chosen}
    rng = random.Random(f"inject/{seed}")
    maximum = Decimal(0)
    for line, record in enumerate(records, start=1):
        if record["type"] in ("table", "limits"):
            maximum = _amount(record["maximum"])
        if record["type"] == "round" and rng.random() < rate:
            order = list(chosen)
            rng.shuffle(order)
            for rule_id, injector in order:
                copy = {
                    **record,
                    "bets": [dict(b) for b in record["bets"]],
                    "actions": [list(a) for a in record["actions"]],
                }
                edit = injector(copy, RoundView(record, max(maximum, text_maximum[rule_id])), rng)
                if edit is not None:
                    record = edit.record
                    planted.append(Planted(rule_id, record["round"], line, edit.stake, edit.what))
                    break
        yield record


def truth_path(log: Path) -> Path:
    """`séance.jsonl.gz` → `séance.planted.json`: beside the log, and not a log a folder check would read."""
    name = log.name.removesuffix(".gz").removesuffix(".jsonl")
    return log.with_name(f"{name}.planted.json")


def write_truth(path: Path, ruleset: Ruleset, planted: list[Planted]) -> None:
    document = {"ruleset": ruleset.version, "planted": [p.as_dict() for p in planted]}
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
