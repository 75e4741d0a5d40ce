"""Stakes, amounts and settlements as a round's records write them, and the error for a round that
cannot be replayed as logged. A leaf of the replay: the engines and the side-bet mechanics both read
stakes through it."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Final

from validator.casino.money import AmountError, to_decimal
from validator.i18n import N_, _

# The stakes hand-log/1 itself names beside a hand's (`3:insurance`, bataille's `3:war`): their words, in
# the language of the run (`assurance`, `bataille`). A side bet's stake is named by its title in the
# ruleset (validator/formats/base.py, `stake_words`).
STAKE_KINDS: Final[dict[str, str]] = {"insurance": N_("insurance"), "war": N_("war")}

_STAKE = re.compile(r"^([1-9])(?:/(\d+))?(?::(.+))?$")


class MalformedRound(Exception):
    """A round that cannot be replayed as logged (a hand never opened, an amount that is no number…)."""

    def __init__(self, message: str, rule: str = "hand-log/inconsistent") -> None:
        super().__init__(message)
        self.rule = rule


class Settlement:
    """A stake's settlement as the log writes it. A plain class, read by attribute: in the compiled build
    it is made without a Python-level constructor (a NamedTuple's `__new__` is one), once per settlement
    of every round."""

    __slots__ = ("amount", "at", "verb")

    def __init__(self, verb: str, amount: Decimal | None, at: int) -> None:
        self.verb = verb  # pay, lose, push
        self.amount = amount
        self.at = at  # its place among the round's actions


# Stakes already read, by their text: a séance names the same few dozen stakes in every round. A plain
# dict rather than `functools.lru_cache`: the compiled engines call `parse_stake` natively and look the
# stake up here, where an lru_cache wrapper is a call through the interpreter's generic protocol, twice
# a bet and once a settlement. `Final`, as AMOUNTS: the compiled build reads a Final name of a module as a
# C static, any other as a lookup in the module's dict at every use.
_PARSED: Final[dict[str, tuple[int, str | None, str]]] = {}
_PARSED_KEPT: Final = 4096


def parse_stake(stake: str) -> tuple[int, str | None, str]:
    """`3` → (3, None, "main"), `3/2` → (3, "2", "main"), `3:insurance` → (3, None, "insurance")."""
    parsed = _PARSED.get(stake)
    if parsed is None:
        parsed = _parse_stake(stake)
        if len(_PARSED) >= _PARSED_KEPT:
            _PARSED.clear()
        _PARSED[stake] = parsed
    return parsed


def _parse_stake(stake: str) -> tuple[int, str | None, str]:
    match = _STAKE.match(stake)
    if not match:
        raise MalformedRound(_("{stake} is not a stake").format(stake=repr(stake)))
    box, split, side = match.groups()
    if side is not None and split is not None:
        raise MalformedRound(_("{stake} is not a stake").format(stake=repr(stake)))
    return int(box), split, side or "main"


# Amounts already read, by their spelling in the log (its JSON type and value: 10 and 10.0 are
# different spellings of different Decimals, and True is no amount though it equals 1). A séance
# stakes and pays the same few dozen amounts: each is validated and made a Decimal once.
AMOUNTS: Final[dict[tuple[type, Any], Decimal]] = {}
AMOUNTS_KEPT: Final = 4096


def amount_of(value: Any, what: str, *where: Any) -> Decimal:
    """An amount of the log, exact; MalformedRound when it is none or negative. `what` names it in
    the message, formatted with `where` only then (`"bets[{}].amount", 3`)."""
    try:
        return AMOUNTS[value.__class__, value]
    except (KeyError, TypeError):  # a new spelling, or a value that is no key (a list, an object)
        pass
    try:
        amount = to_decimal(value)
    except AmountError as exc:
        raise MalformedRound(f"{what.format(*where) if where else what}: {exc}") from None
    if amount < 0:
        raise MalformedRound(
            _("{what}: a negative amount ({value})").format(
                what=what.format(*where) if where else what, value=value
            )
        )
    if amount:  # not zero: 0.0 and -0.0 are equal keys of different Decimals
        if len(AMOUNTS) >= AMOUNTS_KEPT:
            AMOUNTS.clear()
        AMOUNTS[value.__class__, value] = amount
    return amount
