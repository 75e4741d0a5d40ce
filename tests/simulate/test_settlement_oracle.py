"""An independent oracle of the main game's money, kept for tests only.

The simulator settles every stake through the ruleset's compiled `settle` clauses, the same ones the
replay judges a log by: one implementation of the money. This module is the other one, written by hand
from the texts and not from the rulesets, as the simulator had it before: a busted hand loses; a black
jack against the dealer's black jack is returned; a black jack is paid at the version's rate (3 for 2,
or the house's rate where the text leaves it to the house); a dealer's black jack takes the rest; a
dealer who busts pays the hands still in play even money; else the higher total wins even money and a
tie is returned. A surrender loses the text's share of the stake; an insurance pays 2 for 1 against the
dealer's black jack and is lost otherwise. Simulated séances of every blackjack version must settle
every main stake and insurance as this oracle does.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest

from validator.dsl.ast import Ratio
from validator.rulebook.registry import default_registry
from validator.simulate.run import Seance, simulate
from validator.simulate.settled import RoundRebuilt

REGISTRY = default_registry()
BLACKJACK = [rs.version for rs in REGISTRY.all() if rs.game == "blackjack"]


# What the texts say, read by hand: the black jack's rate (art. 55-4, 1°: « trois fois la moitié de sa
# mise »; Ontario, section 3: « trois (3) pour deux (2) »; the usage text gives none: the house's rate),
# and the surrender's loss (art. 55-4: « la moitié de sa mise »).
BLACKJACK_RATE = {"fr/blackjack": Decimal("1.5"), "on/fair-blackjack": Decimal("1.5")}
SURRENDER_LOST = Decimal("0.5")


def oracle(hand: Any, dealer: Any, family: str, house_rate: Decimal) -> tuple[str, Decimal]:
    """What a main stake gets: (pay, winnings), (push, 0) or (lose, the amount collected)."""
    stake = hand.stake
    if hand.surrendered:
        return "lose", stake * SURRENDER_LOST
    if hand.even_money:
        return "pay", stake
    if hand.busted:
        return "lose", stake
    if hand.blackjack and dealer.blackjack:
        return "push", Decimal(0)
    if hand.blackjack:
        return "pay", stake * BLACKJACK_RATE.get(family, house_rate)
    if dealer.blackjack:
        return "lose", stake
    if dealer.busted or hand.total > dealer.total:
        return "pay", stake
    if hand.total == dealer.total:
        return "push", Decimal(0)
    return "lose", stake


def _logged(action: list[Any], stake: Decimal) -> tuple[str, Decimal]:
    verb = action[0]
    if verb == "pay":
        return "pay", Decimal(str(action[2]))
    if verb == "lose":
        return "lose", Decimal(str(action[2])) if len(action) > 2 else stake
    return "push", Decimal(0)


@pytest.mark.parametrize("version", BLACKJACK)
def test_simulated_settlements_agree_with_the_oracle(version):
    ruleset = REGISTRY.pick(version)
    house = {**ruleset.house_defaults(), "surrender": True}
    house = {k: v for k, v in house.items() if k in ruleset.options}
    if "blackjack_pays" in ruleset.options:
        house["blackjack_pays"] = Ratio(6, 5)
    day = ruleset.valid_from.isoformat() if ruleset.valid_from else "2025-06-01"
    records = simulate(
        ruleset,
        house,
        Seance(
            seed=11,
            rounds=150,
            table_id="T-1",
            start=datetime.fromisoformat(f"{day}T20:00:00+01:00"),
            minimum=Decimal(1) if version.startswith("on/") else Decimal(10),
            maximum=Decimal(5) if version.startswith("on/") else Decimal(1000),
        ),
    )
    compared = set()
    for record in records:
        if record["type"] != "round":
            continue
        rebuilt = RoundRebuilt(record, ruleset)
        for action in record["actions"]:
            if action[0] not in ("pay", "lose", "push") or ":" in action[1]:
                continue
            hand = rebuilt.hands[action[1]]
            expected = oracle(hand, rebuilt.dealer, ruleset.family, Decimal("1.2"))
            assert _logged(action, hand.stake) == expected, (record["round"], action)
            compared.add(expected[0])
        for box, amount in rebuilt.insured.items():
            paid = next(a for a in record["actions"] if a[1] == f"{box}:insurance" and a[0] != "insurance")
            wins = rebuilt.dealer.blackjack
            assert _logged(paid, amount) == (("pay", amount * 2) if wins else ("lose", amount))
    assert compared == {"pay", "lose", "push"}
