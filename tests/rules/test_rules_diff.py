"""`rules diff` shows what changed between two versions, a side bet's paytable conditions included."""

from __future__ import annotations

from validator.catalogue.view import diff_lines
from validator.rulebook.registry import default_registry

REGISTRY = default_registry()

# The arrêté du 6 mai 2020 renamed lucky ladies' third line and narrowed it: the 2013 wording's « Paire
# totalisant 20 » (19 for 1 in table A, 25 for 1 in table B) is the 2025 text's « Paire de même couleur
# totalisant 20 » (docs/sources.md),
# at the same odds. The odds did not change: only the line's condition (and label) shows the change.
# Both lines are written with named conditions (their readings, issue 26, change those conditions).
PAIR_2019 = "pair_totalling_20"
PAIR_2020 = "total(player.first_two) == 20 and same_rank(player.first_two) and two_of_one_couleur"


def _diff(old: str, new: str) -> list[str]:
    return list(diff_lines(REGISTRY.pick(old), REGISTRY.pick(new)))


def test_the_lucky_ladies_pair_line_shows_its_new_condition():
    lines = _diff("fr/blackjack@2019-08-12", "fr/blackjack@2020-05-25")
    side_bets = lines[lines.index("Side bets") : lines.index("Rules")]
    for table, odds in (("A", "19:1"), ("B", "25:1")):
        at = side_bets.index(f"  ~ lucky_ladies, paytable {table}, line 3:")
        assert side_bets[at + 1] == f'      was: "Paire totalisant 20" {odds} when {PAIR_2019}'
        now = f'"Paire de même couleur totalisant 20" {odds} when {PAIR_2020}'
        assert side_bets[at + 2] == f"      now: {now}"
    # The lines that did not change are not listed one by one.
    assert not any("line 1:" in line or "line 5:" in line for line in side_bets)


def test_a_version_compared_with_itself_shows_no_side_bet_change():
    lines = _diff("fr/blackjack@2020-05-25", "fr/blackjack@2024-11-01")
    assert "Side bets" not in lines


def test_the_command_shows_the_changed_condition(cli):
    result = cli("rules", "diff", "fr/blackjack@2019-08-12", "fr/blackjack@2020-05-25")
    assert result.returncode == 0, result.stderr
    assert f'now: "Paire de même couleur totalisant 20" 19:1 when {PAIR_2020}' in result.stdout
