"""What `casino-validator simulate` settles before it plays: the version, the house options, the opening
time, the table's limits, the table record and the séance's length. A run that cannot be made stops here
(ValidatorError, exit 2) before anything is written; a run that passes writes valid hand-log/1 that
`check` judges by the version asked for.

Nothing about the law is decided here: the limits are judged by the version's own rules on the `table`
event, run on the table record the simulator writes exactly as `check` runs them on a log's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from itertools import chain
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import orjson

from validator.casino.money import fmt
from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.house.load import HouseFile, dotted
from validator.i18n import _
from validator.logs.reader import check_record
from validator.replay.judge import Judge
from validator.replay.session import read_table
from validator.rulebook.registry import NoVersionInForce, Registry
from validator.simulate import players
from validator.simulate.hours import Hours, parse_hours
from validator.simulate.options import SimulateOptions
from validator.simulate.run import Seance, simulate
from validator.simulate.table import (
    LAST_BOX,
    LONGEST_ROUND_SECONDS,
    SHORTEST_ROUND_SECONDS,
    SeanceOverrun,
)
from validator.simulate.violations import Violations

DEFAULT_MINIMUM = Decimal(10)
DEFAULT_MAXIMUM = Decimal(1000)
# The limits the simulator plays: in cents at most, and up to a trillion, so that every stake, double,
# split and payout it writes stays an exact amount that hand-log/1 readers take.
CENT = Decimal("0.01")
LARGEST_LIMIT = Decimal(10) ** 12
EXAMPLE_START = "2025-03-14T20:00:00+01:00"
SOURCE = "<simulate>"
# The option a field of the table record comes from, to name it when the record is not valid.
_FIELD_OPTIONS = {
    "table": "--table",
    "at": "--start",
    "minimum": "--minimum",
    "maximum": "--maximum",
    "seats": "--seats",
}
_LIMIT_FACTS = ("table.minimum", "table.maximum")

# The largest team of dealers and pool of players a séance is played with (a casino has tens).
MOST_DEALERS = 1000
MOST_PLAYERS = 100_000


@dataclass(frozen=True)
class Limit:
    value: Decimal
    what: str  # where it comes from, as the messages name it: "--minimum", "FILE:LINE: tables.X.minimum"
    chosen: bool  # given by --minimum/--maximum or the house entry, not the default


def prepare(
    registry: Registry,
    options: SimulateOptions,
    violations_for: Callable[[Ruleset, dict[str, Any]], Violations] | None = None,
) -> tuple[Ruleset, Iterator[dict[str, Any]]]:
    """The version played and the séance's records, played lazily once every check has passed.
    `options`: what `simulate` was told, each default written in validator/simulate/options.py (None:
    decided here). `violations_for`: the plan of violations to plant while playing (simulate
    --inject), given the version and the house options the séance is played with. `players`:
    simulate.players.KINDS. `timezone`: the table's (an IANA name); else the house file's `timezone`;
    else its country's. `dealers`, `pool`: simulate.pool. `hours`: the casino's opening hours
    (simulate.hours); else the house file's `hours`; else none kept."""
    ruleset, rounds, seed, table = options.ruleset, options.rounds, options.seed, options.table
    house, start = options.house, options.start
    # 0: none (one dealer all séance; each round's players drawn afresh), as simulate.run takes None.
    dealers, pool = options.dealers or None, options.pool or None
    chosen = registry.pick(ruleset)
    house_file: HouseFile | None = None
    played = house_options(registry, chosen, table, house)
    if house is not None:
        from validator.house.load import load_house

        house_file = load_house(house)
    zone: ZoneInfo | None
    zone, named = table_zone(options.timezone, house_file, chosen)
    if start is not None and not named and not same_offset(start, zone):
        zone = None  # --start's own offset throughout, as given, where it is not the jurisdiction's
    # The jurisdiction's usual evening frames the default opening only: a --start given plays on from it,
    # day and night, unless --hours or the house file names the casino's hours.
    kept = casino_hours(options.hours, house_file, chosen if start is None else None)
    opening = opening_time(start, chosen, registry, pinned_day(ruleset), zone)
    if kept is not None:
        opening = within_hours(opening, kept, start is not None)
    strategy = players.strategy_for(options.players, chosen, played, seed, pool=pool is not None)
    casino = house_file.data.get("casino") if house_file is not None else None
    default_low, default_high = default_limits(chosen)
    low = limit(options.minimum, "minimum", house_file, table, default_low)
    high = limit(options.maximum, "maximum", house_file, table, default_high)
    boxes = seats_played(options.seats, house_file, table)
    if high.value < low.value:
        raise ValidatorError(
            _("{what} {value} is below {what2} {value2}: give a maximum at least the minimum").format(
                what=high.what, value=fmt(high.value), what2=low.what, value2=fmt(low.value)
            )
        )
    try:
        table.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidatorError(_("--table {table!r}: not valid UTF-8 text").format(table=table)) from None
    for option, given, most in (
        ("--dealers", options.dealers, MOST_DEALERS),
        ("--players-pool", options.pool, MOST_PLAYERS),
    ):
        if not 0 <= given <= most:
            raise ValidatorError(
                _("{option} {given}: give 0 to {most}").format(option=option, given=given, most=most)
            )

    seance = Seance(
        seed=seed,
        rounds=rounds,
        table_id=table,
        start=opening,
        minimum=low.value,
        maximum=high.value,
        seats=boxes,
        until=chosen.valid_until,
        strategy=strategy,
        zone=zone,
        casino=casino if isinstance(casino, str) else None,
        dealers=dealers,
        pool=pool,
        hours=kept,
        day_start=day_start(house_file),
    )

    def play(violations: Violations | None = None) -> Iterator[dict[str, Any]]:
        return simulate(chosen, played, seance, violations)

    plan = violations_for(chosen, played) if violations_for is not None else None
    records = play(plan)
    first = next(records)  # the table record: nothing else is played before it is yielded
    # A violation planted on the table record (simulate --inject) is the one finding let through.
    planted = plan.played.get(first["table"]) if plan is not None else None
    check_table_record(first, chosen, played, low, high, planted.rule if planted is not None else None)
    check_length(chosen, opening, rounds, play, kept)
    return chosen, chain([first], records)


