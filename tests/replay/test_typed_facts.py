"""The vocabulary's facts are declared once, as typed classes, and the replay's objects offer them;
the replay's mechanics that do the work once (amounts read once, the shoe put back without a copy)
give what doing it each time gave."""

from __future__ import annotations

from decimal import Decimal

import pytest

from validator.casino.cards import all_cards
from validator.casino.stakes import MalformedRound, amount_of
from validator.dsl import vocabulary
from validator.dsl.facts import FACT_CLASSES, CardFacts, StakeFacts, facts_of
from validator.dsl.vocabulary import NAMESPACES
from validator.games import GAMES
from validator.games.blackjack.hands import BlackjackBox, BlackjackHand
from validator.logs.decode import ShoeRecord
from validator.replay.side_bets import DealerCards, PlayerCards
from validator.replay.state import Shoe, TableState


def test_every_fact_is_declared_with_a_doc_and_namespaces_are_read_from_the_classes():
    for name, declared in FACT_CLASSES.items():
        facts = facts_of(declared)
        assert facts, name
        assert all(isinstance(doc, str) and doc.strip() for doc in facts.values()), name
        assert list(NAMESPACES[name])[: len(facts)] == list(facts)  # the shared facts, then the games'
    for words in vocabulary.WORDS.values():
        for name, declared in words.facts.items():
            facts = facts_of(declared)
            assert facts and all(doc.strip() for doc in facts.values()), name
            assert set(facts) <= set(NAMESPACES[name])


def test_fact_objects_are_slotted_and_take_only_their_facts():
    card = CardFacts(code="QH")
    assert (card.code, card.in_shoe) == ("QH", True)  # the other fact keeps its declared default
    assert not hasattr(card, "__dict__")
    with pytest.raises(AttributeError):
        card.colour = "red"
    with pytest.raises(TypeError, match="colour"):
        CardFacts(colour="red")
    # "in a settle clause …; else none": a stake read outside one says none, as documented
    assert StakeFacts(name="3:jp1").verb is None


def _table() -> TableState:
    return TableState("T-1", "blackjack", 7, Decimal(10), Decimal(500), None, None, 1)


def _offered_by_the_replay(game: str) -> dict[str, object]:
    """The objects a game's replay gives each namespace of the state: its own hands, box and dealer."""
    declared = GAMES[game]
    kit = declared.load(declared.hands)
    box = kit.box(3)
    hand = kit.hand("3", box, Decimal(10))
    shoe = Shoe(ShoeRecord(shoe="S1", at="2025-01-01T20:00Z", reason="open", decks=6))
    return {
        "table": _table(),
        "shoe": shoe,
        "box": box,
        "hand": hand,
        "dealer": kit.dealer(),
        "player": PlayerCards(3, {3: ["7H", "7H", "7H"]}, "AS"),
        "dealer_cards": DealerCards(["AS"]),
    }


def _facts_of_the_game(game: str, namespace: str) -> set[str]:
    """The facts a round of `game` gives in `namespace`: the shared ones and the game's own."""
    shared = set(facts_of(FACT_CLASSES[namespace]))
    own = vocabulary.WORDS[game].facts.get(namespace)
    return shared | (set(facts_of(own)) if own is not None else set())


@pytest.mark.parametrize("game", ["blackjack", "bataille"])
@pytest.mark.parametrize("namespace", ["table", "shoe", "box", "hand", "dealer", "player", "dealer_cards"])
def test_the_replays_objects_offer_every_fact_their_namespace_declares(game, namespace):
    offered = _offered_by_the_replay(game)[namespace]
    missing = [fact for fact in _facts_of_the_game(game, namespace) if not hasattr(offered, fact)]
    assert missing == []


