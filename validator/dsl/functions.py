"""The functions a rule may call, registered once: name, arity and doc come from the Python function
itself (its signature and its docstring), so the compiler's checks (`unknown function`, "did you mean",
the number of arguments), the evaluation, the generated fast path and docs/vocabulary.md all read this
one table.

They work on what the replay's facts hold (lists of card codes, amounts of money); what a total or a
run of cards is stays the game mechanics' (`validator.casino.cards`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any

from validator.casino import cards as card_mechanics
from validator.i18n import _


class EvaluationError(Exception):
    """A condition could not be computed (a fact missing at that point of the replay)."""


# How a function's result follows a renaming of the four suits (the same permutation applied to every card
# it is given, and to every card or suit a literal names): ANY_SUITS, it is the same under every renaming;
# COLOURS, under those that keep the colours apart (the red suits stay together, and the black); None, not
# known (`edge` then reads every deal of a side bet that calls it: validator/maths/suits.py).
ANY_SUITS = "any"
COLOURS = "colours"


@dataclass(frozen=True, slots=True)
class Function:
    name: str
    arguments: tuple[str, ...]
    doc: str
    call: Callable[..., Any]
    suits: str | None = None

    @property
    def arity(self) -> int:
        return len(self.arguments)


FUNCTIONS: dict[str, Function] = {}


def dsl_function(suits: str | None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the function under its own name (a trailing `_` dropped), its arity, the first line of
    its docstring and how its result follows a renaming of the suits (`suits`)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        name = fn.__name__.removesuffix("_")
        doc = (inspect.getdoc(fn) or "").split("\n", 1)[0]
        if not doc:  # i18n: not shown (a bug of the program)
            raise ValueError(f"DSL function {name} has no docstring")  # pragma: no cover - a coding error
        FUNCTIONS[name] = Function(name, tuple(inspect.signature(fn).parameters), doc, fn, suits)
        return fn

    return register


@dsl_function(ANY_SUITS)
def total(cards: Sequence[str]) -> int:
    """blackjack total of the cards"""
    return card_mechanics.best_total(cards)[0]


@dsl_function(ANY_SUITS)
def count(cards: Sequence[str], card: str) -> int:
    """how many of the cards are the given card ("QH")"""
    return sum(1 for c in cards if c == card)


@dsl_function(ANY_SUITS)
def count_rank(cards: Sequence[str], rank: str) -> int:
    """how many of the cards have the given rank ("7")"""
    wanted = "T" if rank == "10" else rank
    return sum(1 for c in cards if c[0] == wanted)


@dsl_function(ANY_SUITS)
def same_suit(cards: Sequence[str]) -> bool:
    """all cards of one suit (pique, cœur, carreau, trèfle)"""
    return card_mechanics.same_suit(cards)


@dsl_function(COLOURS)
def same_colour(cards: Sequence[str]) -> bool:
    """all cards of one colour (red or black)"""
    return card_mechanics.same_colour(cards)


@dsl_function(ANY_SUITS)
def same_rank(cards: Sequence[str]) -> bool:
    """all cards of one rank"""
    return card_mechanics.same_rank(cards)


@dsl_function(ANY_SUITS)
def run(cards: Sequence[str]) -> bool:
    """the cards' ranks follow each other (A low or high)"""
    return card_mechanics.is_run(cards)


@dsl_function(ANY_SUITS)
def run_ace_low(cards: Sequence[str]) -> bool:
    """the cards' ranks follow each other, the ace low only (A-2-3, not Q-K-A)"""
    return card_mechanics.is_run(cards, "low")


@dsl_function(ANY_SUITS)
def run_ace_high(cards: Sequence[str]) -> bool:
    """the cards' ranks follow each other, the ace high only (Q-K-A, not A-2-3)"""
    return card_mechanics.is_run(cards, "high")


@dsl_function(ANY_SUITS)
def run_wrapping(cards: Sequence[str]) -> bool:
    """the cards' ranks follow each other round the ace (A-2-3, Q-K-A and K-A-2)"""
    return card_mechanics.is_run(cards, "wrap")


@dsl_function(ANY_SUITS)
def len_(items: Sequence[Any]) -> int:
    """how many cards"""
    return len(items)


@dsl_function(ANY_SUITS)
def floor_cents(amount: Any) -> Decimal:
    """an amount of money rounded down to the cent"""
    if amount is None:
        raise EvaluationError(_("floor_cents: the amount is not known"))
    return Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)


@dsl_function(ANY_SUITS)
def round_cents(amount: Any) -> Decimal:
    """an amount of money rounded to the nearest cent (a half cent up)"""
    if amount is None:
        raise EvaluationError(_("round_cents: the amount is not known"))
    return Decimal(amount).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
