"""simulate: the table's money, as a French casino keeps it (the arrêté du 14 mai 2007, art. 69: « le
montant de l'avance initiale et des avances complémentaires éventuelles et le montant de l'encaisse
constatée en fin de séance », the carnets d'avances): hand-log/1.2 `money` records written around the
séance's rounds, as they were finally written (after `--inject`'s edits, which change what was paid).

Each séance (each `table` record) opens with an avance initiale of `OPENING_MAXIMA` times the table's
maximum; whenever the chips at the table (the advances plus what the rounds kept) fall below
`LOW_MAXIMA` times the maximum, an avance complémentaire of `TOP_UP_MAXIMA` times it follows the round;
at the close, the encaisse is what the chips then come to. What the rounds kept is read by the replay
`check` runs (`validator.replay.session`), so the carnet is the log's own arithmetic, to the cent.

With `--inject money/reconciliation`, the first séance's encaisse, and each later séance's with the
probability `--rate`, is off by one chip of the table's minimum (missing or over, drawn at random): the
difference `check` reports (`validator.replay.money`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from decimal import Decimal
from typing import Any

import orjson

from validator.casino.seance import RECONCILIATION
from validator.findings.finding import Summary
from validator.logs.limits import Limits
from validator.logs.reader import RecordFeed
from validator.replay.session import HouseLookup, LogReplay
from validator.rulebook.registry import Registry
from validator.simulate.table import amount_json

FORMAT = "hand-log/1.2"  # the log format that has money records
OPENING_MAXIMA = 50  # the avance initiale, in table maxima
LOW_MAXIMA = 10  # an avance complémentaire when the chips at the table fall below this many maxima
TOP_UP_MAXIMA = 20  # of this many maxima
SOURCE = "<simulate>"
_UNBOUNDED = Limits(max_bytes=1 << 62)


class Carnet:
    """The money records of the séances of one simulated log, written as its records pass by
    (`records`). `planted`: simulate --inject's list, whose lines are moved past the records written
    here, and to which a planted difference is added (`plant`: do plant one)."""

    def __init__(
        self,
        registry: Registry,
        house: HouseLookup | None,
        *,
        seed: int,
        plant: bool = False,
        rate: float = 0.0,
        planted: list[Any] | None = None,
    ) -> None:
        self.replay = LogReplay(registry, SOURCE, Summary(), house=house)
        self.feed = RecordFeed(SOURCE, _UNBOUNDED)
        self.rng = random.Random(f"carnet/{seed}")
        self.plant = plant
        self.rate = rate
        self.planted = planted if planted is not None else []
        self.line = 0  # the lines written so far
        self.inserted = 0  # of which the money records written here
        self.seances = 0
        self.opening = Decimal(0)
        self.brought = Decimal(0)
        self.minimum = Decimal(0)
        self.maximum = Decimal(0)
        self.slip = ""
        self.last_at = ""
        self.seen = 0  # the planted violations already at the lines they are written at

    def records(self, records: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        self.seen = len(self.planted)
        for record in records:
            kind = record.get("type")
            if kind == "table":
                if self.seances:
                    yield self._written(self._closing())
                record = {**record, "format": FORMAT}
            # What --inject planted on this record, at the line it is written at.
            for index in range(self.seen, len(self.planted)):
                moved = self.planted[index]
                self.planted[index] = replace(moved, line=moved.line + self.inserted)
            self.seen = len(self.planted)
            yield self._written(record, inserted=False)
            if kind == "table":
                self._opened(record)
                yield self._written(self._entry("avance_initiale", self.opening))
            elif kind in ("limits",):
                self.maximum = Decimal(str(record["maximum"]))
            elif kind == "round":
                seance = self.replay.seance
                net = seance.net if seance is not None else Decimal(0)
                if self.opening + self.brought + net < LOW_MAXIMA * self.maximum:
                    top_up = TOP_UP_MAXIMA * self.maximum
                    self.brought += top_up
                    yield self._written(self._entry("avance_complementaire", top_up))
        if self.seances:
            yield self._written(self._closing())

    def _opened(self, table: dict[str, Any]) -> None:
        self.seances += 1
        self.minimum = Decimal(str(table["minimum"]))
        self.maximum = Decimal(str(table["maximum"]))
        self.opening = OPENING_MAXIMA * self.maximum
        self.brought = Decimal(0)
        self.slip = f"{table['table']}/{str(table['at'])[:10]}/{self.seances}"

    def _closing(self) -> dict[str, Any]:
        """The séance's encaisse: the advances and what its rounds kept, or, planted, a chip off."""
        seance = self.replay.seance
        net = seance.net if seance is not None else Decimal(0)
        encaisse = self.opening + self.brought + net
        if self.plant and (self.seances == 1 or self.rng.random() < self.rate):
            chip = self.minimum if self.rng.random() < 0.5 else -self.minimum
            encaisse += chip
            side = "over" if chip > 0 else "missing"
            # i18n: not shown (the planted file's `what`, in English as every planter's)
            what = f"the encaisse {chip:+} off the séance's rounds: one chip of the table's minimum {side}"

            # Found on the encaisse's line, the next one written.
            self.planted.append(_planted(RECONCILIATION, self.line + 1, what))
            self.seen = len(self.planted)  # at its line already
        return self._entry("encaisse", encaisse)

    def _entry(self, entry: str, amount: Decimal) -> dict[str, Any]:
        return {
            "type": "money",
            "at": self.last_at,
            "entry": entry,
            "amount": amount_json(amount),
            "slip": self.slip,
        }

    def _written(self, record: dict[str, Any], inserted: bool = True) -> dict[str, Any]:
        """`record`, replayed as `check` will replay it, once it is the log's next line."""
        self.line += 1
        self.inserted += inserted
        if "at" in record and record["type"] != "money":
            self.last_at = str(record["at"])
        for read in self.feed.feed(orjson.dumps(record) + b"\n"):
            for _unused in self.replay.replay(iter((read,))):
                pass
        return record


def _planted(rule: str, line: int, what: str) -> Any:
    from validator.simulate.inject import Planted  # simulate --inject's own list (loaded with it)

    return Planted(rule, None, line, None, what)
