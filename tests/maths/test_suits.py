"""Issue 29: `edge` settles once each class of deals that a renaming of the suits carries into one another,
where a side bet's expressions cannot tell them apart (validator/maths/suits.py).

The classes against renaming every deal of a full enumeration; the renamings each shipped bet allows,
read from its text; the premises (each function, each fact the enumeration builds, the dealer's drawn
results: unchanged by the renamings they are declared for); and two side bets of a fixture
(tests/fixtures/suited-side-bets, not law) whose paytables tell suits apart, one naming hearts, one
ordering cards by their codes, against an enumeration of every ordered deal of the shoe written here.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import validator.dsl
from validator.casino.cards import RED, SUITS, all_cards
from validator.dsl.facts import FACT_CLASSES
from validator.dsl.functions import ANY_SUITS, COLOURS, FUNCTIONS
from validator.games.blackjack.edge import MATHS
from validator.maths import sidebets
from validator.maths.edge import house_for
from validator.maths.probe import Probe
from validator.maths.suits import CARD_FACTS, DEALT, RANK_FACTS, classes
from validator.rulebook.registry import default_registry, registry_with, under_readings

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "suited-side-bets" / "zz" / "suited-bets.rules"
CARDS = all_cards()
EVERY = tuple("".join(order) for order in itertools.permutations(SUITS))


def _keeps_colours(renamed: str) -> bool:
    new = dict(zip(SUITS, renamed, strict=True))
    return {new[suit] for suit in RED} in (set(RED), set(SUITS) - set(RED))


COLOUR_KEEPING = tuple(r for r in EVERY if _keeps_colours(r))
HEARTS_KEPT = tuple(r for r in EVERY if r[SUITS.index("H")] == "H")


def _rename(card: str, renamed: str) -> str:
    return card[:-1] + renamed[SUITS.index(card[-1])]


def _renaming_every_deal(player_cards: int, dealer_card: bool, group: tuple[str, ...]):
    """The classes, found the long way: every deal in the enumeration's order, renamed by each renaming."""
    order = {card: index for index, card in enumerate(CARDS)}
    pairs = itertools.combinations_with_replacement(CARDS, 2) if player_cards >= 2 else [()]
    seen: set[tuple[str, ...]] = set()
    found = []
    for pair in pairs:
        for rest in itertools.product(CARDS, repeat=player_cards - len(pair) + int(dealer_card)):
            deal = (*pair, *rest)
            if deal in seen:
                continue
            images = set()
            for renamed in group:
                image = [_rename(card, renamed) for card in deal]
                if player_cards >= 2 and order[image[0]] > order[image[1]]:
                    image[0], image[1] = image[1], image[0]
                images.add(tuple(image))
            seen |= images
            found.append((deal, len(images)))
    return tuple(found)


@pytest.mark.parametrize(
    ("player_cards", "dealer_card", "group"),
    [
        (2, True, EVERY),  # 2 + 1 cartes
        (3, False, COLOUR_KEEPING),  # JP1
        (2, False, HEARTS_KEPT),  # dames de cœur
        (1, True, tuple(r for r in HEARTS_KEPT if _keeps_colours(r))),
        (0, True, EVERY),
    ],
)
def test_the_classes_are_those_of_renaming_every_deal(player_cards, dealer_card, group):
    found = classes(player_cards, dealer_card, group)
    assert found == _renaming_every_deal(player_cards, dealer_card, group)
    every = 1378 if player_cards >= 2 else 1
    every *= 52 ** (player_cards - 2 if player_cards >= 2 else player_cards) * (52 if dealer_card else 1)
    assert sum(size for _deal, size in found) == every


def _groups(ruleset, only: set[str], monkeypatch, *, settled: bool = True):
    """The renamings `edge` used for each of the bets, and their figures, by name (not `settled`: no deal
    is settled, and the figures are empty)."""
    used: dict[str, tuple[str, ...]] = {}
    original = sidebets.suit_group

    def recorded(ruleset, name, bet, constants, dealer_drawn):
        used[name] = original(ruleset, name, bet, constants, dealer_drawn)
        return used[name]

    monkeypatch.setattr(sidebets, "suit_group", recorded)
    if not settled:
        monkeypatch.setattr(sidebets, "classes", lambda *_args: ())
    returns = sidebets.side_bets(Probe(ruleset, house_for(ruleset, None)), only=only)
    return used, {bet.name: bet for bet in returns}


