"""Which renamings of the four suits leave a side bet's settlement unchanged, read from the expressions
that settle it; and a side bet's deals grouped by them, so that each group is settled once.

A shoe holds as many of every card, so a deal and the deal with its suits renamed (♠→♥, ♥→♠, the
others kept, or any other permutation of the four) are dealt with the same probability. Where the rules
cannot tell the two deals apart either, they pay them alike, and `edge` settles one deal of each group
(the first its enumeration reaches) weighted by the group's size: 2 + 1 cartes reads 5 746 deals
instead of 71 656.

Whether the rules tell renamed deals apart is read from the expressions themselves (the paytables' lines,
named conditions in their place, and the guards and amounts of the bet's `settle` clauses), never
assumed from a bet's name:
- a function the rules call declares how its result follows a renaming (`validator.dsl.functions`):
  the same under all (`same_suit`, `total`, `run`, `count`, …), under those that keep the colours
  apart (`same_colour`), or not known (then every deal is read);
- a suit written in the rules (a card such as "QH" in `count(player.first_two, "QH")`, or any text
  holding S, H, D or C), in a house option's value, a parameter's or the stake's, stays itself: only
  the renamings that keep it are used; so "dames de cœur" groups deals only by renaming ♠, ♦ and ♣;
- the facts read are cards (renamed with the deal), facts of the cards' ranks only (a total, a
  blackjack), or values the enumeration holds fixed (the house's options, the stake, the meters);
  any other fact, a comparison that orders cards (`<` on their codes), or anything this module does
  not know, and every deal is read. The dealer's cards drawn after his first are the game's
  stand-ins for his results (`GameMaths.dealer_results`): a bet that reads them as cards reads every
  deal.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from validator.casino.cards import RANKS, RED, SUITS, all_cards
from validator.dsl import ast
from validator.dsl.functions import ANY_SUITS, COLOURS, FUNCTIONS
from validator.dsl.model import Ruleset, SideBetDef
from validator.dsl.vocabulary import NAMESPACES

# The facts of the cards dealt (the namespaces the enumeration builds from them): those that are cards,
# renamed with the deal; those that read the cards' suits without being cards (none: a fact added that
# does must be listed here); and all the others, which read the cards' ranks only or are held fixed by the
# enumeration (other players' jackpot hands), and so stay the same under any renaming
# (tests/maths/test_suits.py renames the cards of random hands and compares each).
DEALT = ("hand", "dealer", "player", "dealer_cards")
CARD_FACTS = frozenset(
    {
        "hand.card_list",
        "dealer.card_list",
        "player.first_two",
        "player.first_three",
        "player.first_three_one_hand",
        "player.with_dealer_first",
        "dealer_cards.first",
        "dealer_cards.all",
    }
)
SUIT_FACTS: frozenset[str] = frozenset()
RANK_FACTS = (
    frozenset(f"{namespace}.{fact}" for namespace in DEALT for fact in NAMESPACES[namespace])
    - CARD_FACTS
    - SUIT_FACTS
)
# The dealer's cards as cards: stand-ins for his results where he draws (not renamed with the deal).
DEALER_CARD_FACTS = frozenset({"dealer.card_list", "dealer_cards.first", "dealer_cards.all"})
# Namespaces whose values the enumeration holds fixed, whatever the deal: read from `constants`.
FIXED_NAMESPACES = frozenset({"house", "param", "stake", "jackpot", "box"})
_ORDERING = frozenset({"<", "<=", ">", ">="})
Class = tuple[tuple[str, ...], int]  # a class's first deal (the player's cards, then the dealer's) and size


@dataclass(slots=True)
class _Needs:
    """What the expressions read so far ask of a renaming."""

    kept: set[str] = field(default_factory=set)  # suits that must stay themselves
    colours: bool = False  # the red suits must stay together (and so the black)
    unknown: bool = False  # something this module cannot vouch for: no renaming but the identity

    def name_suits(self, value: Any) -> None:
        """A value the rules compare cards with: every suit letter it writes stays itself."""
        if isinstance(value, str):
            self.kept.update(letter for letter in SUITS if letter in value)
        elif isinstance(value, tuple | list | set | frozenset):
            for item in value:
                self.name_suits(item)


def suit_group(
    ruleset: Ruleset,
    name: str,
    bet: SideBetDef,
    constants: Mapping[str, Any],
    dealer_drawn: bool,
) -> tuple[str, ...]:
    """The renamings of the suits under which bet `name` pays every deal as it pays the deal renamed:
    each a string giving the new name of each suit of SUITS in turn (SUITS itself: none renamed, always
    first). `constants`: the value of every fact of FIXED_NAMESPACES the expressions may read
    (`house.…`, `param.…`, `stake.…`, …), by its path; `dealer_drawn`: the dealer's cards are his drawn
    results' stand-ins, not the deal's."""
    needs = _Needs()
    for lines in bet.paytables.values():
        for line in lines:
            if line.when_node is None:
                needs.unknown = True
                continue
            _read(line.when_node, needs, constants, dealer_drawn)
            if line.amount_node is not None:
                _read(line.amount_node, needs, constants, dealer_drawn)
    for _rule, settle in ruleset.settles_by_stake.get(name, ()):
        for node in (settle.applied_guard, settle.applied_amount):
            if node is not None:
                _read(node, needs, constants, dealer_drawn)
        if settle.amount_node is not None and settle.applied_amount is None:
            needs.unknown = True  # an amount compiled without its applied form: not read here
    if needs.unknown:
        return (SUITS,)
    found = []
    for renamed in ("".join(order) for order in itertools.permutations(SUITS)):
        new = dict(zip(SUITS, renamed, strict=True))
        if any(new[suit] != suit for suit in needs.kept):
            continue
        if needs.colours and {new[suit] for suit in RED} not in (set(RED), set(SUITS) - set(RED)):
            continue
        found.append(renamed)
    return tuple(found)


def _read(node: ast.Expr, needs: _Needs, constants: Mapping[str, Any], dealer_drawn: bool) -> bool:
    """Note in `needs` what `node` asks of a renaming; True when its value holds the deal's cards (a card's
    code, cards, or a value made of them)."""
    if isinstance(node, ast.Literal):
        needs.name_suits(node.value)
        return False
    if isinstance(node, ast.Name):
        return _read_name(node.path, needs, constants, dealer_drawn)
    if isinstance(node, ast.Call):
        _read_call(node, needs, constants, dealer_drawn)
        return False  # a function gives a count, a truth or an amount, never cards
    if isinstance(node, ast.ListExpr | ast.Arith):
        holds = [_read(item, needs, constants, dealer_drawn) for item in ast.children(node)]
        return any(holds)
    if isinstance(node, ast.Compare):
        left = _read(node.left, needs, constants, dealer_drawn)
        right = _read(node.right, needs, constants, dealer_drawn)
        if node.op in _ORDERING and (left or right):
            needs.unknown = True  # card codes in order: "QH" < "QS", not "QH" < "QD"
        return False
    if isinstance(node, ast.BoolOp | ast.Not):
        for item in ast.children(node):
            _read(item, needs, constants, dealer_drawn)
        return False
    needs.unknown = True  # `any … in …` is unrolled when the ruleset is compiled; anything else: not known
    return False


def _read_name(path: str, needs: _Needs, constants: Mapping[str, Any], dealer_drawn: bool) -> bool:
    """A fact of cards holds the deal's cards; a rank's does not; a constant (a parameter, a house
    option) names the suits it names; any other fact is not known."""
    if path in CARD_FACTS:
        if dealer_drawn and path in DEALER_CARD_FACTS:
            needs.unknown = True
        return True
    if path in RANK_FACTS:
        return False
    if path.partition(".")[0] in FIXED_NAMESPACES and path in constants:
        needs.name_suits(constants[path])
        return False
    needs.unknown = True
    return False


def _read_call(node: ast.Call, needs: _Needs, constants: Mapping[str, Any], dealer_drawn: bool) -> None:
    """A function reads suits as its declaration says (any renaming, the colours kept, or not known),
    and its arguments are read in turn."""
    function = FUNCTIONS.get(node.function)
    suits = function.suits if function is not None else None
    if suits == COLOURS:
        needs.colours = True
    elif suits != ANY_SUITS:
        needs.unknown = True
    for argument in node.args:
        _read(argument, needs, constants, dealer_drawn)


@functools.lru_cache(maxsize=32)
def classes(player_cards: int, dealer_card: bool, group: tuple[str, ...]) -> tuple[Class, ...]:
    """The classes of deals that the renamings of `group` carry into one another: for each, its first deal
    in the order `maths.sidebets` enumerates deals, and the number of deals in it; in that order.

    A deal is the player's first `player_cards` cards (the first two unordered: they are enumerated in
    the order of `all_cards()`) and, with `dealer_card`, the dealer's first card. A renaming changes the
    suits and keeps the ranks, so the classes are found suit by suit, once for all ranks: the ranks of
    the cards are enumerated, and for each, the classes of their suits (tests/maths/test_suits.py checks
    them against renaming every deal of a full enumeration)."""
    length = player_cards + int(dealer_card)
    if len(group) == 1:
        return tuple((deal, 1) for deal in _every_deal(player_cards, length))
    renamings = tuple(tuple(SUITS.index(suit) for suit in renamed) for renamed in group)
    found: list[tuple[tuple[int, ...], int]] = []  # each class's first deal (card indexes) and size
    if player_cards < 2:
        for ranks in itertools.product(range(len(RANKS)), repeat=length):
            for suits, size in _suit_classes(renamings, length, ORDERED):
                found.append((_cards(suits, ranks), size))
    else:
        for low, high in itertools.combinations(range(len(RANKS)), 2):
            for others in itertools.product(range(len(RANKS)), repeat=length - 2):
                for suits, size in _suit_classes(renamings, length, APART):
                    first, second = _unordered(suits, low, high)
                    found.append(((first, second, *_cards(suits[2:], others)), size))
        for rank in range(len(RANKS)):
            for others in itertools.product(range(len(RANKS)), repeat=length - 2):
                for suits, size in _suit_classes(renamings, length, SAME):
                    found.append((_cards(suits, (rank, rank, *others)), size))
    cards = all_cards()
    return tuple((tuple(cards[i] for i in deal), size) for deal, size in sorted(found))


def _every_deal(player_cards: int, length: int) -> Iterator[tuple[str, ...]]:
    """Every deal, in the order enumerated: the player's first two cards unordered."""
    cards = all_cards()
    if player_cards < 2:
        yield from itertools.product(cards, repeat=length)
        return
    for pair in itertools.combinations_with_replacement(cards, 2):
        for rest in itertools.product(cards, repeat=length - 2):
            yield (*pair, *rest)


