"""`edge` against published figures for classical games, within 0.02 percentage points.

The games are written in the rules language: blackjack in tests/maths/classic-blackjack.rules (its
parameters replaced here: decks, a dealer who checks his hole card or not, soft 17), casino war as
fr/bataille with its settle clauses replaced by the American ones. Sources:

- Wizard of Odds, Blackjack Appendix 9 — Six deck, dealer hits on soft 17, no hole card ("euro-6dh17r4":
  https://wizardofodds.com/games/blackjack/appendix/9/euro-6dh17r4/, read at the mirror
  https://ourgyn.com/games/blackjack/appendix/9/euro-6dh17r4/): 6 decks, H17, no hole card, the player
  loses doubles and splits to a dealer's blackjack, resplit to four hands except aces, one card on split
  aces: expected return -0.0072705 with doubling after splits, -0.0086975 without.
- Wizard of Odds, Blackjack Appendix 9 — five decks, dealer stands on soft 17 ("5ds17r4":
  https://wizardofodds.com/games/blackjack/appendix/9/5ds17r4/, read at the mirror
  http://photoeditorx.com/games/blackjack/appendix/9/5ds17r4/): 5 decks, S17, the dealer checks for
  blackjack, same splitting rules: -0.003804 with doubling after splits, -0.005225 without.
- Wizard of Odds, Blackjack Appendix 9 — six decks, dealer stands on soft 17 ("6ds17r4":
  https://wizardofodds.com/games/blackjack/appendix/9/6ds17r4/): 6 decks, S17, the dealer checks for
  blackjack, same splitting rules: -0.004026 with doubling after splits, -0.005445 without; and
  "6dh17r4" (https://wizardofodds.com/games/blackjack/appendix/9/6dh17r4/), the same with a dealer hitting
  soft 17: -0.006151 and -0.007598. These pages are not in the searchable sources; the figures are read
  as a public verifier quotes them from the appendix (github.com/Cryodon-Ai/blackjack-dojo,
  engine/verify.js at c0132453, section E1: "Source: wizardofodds.com/games/blackjack/appendix/9/
  <n>d<s|h>17r4/ (fetched 2026-09-19)"), whose quote of 1ds17r4 (+0.001839) is that page's own figure
  and whose -0.006151 is also quoted by seamplex/libreblackjack's tests/internal.sh.
- Wizard of Odds, Blackjack Appendix 9 — six decks, dealer stands on soft 17, no hole card
  ("euro-6ds17r4": https://wizardofodds.com/games/blackjack/appendix/9/euro-6ds17r4/): -0.0051417
  with doubling after splits, read as quoted from that page in a stored version of seamplex/
  libreblackjack's test script (the page itself is not in the searchable sources; no figure without
  doubling after splits is quoted).
- Wizard of Odds, Blackjack Appendix 9 — eight decks, dealer hits on soft 17, no hole card
  ("euro-8dh17r4", read at the mirror http://photoeditorx.com/games/blackjack/appendix/9/euro-8dh17r4/):
  -0.007562 with doubling after splits.
- Late surrender: Wizard of Odds, Blackjack House Edge Calculator (https://wizardofodds.com/games/
  blackjack/calculator/, M. Shackleford, last updated 16 April 2015), its table of house edges for a
  composition-dependent player and a continuous shuffler (3:2, the dealer checks for blackjack, double
  on any two cards, resplit to four hands, no resplitting or drawing to split aces), read at three
  decimals as reproduced in H. Hoppe's notebook (https://github.com/hhoppe/blackjack, blackjack.ipynb at
  commit 2108a04: the "Wizard" rows of analyze_composition_dependent_strategy_with_number_of_decks and
  of explore_rule_variations(Rules(num_decks=8, cut_card=0), COMPOSITION_DEPENDENT_STRATEGY)): six decks
  S17 DAS late surrender 0.331 %, H17 0.527 % (bjstrat.net's combinatorial analysis gives the same
  0.527 % there); eight decks H17 DAS late surrender 0.553 %, the same without surrender 0.645 %, S17
  0.355 %, no doubling after splits 0.698 %, no hole card and no surrender 0.756 %.
- Wizard of Odds, Casino War (https://wizardofodds.com/games/casino-war/, rules 1 to 7) and its table by
  number of decks as reproduced at http://www.i-online-casinos.com/games/casino-war-odds.php: six decks,
  going to war 2.88 % (no bonus on a tie after a tie), 2.33 % (a bonus equal to the original wager),
  surrendering every tie 3.70 %, the tie bet at 10 to 1 18.65 %.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from validator.dsl.resources import rulesets_dir
from validator.games.bataille.maths import bataille
from validator.games.blackjack.maths import main_game
from validator.maths.probe import Probe
from validator.maths.sidebets import side_bets
from validator.rulebook.registry import load_file

HERE = Path(__file__).parent
TOLERANCE = 0.02  # percentage points


@cache
def classic(tmp: Path, decks: int, peeks: bool, h17: bool):
    text = (HERE / "classic-blackjack.rules").read_text(encoding="utf-8")
    text = text.replace("shoe.decks = 6", f"shoe.decks = {decks}")
    text = text.replace("dealer.peeks = false", f"dealer.peeks = {str(peeks).lower()}")
    text = text.replace("dealer.hits_soft_17 = false", f"dealer.hits_soft_17 = {str(h17).lower()}")
    path = tmp / f"classic-{decks}-{peeks}-{h17}.rules"
    path.write_text(text, encoding="utf-8")
    return load_file(path)


@pytest.mark.parametrize(
    ("decks", "peeks", "h17", "das", "published"),
    [
        (6, False, True, True, -0.72705),  # euro-6dh17r4, double after split
        (6, False, True, False, -0.86975),  # euro-6dh17r4, no double after split
        (5, True, False, True, -0.3804),  # 5ds17r4, double after split
        (5, True, False, False, -0.5225),  # 5ds17r4, no double after split
        (6, True, False, True, -0.4026),  # 6ds17r4, double after split
        (6, True, False, False, -0.5445),  # 6ds17r4, no double after split
        (6, True, True, True, -0.6151),  # 6dh17r4, double after split
        (6, True, True, False, -0.7598),  # 6dh17r4, no double after split
        (6, False, False, True, -0.51417),  # euro-6ds17r4, double after split
        (8, False, True, True, -0.7562),  # euro-8dh17r4, double after split
    ],
)
def test_blackjack_published(tmp_path_factory, decks, peeks, h17, das, published):
    ruleset = classic(tmp_path_factory.getbasetemp(), decks, peeks, h17)
    house = {**ruleset.house_defaults(), "double_after_split": das, "max_split_hands": 4}
    ev = main_game(Probe(ruleset, house)).ev * 100
    assert abs(ev - published) <= TOLERANCE, (ev, published)


@pytest.mark.parametrize(
    ("decks", "peeks", "h17", "das", "surrender", "published"),
    [
        (6, True, False, True, True, -0.331),  # six decks, S17, late surrender
        (6, True, True, True, True, -0.527),  # six decks, H17, late surrender
        (8, True, True, True, True, -0.553),  # eight decks, H17, late surrender
        (8, True, True, True, False, -0.645),  # the same without surrender
        (8, True, False, True, True, -0.355),  # eight decks, S17, late surrender
        (8, True, True, False, True, -0.698),  # eight decks, H17, late surrender, no double after split
        (8, False, True, True, False, -0.756),  # eight decks, H17, no hole card, no surrender
    ],
)
def test_late_surrender_published(tmp_path_factory, decks, peeks, h17, das, surrender, published):
    """Late surrender is the classic game's surrender where the dealer checks for blackjack first: the
    player surrenders knowing he has none (Wizard of Odds' house edge calculator, see the module's
    sources). The calculator's player is composition-dependent at every decision; this one from the
    second decision on plays by totals, a few thousandths of a point at six and eight decks."""
    ruleset = classic(tmp_path_factory.getbasetemp(), decks, peeks, h17)
    house = {
        **ruleset.house_defaults(),
        "double_after_split": das,
        "max_split_hands": 4,
        "surrender": surrender,
    }
    ev = main_game(Probe(ruleset, house)).ev * 100
    assert abs(ev - published) <= TOLERANCE, (ev, published)


def _war(tmp: Path, replacement: str):
    text = (rulesets_dir() / "fr" / "bataille" / "2013-05-12.rules").read_text(encoding="utf-8")
    clause = "settle war when hand.war_rank >= dealer.war_rank => push"
    assert clause in text
    path = tmp / "war.rules"
    path.write_text(text.replace(clause, replacement), encoding="utf-8")
    ruleset = load_file(path)
    return bataille(Probe(ruleset, ruleset.house_defaults()))


def test_casino_war_no_bonus(tmp_path):
    # A tie at war: the raise wins even money, the original wager pushes (Wizard of Odds, rule 5).
    result = _war(
        tmp_path,
        "settle war when hand.war_rank == dealer.war_rank => pay stake.amount\n"
        "    settle war when hand.war_rank > dealer.war_rank => push",
    )
    assert result.tie_choice == "war"
    assert abs(-result.ev * 100 - 2.88) <= TOLERANCE


def test_casino_war_bonus_on_tie_after_tie(tmp_path):
    # Rule 6: a tie after a tie also pays a bonus equal to the original wager.
    result = _war(
        tmp_path,
        "settle war when hand.war_rank == dealer.war_rank => pay stake.amount * 2\n"
        "    settle war when hand.war_rank > dealer.war_rank => push",
    )
    assert abs(-result.ev * 100 - 2.33) <= TOLERANCE


def test_casino_war_surrender_and_tie_bet(tmp_path):
    ruleset = load_file(rulesets_dir() / "fr" / "bataille" / "2013-05-12.rules")
    probe = Probe(ruleset, ruleset.house_defaults())
    lines = dict((label, (p, net)) for label, p, net in bataille(probe).lines)
    p_tie = sum(p for label, (p, _) in lines.items() if label.startswith("tie"))
    assert abs(p_tie * 0.5 * 100 - 3.70) <= TOLERANCE  # surrendering every tie
    (egalite,) = side_bets(probe)
    assert abs(-egalite.ev * 100 - 18.65) <= TOLERANCE


def test_dealer_bust_against_a_six():
    """Eight decks, the dealer's first card a six: he busts 42.29 % of the time standing on soft 17,
    43.93 % hitting it (Alan Krigman, "Why is blackjack better for players when dealers must stand on
    soft 17?", Casino City Times, 2 April 2012: https://www.casinocitytimes.com/alan-krigman/article/
    why-is-blackjack-better-for-players-when-dealers-must-stand-on-soft-17-60667)."""
    from validator.games.blackjack.dealer import DealerRule, final_distribution
    from validator.maths.shoe import full_shoe, without

    six = 5
    for hits_soft, published in ((False, 42.29), (True, 43.93)):
        rule = DealerRule(17, hits_soft)
        bust = final_distribution(rule, without(full_shoe(8), six), six)[rule.bust]
        assert round(bust * 100, 2) == published


def test_two_plus_one_by_the_published_hand_probabilities():
    """2 + 1 cartes is the 21+3 side bet: Wizard of Odds, "21 + 3", six decks
    (https://wizardofodds.com/games/blackjack/side-bets/21plus3/, read at the mirror
    https://www.jndiario.com/games/blackjack/side-bets/21plus3/): straight flush 10 368 combinations,
    three of a kind 26 312 (suited ones included), straight 155 520, flush 292 896 (with or without a
    pair), out of 5 013 320."""
    from validator.rulebook.registry import default_registry

    ruleset = default_registry().pick("fr/blackjack@2024-11-01")
    probe = Probe(ruleset, ruleset.house_defaults())
    (bet,) = side_bets(probe, only={"two_plus_one"})
    total = 5_013_320
    published = [10_368 / total, 26_312 / total, 155_520 / total, 292_896 / total]
    paid = [line.probability for line in bet.lines if line.net > 0]
    assert paid == pytest.approx(published, abs=5e-7)


def test_dames_de_coeur_table_a_is_the_published_lucky_ladies():
    """Dames de cœur, table A (2024 wording: a "paire de même couleur" is a matched 20) is Lucky Ladies
    pay table A: Wizard of Odds, "Lucky Ladies", analysis of pay table A with six decks
    (https://wizardofodds.com/games/blackjack/side-bets/lucky-ladies): 135 360, 2 738 340, 43 105 500,
    193 112 640 and 744 863 040 permutations out of 9 294 695 280; return -0.247089."""
    from validator.rulebook.registry import default_registry

    ruleset = default_registry().pick("fr/blackjack@2024-11-01")
    probe = Probe(ruleset, {**ruleset.house_defaults(), "lucky_ladies.paytable": "A"})
    (bet,) = side_bets(probe, only={"lucky_ladies"})
    total = 9_294_695_280
    published = [p / total for p in (135_360, 2_738_340, 43_105_500, 193_112_640, 744_863_040)]
    assert [line.probability for line in bet.lines if line.net > 0] == pytest.approx(published, abs=5e-9)
    assert bet.ev == pytest.approx(-0.247089, abs=5e-7)


# Wizard of Odds, Blackjack Appendix 9, one deck, dealer stands on soft 17 ("1ds17r4":
# https://wizardofodds.com/games/blackjack/appendix/9/1ds17r4/, last updated 30 October 2019): the dealer
# checks for blackjack, resplit to four hands except aces, one card on split aces; "a recursive
# combinatorial program that considered the exact hand composition at every step" (splits: the pair's
# cards out so far, not the other hands' cards): +0.001839 with doubling after splits. Six decks: 6ds17r4
# above (-0.004026), the same page series. Bounds of issue 29: one deck 0.001 points, six decks 0.0005.
EXACT_BOUND = {1: 0.001, 6: 0.0005}


@pytest.mark.exact
@pytest.mark.parametrize(
    ("decks", "tracked", "published"),
    [
        (1, 5, 0.1839),  # 1ds17r4, double after split; five cards of each hand out of the shoe
        (6, 4, -0.4026),  # 6ds17r4, double after split; four cards
    ],
)
def test_composition_dependent_published(tmp_path_factory, decks, tracked, published):
    """With enough of each hand's cards taken out of the shoe, the figure is the published one (the default
    for a version of six decks takes two: its size is listed by `edge`, measured by bench_edge.py)."""
    ruleset = classic(tmp_path_factory.getbasetemp(), decks, True, False)
    house = {**ruleset.house_defaults(), "double_after_split": True, "max_split_hands": 4}
    ev = main_game(Probe(ruleset, house), tracked=tracked).ev * 100
    assert abs(ev - published) <= EXACT_BOUND[decks], (ev, published)


def test_variance_and_covariance_published(tmp_path_factory):
    """Wizard of Odds, Blackjack Appendix 4 ("Variance in blackjack", https://wizardofodds.com/games/
    blackjack/appendix/4/, last updated 21 January 2019), summary table: six decks, dealer stands on soft
    17, no doubling after splits, no surrender, no resplitting of aces: variance 1.295, covariance 0.478
    (Stanford Wong, Professional Blackjack p. 203: 1.28 and 0.47 for the same rules). Within 0.01; the
    distribution sums to 1 and its mean is the figure (the split boxes' approximation: its size given)."""
    from validator.games.blackjack.spread import spread

    ruleset = classic(tmp_path_factory.getbasetemp(), 6, True, False)
    house = {**ruleset.house_defaults(), "double_after_split": False, "max_split_hands": 4}
    game = main_game(Probe(ruleset, house))
    found = spread(game)
    assert abs(found.variance - 1.295) <= 0.01, found.variance
    assert abs(found.covariance - 0.478) <= 0.01, found.covariance
    assert sum(p for _, p in found.lines) == pytest.approx(1.0, abs=1e-12)
    assert found.mean == pytest.approx(game.ev, abs=1e-5)
    assert found.mean - game.ev == pytest.approx(found.split_gap, abs=1e-15)
