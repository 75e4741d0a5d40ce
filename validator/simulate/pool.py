"""Who is at a simulated table, and who deals (`simulate --players-pool N`, `--dealers N`).

Players: a pool of N named players, P1 to PN (the same names in every séance played with the same pool
size, so that the logs of several tables, or of several séances, share their players; each séance
draws its own comings and goings, so two tables simulated apart may seat one player at the same time).
A player sits down on one box, or two where the rules let a player beside others play two, and stays
a while (15 to 150 minutes of the séance's clock) before leaving; another member of the pool, not at
the table, sits down now and then on a free box (about one round in twelve), and one always does at an
empty table. A
standing player betting behind a seated one is a member of the pool not seated at the table. At the
table's closing (simulate.hours) everyone leaves.

Dealers: a team of N dealers, D-<first> onwards, deals in turn: each deals a stint of 20 to 40 minutes
of the séance's clock, then is relieved by the next (a `dealer` record, with the burn the rules ask of
a new dealer) and goes on break while the others deal; the team comes round in the same order. One
dealer (N = 1): no relief, as before the option.

A stint and a stay are lengths of time elapsed, not of the clock on the wall: the night the clocks go
back, a stint begun at 02:40 ends 40 minutes later at 02:20 (the second time the clock shows it), not an
hour later at 03:20. Their ends are kept in UTC, and compared with the clock in UTC (two times of one zone
compare by the wall clock's reading).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta


def elapsed_after(now: datetime, length: timedelta) -> datetime:
    """The moment `length` of time after `now`, in UTC (`now` naive: as its wall clock reads). At the
    calendar's end (the year 9999), `now` itself: the séance is about to overrun it
    (simulate.table.SeanceOverrun), and the player leaves or the dealer is relieved at the next round."""
    start = _in_utc(now)
    try:
        return start + length
    except OverflowError:
        return start


STAY_MINUTES = (15, 150)  # how long a player stays at the table
ARRIVAL_CHANCE = 1 / 12  # the chance, before a round, that a player of the pool sits down
TWO_BOXES_CHANCE = 0.3  # a player who may play two boxes beside others takes two
STINT_MINUTES = (20, 40)  # a dealer's stint at the table before relief


@dataclass(slots=True)
class Seated:
    name: str
    boxes: list[int]
    leaves_at: datetime  # in UTC (elapsed_after)


@dataclass(slots=True)
class Roster:
    """The table's players from a pool of `size` (see the module's docstring)."""

    size: int
    rng: random.Random
    seated: list[Seated] = field(default_factory=list)

    def names(self) -> list[str]:
        return [f"P{k}" for k in range(1, self.size + 1)]

    def free_boxes(self, seats: int) -> list[int]:
        taken = {box for player in self.seated for box in player.boxes}
        return [box for box in range(1, seats + 1) if box not in taken]

    def absent(self) -> list[str]:
        here = {player.name for player in self.seated}
        return [name for name in self.names() if name not in here]

    def before_round(self, now: datetime, seats: int, per_player: int) -> list[Seated]:
        """The players seated for the round dealt at `now`: those whose stay is over leave, one of the
        pool may sit down (always, at an empty table). Ordered by their first box."""
        self.seated = [player for player in self.seated if player.leaves_at > _in_utc(now)]
        free = self.free_boxes(seats)
        arrives = not self.seated or self.rng.random() < ARRIVAL_CHANCE
        absent = self.absent()
        if arrives and free and absent:
            name = self.rng.choice(absent)
            want = 2 if per_player >= 2 and len(free) >= 2 and self.rng.random() < TWO_BOXES_CHANCE else 1
            self.rng.shuffle(free)
            stay = timedelta(minutes=self.rng.randint(*STAY_MINUTES))
            self.seated.append(Seated(name, sorted(free[:want]), elapsed_after(now, stay)))
        self.seated.sort(key=lambda player: player.boxes[0])
        return list(self.seated)

    def standing(self) -> str | None:
        """A member of the pool not seated at the table, to bet behind a seated one (None: none)."""
        absent = self.absent()
        return self.rng.choice(absent) if absent else None

    def close(self) -> None:
        """The table closes: everyone leaves."""
        self.seated = []


@dataclass(slots=True)
class DealerTeam:
    """The dealers who deal in turn at the table (see the module's docstring)."""

    names: list[str]
    rng: random.Random
    at: int = 0  # the index of the dealer dealing
    relief_at: datetime | None = None  # in UTC (elapsed_after)

    @property
    def dealing(self) -> str:
        return self.names[self.at]

    def start_stint(self, now: datetime) -> None:
        """The dealer dealing starts a stint at `now`."""
        stint = timedelta(minutes=self.rng.randint(*STINT_MINUTES))
        self.relief_at = elapsed_after(now, stint) if len(self.names) > 1 else None

    def relief_due(self, now: datetime) -> bool:
        return self.relief_at is not None and _in_utc(now) >= self.relief_at

    def relieve(self, now: datetime) -> str:
        """The next dealer takes the table at `now`; his name."""
        self.at = (self.at + 1) % len(self.names)
        self.start_stint(now)
        return self.dealing


def _in_utc(now: datetime) -> datetime:
    """`now` in UTC; at the calendar's end (a time of 9999-12-31 west of Greenwich is in the year 10000 in
    UTC), `now` as it is: aware times compare the same whatever their zone."""
    if now.tzinfo is None:
        return now
    try:
        return now.astimezone(UTC)
    except OverflowError:
        return now


def dealer_names(count: int, first: int) -> list[str]:
    """The team's names, D-<first> onwards (D-101 at blackjack tables, D-201 at bataille's)."""
    return [f"D-{first + k}" for k in range(count)]
