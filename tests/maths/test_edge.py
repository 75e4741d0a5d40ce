"""`casino-validator edge`: driven by the rulesets, its JSON against docs/edge.schema.json, the options'
costs, the API, and the command itself."""

from __future__ import annotations

import dataclasses
import json
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path

import jsonschema
import pytest

from validator.dsl.resources import rulesets_dir
from validator.errors import ValidatorError
from validator.games.bataille.maths import bataille
from validator.games.blackjack.maths import main_game
from validator.maths.api import house_edge
from validator.maths.edge import figures, house_for, main_return, options_cost, report
from validator.maths.probe import Probe
from validator.maths.sidebets import side_bets
from validator.maths.summary import run
from validator.rulebook.registry import default_registry, load_all

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "edge.schema.json").read_text(encoding="utf-8"))
HOUSE = ROOT / "samples" / "house" / "trouville.yaml"


# The figures of fr/blackjack@2024-11-01 (its side bets under each reading: ten seconds) are computed once
# in a process (validator/maths/edge.py): these tests, and the external-ruleset test that compares its
# edge with them (tests/rulebook/test_external_rulesets.py), run on one pytest worker, which computes
# them once instead of once in each worker (`--dist loadgroup`).
pytestmark = pytest.mark.xdist_group("edge-fr-blackjack-2024-11-01")


@pytest.fixture(scope="module")
def registry():
    return default_registry()


