"""Every line of every side-bet paytable, paid right and paid wrong.

The odds below are copied from the articles (the 2013 wording, the 2025 text and the bataille text of
docs/sources.md), not from the rulesets: the test holds the rulesets to the text. Each case deals a hand
whose best combination is that line, and checks that the right payment gives no finding and a payment
one unit short gives a payout finding of the paytable's rule, with the amount the text gives.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from sb_logs import BATAILLE, BJ_000, BJ_001, bet, check, jackpot, round_, shoe, table

from validator.rulebook.registry import default_registry

REGISTRY = default_registry()


def assert_paid(
    found: list[dict[str, Any]], right: bool, rule: str, stake: str, line: str, due: str, paid: str
) -> None:
    """Paid right (`paid` is `due`): no finding. Paid wrong: one payout finding of `rule` on `stake`, the
    paytable's `line` giving `due` where the log pays `paid`."""
    if right:
        assert found == []
    else:
        assert [(f["rule"], f["kind"], f["stake"], f["expected"], f["actual"]) for f in found] == [
            (rule, "payout", stake, {"pay": due, "line": line}, {"pay": paid})
        ]


# ---------------------------------------------------------------- the law, as the texts print it
# The 2013 wording, 5° (lucky ladies), and the 2025 text, 5° (dames de cœur): "X pour 1", tables A and B.
LUCKY_LADIES_000 = {
    "2 dames de cœur et BJ du croupier": {"A": 1000, "B": 1000},
    "Paire de dames de cœur": {"A": 125, "B": 200},
    "Paire totalisant 20": {"A": 19, "B": 25},
    "2 cartes de même couleur totalisant 20": {"A": 9, "B": 10},
    "2 cartes quelconques totalisant 20": {"A": 4, "B": 4},
}
LUCKY_LADIES_001 = {
    "2 dames de cœur et BJ du croupier": {"A": 1000, "B": 1000},
    "Paire de dames de cœur": {"A": 125, "B": 200},
    "Paire de même couleur totalisant 20": {"A": 19, "B": 25},
    "2 cartes de même couleur totalisant 20": {"A": 9, "B": 10},
    "2 cartes quelconques totalisant 20": {"A": 4, "B": 4},
}
# The 2025 text, 6°: "Rapport des gains".
HYPER = {"17": 4, "18": 5, "19": 5, "20": 4, "21": 10, "black jack": 19, "bust": 2}
# The 2025 text, 7°: "GAIN … fois la mise".
TWO_PLUS_ONE = {"TIERCE FLUSH": 30, "BRELAN": 20, "TIERCE": 10, "COULEUR": 5}
# The 2025 text, 8°: "Gain"; the two top lines pay 100 % of a jackpot.
JP1_STANDARD = {
    "Trois « 7 » de la même enseigne": "main",
    "Trois « 7 » de la même couleur": "secondary",
    "Trois « 7 »": 250,
    "Deux « 7 »": 25,
    "Un « 7 »": 2,
}
JP1_CONSOLATION = {
    "Lot de consolation : 100 pour 1 (trois « 7 » de la même enseigne)": 100,
    "Lot de consolation : 25 pour 1 (trois « 7 » de la même couleur)": 25,
}
# 8°, al. 3: the croupier « enregistre ces mises, les ramasse puis les ajoute à la cagnotte » before the cards
# (reading jp1-stake, default kept): a gain is all the player receives, and hand-log/1 writes the net on top
# of the stake, the gain less the stake of 1 (`net`). The stake is kept once: a consolation on top of a line
# of the table is paid whole; alone, it is the stake's only gain, net of it (the lines « …, seul gain »).
STAKE = 1
JP1_CONSOLATION_KEPT = {
    "Lot de consolation : 100 pour 1 (trois « 7 » de la même enseigne)": 100,
    "Lot de consolation : 100 pour 1, seul gain (trois « 7 » de la même enseigne)": 100 - STAKE,
    "Lot de consolation : 25 pour 1 (trois « 7 » de la même couleur)": 25,
    "Lot de consolation : 25 pour 1, seul gain (trois « 7 » de la même couleur)": 25 - STAKE,
}
# The bataille text, al. 29: "La mise égalité paie 10 pour 1".
EGALITE = {"Égalité": 10}