def test_a_games_facts_are_not_another_games():
    """The total is blackjack's: a bataille hand has none (its evaluator ranks its card, ace high), and a
    blackjack hand has no rank."""
    blackjack = _offered_by_the_replay("blackjack")["hand"]
    bataille = _offered_by_the_replay("bataille")["hand"]
    for card in ("AS",):
        blackjack.add(card)
        bataille.add(card)
    assert (blackjack.total, blackjack.soft) == (11, True)
    assert bataille.rank == 14  # ace high
    assert not hasattr(bataille, "total") and not hasattr(blackjack, "rank")


def test_every_stored_field_is_a_games_declared_fact():
    """The generic replay keeps some games' facts in its event facts (`stored`, no doc of its own): each
    is declared, with its doc, by the games whose rounds set it, and every game's fact of an event
    namespace is such a field."""
    from dataclasses import fields

    stored = {
        f"{namespace}.{item.name}"
        for namespace, declared in FACT_CLASSES.items()
        for item in fields(declared)
        if "doc" not in item.metadata
    }
    assert stored  # blackjack's turn, hole card, … are kept by the generic replay
    owned = set(vocabulary.OWN_FACTS)
    assert stored <= owned
    event_facts = {
        fact
        for fact in owned
        if fact.split(".")[0] in FACT_CLASSES and fact.split(".")[0] not in STATE_NAMESPACES
    }
    assert event_facts == stored


STATE_NAMESPACES = ("table", "shoe", "box", "hand", "dealer", "player", "dealer_cards")


def test_an_amount_is_read_once_per_spelling_and_the_spelling_is_kept():
    assert str(amount_of(10, "x")) == "10"
    assert str(amount_of(10.0, "x")) == "10.0"  # equal to 10, another spelling: not the cached 10
    assert str(amount_of("7.50", "x")) == "7.50"
    assert amount_of(7.5, "x") == Decimal("7.5")
    assert amount_of(10, "x") is amount_of(10, "x")  # made once
    with pytest.raises(MalformedRound, match=r"bets\[2\]\.amount: True is not an amount"):
        amount_of(True, "bets[{}].amount", 2)  # equal to 1 as a key, but no amount
    with pytest.raises(MalformedRound, match="a negative amount"):
        amount_of(-5, "pay {}", "3")
    with pytest.raises(MalformedRound, match=r"pay 3\{x\}: \[1\] is not an amount"):
        amount_of([1], "pay 3{x}")  # a message with braces from the log, no formatting asked


def test_a_round_that_cannot_be_replayed_puts_its_cards_back_without_a_copy_of_the_shoe():
    shoe = Shoe(ShoeRecord(shoe="S1", at="2025-01-01T20:00Z", reason="open", decks=1))
    shoe.take("AS")
    before = shoe.snapshot()
    shoe.begin_round()
    assert shoe.take("KH") and shoe.take("QD")
    assert not shoe.take("AS")  # the one ace of spades is gone
    shoe.cut_card_out = True
    assert shoe.snapshot_before_round() == before
    shoe.undo_round()
    assert shoe.snapshot() == before
    assert shoe.left == 51 and sum(shoe.remaining.values()) == 51
    assert set(shoe.remaining) == set(all_cards())


def test_totals_kept_as_cards_come_are_the_totals_of_the_cards():
    hand = BlackjackHand("1", BlackjackBox(1), Decimal(10), split_counts=False)
    seen = []
    for card in ("AS", "AH", "9D", "KC", "5S"):
        hand.add(card)
        seen.append((hand.total, hand.soft, hand.busted))
    assert seen == [
        (11, True, False),
        (12, True, False),
        (21, True, False),
        (21, False, False),
        (26, False, True),
    ]
    hand.take_back()
    hand.add("AD")
    assert (hand.total, hand.soft, hand.busted) == (22, False, True)


def test_the_declaration_is_importable_as_plain_names():
    # helpers that generate the vocabulary page and "did you mean" read these names
    assert vocabulary.FACT_CLASSES is FACT_CLASSES
    own = {namespace for words in vocabulary.WORDS.values() for namespace in words.facts}
    assert set(NAMESPACES) == set(FACT_CLASSES) | own