def test_the_renamings_follow_each_bets_text(monkeypatch):
    """2 + 1 cartes reads same_suit, same_rank and runs: any renaming. JP1 pays « trois 7 de la même
    couleur » (same_colour): the red suits stay together. « Dames de cœur » names the queen of hearts:
    hearts stay hearts; under the reading of « même couleur » as red or black, diamonds stay red too."""
    registry = default_registry()
    version = registry.pick("fr/blackjack@2020-05-25")
    used, _returns = _groups(version, {"two_plus_one", "jp1", "lucky_ladies"}, monkeypatch, settled=False)
    assert set(used["two_plus_one"]) == set(EVERY)
    assert set(used["jp1"]) == set(COLOUR_KEEPING) and len(COLOUR_KEEPING) == 8
    assert set(used["lucky_ladies"]) == set(HEARTS_KEPT) and len(HEARTS_KEPT) == 6
    red_or_black = under_readings(version, {"meme-couleur": "red-or-black"})
    used, _returns = _groups(red_or_black, {"lucky_ladies"}, monkeypatch, settled=False)
    assert set(used["lucky_ladies"]) == {"SHDC", "CHDS"}


def _every_ordered_deal(decks: int):
    """(player's two cards, dealer's first card, probability) for every ordered deal of a full shoe."""
    total = decks * len(CARDS)
    for first, second, up in itertools.product(CARDS, repeat=3):
        n_second = decks - (second == first)
        n_up = decks - (up == first) - (up == second)
        if n_second > 0 and n_up > 0:
            yield first, second, up, decks * n_second * n_up / (total * (total - 1) * (total - 2))


def _by_hand(pays) -> tuple[float, dict[str, float]]:
    """The return and each line's probability, every ordered deal settled by `pays` (net, line)."""
    ev, lines = 0.0, {}
    for first, second, up, p in _every_ordered_deal(6):
        net, line = pays(first, second, up)
        ev += p * net
        lines[line] = lines.get(line, 0.0) + p
    return ev, lines


# The sums differ in their order of adding only: a deal settled wrongly, or weighted by a wrong class size,
# moves a figure by its probability (one ordered deal of six decks: 1 / 312·311·310 ≈ 3.3e-8) or more.
CLOSE = 1e-10


def _as_edge(bet) -> tuple[float, dict[str, float]]:
    return bet.ev, {line.label: line.probability for line in bet.lines}


def test_a_bet_that_names_a_suit_gives_the_figure_of_every_deal(monkeypatch):
    """« Trois cœurs » (the fixture's paytable): three hearts 50 to 1, the queen of hearts among the
    three 10 to 1, three of one suit 3 to 1, the best line only. Only the renamings that keep hearts are
    used, and the figure is that of every ordered deal settled here by the fixture's words."""
    version = registry_with((FIXTURE,)).pick("zz/suited-bets@2025-01-01")
    used, returns = _groups(version, {"hearts"}, monkeypatch)
    assert set(used["hearts"]) == set(HEARTS_KEPT)

    def pays(first, second, up):
        suited = first[1] == second[1] == up[1]
        if suited and up[1] == "H":
            return 50.0, "Trois cœurs"
        if "QH" in (first, second, up):
            return 10.0, "Dame de cœur"
        if suited:
            return 3.0, "Trois d'une couleur"
        return -1.0, "no line (stake lost)"

    ev, lines = _by_hand(pays)
    found_ev, found_lines = _as_edge(returns["hearts"])
    assert found_ev == pytest.approx(ev, abs=CLOSE)
    assert found_lines.keys() == lines.keys()
    for label, p in lines.items():
        assert found_lines[label] == pytest.approx(p, abs=CLOSE), label
    # Three hearts: 78 · 77 · 76 of 312 · 311 · 310 ordered deals, as dealt from six decks.
    assert lines["Trois cœurs"] == pytest.approx(78 * 77 * 76 / (312 * 311 * 310), rel=1e-12)