LAW = {
    **{(v, "lucky_ladies", t): {k: o[t] for k, o in LUCKY_LADIES_000.items()} for v in BJ_000 for t in "AB"},
    **{(v, "lucky_ladies", t): {k: o[t] for k, o in LUCKY_LADIES_001.items()} for v in BJ_001 for t in "AB"},
    **{(v, "hyper_blackjack", "standard"): HYPER for v in BJ_001},
    **{(v, "two_plus_one", "standard"): TWO_PLUS_ONE for v in BJ_001},
    **{(v, "jp1", "standard"): JP1_STANDARD for v in BJ_001},
    **{(v, "jp1", "consolation"): JP1_CONSOLATION_KEPT for v in BJ_001},
    **{(v, "egalite", "standard"): EGALITE for v in BATAILLE},
}
METERS = ("15230.00", "2410.50")


def test_every_paytable_line_of_every_ruleset_is_in_the_law_table_here():
    seen = {}
    for ruleset in REGISTRY.all():
        for name, bet_def in ruleset.side_bets.items():
            for table_name, lines in bet_def.paytables.items():
                seen[(ruleset.version, name, table_name)] = [line.label for line in lines]
    assert set(seen) == set(LAW)
    for key, labels in seen.items():
        assert labels == list(LAW[key]), key  # same lines, best first as the texts list them


# ---------------------------------------------------------------- the hands
def ll_round(cards: tuple[str, str], payment: list[Any]) -> dict[str, Any]:
    """Box 1 (20 on the main bet, 5 on lucky ladies) dealt `cards`. Against the dealer's A♣ K♦ (black
    jack) for the queens of hearts' top line, held to the end (b)); otherwise against 6♥ 10♣ 2♦ = 18,
    settled right after the deal; box 1's 20 beats 18, a lower total loses."""
    if cards == ("QH", "QH") and payment and payment[0] == "bj":
        return round_(
            1,
            [bet("1", 20), bet("1:lucky_ladies", 5)],
            [
                ["deal", "1", "QH"],
                ["deal", "D", "AC"],
                ["deal", "1", "QH"],
                ["stand", "1"],
                ["deal", "D", "KD"],
                ["lose", "1"],
                payment[1],
            ],
        )
    total = sum(10 if c[0] in "TJQK" else int(c[0]) for c in cards)
    main = ["pay", "1", 20] if total > 18 else (["push", "1"] if total == 18 else ["lose", "1"])
    return round_(
        1,
        [bet("1", 20), bet("1:lucky_ladies", 5)],
        [
            ["deal", "1", cards[0]],
            ["deal", "D", "6H"],
            ["deal", "1", cards[1]],
            payment,
            ["stand", "1"],
            ["deal", "D", "TC"],
            ["deal", "D", "2D"],
            main,
        ],
    )


LL_HANDS = {
    "2 dames de cœur et BJ du croupier": ("QH", "QH"),
    "Paire de dames de cœur": ("QH", "QH"),
    "Paire totalisant 20": ("KS", "KS"),  # the 2013 wording: the identical pair (reading pair-totalling-20)
    "Paire de même couleur totalisant 20": ("KS", "KS"),  # the 2025 text: one rank, one suit
    "2 cartes de même couleur totalisant 20": ("KS", "QS"),
    "2 cartes quelconques totalisant 20": ("KS", "QD"),
}


def ll_cases():
    for (version, side, table_name), lines in LAW.items():
        if side != "lucky_ladies":
            continue
        for label, odds in lines.items():
            yield pytest.param(version, table_name, label, odds, id=f"{version}:{table_name}:{label}")


@pytest.mark.parametrize("version,table_name,label,odds", list(ll_cases()))
@pytest.mark.parametrize("right", [True, False], ids=["paid-right", "paid-wrong"])
def test_lucky_ladies_line(tmp_path, version, table_name, label, odds, right):
    cards = LL_HANDS[label]
    due = 5 * odds
    paid = due if right else due - 1
    pay = ["pay", "1:lucky_ladies", paid]
    record = ll_round(cards, ["bj", pay] if label.startswith("2 dames") else pay)
    found, _ = check(tmp_path, [table(), shoe(), record], version, {"lucky_ladies.paytable": table_name})
    assert_paid(
        found, right, "fr/blackjack/lucky-ladies-paytable", "1:lucky_ladies", label, str(due), str(paid)
    )


