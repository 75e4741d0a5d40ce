"""`casino-validator edge`: every figure of one version and one table's house options, and what each
option the version leaves to the house would change.

Figures are computed in binary floating point (probabilities, not money) and reported as decimals
rounded to 8 places; a house edge is minus the expected return per unit staked.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from validator.dsl.expr import format_value
from validator.dsl.model import OptionDef, Ruleset
from validator.errors import ValidatorError
from validator.i18n import N_, _
from validator.maths import content
from validator.maths.game import maths_of
from validator.maths.probe import Probe
from validator.maths.sidebets import SideBetReturn, side_tallies
from validator.rulebook.registry import under_readings

FORMAT = "edge/1"
LARGEST_RANGE = 16  # an int option is weighed value by value when its range is no wider than this
DECKS = 6  # where a version does not say (as `simulate` deals)


def number(value: float, places: int = 8) -> str:
    shown = Decimal(repr(value)).quantize(Decimal(1).scaleb(-places))
    return format(shown.copy_abs() if shown.is_zero() else shown, "f")


def percent(ev: float) -> str:
    return number(-ev * 100, 4)


def probability(p: float, places: int = 8) -> str:
    """A probability to `places` decimals, or, where that would print 0 for an outcome that happens, to
    two significant digits (net 16 of a box split into eight hands: 0.000000000010, not 0.00000000)."""
    if 0 < p < 10.0**-places:
        places = -math.floor(math.log10(p)) + 1
    return number(p, places)


def house_for(ruleset: Ruleset, house: Mapping[str, Any] | None) -> dict[str, Any]:
    values = ruleset.house_defaults()
    if house:
        values.update(house)
    missing = [n for n, o in ruleset.options.items() if o.required and values.get(n) is None]
    if missing:
        raise ValidatorError(
            _(
                "{version} leaves {missing} to the house rules and has no "
                "default: give --house FILE --table ID with a table that "
                "declares it"
            ).format(version=ruleset.version, missing=", ".join(missing))
        )
    return values


@dataclass(slots=True)
class Figures:
    ruleset: Ruleset
    house: dict[str, Any]
    main: float
    main_json: dict[str, Any]
    side: list[SideBetReturn]
    seconds: float
    cpu_seconds: float
    game: Any = None  # what the game's main_return gives back (blackjack's: its play, for --strategy)


# Figures already computed in this process, by version and house options. `edge` asks for the main
# stake's return of one table's options three times (its figures, its readings' base, its options'
# base) and for its side bets twice; the audit report prices every table, and tables often share their
# options. The key holds the version object's id and the entry holds the object, so the id cannot be
# reused by another version while the entry lives; options are keyed by their type and repr (two keys
# that differ only in how a value is written miss each other, never match wrongly).
_MEMO_SIZE = 64
_MAIN: dict[tuple[object, ...], tuple[Ruleset, tuple[float, dict[str, Any], Any]]] = {}
_SIDE: dict[tuple[object, ...], tuple[Ruleset, list[SideBetReturn]]] = {}


def _memo_key(ruleset: Ruleset, house: Mapping[str, Any], *more: object) -> tuple[object, ...]:
    options = tuple(sorted((name, type(value).__name__, repr(value)) for name, value in house.items()))
    return (id(ruleset), options, *more)


def _remember(memo: dict[tuple[object, ...], Any], key: tuple[object, ...], entry: Any) -> None:
    if len(memo) >= _MEMO_SIZE:
        del memo[next(iter(memo))]  # the oldest
    memo[key] = entry


def main_return(
    ruleset: Ruleset, house: dict[str, Any], base: Any = None
) -> tuple[float, dict[str, Any], Any]:
    """The main stake's return, computed by the version's game (validator/games/<game>/edge.py); with
    `base`, a game whose rules answer every question as base's did is not computed again. Without
    `base`, the figures of a version and options already computed in this process are given again
    (the `main` object copied: callers may add to it)."""
    if base is not None:
        return maths_of(ruleset).main_return(Probe(ruleset, house), base)
    key = _memo_key(ruleset, house)
    found = _MAIN.get(key)
    if found is None or found[0] is not ruleset:
        found = (ruleset, maths_of(ruleset).main_return(Probe(ruleset, house), None))
        _remember(_MAIN, key, found)
    ev, main_json, game = found[1]
    return ev, copy.deepcopy(main_json), game


def side_returns(
    ruleset: Ruleset, house: Mapping[str, Any], only: set[str] | None = None
) -> list[SideBetReturn]:
    """Every side bet's return (or those named in `only`), case by case (validator/maths/sidebets.py),
    given again where this process already computed them for the version and options, or re-read from
    figures of the same shape (validator/maths/content.py: a reading or a paytable that changes what a
    line pays, not which deals it pays)."""
    key = _memo_key(ruleset, house, None if only is None else tuple(sorted(only)))
    found = _SIDE.get(key)
    if (found is None or found[0] is not ruleset) and only is not None:
        # Every side bet of the version and options already computed: those asked for are among them.
        every = _SIDE.get(_memo_key(ruleset, house, None))
        if every is not None and every[0] is ruleset:
            return [bet for bet in every[1] if bet.name in only]
    if found is None or found[0] is not ruleset:
        found = (ruleset, _side_bets(Probe(ruleset, house), only))
        _remember(_SIDE, key, found)
    return list(found[1])


def _side_bets(probe: Probe, only: set[str] | None) -> list[SideBetReturn]:
    """`sidebets.side_bets`, each bet re-read from a figure of its shape where one was computed."""
    ruleset = probe.ruleset
    results: list[SideBetReturn] = []
    for name, bet in ruleset.side_bets.items():
        if not ruleset.settles_by_stake.get(name) or (only is not None and name not in only):
            continue
        again, shape = content.known(probe, name, bet)
        if again is None:
            tallies = side_tallies(probe, {name})
            content.keep(shape, [(result.case, tally) for result, tally in tallies])
            again = [result for result, _tally in tallies]
        results.extend(again)
    return results


def outcome_line(label: str, net: float, p: float) -> dict[str, str]:
    return {"outcome": label, "net": number(net, 4), "probability": probability(p)}


def figures(ruleset: Ruleset, house: Mapping[str, Any] | None) -> Figures:
    start, cpu = time.perf_counter(), time.process_time()
    values = house_for(ruleset, house)
    ev, main_json, game = main_return(ruleset, values)
    side = side_returns(ruleset, values)
    return Figures(
        ruleset, values, ev, main_json, side, time.perf_counter() - start, time.process_time() - cpu, game
    )


def side_json(bet: SideBetReturn, stake: Any) -> dict[str, Any]:
    meters = []
    for meter, p in sorted(bet.meters.items()):
        unit = Decimal(str(stake)) if stake not in (None, "") else Decimal(1)
        # Return with the other meters at 0 reaches 0 when this meter holds -ev / p stakes.
        meters.append(
            {
                "meter": meter,
                "probability": number(p, 10),
                "return_per_stake_of_meter": number(p, 10),
                "break_even": number(float(-bet.ev / p * float(unit)), 2) if p else None,
                "stake": str(unit),
            }
        )
    variance = sum(line.probability * line.net * line.net for line in bet.lines) - bet.ev * bet.ev
    return {
        "name": bet.name,
        "title": bet.title,
        "case": bet.case,
        "return": number(bet.ev),
        "variance": number(variance, 6),
        "house_edge_percent": percent(bet.ev),
        "lines": [
            {
                "outcome": line.label,
                "net": number(line.net, 4),
                "probability": probability(line.probability, 10),
            }
            | ({"meter": line.meter} if line.meter else {})
            for line in bet.lines
        ],
        "meters": meters,
    }


def report(found: Figures, table: str | None) -> dict[str, Any]:
    ruleset = found.ruleset
    chosen = {name: format_value(found.house.get(name)) for name in sorted(ruleset.options)}
    side_stake = {b.name: _stake_option(ruleset, found.house, b.name) for b in found.side}
    return {
        "format": FORMAT,
        "ruleset": ruleset.version,
        "game": ruleset.game,
        "table": table,
        "shoe_decks": int(ruleset.param("shoe.decks")) if "shoe.decks" in ruleset.parameters else DECKS,
        # False: the version does not say how many decks; the figures use DECKS, as the simulator deals.
        "decks_from_version": "shoe.decks" in ruleset.parameters,
        "house_options": chosen,
        "main": {
            "return": number(found.main),
            "house_edge_percent": percent(found.main),
            **found.main_json,
        },
        "side_bets": [side_json(b, side_stake[b.name]) for b in found.side],
        "seconds": number(found.seconds, 2),
        "cpu_seconds": number(found.cpu_seconds, 2),
    }


def _stake_option(ruleset: Ruleset, house: Mapping[str, Any], bet: str) -> Any:
    """A side bet's fixed stake, where the house declares one (`<bet>.stake`): meters are in money."""
    value = house.get(f"{bet}.stake")
    return value if f"{bet}.stake" in ruleset.options else None