# The usual opening hours of a jurisdiction's tables (the first part of the ruleset's id), where neither
# --hours nor the house file gives them: a plausible evening, not law (no text encoded here sets hours).
# French casinos' table games open in the evening and close in the small hours; an Ontario fair or
# exhibition gaming event runs from the late afternoon to midnight.
HOURS = {"fr": "20:00-04:00", "on": "18:00-00:00"}


def same_offset(start: str, zone: ZoneInfo) -> bool:
    """Is `--start`'s offset the zone's at that moment? Then the séance follows the zone's offsets (summer
    time and back), as the jurisdiction's tables' clocks do; else `--start`'s own offset throughout."""
    try:
        moment = datetime.fromisoformat(start)
        return moment.utcoffset() is not None and moment.utcoffset() == moment.astimezone(zone).utcoffset()
    except (ValueError, OverflowError):
        return False  # opening_time says what is wrong with it


def casino_hours(text: str | None, house: HouseFile | None, ruleset: Ruleset | None = None) -> Hours | None:
    """`--hours`; else the house file's `hours`; else the jurisdiction's usual (HOURS), else None (the
    séance plays on, day and night; `--hours 00:00-00:00`: open around the clock)."""
    if text is not None:
        hours: Hours | None = parse_hours(text, "--hours")
    elif house is not None and house.data.get("hours") is not None:
        hours = parse_hours(house.data["hours"], f"{house.file}:{house.line(('hours',))}: hours")
    elif ruleset is not None and ruleset.family.split("/")[0] in HOURS:
        hours = parse_hours(HOURS[ruleset.family.split("/")[0]], "--hours")
    else:
        hours = None
    return hours


def within_hours(opening: datetime, hours: Hours, given: bool) -> datetime:
    """The séance's opening within the casino's hours: `--start` must be (exit 2 otherwise); the
    default evening moves to the casino's next opening where it is closed then."""
    if hours.opening_of(opening) is not None:
        return opening
    if given:
        raise ValidatorError(
            _(
                "--start {start}: the casino is closed then (its hours: {hours}); start while it is open"
            ).format(start=opening.isoformat(), hours=hours.text())
        )
    return hours.next_opening(opening)