@pytest.mark.parametrize("version", [*BJ_000, *BJ_001])
def test_lucky_ladies_without_20_is_lost(tmp_path, version):
    # K♠ 9♣ = 19: "Un bonus est gagné … lorsque la valeur des deux premières cartes … est égale à 20".
    record = ll_round(("KS", "9C"), ["pay", "1:lucky_ladies", 20])
    found, _ = check(tmp_path, [table(), shoe(), record], version)
    assert [(f["rule"], f["expected"], f["actual"]) for f in found] == [
        ("fr/blackjack/lucky-ladies-paytable", {"lose": "5"}, {"pay": "20"})
    ]
    record = ll_round(("KS", "9C"), ["lose", "1:lucky_ladies"])
    assert check(tmp_path, [table(), shoe(), record], version)[0] == []


@pytest.mark.parametrize("version", [*BJ_000, *BJ_001])
def test_a_pair_of_two_suits_is_no_pair_of_the_table(tmp_path, version):
    # K♠ K♥: the 2025 text's "Paire de même couleur" asks one suit; the 2013 wording's "Paire totalisant 20"
    # is read the same (reading pair-totalling-20, default same-rank-and-suit): only "2 cartes quelconques
    # totalisant 20", 4 for 1.
    record = ll_round(("KS", "KH"), ["pay", "1:lucky_ladies", 5 * 4])
    assert check(tmp_path, [table(), shoe(), record], version)[0] == []


# ---------------------------------------------------------------- hyper black jack
# Box 1: 10♠ 8♦ = 18 stands. The dealer's cards after his 6♣ / A♣, his result, and box 1's main stake.
HYPER_HANDS = {
    "17": ("17", ["6C", "TD", "AH"], ["pay", "1", 20]),
    "18": ("18", ["6C", "TD", "2H"], ["push", "1"]),
    "19": ("19", ["6C", "TD", "3H"], ["lose", "1"]),
    "20": ("20", ["6C", "TD", "4H"], ["lose", "1"]),
    "21": ("21", ["6C", "TD", "5H"], ["lose", "1"]),
    "black jack": ("blackjack", ["AC", "KH"], ["lose", "1"]),
    "bust": ("bust", ["6C", "TD", "9H"], ["pay", "1", 20]),
}


def hyper_round(case: str, dealer: list[str], main: list[Any], payment: list[Any]) -> dict[str, Any]:
    return round_(
        1,
        [bet("1", 20), bet(f"1:hyper:{case}", 5)],
        [
            ["deal", "1", "TS"],
            ["deal", "D", dealer[0]],
            ["deal", "1", "8D"],
            ["stand", "1"],
            *(["deal", "D", c] for c in dealer[1:]),
            main,
            payment,
        ],
    )


@pytest.mark.parametrize("version", BJ_001)
@pytest.mark.parametrize("label,odds", HYPER.items(), ids=list(HYPER))
@pytest.mark.parametrize("right", [True, False], ids=["paid-right", "paid-wrong"])
def test_hyper_blackjack_line(tmp_path, version, label, odds, right):
    case, dealer, main = HYPER_HANDS[label]
    due = 5 * odds
    paid = due if right else due - 1
    found, _ = check(
        tmp_path,
        [table(), shoe(), hyper_round(case, dealer, main, ["pay", f"1:hyper:{case}", paid])],
        version,
    )
    assert_paid(
        found, right, "fr/blackjack/hyper-blackjack-paytable", f"1:hyper:{case}", label, str(due), str(paid)
    )


@pytest.mark.parametrize("version", BJ_001)
@pytest.mark.parametrize("label", HYPER, ids=list(HYPER))
def test_hyper_blackjack_other_cases_lose(tmp_path, version, label):
    # "quand la case sur laquelle il a engagé sa mise … correspond au résultat final de la banque": every
    # other case loses. Losing cases are collected before the main stake (6°, last paragraph).
    case, dealer, main = HYPER_HANDS[label]
    others = [c for c, _d, _m in HYPER_HANDS.values() if c != case]
    record = round_(
        1,
        [bet("1", 20), *(bet(f"1:hyper:{c}", 1) for c in others)],
        [
            ["deal", "1", "TS"],
            ["deal", "D", dealer[0]],
            ["deal", "1", "8D"],
            ["stand", "1"],
            *(["deal", "D", c] for c in dealer[1:]),
            *(["lose", f"1:hyper:{c}"] for c in others),
            main,
        ],
    )
    assert check(tmp_path, [table(), shoe(), record], version)[0] == []