# ---- what each option costs ----


def alternatives(option: OptionDef) -> list[Any] | None:
    """The values the house may choose for an option, or None when they cannot be listed (amounts)."""
    if option.allowed is not None:
        return list(option.allowed)
    if option.type == "bool":
        return [False, True]
    if option.type == "int" and option.range is not None:
        low, high = int(option.range[0]), int(option.range[1])
        if high - low <= LARGEST_RANGE:
            return [*range(low, high + 1), *([None] if not option.required else [])]
    return None


def options_cost(ruleset: Ruleset, house: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """For each option the version lets the house choose: each other value, and the change it makes to
    the house edge of the main game and of each side bet (percentage points; + is more for the house)."""
    base = house_for(ruleset, house)
    base_main, _json, base_game = main_return(ruleset, base)
    base_side = {(b.name, b.case): b.ev for b in side_returns(ruleset, base)}
    rows: list[dict[str, Any]] = []
    for name, option in sorted(ruleset.options.items()):
        values = alternatives(option)
        if values is None:
            rows.append({"option": name, "current": format_value(base.get(name)), "changes": None})
            continue
        changes = []
        for value in values:
            if value == base.get(name):
                continue
            variant = {**base, name: value}
            main, _json, _game = main_return(ruleset, variant, base_game)
            sides = side_returns(ruleset, variant, only=_reading(ruleset, name))
            entry: dict[str, Any] = {
                "value": format_value(value),
                "main_edge_change": number((base_main - main) * 100, 4),
            }
            side_changes = {
                f"{b.name}:{b.case}" if b.case else b.name: number(
                    (base_side[(b.name, b.case)] - b.ev) * 100, 4
                )
                for b in sides
            }
            if side_changes:
                entry["side_bet_edge_change"] = side_changes
            changes.append(entry)
        rows.append({"option": name, "current": format_value(base.get(name)), "changes": changes})
    return rows


def _reading(ruleset: Ruleset, option: str) -> set[str]:
    """The side bets whose settlement reads this house option (their paytable's name, or a line)."""
    found = set()
    for bet_name, bet in ruleset.side_bets.items():
        texts = [t for _rule, settle in ruleset.settles_by_stake.get(bet_name, ()) for t in settle.tables]
        texts += [line.source for lines in bet.paytables.values() for line in lines]
        if any(f"house.{option}" in text for text in texts):
            found.add(bet_name)
    return found


# ---- what each reading changes ----


def _bet_signature(ruleset: Ruleset, name: str) -> tuple[object, ...]:
    """What a side bet's figure depends on in a version: its paytables' lines and its settle clauses."""
    bet = ruleset.side_bets.get(name)
    lines = (
        tuple((t, line.label, str(line.pays), line.source) for t, ls in bet.paytables.items() for line in ls)
        if bet is not None
        else ()
    )
    clauses = tuple(
        (rule.id, settle.verb, settle.tables, format_value(settle.applied_guard))
        for rule, settle in ruleset.settles_by_stake.get(name, ())
    )
    return lines, clauses


def _table_options(ruleset: Ruleset, name: str) -> list[tuple[str, list[Any]]]:
    """The house option that picks a side bet's paytable, with its values (a figure for each)."""
    found = []
    for _unused, settle in ruleset.settles_by_stake.get(name, ()):
        for table in settle.tables:
            option = ruleset.options.get(table.removeprefix("house."))
            if option is not None and option.allowed is not None:
                found.append((option.name, list(option.allowed)))
    return found


def reading_figures(ruleset: Ruleset, house: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """For each reading of the version that changes a figure: the figure (house edge, %) under each of its
    alternatives, the others as applied; a side bet whose paytable the house picks, under each table."""
    base = house_for(ruleset, house)
    applied = ruleset.reading_choices()
    base_main, _, base_game = main_return(ruleset, base)
    rows: list[dict[str, Any]] = []
    for name, reading in ruleset.readings.items():
        # The alternative the version applies is the version itself: its figures are computed already.
        versions = {
            alt: ruleset if alt == applied[name] else under_readings(ruleset, {name: alt})
            for alt in reading.names
        }
        figures_by: dict[str, dict[str, str]] = {}
        for alt, version in versions.items():
            main = base_main if version is ruleset else main_return(version, base, base_game)[0]
            figures_by.setdefault(N_("main stake"), {})[alt] = percent(main)
        for bet in ruleset.side_bets:
            signatures = {_bet_signature(v, bet) for v in versions.values()}
            if len(signatures) < 2 or not ruleset.settles_by_stake.get(bet):
                continue
            tables = _table_options(ruleset, bet) or [("", [None])]
            for option, values in tables:
                for value in values:
                    for alt, version in versions.items():
                        values_now = {**base, option: value} if option else base
                        for result in side_returns(version, values_now, only={bet}):
                            label = bet + (f":{result.case}" if result.case else "")
                            label += f" ({option} {value})" if option else ""
                            figures_by.setdefault(label, {})[alt] = percent(result.ev)
        changed = [
            {"figure": label, "house_edge_percent": by_alt}
            for label, by_alt in figures_by.items()
            if len(set(by_alt.values())) > 1
        ]
        if changed:
            rows.append(
                {
                    "reading": name,
                    "quote": reading.quote,
                    "default": reading.default,
                    "applied": applied[name],
                    "figures": changed,
                    # Each alternative's meaning in each language the version writes it in.
                    "meanings": {
                        info.name: {"en": info.meaning, **info.translations} for info in reading.alternatives
                    },
                }
            )
    return rows


def sign_changes(costs: list[dict[str, Any]], base_main: float) -> list[dict[str, Any]]:
    """The options whose other value turns the main stake's house edge from one side of zero to the other
    (the house's edge becomes the player's, or back)."""
    flagged = []
    edge_now = -base_main * 100
    for row in costs:
        for change in row.get("changes") or []:
            edge_then = edge_now + float(change["main_edge_change"])
            if (edge_now > 0) != (edge_then > 0) and edge_then != 0:
                flagged.append(
                    {
                        "option": row["option"],
                        "from": row["current"],
                        "to": change["value"],
                        "house_edge_percent_before": number(edge_now, 4),
                        "house_edge_percent_after": number(edge_then, 4),
                    }
                )
    return flagged
