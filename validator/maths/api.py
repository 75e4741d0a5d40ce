"""What other reports call: a table's theoretical house edge (`house_edge`); its siblings, the main
stake's edge and variance (`main_statistics`, for the report's bands) and every figure `edge` prints for
it (`edge_statistics`): each stake's return, house edge, variance and distribution, the covariance of two
boxes' main stakes in one round, what is not computed exactly."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.house.lint import option_value
from validator.i18n import _
from validator.maths import kept
from validator.maths.edge import Figures, figures, house_for, main_return, report, side_returns
from validator.maths.game import DecisionCosts, MainFigures, PlayCosts, ReportReturn, maths_of
from validator.maths.probe import Probe
from validator.rulebook.registry import default_registry

_MAIN: dict[tuple[str, tuple[tuple[str, str], ...]], MainStatistics] = {}
_STATISTICS: dict[tuple[str, tuple[tuple[str, str], ...]], EdgeStatistics] = {}
# The report's: `_STATISTICS`'s figures without what it does not read (`_kept_report_statistics`).
_REPORT: dict[tuple[str, tuple[tuple[str, str], ...]], EdgeStatistics] = {}
_ENTRY_KEYS = ("options", "side_bets")  # a house-rules/1 table entry, as written in the file


def house_edge(ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None = None) -> Decimal:
    """The house edge of the main stake, as a fraction of the initial stake (Decimal("0.00513017") is
    0.513 %), of the version of `ruleset_id` in force on `on`, for a player using the strategy `edge`
    states. `house_entry`: the table's entry of a house-rules/1 file as written (its `options` and
    `side_bets`), or the options already keyed as the rules name them (`house.lint.house_options`);
    None: the version's defaults. Raises ValidatorError: unknown ruleset, no version in force that day,
    a required option missing, a value the version does not allow."""
    return main_statistics(ruleset_id, on, house_entry).house_edge


@dataclass(frozen=True, slots=True)
class MainStatistics:
    """The main stake's figures a report draws its bands with, per initial unit: the house edge (a
    fraction, as `house_edge` gives it) and the variance of the net result. The variance is the game's
    own where it computes one (blackjack: `edge`'s printed figure, composition-dependent, splits
    included), else that of the outcomes `edge` lists, each net with its probability (bataille; not
    rounded: `edge_statistics` gives it to 6 decimals)."""

    version: str
    house_edge: Decimal
    variance: Decimal


def main_statistics(
    ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None = None
) -> MainStatistics:
    """The main stake's house edge and variance (`MainStatistics`) of the version of `ruleset_id` in
    force on `on`, for the table's house options (`house_entry` as `house_edge` takes it): one
    computation of the main game, without the side bets `edge_statistics` computes too, made once per
    version and options in a process. Raises ValidatorError as `house_edge` does."""
    ruleset, options, key = _table(ruleset_id, on, house_entry)
    found = _MAIN.get(key)
    if found is None:
        found = _MAIN[key] = _kept_statistics(ruleset, options)
    return found


def _kept_statistics(ruleset: Ruleset, options: Mapping[str, Any]) -> MainStatistics:
    """The main stake's figures, read back where an earlier run kept them (`validator.maths.kept`: the
    same version's text, options and program), else computed and kept: the report of a year's datasets
    prices each table by its rules again at every run."""
    entry = kept.key(ruleset, options, None, ("main statistics",))  # i18n: not shown (part of a key)
    data = kept.read(entry)
    if data is not None:
        try:
            return MainStatistics(ruleset.version, Decimal(data["house_edge"]), Decimal(data["variance"]))
        except (KeyError, TypeError, ArithmeticError):
            pass  # not what is kept below: computed again, and kept in its place
    maths, house = maths_of(ruleset), house_for(ruleset, options)
    # The two figures alone where the game gives them, not all that edge prints of the main stake.
    alone = maths.main_figures(Probe(ruleset, house)) if isinstance(maths, MainFigures) else None
    main_json: Mapping[str, Any]
    if alone is not None:
        ev, main_json = alone[0], {"variance": alone[1]}
    else:
        ev, main_json, _game = main_return(ruleset, house)
    edge = -Decimal(repr(ev)).quantize(Decimal("0.00000001"))
    found = MainStatistics(ruleset.version, edge, _main_variance(ruleset, main_json))
    kept.keep(entry, {"house_edge": str(found.house_edge), "variance": str(found.variance)})
    return found


def _main_variance(ruleset: Ruleset, main_json: Mapping[str, Any]) -> Decimal:
    """The game's variance of the main stake where its `main` object gives one, else that of its
    outcomes (computed in floats from the printed lines, then taken exactly)."""
    if "variance" in main_json:
        return Decimal(main_json["variance"])
    lines = [(float(line["probability"]), float(line["net"])) for line in main_json["lines"]]
    if not lines:  # a game must list its outcomes (docs/edge.schema.json): a bug of the game's
        raise ValueError(
            _("{version}: the game lists no outcome of its main stake").format(version=ruleset.version)
        )
    mean = sum(p * net for p, net in lines)
    return Decimal(repr(sum(p * net * net for p, net in lines) - mean * mean))


def _table(
    ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None
) -> tuple[Ruleset, dict[str, Any], tuple[str, tuple[tuple[str, str], ...]]]:
    """The version in force, the table's options as the rules name them, and the key its figures are
    kept under in this process (the version and the options)."""
    ruleset = default_registry().in_force(ruleset_id, on)
    options = ruleset_options(ruleset, house_entry or {})
    return ruleset, options, (ruleset.version, tuple(sorted((k, repr(v)) for k, v in options.items())))


def ruleset_options(ruleset: Ruleset, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a house entry (as written in the file, or already keyed), as the rules name them."""
    if not any(k in entry for k in _ENTRY_KEYS):
        return dict(entry)
    raw: dict[str, Any] = dict(entry.get(_ENTRY_KEYS[0]) or {})
    for bet, settings in (entry.get(_ENTRY_KEYS[1]) or {}).items():
        raw.update({f"{bet}.{k}": v for k, v in (settings or {}).items()})
    options: dict[str, Any] = {}
    for name, value in raw.items():
        option = ruleset.options.get(name)
        if option is None:
            continue  # a fixed key, or one the linter reports: it changes no figure
        converted, problem = option_value(option, value)
        if problem is not None or not option.allows(converted):
            raise ValidatorError(
                _("{version}: option {name}: {allowed}").format(
                    version=ruleset.version, name=name, allowed=problem or _("not allowed")
                )
            )
        options[name] = converted
    return options