# ---------------------------------------------------------------- 2 + 1 cartes
# Box 1's two cards and the dealer's first; the dealer then draws 7♣; box 1 stands; its main stake.
PLUS_HANDS = {
    "TIERCE FLUSH": (("9H", "TH"), "JH", ["pay", "1", 20]),  # 19 against J 7 = 17
    "BRELAN": (("7S", "7H"), "7D", ["lose", "1"]),  # 14 against 7 10 = 17
    "TIERCE": (("9H", "TC"), "JH", ["pay", "1", 20]),  # 19 against 17
    "COULEUR": (("2H", "9H"), "KH", ["lose", "1"]),  # 11 against K 7 = 17
}


def plus_round(cards: tuple[str, str], up: str, main: list[Any], payment: list[Any]) -> dict[str, Any]:
    second = "TC" if up == "7D" else "7C"
    return round_(
        1,
        [bet("1", 20), bet("1:two_plus_one", 2)],
        [
            ["deal", "1", cards[0]],
            ["deal", "D", up],
            ["deal", "1", cards[1]],
            payment,
            ["stand", "1"],
            ["deal", "D", second],
            main,
        ],
    )


@pytest.mark.parametrize("version", BJ_001)
@pytest.mark.parametrize("label,odds", TWO_PLUS_ONE.items(), ids=list(TWO_PLUS_ONE))
@pytest.mark.parametrize("right", [True, False], ids=["paid-right", "paid-wrong"])
def test_two_plus_one_line(tmp_path, version, label, odds, right):
    cards, up, main = PLUS_HANDS[label]
    due = 2 * odds
    paid = due if right else due - 1
    found, _ = check(
        tmp_path, [table(), shoe(), plus_round(cards, up, main, ["pay", "1:two_plus_one", paid])], version
    )
    assert_paid(
        found, right, "fr/blackjack/two-plus-one-paytable", "1:two_plus_one", label, str(due), str(paid)
    )


@pytest.mark.parametrize("version", BJ_001)
def test_two_plus_one_without_a_combination_is_lost(tmp_path, version):
    # 9♥ 10♣ with the dealer's 2♠: no run, no suit, no rank. 19 against 2 7 … the dealer draws to 17.
    record = round_(
        1,
        [bet("1", 20), bet("1:two_plus_one", 2)],
        [
            ["deal", "1", "9H"],
            ["deal", "D", "2S"],
            ["deal", "1", "TC"],
            ["pay", "1:two_plus_one", 10],
            ["stand", "1"],
            ["deal", "D", "7C"],
            ["deal", "D", "8C"],
            ["pay", "1", 20],
        ],
    )
    found, _ = check(tmp_path, [table(), shoe(), record], version)
    assert [(f["rule"], f["expected"], f["actual"]) for f in found] == [
        ("fr/blackjack/two-plus-one-paytable", {"lose": "2"}, {"pay": "10"})
    ]


# ---------------------------------------------------------------- JP1
def jp1_round(
    box1: list[str],
    jp1_actions: list[list[Any]],
    others: dict[str, list[str]] | None = None,
    jp1_boxes: tuple[str, ...] = ("1",),
) -> dict[str, Any]:
    """Boxes dealt their first two cards, then (if given) a third by a hit; each stands. The dealer
    9♣ 8♣ = 17. Main stakes of 20; JP1 stakes of 1 on `jp1_boxes`."""
    hands = {"1": box1, **(others or {})}
    order = sorted(hands)
    actions: list[list[Any]] = []
    for b in order:
        actions.append(["deal", b, hands[b][0]])
    actions.append(["deal", "D", "9C"])
    for b in order:
        actions.append(["deal", b, hands[b][1]])
    for b in order:
        if len(hands[b]) > 2:
            actions.append(["hit", b, hands[b][2]])
        actions.append(["stand", b])
    actions.append(["deal", "D", "8C"])
    for b in reversed(order):
        total = sum(10 if c[0] in "TJQK" else int(c[0]) for c in hands[b])
        actions.append(["pay", b, 20] if total > 17 else (["push", b] if total == 17 else ["lose", b]))
    bets = [x for b in order for x in (bet(b, 20), *([bet(f"{b}:jp1", 1)] if b in jp1_boxes else []))]
    return round_(1, bets, [*actions, *jp1_actions])


JP1_HANDS = {
    "Trois « 7 » de la même enseigne": ["7H", "7H", "7H"],
    "Trois « 7 » de la même couleur": ["7S", "7C", "7S"],
    "Trois « 7 »": ["7S", "7D", "7C"],
    "Deux « 7 »": ["7S", "7D", "4H"],
    "Un « 7 »": ["7S", "KD"],
}