def day_start(house: HouseFile | None) -> int:
    """The gaming day's start in minutes after midnight: the house file's `gaming_day_start`, else 06:00
    (docs/house-rules.md)."""
    value = house.data.get("gaming_day_start") if house is not None else None
    if isinstance(value, str) and len(value) == 5 and value[2] == ":" and value.replace(":", "").isdigit():
        hour, minute = int(value[:2]), int(value[3:])
        if hour < 24 and minute < 60:
            return hour * 60 + minute
    return 6 * 60


def house_options(registry: Registry, chosen: Ruleset, table: str, house: Path | None) -> dict[str, Any]:
    """The options the séance is played with: the house entry's for the table, else the version's
    defaults. Refuses a table with no entry, or one the linter finds wrong."""
    if house is None:
        return chosen.house_defaults()
    from validator.house.apply import house_lookup

    lookup, _unused = house_lookup(house, registry)
    return lookup(table, chosen)


def pinned_day(spec: str) -> date | None:
    """The DATE of `--ruleset ID@DATE` (already checked by the registry's pick), else None."""
    _unused, at, day = spec.partition("@")
    try:
        return date.fromisoformat(day) if at else None
    except ValueError:
        return None


def default_limits(ruleset: Ruleset) -> tuple[Decimal, Decimal]:
    """Limits when none are given: the ones the version itself sets for every table (`limits.minimum`
    and `limits.maximum`, as the Ontario licence's 1 $ to 5 $), else 10 to 1000."""
    values = (ruleset.param("limits.minimum"), ruleset.param("limits.maximum"))
    if all(isinstance(v, int | Decimal) and not isinstance(v, bool) for v in values):
        return Decimal(values[0]), Decimal(values[1])
    return DEFAULT_MINIMUM, DEFAULT_MAXIMUM


# The time zone of a table whose jurisdiction is a country's or a province's (the first part of the
# ruleset's id), where neither --timezone nor the house file names one.
ZONES = {"fr": "Europe/Paris", "on": "America/Toronto"}


def table_zone(name: str | None, house: HouseFile | None, ruleset: Ruleset) -> tuple[ZoneInfo, bool]:
    """--timezone; else the house file's `timezone`; else the jurisdiction's (ZONES), else Paris; and
    whether it was named (by the option or the house file)."""
    what = "--timezone"
    if name is None and house is not None and isinstance(house.data.get("timezone"), str):
        name, what = house.data["timezone"], f"{house.file}:{house.line(('timezone',))}: timezone"
    named = name is not None
    if name is None:
        name = ZONES.get(ruleset.family.split("/")[0], ZONES["fr"])
    try:
        return ZoneInfo(name), named
    except (ZoneInfoNotFoundError, ValueError):
        raise ValidatorError(
            _(
                "{what} {name}: not a time zone; give an IANA name such as Europe/Paris or America/Toronto"
            ).format(what=what, name=name)
        ) from None


def opening_time(
    text: str | None,
    ruleset: Ruleset,
    registry: Registry,
    pinned: date | None = None,
    zone: ZoneInfo | None = None,
) -> datetime:
    """`--start`; else the evening of the day `--ruleset ID@DATE` names; else the first evening of the
    version: a time with a UTC offset, on a day it is in force, at the table's offset that day."""
    if text is None:
        if pinned is not None:
            first = pinned
        else:
            first = ruleset.valid_from if ruleset.valid_from else date(2025, 1, 1)
        evening = datetime.combine(first, time(20, 0))
        if zone is None:
            return datetime.fromisoformat(f"{first.isoformat()}T20:00:00+01:00")
        return evening.replace(tzinfo=zone)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValidatorError(
            _(
                "--start {text}: not an ISO 8601 time; give one with its UTC offset, such as {EXAMPLE_START}"
            ).format(text=text, EXAMPLE_START=EXAMPLE_START)
        ) from None
    if moment.utcoffset() is None:
        raise ValidatorError(
            _("--start {text}: no UTC offset; hand-log/1 times carry one, such as {EXAMPLE_START}").format(
                text=text, EXAMPLE_START=EXAMPLE_START
            )
        )
    day = moment.date()
    if not ruleset.in_force_on(day):
        try:
            other = registry.in_force(ruleset.family, day)
            hint = _(", or play the version of that day with --ruleset {version}").format(
                version=f"{other.family}@{day.isoformat()}"
            )
        except NoVersionInForce:
            hint = _("; {family} has no version in force that day").format(family=ruleset.family)
        raise ValidatorError(
            _(
                "--start {text}: {day} is outside the dates of {version}, "
                "{dates}; `check` judges each round by the version in force "
                "on its day: start within its dates{hint}"
            ).format(
                text=text, day=day.isoformat(), version=ruleset.version, dates=ruleset.dates(), hint=hint
            )
        )
    try:
        return moment.astimezone(zone) if zone is not None else moment
    except OverflowError:
        return moment