@dataclass(frozen=True, slots=True)
class Outcome:
    """One outcome of a stake: what it is, its net result per unit staked, its probability."""

    label: str
    net: Decimal
    probability: Decimal


@dataclass(frozen=True, slots=True)
class StakeStatistics:
    """One stake's figures, per unit staked (the main stake's: per initial unit), as `edge` prints them:
    the expected return, the house edge (minus the return, a fraction), the variance of the net result,
    the distribution of the net result (each outcome with its probability, summing to 1)."""

    name: str  # "main", "insurance", or the side bet's name
    case: str | None  # a side bet staked case by case (hyper blackjack's "17"…); else None
    expected_return: Decimal
    house_edge: Decimal
    variance: Decimal
    distribution: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class EdgeStatistics:
    """Every figure `edge` prints for one version and one table's house options.

    `covariance`: of two boxes' main stakes in one round (one initial unit each), where the game gives
    it (blackjack; None for bataille), so that the variance of a table's hold over n rounds of b boxes
    is n·(b·variance + b·(b−1)·covariance). `approximations`: what is not computed exactly, and how much
    it moves the figures (`edge`'s own list). Bataille's main variance, which `edge` does not print, is
    that of the outcomes it lists."""

    version: str
    strategy: str
    main: StakeStatistics
    covariance: Decimal | None
    insurance: StakeStatistics | None
    side_bets: tuple[StakeStatistics, ...]
    approximations: tuple[tuple[str, str], ...]


def edge_statistics(
    ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None = None
) -> EdgeStatistics:
    """Every figure `casino-validator edge` prints (its JSON, `docs/edge.schema.json`) for the version
    of `ruleset_id` in force on `on` and the table's house options (`house_entry` as `house_edge` takes
    it), as decimals rounded as `edge` prints them. Raises ValidatorError as `house_edge` does. The
    figures of one version and options are computed once per process."""
    ruleset, options, key = _table(ruleset_id, on, house_entry)
    found = _STATISTICS.get(key)
    if found is None:
        found = _STATISTICS[key] = _kept_edge_statistics(ruleset, options)
    return found


def _kept_edge_statistics(ruleset: Ruleset, options: Mapping[str, Any]) -> EdgeStatistics:
    """`edge`'s figures of the version and options, read back where an earlier run kept them
    (`validator.maths.kept`, as `_kept_statistics`), else computed and kept: the report prices each table
    by them at every run, and blackjack's split bound alone is a third of computing them."""
    what = "edge statistics"  # i18n: not shown (part of a key)
    return _kept_figures(ruleset, options, what, lambda: report(figures(ruleset, options), None))


def _kept_figures(
    ruleset: Ruleset, options: Mapping[str, Any], what: str, compute: Callable[[], dict[str, Any]]
) -> EdgeStatistics:
    """The statistics of `edge`'s JSON that `compute` gives for the version and options, kept between
    runs under `what` (`validator.maths.kept`): read back where an earlier run kept them, else computed
    and kept without this run's timings."""
    entry = kept.key(ruleset, options, None, (what,))
    data = kept.read(entry)
    if data is not None:
        try:
            return _statistics(data)
        except (KeyError, TypeError, ValueError, ArithmeticError):
            pass  # not what is kept below: computed again, and kept in its place
    data = compute()
    found = _statistics(data)
    for timing in ("seconds", "cpu_seconds"):  # this run's, not the figures'
        data.pop(timing, None)
    kept.keep(entry, data)
    return found