@pytest.mark.parametrize("version", BJ_001)
@pytest.mark.parametrize("label,gain", JP1_STANDARD.items(), ids=list(JP1_STANDARD))
@pytest.mark.parametrize("right", [True, False], ids=["paid-right", "paid-wrong"])
def test_jp1_line(tmp_path, version, label, gain, right):
    gross = Decimal(METERS[0] if gain == "main" else METERS[1]) if isinstance(gain, str) else Decimal(gain)
    due = gross - STAKE  # the stake went into the jackpot: the net of the gain
    paid = due if right else due - 1
    approve = [["approve", "1:jp1", "S-12"]] if isinstance(gain, str) else []
    record = jp1_round(JP1_HANDS[label], [*approve, ["pay", "1:jp1", str(paid)]])
    found, _ = check(tmp_path, [table(), shoe(), jackpot(*METERS), record], version)
    assert_paid(found, right, "fr/blackjack/jp1-paytable", "1:jp1", label, _money(due), _money(paid))


# Box 1 holds a top hand; box 3 bets JP1 with K♠ 8♦ (no seven) and wins the consolation only.
CONSOLATION_HANDS = {
    "Lot de consolation : 100 pour 1 (trois « 7 » de la même enseigne)": (["7H", "7H", "7H"], METERS[0]),
    "Lot de consolation : 25 pour 1 (trois « 7 » de la même couleur)": (["7S", "7C", "7S"], METERS[1]),
}


@pytest.mark.parametrize("version", BJ_001)
@pytest.mark.parametrize("label,odds", JP1_CONSOLATION.items(), ids=["100-for-1", "25-for-1"])
@pytest.mark.parametrize("right", [True, False], ids=["paid-right", "paid-wrong"])
def test_jp1_consolation_line(tmp_path, version, label, odds, right):
    hand, prize = CONSOLATION_HANDS[label]
    # Box 3 wins no line of the table: the consolation is its stake's only gain, net of the stake.
    label = label.replace(" pour 1 (", " pour 1, seul gain (")
    odds -= STAKE
    paid = odds if right else odds - 1
    record = jp1_round(
        hand,
        [["pay", "3:jp1", paid], ["approve", "1:jp1", "S-12"], ["pay", "1:jp1", str(Decimal(prize) - STAKE)]],
        {"3": ["KS", "8D"]},
        ("1", "3"),
    )
    found, _ = check(tmp_path, [table(), shoe(), jackpot(*METERS), record], version)
    assert_paid(found, right, "fr/blackjack/jp1-paytable", "3:jp1", label, str(odds), str(paid))


@pytest.mark.parametrize("version", BJ_001)
def test_jp1_consolation_comes_on_top_of_the_bettors_own_line(tmp_path, version):
    # Box 3: 7♣ K♦, one seven: 2 for 1, net of the stake 1; box 1's three sevens of hearts win the main
    # jackpot elsewhere at the table: 100 for 1 besides, whole (the stake is kept once): 101. The holder of
    # the top hand gets no consolation ("Ce dernier ne remporte pas le lot de consolation").
    record = jp1_round(
        ["7H", "7H", "7H"],
        [
            ["pay", "3:jp1", 101],
            ["approve", "1:jp1", "S-12"],
            ["pay", "1:jp1", str(Decimal(METERS[0]) - STAKE)],
        ],
        {"3": ["7C", "KD"]},
        ("1", "3"),
    )
    assert check(tmp_path, [table(), shoe(), jackpot(*METERS), record], version)[0] == []
    wrong = jp1_round(
        ["7H", "7H", "7H"],
        [
            ["pay", "3:jp1", 1],
            ["approve", "1:jp1", "S-12"],
            ["pay", "1:jp1", str(Decimal(METERS[0]) - STAKE)],
        ],
        {"3": ["7C", "KD"]},
        ("1", "3"),
    )
    found, _ = check(tmp_path, [table(), shoe(), jackpot(*METERS), wrong], version)
    assert [(f["rule"], f["stake"], f["expected"], f["actual"]) for f in found] == [
        (
            "fr/blackjack/jp1-paytable",
            "3:jp1",
            {
                "pay": "101",
                "line": "Un « 7 » + Lot de consolation : 100 pour 1 (trois « 7 » de la même enseigne)",
            },
            {"pay": "1"},
        )
    ]