def limit(raw: str | None, which: str, house: HouseFile | None, table: str, default: Decimal) -> Limit:
    """`--minimum`/`--maximum`; else the house entry's, if it declares one; else the default."""
    if raw is not None:
        return Limit(amount(raw, f"--{which}"), f"--{which}", True)
    entry = house.tables.get(table) if house is not None else None
    if house is not None and isinstance(entry, dict) and entry.get(which) is not None:
        path = ("tables", table, which)
        what = f"{house.file}:{house.line(path)}: {dotted(path)}"
        return Limit(amount(entry[which], what), what, True)
    return Limit(default, _("the default {which}").format(which=which), False)


def seats_played(raw: int | None, house: HouseFile | None, table: str) -> int:
    """`--seats`; else the house entry's `seats`, if it declares them; else LAST_BOX. The simulator
    plays every box of the layout, and hand-log/1 names boxes 1 to LAST_BOX."""
    what = "--seats"
    value: Any = raw
    entry = house.tables.get(table) if house is not None else None
    if raw is None and house is not None and isinstance(entry, dict) and entry.get("seats") is not None:
        path = ("tables", table, "seats")
        what, value = f"{house.file}:{house.line(path)}: {dotted(path)}", entry["seats"]
    if value is None:
        return LAST_BOX
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= LAST_BOX:
        raise ValidatorError(
            _(
                "{what} {value!r}: the simulator plays tables of 1 to "
                "{LAST_BOX} seats, the boxes hand-log/1 names (1 to "
                "{LAST_BOX})"
            ).format(what=what, value=value, LAST_BOX=LAST_BOX)
        )
    return value


def amount(raw: Any, what: str) -> Decimal:
    """A table limit: a finite amount above 0, in cents at most, up to LARGEST_LIMIT."""
    shown = raw if isinstance(raw, str) else repr(raw)
    try:
        if isinstance(raw, bool) or not isinstance(raw, int | float | str):
            raise InvalidOperation
        value = Decimal(raw if isinstance(raw, int | str) else str(raw))
    except InvalidOperation:
        value = Decimal("NaN")
    if not value.is_finite():
        raise ValidatorError(
            _("{what} {value}: not an amount; give a number such as 10 or 7.50").format(
                what=what, value=shown
            )
        )
    if value <= 0:
        raise ValidatorError(
            _("{what} {value}: a table limit must be more than 0").format(what=what, value=shown)
        )
    if value > LARGEST_LIMIT:
        raise ValidatorError(
            _("{what} {value}: too large; the simulator plays limits up to {LARGEST_LIMIT}").format(
                what=what, value=shown, LARGEST_LIMIT=fmt(LARGEST_LIMIT)
            )
        )
    if value != value.quantize(CENT):
        raise ValidatorError(
            _("{what} {value}: more than 2 decimals; a table limit is in cents at most").format(
                what=what, value=shown
            )
        )
    return value