def _statistics(data: Mapping[str, Any]) -> EdgeStatistics:
    main = data["main"]
    insurance = main.get("insurance")
    approximations = tuple((a["what"], a["size"]) for a in main.get("approximations", ()))
    covariance = main.get("covariance")
    return EdgeStatistics(
        version=data["ruleset"],
        strategy=main["strategy"],
        main=_stake("main", None, main),
        covariance=Decimal(covariance) if covariance is not None else None,
        insurance=_stake("insurance", None, insurance) if insurance is not None else None,
        side_bets=tuple(_stake(bet["name"], bet["case"], bet) for bet in data["side_bets"]),
        approximations=approximations,
    )


def _stake(name: str, case: str | None, figures_of: Mapping[str, Any]) -> StakeStatistics:
    """A stake's figures from `edge`'s JSON; its variance computed from its outcomes where `edge` prints
    none (the insurance, bataille's main stake)."""
    lines = tuple(
        Outcome(line["outcome"], Decimal(line["net"]), Decimal(line["probability"]))
        for line in figures_of["lines"]
    )
    ev = Decimal(figures_of["return"])
    variance = figures_of.get("variance")
    if variance is None:
        spread = sum((o.probability * o.net * o.net for o in lines), Decimal(0)) - ev * ev
        variance = spread.quantize(Decimal("0.000001"))
    return StakeStatistics(name, case, ev, -ev, Decimal(variance), lines)


@dataclass(frozen=True, slots=True)
class TableTheory:
    """What a report needs to price a table's play, for one version and the table's house options:
    the main stake's edge, variance and the covariance of two boxes of one round (None where the game
    gives none), the figures of the insurance and of each side bet (`edge_statistics`'s; its
    `approximations` left empty where the game computes the rest apart: the report does not read them),
    and what each logged decision costs against the best play (`cost`, the game's `DecisionCosts`, by
    the values `edge` computed the main stake's figure with)."""

    statistics: EdgeStatistics
    main: MainStatistics
    cost: DecisionCosts
    # A bet of its own as hand-log/1 names its stake's kind (`insurance`, `lucky_ladies`, `hyper:17`)
    # → its figures per unit staked; a side bet paying a progressive meter is left out (its return
    # moves with the meter: no figure rather than a wrong one).
    bets: Mapping[str, StakeStatistics]


def table_theory(ruleset_id: str, on: date, house_entry: Mapping[str, Any] | None = None) -> TableTheory:
    """The `TableTheory` of the version of `ruleset_id` in force on `on` for the table's house options
    (`house_entry` as `house_edge` takes it). Raises ValidatorError as `house_edge` does."""
    ruleset, options, key = _table(ruleset_id, on, house_entry)
    main = main_statistics(ruleset_id, on, house_entry)
    statistics = _STATISTICS.get(key) or _REPORT.get(key)
    if statistics is None:
        statistics = _REPORT[key] = _kept_report_statistics(ruleset, options)
    bets: dict[str, StakeStatistics] = {}
    if statistics.insurance is not None:
        bets[statistics.insurance.name] = statistics.insurance
    for stake in statistics.side_bets:
        bet = ruleset.side_bets.get(stake.name)
        if bet is None or bet.prizes:
            continue
        bets[bet.stake_name + (f":{stake.case}" if stake.case is not None else "")] = stake
    return TableTheory(statistics, main, _costs(ruleset, options), bets)


def _kept_report_statistics(ruleset: Ruleset, options: Mapping[str, Any]) -> EdgeStatistics:
    """`edge_statistics`'s figures, without `approximations` where the game computes the rest apart
    (`ReportReturn`: blackjack's split bound, which the report does not read), kept between runs as
    `_kept_statistics` keeps the main stake's."""
    maths = maths_of(ruleset)
    if not isinstance(maths, ReportReturn):
        return _kept_edge_statistics(ruleset, options)

    def computed() -> dict[str, Any]:
        values = house_for(ruleset, options)
        ev, main_json = maths.report_return(Probe(ruleset, values))
        return report(Figures(ruleset, values, ev, main_json, side_returns(ruleset, values), 0.0, 0.0), None)

    return _kept_figures(ruleset, options, "report statistics", computed)  # i18n: not shown (part of a key)


def _costs(ruleset: Ruleset, options: Mapping[str, Any]) -> DecisionCosts:
    """What each logged decision costs (`GameMaths.costs`), by the game `main_return` computes: where
    the game gives them apart (`PlayCosts`), without what only `edge` prints, and not before a decision
    is priced; else from `main_return` (given again where this process computed it)."""
    maths, house = maths_of(ruleset), house_for(ruleset, options)
    if isinstance(maths, PlayCosts):
        return maths.play_costs(Probe(ruleset, house))
    _ev, _json, game = main_return(ruleset, house)
    return maths.costs(game)
