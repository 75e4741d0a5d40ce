"""A casino's opening hours as `simulate` keeps them (`--hours`, or the house file's `hours`): the
séance's rounds are dealt only while the casino is open; at closing the table closes, and it opens
again at the next opening, a new séance (a new `table` record, new cards, a new shoe).

"20:00-04:00": open at 20:00, closed at 04:00 the next morning (a closing at or before the opening is
on the next day). "00:00-00:00" (opening and closing the same): open around the clock. Times are the
table's clock (its time zone's local time on each date).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo

from validator.errors import ValidatorError
from validator.i18n import _

_SHAPE = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])-([01][0-9]|2[0-3]):([0-5][0-9])$")
# The shortest opening the simulator plays: a round, a new shoe and a jackpot reading fit in it many
# times over (simulate.table.LONGEST_ROUND_SECONDS).
SHORTEST_OPENING = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Hours:
    opens: time
    closes: time

    @property
    def around_the_clock(self) -> bool:
        return self.opens == self.closes

    @property
    def length(self) -> timedelta:
        """How long the casino is open each day."""
        if self.around_the_clock:
            return timedelta(days=1)
        day = datetime(2000, 1, 1)
        opening, closing = datetime.combine(day, self.opens), datetime.combine(day, self.closes)
        if closing <= opening:
            closing += timedelta(days=1)
        return closing - opening

    def opening_of(self, moment: datetime) -> datetime | None:
        """The opening of the period `moment` (an aware local time) falls in; None: closed then."""
        if self.around_the_clock:
            return moment
        zone = moment.tzinfo
        assert zone is not None
        local = moment.replace(tzinfo=None)
        for back in (0, 1):
            opened = datetime.combine(local.date() - timedelta(days=back), self.opens)
            if opened <= local < opened + self.length:
                return _aware(opened, zone)
        return None

    def closing_after(self, opened: datetime) -> datetime | None:
        """When the period opened at `opened` closes (None: open around the clock)."""
        if self.around_the_clock:
            return None
        zone = opened.tzinfo
        assert zone is not None
        return _aware(opened.replace(tzinfo=None) + self.length, zone)

    def next_opening(self, moment: datetime) -> datetime:
        """The first opening at or after `moment`."""
        zone = moment.tzinfo
        assert zone is not None
        local = moment.replace(tzinfo=None)
        opened = datetime.combine(local.date(), self.opens)
        if opened < local:
            opened += timedelta(days=1)
        return _aware(opened, zone)

    def text(self) -> str:
        return f"{self.opens.strftime('%H:%M')}-{self.closes.strftime('%H:%M')}"


def _aware(local: datetime, zone: tzinfo) -> datetime:
    """A local time of the table's clock: the zone's offset on that date (a fixed offset stays fixed)."""
    return local.replace(tzinfo=zone)


def parse_hours(text: str, what: str) -> Hours:
    """`HH:MM-HH:MM` (opening-closing); a clear error naming `what` (the option or the house file's
    line) otherwise."""
    found = _SHAPE.match(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise ValidatorError(
            _("{what} {value!r}: not opening hours; give them as HH:MM-HH:MM, such as 20:00-04:00").format(
                what=what, value=text
            )
        )
    hours = Hours(
        time(int(found.group(1)), int(found.group(2))), time(int(found.group(3)), int(found.group(4)))
    )
    if hours.length < SHORTEST_OPENING:
        raise ValidatorError(
            _("{what} {value}: open less than an hour a day; the simulator plays at least an hour").format(
                what=what, value=text
            )
        )
    return hours
