"""The table's money, séance by séance: the carnet's entries (hand-log/1.2 `money` records) beside what the
replayed rounds collected and paid, and their reconciliation to the cent.

The arrêté du 14 mai 2007, art. 69, keeps per table and séance « le montant de l'avance initiale et des
avances complémentaires éventuelles et le montant de l'encaisse constatée en fin de séance » (carnets
d'avances), totalled daily on the registre de contrôle. What follows is arithmetic, not law: the
table's result by its carnet, encaisse − avance initiale − avances complémentaires, must be the sum over
its rounds of (stakes collected − amounts paid), side bets included. A house that keeps its table's money
the US way records the same flow as opening inventory, fills (chips brought), credits (chips taken
away), drop (cash and markers in the drop box) and closing inventory: its result is closing + credits +
drop − opening − fills.

A séance is a `table` record and what follows it, to the next `table` record or the end of the log.
`SeanceMoney` gathers one séance's money as a replay sees it (the whole séance, or the part one share of
`check --jobs` replays: parts add up, `merge`); `balance` reconciles a whole séance. A séance is only
reconciled when both sides are whole: its carnet has exactly one opening and one closing figure of one
way of counting (and, the US way, its drop), no money record of it was unreadable, and every round of it
was replayed. Otherwise it is not reconciled, and the summary says why: never an accusation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from validator.i18n import N_, _, ngettext

RECONCILIATION = "money/reconciliation"  # the rule a difference is (validator.logs.rules.money)
ZERO = Decimal(0)

# Each entry's part in the result: opening and closing figures, chips brought to the table and taken away,
# the drop; and which way of counting it belongs to.
OPENING = ("avance_initiale", "opening_inventory")
CLOSING = ("encaisse", "closing_inventory")
BROUGHT = ("avance_complementaire", "fill")
TAKEN = ("credit",)
DROP = ("drop",)
CARNET = frozenset(("avance_initiale", "avance_complementaire", "encaisse"))
INVENTORY = frozenset(("opening_inventory", "fill", "credit", "drop", "closing_inventory"))

Style = Literal["carnet", "inventory"]
Status = Literal["reconciled", "difference", "not_reconciled"]

# Why a séance is not reconciled, by code (the summary's counts and the registre's `reason` column).
REASONS = {
    "no-money": N_("no money record"),
    "no-opening": N_("no avance initiale (opening inventory)"),
    "no-closing": N_("no encaisse (closing inventory)"),
    "two-openings": N_("more than one avance initiale (opening inventory)"),
    "two-closings": N_("more than one encaisse (closing inventory)"),
    "mixed": N_("the carnet's entries and the US count's mixed in one séance"),
    "no-drop": N_("no drop counted (the US way)"),
    "unreadable-money": N_("a money record that could not be read"),
    "unreadable-table": N_("a table record that could not be read"),
    "unreadable-rounds": N_("rounds that could not be replayed"),
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One money record: its line, entry, amount, time as logged and slip (None: none given)."""

    line: int
    entry: str
    amount: Decimal
    at: str
    slip: str | None = None


@dataclass(slots=True)
class SeanceMoney:
    """One séance's money as a replay saw it: the whole séance (`closed`), or a share's part of it.

    `file` and `line` (the table record's) name the séance; `net` is the sum over the rounds replayed of
    the stakes collected less the amounts paid; `unreadable` counts the séance's records that may have
    been rounds and could not be replayed; `damaged` names the lines of its money or table records that
    could not be read."""

    file: str
    line: int
    table: str
    casino: str | None
    opened: str  # the table record's `at`
    declared: bool  # the table record says hand-log/1.2 (or later): a log that can record its money
    entries: list[Entry] = field(default_factory=list)
    rounds: int = 0
    unreadable: int = 0
    net: Decimal = ZERO
    damaged: list[tuple[int, str]] = field(
        default_factory=list
    )  # (line, "unreadable-money"|"unreadable-table")
    closed: bool = False

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.line)

    def fresh(self) -> SeanceMoney:
        """The same séance with nothing counted yet (a share's part starts so after its preamble)."""
        return SeanceMoney(self.file, self.line, self.table, self.casino, self.opened, self.declared)

    def merge(self, part: SeanceMoney) -> None:
        """Add a later part of the same séance (the next share's)."""
        self.entries.extend(part.entries)
        self.rounds += part.rounds
        self.unreadable += part.unreadable
        self.net += part.net
        self.damaged.extend(part.damaged)
        self.closed = part.closed

    def __reduce__(self) -> tuple[Any, ...]:
        # Sent back by a share (pickled): rebuilt by its fields, as the compiled build needs.
        return (_remade, (tuple(getattr(self, name) for name in _FIELDS),))


_FIELDS = (
    "file",
    "line",
    "table",
    "casino",
    "opened",
    "declared",
    "entries",
    "rounds",
    "unreadable",
    "net",
    "damaged",
    "closed",
)


def _remade(values: tuple[Any, ...]) -> SeanceMoney:
    return SeanceMoney(*values)