def _edited(tmp: Path, family: str, version: str, old: str, new: str):
    """The version of `family` in force from `version`, with `old` replaced by `new` in the one file of
    the family that writes it (a later version may inherit it from the wording it amends). The other
    families are copied beside it: a version may take checks from another text (`same check as`)."""
    root = tmp / "rulesets"
    shutil.copytree(rulesets_dir(), root)
    folder = root / family
    [writer] = [p for p in folder.glob("*.rules") if old in p.read_text(encoding="utf-8")]
    writer.write_text(writer.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return load_all(sorted(root.rglob("*.rules")), root).pick(f"{family}@{version}")


def test_json_of_a_bataille_table_follows_the_schema(registry):
    data = json.loads(run(registry, ruleset=None, house=HOUSE, table="BA-01", fmt="json", with_options=True))
    jsonschema.validate(data, SCHEMA)
    assert data["ruleset"] == "fr/bataille@2013-05-12" and data["table"] == "BA-01"
    probabilities = [Decimal(line["probability"]) for line in data["main"]["lines"]]
    assert abs(sum(probabilities) - 1) < Decimal("1e-7")


def test_json_of_a_blackjack_version_follows_the_schema(registry):
    data = report(figures(registry.pick("fr/blackjack@2024-11-01"), None), None)
    jsonschema.validate(data, SCHEMA)
    names = {bet["name"] for bet in data["side_bets"]}
    assert names == set(registry.pick("fr/blackjack@2024-11-01").side_bets)
    for bet in data["side_bets"]:
        assert abs(sum(Decimal(line["probability"]) for line in bet["lines"]) - 1) < Decimal("1e-7")
    # Insurance paid 2:1 when the ace's partner is one of the 96 ten-value cards among the 311 left.
    assert Decimal(data["main"]["insurance"]["return"]) == Decimal(repr(3 * 96 / 311 - 1)).quantize(
        Decimal("1e-8")
    )


def test_schema_refuses_a_report_missing_its_main_figure():
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format": "edge/1"}, SCHEMA)


def test_a_paytable_line_changes_the_figure_with_no_python_edit(tmp_path, registry):
    """Égalité at 10 for 1 returns 11 p - 1 with p = 23/311 (a tie from six decks); at 11 for 1, 12 p - 1."""
    p = 23 / 311
    before = side_bets(Probe(registry.pick("fr/bataille"), registry.pick("fr/bataille").house_defaults()))
    assert before[0].ev == pytest.approx(11 * p - 1, abs=1e-12)
    edited = _edited(tmp_path, "fr/bataille", "2013-05-12", "pays 10:1 when", "pays 11:1 when")
    after = side_bets(Probe(edited, edited.house_defaults()))
    assert after[0].ev == pytest.approx(12 * p - 1, abs=1e-12)


def test_a_parameter_changes_the_figure_with_no_python_edit(tmp_path, registry):
    """A blackjack paid 6:5 instead of 3:2 costs the player about 1.4 points (published rule tables:
    https://www.thecolorofblackjack.com/solution_one.html gives 1.39 %)."""
    ruleset = registry.pick("fr/blackjack@2024-11-01")
    base = main_game(Probe(ruleset, ruleset.house_defaults())).ev
    edited = _edited(
        tmp_path,
        "fr/blackjack",
        "2024-11-01",
        "parameter pays.blackjack = 3:2",
        "parameter pays.blackjack = 6:5",
    )
    cost = (base - main_game(Probe(edited, edited.house_defaults())).ev) * 100
    assert 1.3 < cost < 1.45


def test_a_war_settled_otherwise_changes_the_bataille(tmp_path, registry):
    version = registry.pick("fr/bataille")
    french = bataille(Probe(version, version.house_defaults()))
    # By the text a tied war returns both stakes: going to war beats surrendering.
    assert french.tie_choice == "war"
    assert -french.ev * 100 == pytest.approx(3.4242, abs=1e-4)


def test_options_cost_follows_the_rules(registry):
    version = registry.pick("fr/blackjack@2024-11-01")
    rows = {row["option"]: row for row in options_cost(version, None)}
    surrender = rows["surrender"]["changes"][0]
    assert surrender["value"] == "true" and Decimal(surrender["main_edge_change"]) < Decimal("-0.1")
    das = rows["double_after_split"]["changes"][0]
    assert Decimal(das["main_edge_change"]) > Decimal("0.1")
    # An option that changes no decision and no settlement costs nothing (seated-only side bets).
    assert all(Decimal(c["main_edge_change"]) == 0 for c in rows["min_boxes_single_player"]["changes"])
    # The paytable the house chooses moves the side bet it pays, not the main game.
    table = rows["lucky_ladies.paytable"]["changes"][0]
    assert (
        Decimal(table["main_edge_change"]) == 0 and Decimal(table["side_bet_edge_change"]["lucky_ladies"]) < 0
    )
    assert rows["jp1.stake"]["changes"] is None


def test_api_house_edge(registry):
    edge = house_edge("fr/bataille", date(2025, 1, 31), None)
    assert isinstance(edge, Decimal) and edge == Decimal("0.03424211")
    with pytest.raises(ValidatorError):
        house_edge("fr/usage-blackjack", date(2025, 1, 31), None)  # the payout is the house's to declare


def test_required_option_without_house_is_refused(registry):
    with pytest.raises(ValidatorError, match="blackjack_pays"):
        run(registry, ruleset="fr/usage-blackjack", house=None, table=None, fmt="text", with_options=False)


def test_house_needs_table(registry):
    with pytest.raises(ValidatorError, match="--table"):
        run(registry, ruleset="fr/bataille", house=HOUSE, table=None, fmt="text", with_options=False)


def test_command_text_and_exit_codes(cli):
    # In this process (tests/conftest.py's run_cli): the command's text and exit statuses, not the start
    # of a process, are what is tested here (tests/test_startup.py starts real ones).
    ok = cli("edge", "--house", str(HOUSE), "--table", "BA-01")
    assert ok.returncode == 0, ok.stderr
    assert "house edge 3.4242 %" in ok.stdout and "Égalité" in ok.stdout and "0.0739549839" in ok.stdout
    bad = cli("edge", "--ruleset", "xx/nothing")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "unknown ruleset" in bad.stderr


def test_api_takes_a_house_file_entry_as_written(registry):
    from validator.house.load import load_house

    entry = load_house(HOUSE).tables["BJ-07"]
    edge = house_edge("fr/blackjack", date(2025, 3, 14), entry)
    version = registry.pick("fr/blackjack@2024-11-01")
    ev, _, _ = main_return(version, house_for(version, {"surrender": True, "max_split_hands": 3}))
    assert edge == -Decimal(repr(ev)).quantize(Decimal("0.00000001"))
    assert edge < house_edge("fr/blackjack", date(2025, 3, 14), None)  # surrender helps the player


def test_strategy_chart_text_and_json(registry):
    """`edge --strategy`: the chart of the play the figures assume. In the French game (no hole card, the
    dealer's blackjack takes doubles and splits) hard 11 against a ten is hit, and 8-8 against an ace is
    not split: the European basic strategy (Wizard of Odds, "Blackjack basic strategy", no-hole-card
    charts); pairs of aces split against 2 to 10, hard 17 stands everywhere."""
    data = json.loads(
        run(
            registry,
            ruleset="fr/blackjack@2024-11-01",
            house=None,
            table=None,
            fmt="json",
            with_options=False,
            with_strategy=True,
        )
    )
    jsonschema.validate(data, SCHEMA)
    chart = data["strategy"]
    assert chart["hard"]["11"]["T"] == "H" and chart["hard"]["11"]["6"] == "D"
    assert chart["pairs"]["8,8"]["A"] != "P" and chart["pairs"]["A,A"]["6"] == "P"
    assert set(chart["hard"]["17"].values()) == {"S"}
    assert Decimal(data["main"]["variance"]) > 1 and Decimal(data["main"]["covariance"]) > 0
    text = run(
        registry,
        ruleset="fr/blackjack@2024-11-01",
        house=None,
        table=None,
        fmt="text",
        with_options=False,
        with_strategy=True,
    )
    assert "S stand, H hit, D double, P split, R surrender" in text and "variance" in text


def test_one_run_computes_the_main_game_and_the_side_bets_once(registry, monkeypatch):
    """`edge --options` needs the base figures two or three times (the figures, the options' base, the
    readings' base where the version has readings): they are computed once in the process, and a caller
    that edits what it got back does not change what the next caller gets."""
    import validator.maths.edge as edge_module
    from validator.maths.game import maths_of

    monkeypatch.setattr(edge_module, "_MAIN", {})
    monkeypatch.setattr(edge_module, "_SIDE", {})
    version = registry.pick("fr/bataille")
    maths = type(maths_of(version))
    computed: list[object] = []
    original = maths.main_return

    def counted(self, probe, base):
        if base is None:
            computed.append((id(probe.ruleset), repr(sorted(probe.house.items()))))
        return original(self, probe, base)

    monkeypatch.setattr(maths, "main_return", counted)
    values = house_for(version, None)
    ev, main_json, _game = main_return(version, values)
    main_json["lines"].clear()
    again, json_again, _game = main_return(version, dict(values))
    assert again == ev and json_again["lines"], "the figures given again are those computed"
    run(registry, ruleset="fr/bataille", house=None, table=None, fmt="json", with_options=True)
    # The version and the table's own options once; each other value of an option, each version under
    # another reading, once (bataille's game gives nothing to reuse from one to another).
    assert computed.count((id(version), repr(sorted(values.items())))) == 1
    assert len(computed) == len(set(computed)), computed
    # Another version object (an edited copy of the text) is computed anew, never taken for this one.
    other = dataclasses.replace(version)
    before = len(computed)
    main_return(other, values)
    assert len(computed) == before + 1


def test_api_edge_statistics_are_the_figures_edge_prints(registry):
    """Issue 29: `edge_statistics`, the sibling of `house_edge`, gives every figure `edge --format json`
    prints, as typed decimals; each distribution sums to 1 (to the printed rounding) and its mean is the
    stake's return (the main stake's to the size of the approximation `edge` states for it)."""
    from validator.maths.api import edge_statistics

    day = date(2025, 3, 14)
    entry = {"options": {"surrender": True}}
    found = edge_statistics("fr/blackjack", day, entry)
    version = registry.pick("fr/blackjack@2025-03-14")
    data = report(figures(version, {"surrender": True}), None)
    main = data["main"]
    assert found.version == data["ruleset"] == version.version
    assert found.main.expected_return == Decimal(main["return"])
    assert found.main.house_edge == -Decimal(main["return"]) == house_edge("fr/blackjack", day, entry)
    assert found.main.variance == Decimal(main["variance"]) and found.covariance == Decimal(
        main["covariance"]
    )
    assert [(o.label, o.net, o.probability) for o in found.main.distribution] == [
        (line["outcome"], Decimal(line["net"]), Decimal(line["probability"])) for line in main["lines"]
    ]
    assert found.approximations == tuple((a["what"], a["size"]) for a in main["approximations"])
    assert found.insurance is not None
    assert found.insurance.expected_return == Decimal(main["insurance"]["return"])
    assert [(b.name, b.case, b.expected_return, b.variance) for b in found.side_bets] == [
        (b["name"], b["case"], Decimal(b["return"]), Decimal(b["variance"])) for b in data["side_bets"]
    ]
    for stake in (found.main, found.insurance, *found.side_bets):
        probabilities = [o.probability for o in stake.distribution]
        assert abs(sum(probabilities) - 1) <= Decimal("5e-9") * len(probabilities), stake.name
        mean = sum(o.net * o.probability for o in stake.distribution)
        # The main stake's distribution is 0.0004 points from the figure (`edge`'s approximations).
        assert abs(mean - stake.expected_return) <= Decimal("0.00001") + Decimal("1e-7") * len(probabilities)
    # The insurance pays 2 to 1 against a dealer's blackjack: its variance from its two outcomes.
    [won, lost] = found.insurance.distribution
    ev = found.insurance.expected_return
    assert found.insurance.variance == (won.probability * 4 + lost.probability - ev * ev).quantize(
        Decimal("1e-6")
    )
    # Bataille's main stake: no covariance given, its variance that of its outcomes; cached per process.
    war = edge_statistics("fr/bataille", date(2025, 1, 31))
    assert war.covariance is None and war.insurance is None and war.main.house_edge == Decimal("0.03424211")
    square = sum(o.probability * o.net * o.net for o in war.main.distribution)
    assert war.main.variance == (square - war.main.expected_return**2).quantize(Decimal("1e-6"))
    assert edge_statistics("fr/bataille", date(2025, 1, 31)) is war
    with pytest.raises(ValidatorError):
        edge_statistics("fr/usage-blackjack", date(2025, 1, 31))


def test_api_main_statistics_are_the_main_stakes_figures_of_edge_statistics(registry):
    """Issue 29: `main_statistics`, the sibling of `house_edge` for the report's bands, gives the main
    stake's house edge and variance of one computation of the main game (no side bets): the same house
    edge as `house_edge` and `edge_statistics`, blackjack's variance the one `edge` prints, bataille's
    that of its outcomes (which `edge_statistics` gives to 6 decimals); cached per process."""
    from validator.maths.api import MainStatistics, edge_statistics, main_statistics

    day = date(2025, 3, 14)
    entry = {"options": {"surrender": True}}
    found = main_statistics("fr/blackjack", day, entry)
    every = edge_statistics("fr/blackjack", day, entry)
    assert isinstance(found, MainStatistics) and found.version == every.version
    assert found.house_edge == every.main.house_edge == house_edge("fr/blackjack", day, entry)
    assert found.variance == every.main.variance
    # The published variance of the 6-deck S17 no-double-after-split game is about 1.29-1.30 (issue 29,
    # Wizard of Odds' Appendix 4); a surrendered hand's result is -1/2 instead of -1 or +1 or more, so
    # surrender lowers it.
    plain = main_statistics("fr/blackjack", day).variance
    assert abs(plain - Decimal("1.295")) <= Decimal("0.015") and found.variance < plain
    war = main_statistics("fr/bataille", date(2025, 1, 31))
    war_every = edge_statistics("fr/bataille", date(2025, 1, 31)).main
    assert war.house_edge == Decimal("0.03424211") == war_every.house_edge
    assert war.variance.quantize(Decimal("1e-6")) == war_every.variance
    assert main_statistics("fr/bataille", date(2025, 1, 31)) is war
    with pytest.raises(ValidatorError):
        main_statistics("fr/usage-blackjack", date(2025, 1, 31))  # the payout is the house's to declare
    with pytest.raises(dataclasses.FrozenInstanceError):
        war.variance = Decimal(0)  # type: ignore[misc]


def test_edge_options_prints_only_the_choices_that_move_an_edge_and_counts_the_others():
    """Issue 41, 7: a row per value that moves a house edge (to the 4 places printed); an option none of
    whose values moves one is named once on a line that counts them, one some of whose values do not is
    named there with how many; the amounts the house fixes (not weighed) are counted on a line too."""
    from validator.maths.text import _option_rows

    rows = [
        {
            "option": "surrender",
            "current": "false",
            "changes": [{"value": "true", "main_edge_change": "-0.2488"}],
        },
        {
            "option": "max_split_hands",
            "current": "none",
            "changes": [
                {"value": "2", "main_edge_change": "0.0536"},
                {"value": "7", "main_edge_change": "0.0000"},
                {"value": "8", "main_edge_change": "-0.0000"},
            ],
        },
        {
            "option": "no_hit_on_21",
            "current": "false",
            "changes": [{"value": "true", "main_edge_change": "0.0000"}],
        },
        {
            "option": "lucky_ladies.paytable",
            "current": '"A"',
            "changes": [
                {
                    "value": '"B"',
                    "main_edge_change": "0.0000",
                    "side_bet_edge_change": {"lucky_ladies": "-7.0699"},
                }
            ],
        },
        {"option": "jp1.stake", "current": "none", "changes": None},
    ]
    assert _option_rows(rows) == [
        "  surrender: false → true: main -0.2488",
        "  max_split_hands: none → 2: main 0.0536",
        '  lucky_ladies.paytable: "A" → "B": main 0.0000, lucky_ladies -7.0699',
        "  2 choices change no house edge (to 4 places): max_split_hands (2 more values), no_hit_on_21",
        "  1 amount the house fixes, not weighed as a choice: jp1.stake",
    ]


def test_edge_options_of_bataille_has_no_row_of_zeros(registry):
    """Bataille's one choice, offering the mise égalité, moves neither the main stake's edge nor the
    bet's own (18.65 %, whoever offers it): no row, one line naming it."""
    text = run(registry, ruleset="fr/bataille", house=None, table=None, fmt="text", with_options=True)
    part = text.split("house options: change in house edge")[1]
    assert "0.0000" not in part
    assert "1 choice changes no house edge (to 4 places): egalite.offered" in part
    assert "2 amounts the house fixes, not weighed as a choice: egalite.maximum, egalite.minimum" in part


def test_a_reading_that_leaves_the_rules_the_main_game_asks_is_the_same_game(registry, monkeypatch):
    """Under a reading that changes no parameter, no check on hit, double, surrender or split and no
    settlement of the main stake (settlement-order = losers-first: the order in which boxes are
    settled), the main game is the version's own, taken without asking its rules again; under one that
    changes a split's rule (split-second-cards = together) the rules are asked every question the game
    was computed with, and give the same answers: the same figure."""
    from validator.games.blackjack import edge as blackjack_edge
    from validator.games.blackjack import maths
    from validator.games.blackjack.maths import Rules, asked
    from validator.maths import edge
    from validator.rulebook.registry import under_readings

    # A game computed for this version here, not one an earlier test computed for another version whose
    # rules answer the game's questions alike (main_game gives that one again: its rules are the other's).
    monkeypatch.setattr(maths, "_GAMES", [])
    monkeypatch.setattr(edge, "_MAIN", {})
    version = registry.pick("fr/blackjack@2024-11-01")
    values = house_for(version, None)
    ev, _json, game = main_return(version, values)
    read: list[object] = []
    original = Rules.read

    def counted(probe):
        read.append(probe.ruleset.applied)
        return original(probe)

    monkeypatch.setattr(blackjack_edge.Rules, "read", staticmethod(counted))
    order = under_readings(version, {"settlement-order": "losers-first"})
    assert asked(order) == asked(version)
    assert main_return(order, values, game)[0] == ev
    assert read == []
    split = under_readings(version, {"split-second-cards": "together"})
    assert asked(split) != asked(version)
    assert main_return(split, values, game)[0] == ev
    assert read == [split.applied]


def test_the_split_hands_size_is_a_bound_rounded_away_from_the_figure(monkeypatch):
    """Issue 40: where a figure is approximate, its size is a bound measured on that very figure. The
    split hands' size is the exact return of the figure's play (split_exact.gap: the figure less it, as
    bounds): printed in points, its high end rounded up and its low end down, so that the printed bound
    still holds (0.0001625443 points → at most 0.000163; 0.0001583879 → from 0.000158). The
    distribution's gap keeps its number (−0.0000042 of return: −0.000420 points)."""
    from types import SimpleNamespace

    from validator.games.blackjack import edge, split_exact

    monkeypatch.setattr(split_exact, "gap", lambda game: (0.000001583879, 0.000001625443))
    game = SimpleNamespace(spread=SimpleNamespace(split_gap=-0.0000042))
    split, spread = edge.approximations(game)  # type: ignore[arg-type]
    assert split["what"].startswith("split hands")
    assert split["size"] == (
        "a bound measured on this figure: at most 0.000163 points above the best play's exact return (the "
        "exact return of this play, computed for this version, is 0.000158 to 0.000163 points below the "
        "figure)"
    )
    assert spread["size"] == "the distribution's mean -0.000420 points from the figure"