def check_table_record(
    record: dict[str, Any],
    ruleset: Ruleset,
    options: dict[str, Any],
    low: Limit,
    high: Limit,
    planted: str | None = None,
) -> None:
    """The table record as `check` reads it: valid hand-log/1, and allowed by the version's `table` rules
    (but `planted`, the rule `simulate --inject` broke on it on purpose)."""
    try:
        data = orjson.loads(orjson.dumps(record))
    except (orjson.JSONEncodeError, orjson.JSONDecodeError) as exc:
        raise ValidatorError(
            _("the table record cannot be written as JSON: {value}").format(value=exc)
        ) from None
    problem = check_record(data, SOURCE, 1)
    if problem is not None:
        # The reader's message, "table record: FIELD: DETAIL", in the language in use.
        prefix = _("{type} record: {detail}").format(type="table", detail="")
        field, _unused, detail = problem.message.removeprefix(prefix).partition(": ")
        option = _FIELD_OPTIONS.get(field) or _("the options")
        raise ValidatorError(
            _("{option}: not valid in a hand-log/1 table record: {field}: {detail}").format(
                option=option, field=field, detail=detail
            )
        )
    try:
        state = read_table(data, 1)
    except ValueError as exc:  # AmountError: limits the reader does not take
        raise ValidatorError(
            _("--minimum/--maximum: not valid in a hand-log/1 table record: {value}").format(value=exc)
        ) from None
    judge = Judge(ruleset, options, SOURCE)
    judge.in_words = False  # _refusal reads which limit facts failed
    judge.check("table", judge.context(table=state), line=1, round_id=None)
    refused = [finding for finding in judge.findings if finding.rule != planted]
    if refused:
        raise ValidatorError(_refusal(ruleset, refused, low, high))


def _refusal(ruleset: Ruleset, findings: list[Finding], low: Limit, high: Limit) -> str:
    where = f"{low.what}, {high.what}" if low.chosen or high.chosen else _("the simulator's defaults")
    lines = [
        _(
            "the table would open with limits {low} to {high} ({where}), which {version} does not allow:"
        ).format(low=fmt(low.value), high=fmt(high.value), where=where, version=ruleset.version)
    ]
    for finding in findings:
        ref = f" ({finding.ref})" if finding.ref else ""
        lines.append(f"  {finding.rule}: {finding.message}{ref}")
    if any(fact in _LIMIT_FACTS for f in findings for fact in {**(f.expected or {}), **(f.actual or {})}):
        lines.append(_("give limits it allows with --minimum and --maximum"))
    return "\n".join(lines)


def check_length(
    ruleset: Ruleset, opening: datetime, rounds: int, play: Any, hours: Hours | None = None
) -> None:
    """Every record of the séance on a day the version is in force, and before the year 10000.

    The clock's bounds per round settle most runs; between them the séance is played once, unwritten.
    Where it keeps the casino's hours, the longest it can last counts whole days for each opening that
    fits the fewest rounds (a round starts at least LONGEST_ROUND_SECONDS before closing)."""
    until = ruleset.valid_until
    last = datetime.combine(until, time.max) if until is not None else datetime.max
    room = (last - opening.replace(tzinfo=None)).total_seconds()
    longest = (rounds + 1) * LONGEST_ROUND_SECONDS
    if hours is not None and not hours.around_the_clock:
        per_opening = max(1, int(hours.length.total_seconds()) // LONGEST_ROUND_SECONDS - 1)
        longest = (rounds // per_opening + 2) * 86400
    overrun: SeanceOverrun | None = None
    if rounds * SHORTEST_ROUND_SECONDS > room:
        overrun = SeanceOverrun(until)
    elif longest > room:
        try:
            for _unused in play():
                pass
        except SeanceOverrun as exc:
            overrun = exc
    if overrun is None:
        return
    opened = _("a séance of {rounds} rounds opening at {opening}").format(
        rounds=rounds, opening=opening.isoformat()
    )
    if overrun.day is None:
        raise ValidatorError(
            _("{opened} would run past the year 9999: start earlier or play fewer rounds").format(
                opened=opened
            )
        )
    raise ValidatorError(
        _(
            "{opened} would run past {day}, the last day of {version}, "
            "and `check` judges each round by the version in force on "
            "its day: start earlier or play fewer rounds"
        ).format(opened=opened, day=overrun.day.isoformat(), version=ruleset.version)
    )