@dataclass(frozen=True, slots=True)
class Balance:
    """A whole séance reconciled, or why it could not be: the registre de contrôle's line."""

    seance: SeanceMoney
    status: Status
    reason: str | None  # a key of REASONS where not reconciled
    style: Style | None
    opening: Decimal | None
    brought: Decimal  # avances complémentaires, or fills
    taken: Decimal  # credits (the US way)
    drop: Decimal | None  # the US way; None for the carnet's
    closing: Decimal | None
    carnet_result: Decimal | None
    rounds_result: Decimal | None
    closing_line: int | None  # the closing entry's line: where the finding is
    closing_at: str | None

    @property
    def difference(self) -> Decimal | None:
        """The carnet's result less the rounds': more money at the table than the rounds explain (+),
        or less (−); None where not reconciled."""
        if self.carnet_result is None or self.rounds_result is None:
            return None
        return self.carnet_result - self.rounds_result

    @property
    def counted(self) -> bool:
        """Does the summary count it? A séance of a log that can record its money (hand-log/1.2), or
        one that holds some: a log of an earlier format says nothing of the money, and is not told so
        séance by séance."""
        return self.seance.declared or bool(self.seance.entries) or bool(self.seance.damaged)


def balance(seance: SeanceMoney) -> Balance:
    """Reconcile a whole séance (see the module's docstring)."""
    entries = seance.entries
    rounds_result = seance.net if not seance.unreadable else None
    kinds = Counter(entry.entry for entry in entries)
    used = set(kinds)
    style: Style | None = None
    if used and used <= CARNET:
        style = "carnet"
    elif used and used <= INVENTORY:
        style = "inventory"

    def total(names: tuple[str, ...]) -> Decimal:
        return sum((e.amount for e in entries if e.entry in names), ZERO)

    openings = [e for e in entries if e.entry in OPENING]
    closings = [e for e in entries if e.entry in CLOSING]
    drops = [e for e in entries if e.entry in DROP]
    reason: str | None = None
    if seance.damaged:
        reason = seance.damaged[0][1]
    elif not entries:
        reason = "no-money"
    elif style is None:
        reason = "mixed"
    elif len(openings) > 1:
        reason = "two-openings"
    elif len(closings) > 1:
        reason = "two-closings"
    elif not openings:
        reason = "no-opening"
    elif not closings:
        reason = "no-closing"
    elif style == "inventory" and not drops:
        reason = "no-drop"
    elif rounds_result is None:
        reason = "unreadable-rounds"
    opening = openings[0].amount if len(openings) == 1 else None
    closing = closings[0].amount if len(closings) == 1 else None
    brought, taken = total(BROUGHT), total(TAKEN)
    drop = total(DROP) if style == "inventory" and drops else None
    carnet_result: Decimal | None = None
    whole = opening is not None and closing is not None and (style == "carnet" or drop is not None)
    if whole:
        assert opening is not None and closing is not None
        carnet_result = closing + taken + (drop or ZERO) - opening - brought
    status: Status = "not_reconciled"
    if reason is None:
        assert carnet_result is not None and rounds_result is not None
        status = "reconciled" if carnet_result == rounds_result else "difference"
    last = closings[-1] if closings else None
    return Balance(
        seance,
        status,
        reason,
        style,
        opening,
        brought,
        taken,
        drop,
        closing,
        carnet_result,
        rounds_result,
        last.line if last is not None else None,
        last.at if last is not None else None,
    )


def summary_key(found: Balance) -> str | None:
    """What the summary counts the séance as (None: not counted, a log that says nothing of money)."""
    if not found.counted:
        return None
    return found.reason if found.status == "not_reconciled" else found.status


def summary_note(counts: Counter[str]) -> str | None:
    """The summary's line on the table's money: séances reconciled, with a difference, and not
    reconciled, with why (None: the logs record none)."""
    reconciled, differences = counts.get("reconciled", 0), counts.get("difference", 0)
    missing = {reason: counts[reason] for reason in REASONS if counts.get(reason)}
    parts = []
    if reconciled:
        parts.append(
            ngettext(
                "{n} séance reconciled to the cent with its carnet",
                "{n} séances reconciled to the cent with their carnets",
                reconciled,
            ).format(n=f"{reconciled:,}")
        )
    if differences:
        parts.append(
            ngettext(
                "{n} séance whose carnet differs from its rounds ({rule})",
                "{n} séances whose carnets differ from their rounds ({rule})",
                differences,
            ).format(n=f"{differences:,}", rule=RECONCILIATION)
        )
    if missing:
        why = ", ".join(f"{_(REASONS[reason])}: {n:,}" for reason, n in missing.items())
        count = sum(missing.values())
        parts.append(
            ngettext(
                "{n} séance not reconciled, which is no finding ({why})",
                "{n} séances not reconciled, which is no finding ({why})",
                count,
            ).format(n=f"{count:,}", why=why)
        )
    if not parts:
        return None
    return _("table money: {parts}").format(parts="; ".join(parts))