@pytest.mark.parametrize("version", BJ_001)
@pytest.mark.parametrize("winners,share", [(2, "7614"), (3, "5075.66")])
def test_jp1_jackpot_shared_equally(tmp_path, version, winners, share):
    # "En cas de multiples mains victorieuses, le jackpot est partagé équitablement entre elles":
    # 15230.00 / 2 = 7615; / 3 = 5076.666…, rounded down to the cent (the ruleset's reading); each stake of
    # 1 already in the jackpot (reading jp1-stake, default kept), the net is one less.
    sevens = {"1": ["7H", "7H", "7H"], "3": ["7D", "7D", "7D"], "5": ["7S", "7S", "7S"]}
    boxes = list(sevens)[:winners]
    pays = [x for b in reversed(boxes) for x in (["approve", f"{b}:jp1", "S-12"], ["pay", f"{b}:jp1", share])]
    record = jp1_round(sevens["1"], pays, {b: sevens[b] for b in boxes[1:]}, tuple(boxes))
    assert check(tmp_path, [table(), shoe(), jackpot(*METERS), record], version)[0] == []
    whole = [
        x for b in reversed(boxes) for x in (["approve", f"{b}:jp1", "S-12"], ["pay", f"{b}:jp1", METERS[0]])
    ]
    record = jp1_round(sevens["1"], whole, {b: sevens[b] for b in boxes[1:]}, tuple(boxes))
    found, _ = check(tmp_path, [table(), shoe(), jackpot(*METERS), record], version)
    assert [(f["stake"], f["expected"]["pay"], f["actual"]) for f in found] == [
        (f"{b}:jp1", share, {"pay": "15230"}) for b in boxes
    ]


@pytest.mark.parametrize("version", BJ_001)
def test_jp1_sevens_follow_the_box_through_a_split(tmp_path, version):
    # 7♥ 7♥ split: the third card the player receives (7♥, on his first hand) makes three sevens of one
    # suit "parmi les trois premières cartes qui lui sont distribuées consécutivement".
    record = round_(
        1,
        [bet("1", 20), bet("1:jp1", 1)],
        [
            ["deal", "1", "7H"],
            ["deal", "D", "9C"],
            ["deal", "1", "7H"],
            ["split", "1", 20],
            ["deal", "1", "7H"],
            ["hit", "1", "5C"],
            ["stand", "1"],
            ["deal", "1/2", "TD"],
            ["stand", "1/2"],
            ["deal", "D", "8C"],
            ["push", "1/2"],
            ["pay", "1", 20],
            ["approve", "1:jp1", "S-12"],
            ["pay", "1:jp1", str(Decimal(METERS[0]) - STAKE)],
        ],
    )
    assert check(tmp_path, [table(), shoe(), jackpot(*METERS), record], version)[0] == []


# ---------------------------------------------------------------- the mise égalité
def egalite_round(player: str, dealer: str, payment: list[Any]) -> dict[str, Any]:
    main = [["surrender", "1"], ["lose", "1", 10]] if player[0] == dealer[0] else [["pay", "1", 20]]
    return round_(
        1, [bet("1", 20), bet("1:egalite", 5)], [["deal", "1", player], ["deal", "D", dealer], *main, payment]
    )


@pytest.mark.parametrize("right", [True, False], ids=["paid-right", "paid-wrong"])
def test_egalite_line(tmp_path, right):
    paid = 50 if right else 49
    found, _ = check(
        tmp_path,
        [table("bataille", "BA-01", 5, 500), shoe(), egalite_round("9S", "9D", ["pay", "1:egalite", paid])],
        BATAILLE[0],
        {"egalite.offered": True},
    )
    assert_paid(found, right, "fr/bataille/egalite-pays-10-1", "1:egalite", "Égalité", "50", str(paid))


def test_egalite_without_a_tie_is_lost(tmp_path):
    found, _ = check(
        tmp_path,
        [table("bataille", "BA-01", 5, 500), shoe(), egalite_round("KS", "9D", ["push", "1:egalite"])],
        BATAILLE[0],
        {"egalite.offered": True},
    )
    assert [(f["rule"], f["expected"], f["actual"]) for f in found] == [
        ("fr/bataille/egalite-pays-10-1", {"lose": "5"}, {"push": "5"})
    ]


def _money(value: Decimal) -> str:
    return str(int(value)) if value == value.to_integral_value() else format(value.normalize(), "f")