def _cards(suits: Sequence[int], ranks: Sequence[int]) -> tuple[int, ...]:
    """Card indexes in the order of `all_cards()` (suit by suit, each suit's ranks in order)."""
    return tuple(suit * len(RANKS) + rank for suit, rank in zip(suits, ranks, strict=True))


def _unordered(suits: Sequence[int], low: int, high: int) -> tuple[int, int]:
    """The player's first two cards, ranks `low` < `high` with these suits, in the order enumerated."""
    first, second = suits[0] * len(RANKS) + low, suits[1] * len(RANKS) + high
    return (first, second) if first <= second else (second, first)


# How the ranks of a deal's cards stand, for the classes of their suits: each card's rank fixed in its
# place (ORDERED); the first two cards unordered, of two ranks (APART) or of one (SAME).
ORDERED, APART, SAME = "ordered", "apart", "same"


@functools.lru_cache(maxsize=64)
def _suit_classes(
    renamings: tuple[tuple[int, ...], ...], length: int, ranks: str
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The classes of the suits of `length` cards under the renamings (each the new suit of each suit,
    by index): the suits of each class's first deal, as the deals are ordered, and its number of deals.

    ORDERED: the renamed suits are the deals, compared suit by suit. APART: the first two cards are
    unordered, of ranks low < high: a suit tuple gives low's card its first suit and high's its second,
    and the deal lists the two in the order of `all_cards()` (by suit, then rank); each renaming gives
    another deal. SAME: the first two cards have one rank and may be exchanged: only the suit tuples
    with the first two in order are deals."""
    seen: set[tuple[int, ...]] = set()
    found = []
    for suits in itertools.product(range(len(SUITS)), repeat=length):
        if suits in seen:
            continue
        images = {tuple(new[suit] for suit in suits) for new in renamings}
        if ranks == SAME:
            images |= {(b, a, *others) for a, b, *others in images}
        seen |= images
        if ranks == SAME:
            dealt = [image for image in images if image[0] <= image[1]]
            found.append((min(dealt), len(dealt)))
        elif ranks == APART:
            found.append((min(images, key=_apart), len(images)))
        else:
            found.append((min(images), len(images)))
    return tuple(found)


def _apart(suits: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Where the deal with these suits comes in the enumeration's order, the first two cards unordered and
    of ranks low < high (0 and 1 stand for them): each card by suit, then rank; the two first in the
    order dealt."""
    return (*sorted([(suits[0], 0), (suits[1], 1)]), *((suit, 0) for suit in suits[2:]))