def test_a_bet_that_orders_cards_by_their_codes_reads_every_deal(monkeypatch):
    """« Carte haute »: the dealer's card paid when its code comes after "QH" (QS does, QD does not):
    no renaming but the identity, and the figure of every deal."""
    version = registry_with((FIXTURE,)).pick("zz/suited-bets@2025-01-01")
    used, returns = _groups(version, {"high_card"}, monkeypatch)
    assert used["high_card"] == ("SHDC",)
    ev, lines = _by_hand(lambda first, second, up: (1.0, "Carte haute") if up > "QH" else (-1.0, "x"))
    found_ev, found_lines = _as_edge(returns["high_card"])
    assert found_ev == pytest.approx(ev, abs=CLOSE)
    assert found_lines["Carte haute"] == pytest.approx(lines["Carte haute"], abs=CLOSE)


renamings = st.sampled_from(EVERY)
hands = st.lists(st.sampled_from(CARDS), min_size=0, max_size=5)


@settings(max_examples=200, deadline=None)
@given(cards=hands, renamed=renamings, card=st.sampled_from(CARDS), rank=st.sampled_from("A23456789TJQK"))
def test_each_function_gives_the_same_result_under_the_renamings_it_declares(cards, renamed, card, rank):
    new = [_rename(c, renamed) for c in cards]
    for name, function in FUNCTIONS.items():
        if function.suits is None or (function.suits == COLOURS and not _keeps_colours(renamed)):
            continue
        assert function.suits in (ANY_SUITS, COLOURS)
        if function.arguments == ("amount",):
            continue  # money, not cards
        if name == "count":
            assert function.call(new, _rename(card, renamed)) == function.call(cards, card)
        elif name == "count_rank":
            assert function.call(new, rank) == function.call(cards, rank)
        else:
            assert function.arguments in (("cards",), ("items",)), name
            assert function.call(new) == function.call(cards), name


def test_the_card_facts_are_the_facts_declared_as_cards():
    """CARD_FACTS against validator/dsl/facts.py as written (a compiled build keeps no annotations)."""
    source = ast.parse((Path(validator.dsl.__file__).parent / "facts.py").read_text(encoding="utf-8"))
    classes_of = {cls.__name__: namespace for namespace, cls in FACT_CLASSES.items()}
    declared = {
        f"{classes_of[node.name]}.{item.target.id}"
        for node in source.body
        if isinstance(node, ast.ClassDef) and classes_of.get(node.name) in DEALT
        for item in node.body
        if isinstance(item, ast.AnnAssign) and "Card" in ast.unparse(item.annotation)
    }
    assert declared == CARD_FACTS
    assert not CARD_FACTS & RANK_FACTS


@settings(max_examples=150, deadline=None)
@given(cards=hands, renamed=renamings)
def test_the_rank_facts_do_not_change_with_the_suits(cards, renamed):
    from validator.dsl.vocabulary import OWN_FACTS

    new = [_rename(c, renamed) for c in cards]
    for version in ("fr/blackjack@2024-11-01", "fr/bataille@2013-05-12"):
        _same_ranks(Probe(default_registry().pick(version), {}), cards, new, OWN_FACTS)


def _same_ranks(probe: Probe, cards: list[str], new: list[str], owned: dict[str, tuple[str, ...]]) -> None:
    """Every rank fact a round of the probe's game gives (the shared ones and its own) is the same."""
    game = probe.ruleset.game
    for namespace, build in (("hand", probe.hand), ("dealer", probe.dealer)):
        before, after = build(cards), build(new)
        for fact in RANK_FACTS:
            if fact.startswith(f"{namespace}.") and game in owned.get(fact, (game,)):
                attribute = fact.partition(".")[2]
                assert getattr(after, attribute) == getattr(before, attribute), fact


@settings(max_examples=40, deadline=None)
@given(deal=st.lists(st.sampled_from(CARDS), min_size=3, max_size=3), renamed=renamings)
def test_the_dealers_drawn_results_do_not_change_with_the_suits(deal, renamed):
    """The premise of renaming deals of a bet that reads the dealer's final result: the blackjack
    dealer's results follow the cards' ranks only."""
    version = default_registry().pick("fr/blackjack@2024-11-01")
    results = MATHS.dealer_results(Probe(version, house_for(version, None)))
    new = [_rename(c, renamed) for c in deal]
    assert results(6, new[:2], new[2:]) == results(6, deal[:2], deal[2:])
