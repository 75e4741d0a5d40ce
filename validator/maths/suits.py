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

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from validator.casino.cards import RED, SUITS, all_cards
from validator.dsl import ast
from validator.dsl.functions import ANY_SUITS, COLOURS, FUNCTIONS
from validator.dsl.model import Ruleset, SideBetDef

Deal = tuple[list[str], list[str], float]  # the player's cards, the dealer's first card or none, probability

# The facts of the cards dealt that are cards (renamed with the deal), and those that depend on the cards'
# ranks only, or that the enumeration holds fixed (the same whatever the suits: tests/maths/test_suits.py
# holds them to it). A fact of these namespaces in neither set is not known here: a bet reading it reads
# every deal.
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
# The dealer's cards as cards: stand-ins for his results where he draws (not renamed with the deal).
DEALER_CARD_FACTS = frozenset({"dealer.card_list", "dealer_cards.first", "dealer_cards.all"})
RANK_FACTS = frozenset(
    {
        *(
            f"hand.{name}"
            for name in (
                "name",
                "total",
                "soft",
                "cards",
                "blackjack",
                "busted",
                "pair",
                "identical_pair",
                "pair_of_aces",
                "split",
                "split_aces",
                "doubled",
                "stake",
                "initial_stake",
                "surrendered",
                "even_money",
                "rank",
                "war_rank",
                "went_to_war",
            )
        ),
        *(
            f"dealer.{name}"
            for name in (
                "total",
                "soft",
                "cards",
                "up_ace",
                "up_ten",
                "aces",
                "blackjack",
                "busted",
                "face_down",
                "rank",
                "war_rank",
            )
        ),
        # Other players' hands are not dealt by the enumeration: always false there.
        "player.other_jackpot_main",
        "player.other_jackpot_secondary",
        "player.other_player_jackpot_main",
        "player.other_player_jackpot_secondary",
    }
)
# Namespaces whose values the enumeration holds fixed, whatever the deal: read from `constants`.
FIXED_NAMESPACES = frozenset({"house", "param", "stake", "jackpot", "box"})
_ORDERING = frozenset({"<", "<=", ">", ">="})


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
        path = node.path
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
    if isinstance(node, ast.Call):
        function = FUNCTIONS.get(node.function)
        suits = function.suits if function is not None else None
        if suits == COLOURS:
            needs.colours = True
        elif suits != ANY_SUITS:
            needs.unknown = True
        for argument in node.args:
            _read(argument, needs, constants, dealer_drawn)
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


def classes(deals: Iterable[Deal], group: tuple[str, ...]) -> Iterator[Deal]:
    """Each class of `deals` that the renamings of `group` carry into one another, once: its first deal
    in the enumeration's order, with the probability of the whole class.

    `deals` must be every deal of its kind, each once, the player's first two cards in the order of
    `all_cards()` (they are dealt unordered), and dealt from a shoe that holds as many of every card: a
    renamed deal is then one of them, dealt with the same probability, and a class's probability is its
    first deal's times the number of deals in it. With the identity alone, `deals` as they come."""
    if len(group) == 1:
        yield from deals
        return
    order = {card: index for index, card in enumerate(all_cards())}
    renamings = [
        {card: card[:-1] + renamed[SUITS.index(card[-1])] for card in order} for renamed in group[1:]
    ]
    seen: set[tuple[str, ...]] = set()
    for player, dealer, p in deals:
        cards = (*player, *dealer)
        if cards in seen:
            continue
        images = {cards}
        for new in renamings:
            image = [new[card] for card in cards]
            if len(player) >= 2 and order[image[0]] > order[image[1]]:
                image[0], image[1] = image[1], image[0]
            images.add(tuple(image))
        seen.update(images)
        yield player, dealer, p * len(images)
