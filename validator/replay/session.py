"""Replaying whole logs: records in, one `RoundOutcome` per round (and per finding outside rounds) out.

Holds each table's state across records (limits, dealer, shoe), picks the ruleset version in force
on each round's date, and keeps every round accounted for: clean, with findings, or unreadable.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from datetime import date, datetime
from typing import Any, cast

from validator.casino.cards import normalize
from validator.casino.ledger import RoundFacts, record_facts
from validator.casino.money import AmountError, to_decimal
from validator.casino.seance import Balance, Entry, SeanceMoney, balance, summary_key
from validator.dsl.facts import CardFacts, ChangeFacts
from validator.dsl.model import Ruleset
from validator.errors import UnknownRuleset, ValidatorError
from validator.findings.finding import Finding, RoundOutcome, Status, Summary
from validator.findings.fingerprint import renumbered
from validator.games import GAMES
from validator.i18n import _
from validator.logs.decode import (
    UNSET,
    DealerRecord,
    JackpotRecord,
    LimitsRecord,
    MoneyRecord,
    RoundRecord,
    ShoeRecord,
    TableRecord,
    from_dict,
)
from validator.logs.reader import (
    RECORD_TYPES,
    RULE_BROKEN_SKIPPED,
    RULE_EMPTY,
    RULE_TOO_LARGE,
    SKIPPED,
    Record,
    display_name,
    format_finding,
)
from validator.logs.rules import records as record_rules
from validator.logs.rules import sequence as sequence_rules
from validator.logs.rules import version as version_rules
from validator.logs.rules.replayable import INCONSISTENT
from validator.replay.judge import Judge
from validator.replay.money import finding as money_finding
from validator.replay.money import round_net
from validator.replay.round_base import MalformedRound, RoundReplay
from validator.replay.side_bets import jackpot_reading, stake_sides, stake_titles
from validator.replay.state import Shoe, TableState
from validator.rulebook.registry import NoVersionInForce, Registry, under_readings

# Each game's replay engine, as its package declares it (validator/games/<game>/__init__.py).
ENGINES: dict[str, type[RoundReplay[Any, Any, Any]]] = {
    name: game.load(game.engine) for name, game in GAMES.items()
}

# A house-rules source: table id → option values, or None for the regulation's defaults.
HouseLookup = Callable[[str, Ruleset], dict[str, Any]]

# Writes a traced round as `explain` does: (file, round id, what the replay told, outcome) → text.
Teller = Callable[[str, str, dict[str, Any], RoundOutcome], str]


def record_date(at: str) -> date:
    """The local date of a record's time: the law in force where and when the coup was dealt."""
    return datetime.fromisoformat(at).date()


def read_table(record: dict[str, Any], line: int) -> TableState:
    """A valid table record (as a dict) as the table's new state; AmountError if its limits are not
    amounts (the record then changes nothing)."""
    return table_state(cast(TableRecord, from_dict(record)), line)


def table_state(record: TableRecord, line: int) -> TableState:
    """`read_table` of the record as the reader decoded it (a field left out is None here)."""
    new_cards = record.new_cards
    ruleset = record.ruleset
    return TableState(
        id=record.table,
        game=record.game,
        seats=record.seats,
        minimum=to_decimal(record.minimum),
        maximum=to_decimal(record.maximum),
        new_cards=None if new_cards is UNSET else new_cards,
        ruleset=None if ruleset is UNSET else ruleset,
        line=line,
        faces_logged=record.format != "hand-log/1",
    )


# Findings about the file rather than about one record: never a round.
NOT_A_RECORD = (RULE_BROKEN_SKIPPED, RULE_TOO_LARGE, RULE_EMPTY)


def is_round(data: Any) -> bool:
    """Whether a record that cannot be replayed counts as an unreadable round (docs/decisions.md).

    A line that could not be read at all may have been a round: counting it as one loses nothing. A
    record whose `type` is missing or `round` is one; a record of another type of hand-log/1 is not,
    whatever else it carries; a record of no known type (a misspelt type, `null`, a number) is one only
    when it carries a round id (text), as a round whose type is misspelt would."""
    if not isinstance(data, dict):
        return True
    if "type" not in data:
        return True
    kind = data["type"]
    if kind == "round":
        return True
    if isinstance(kind, str) and kind in RECORD_TYPES:
        return False
    return isinstance(data.get("round"), str)


def settled(summary: Summary, found: Balance) -> RoundOutcome:
    """A whole séance's outcome: its `money/reconciliation` finding, if any, counted in `summary` with
    what the summary says of the séance's money; the balance travels with it (the registre de contrôle
    of the audit dataset)."""
    seance = found.seance
    finding = money_finding(found)
    if finding is not None:
        summary.count(finding)
    key = summary_key(found)
    if key is not None:
        summary.seances[key] += 1
    return RoundOutcome(
        seance.file,
        found.closing_line or seance.line,
        None,
        (finding,) if finding is not None else (),
        "none",
        table=seance.table,
        at=found.closing_at or seance.opened,
        seance=found,
    )


class LogReplay:
    """One file's replay. `pinned` is `--ruleset`: a family, or a family@date that fixes the version."""

    def __init__(
        self,
        registry: Registry,
        file: str,
        summary: Summary,
        *,
        pinned: str | None = None,
        house: HouseLookup | None = None,
        collect: bool = False,
        teller: Teller | None = None,
    ) -> None:
        self.registry = registry
        self.file = display_name(file)  # findings name standard input as the reader's do
        self.summary = summary
        self.pinned_family: str | None
        self.pinned_date: date | None
        self.pinned_family, self.pinned_date = registry.resolve(pinned) if pinned else (None, None)
        self.house = house
        self.table: TableState | None = None
        self._round_at: str | None = None  # the `at` of the round being replayed, for its outcome
        self.shoe: Shoe | None = None
        # The table's last round: where its cut card came out, its farthest seated box at the dealer's
        # right (what a new shoe's cut is judged against; forgotten at a table record).
        self._last_cut_at: str | None = None
        self._last_rightmost: str | None = None
        self.judges: dict[tuple[str, tuple[tuple[str, str], ...], str], Judge] = {}
        # The ruleset and table of the last judge asked for, and that judge (`judge_for`'s fast path).
        self._last_judge: tuple[Ruleset, TableState, Judge] | None = None
        # (day, ruleset) of the last round; forgotten when a table record opens another table.
        self._last_ruleset: tuple[str, Ruleset] | None = None
        # The version in force when the table record opened the table, and the versions that have come
        # into force at it since (event `in_force`); forgotten at a table record.
        self._opened_under: Ruleset | None = None
        self._came_into_force: set[int] = set()
        # `explain`: the round to tell step by step, and what was told.
        self.explain: str | None = None
        self.explained: dict[str, Any] | None = None
        # The audit dataset: each round's outcome carries its facts and money (`ledger.RoundFacts`),
        # and a round with findings its account as `explain` gives it, written by `teller`.
        self.collect = collect
        self.teller = teller
        self.casino: str | None = None
        # The séance in play's money (validator.casino.seance): opened by a table record, closed by the
        # next one or by `finish`, then reconciled; in a share of `check --jobs` that sees only part of
        # it, handed back as a part that the client adds up.
        self.seance: SeanceMoney | None = None
        # A share of `check --jobs` that starts inside a séance (at a shoe record): that séance's key.
        # Its beginning is another share's, so its part here goes back to the client, never reconciled.
        self.continued: tuple[str, int] | None = None
        # Each round id of the log and the line of its first record; the ids given more than once, and
        # how many times so far (hand-log/repeated-round).
        self._round_lines: dict[str, int] = {}
        self._repeats: dict[str, int] = {}

    # ---- rulesets and judges ----
    def ruleset_for(self, day: date) -> Ruleset:
        assert self.table is not None
        family = self.pinned_family or self.table.ruleset
        if family is None:
            raise ValidatorError(
                _("{file}:{line}: table {id} names no ruleset; give one with --ruleset").format(
                    file=self.file, line=self.table.line, id=self.table.id
                )
            )
        try:
            ruleset = self.registry.in_force(family, self.pinned_date or day)
        except UnknownRuleset as exc:
            # Only a table record's name can be unknown here: --ruleset was checked at start.
            raise UnknownRuleset(
                _(
                    "{file}:{line}: table {id} names {value}; correct the record or give one with --ruleset"
                ).format(file=self.file, line=self.table.line, id=self.table.id, value=exc)
            ) from None
        declared_by = getattr(self.house, "readings", None) if self.house is not None else None
        if declared_by is not None:
            # The readings the table's house entry declares (house.apply.TableLookup), where the run
            # chose none itself (--reading, the configuration file).
            declared: dict[str, str] = declared_by(self.table.id)
            extra = {n: a for n, a in declared.items() if n not in self.registry.chosen}
            if extra:
                ruleset = under_readings(ruleset, extra)
        if ruleset.game != self.table.game:
            raise ValidatorError(
                _("{file}:{line}: table {id} plays {game}, but ruleset {family} is for {game2}").format(
                    file=self.file,
                    line=self.table.line,
                    id=self.table.id,
                    game=self.table.game,
                    family=family,
                    game2=ruleset.game,
                )
            )
        return ruleset

    def ruleset_of_round(self, at: str) -> Ruleset:
        """`ruleset_for` the round's date, remembered for the table's rounds of the same day: a table
        deals hundreds of rounds a day under one version."""
        assert self.table is not None
        key = at[:10]  # the schema's time starts with the local date
        last = self._last_ruleset
        if last is not None and last[0] == key:
            return last[1]
        ruleset = self.ruleset_for(record_date(at))
        self._last_ruleset = (key, ruleset)
        return ruleset

    def judge_for(self, ruleset: Ruleset) -> Judge:
        assert self.table is not None
        last = self._last_judge
        if last is not None and last[0] is ruleset and last[1] is self.table and self.judges:
            # The same version at the same table as the last round's: its judge, without making its key
            # (`Ruleset.version` is a property that formats the text anew). Judges cleared (a share's
            # replay, once its preamble is read: checking.parallel) are made anew, the last one too.
            same = last[2]
            same.findings = []
            return same
        key = (ruleset.version, ruleset.applied, self.table.id)
        judge = self.judges.get(key)
        if judge is None:
            options = self._house_options(ruleset) if self.house else ruleset.house_defaults()
            judge = Judge(ruleset, options, self.file)
            judge.side_titles = {**self._side_titles(), **judge.side_titles}
            judge.stake_titles = {**stake_titles(self.registry.all()), **judge.stake_titles}
            judge.stake_sides = {**stake_sides(self.registry.all()), **judge.stake_sides}
            self.judges[key] = judge
            self.summary.rulesets.add(ruleset.version)
            self.summary.record_readings(ruleset)
        self._last_judge = (ruleset, self.table, judge)
        judge.findings = []
        return judge

    def _side_titles(self) -> dict[str, str]:
        """Every side bet's title in the registry: a bet of another game named at this table."""
        return {name: bet.title for rs in self.registry.all() for name, bet in rs.side_bets.items()}

    def _house_options(self, ruleset: Ruleset) -> dict[str, Any]:
        assert self.table is not None and self.house is not None
        try:
            return self.house(self.table.id, ruleset)
        except ValidatorError as exc:
            # The house file is named; so is the log that asked for the table, for the one who fixes it.
            raise ValidatorError(
                _("{value}\n  asked for by the table record at {file}:{line}").format(
                    value=exc, file=self.file, line=self.table.line
                )
            ) from None

    # ---- records ----
    def replay(self, records: Iterator[Record]) -> Iterator[RoundOutcome]:
        for record in records:
            self.summary.records += 1
            if record.problem is not None:
                if record.struct is None:
                    broken = self._broken(record)
                    if broken is not None:
                        yield broken
                    continue
                # A line read after all (as Latin-1): its finding, about the file; then it is replayed.
                yield self._outcome(record.line, None, [record.problem], "none")
            # The record as the reader decoded it (typed, read by attribute); `record.data`, the same as
            # a dict, is made only where one is needed (the audit dataset's facts, a broken round).
            # Told apart by class (`isinstance` of a msgspec struct that does not match is slow).
            struct = record.struct
            if type(struct) is RoundRecord:
                outcome = self.on_round(struct, record)
                if outcome is not None:
                    yield outcome
            else:
                yield from self._other_record(struct, record)
        for judge in self.judges.values():
            self.summary.unjudged |= judge.unjudged

    def _broken(self, record: Record) -> RoundOutcome | None:
        """A line that is no valid record: its finding, or None past the limit of broken records in a row
        (counted by the same rule, not reported)."""
        problem = record.problem
        assert problem is not None
        if problem is SKIPPED:
            self.summary.records += record.repeat - 1
            if is_round(record.data):
                self.summary.rounds_unreadable += record.repeat
                if self.seance is not None:
                    self.seance.unreadable += record.repeat
            else:
                self._damage(record.line, record.data)
            return None
        if problem.rule in NOT_A_RECORD:
            self.summary.records -= 1  # a finding about the file, not a line of it
        return self.unreadable(record.line, problem, record.data)

    def _other_record(self, struct: Any, record: Record) -> Iterator[RoundOutcome]:
        """A valid record other than a round's: its outcome, if any (a table record first closes the
        séance before it)."""
        line = record.line
        outcome: RoundOutcome | None
        if type(struct) is ShoeRecord:
            outcome = self.on_shoe(struct, line)
        elif type(struct) is TableRecord:
            ending = self.seance
            outcome = self.on_table(struct, line)
            if ending is not None and self.seance is not ending:
                # The séance before ends where this one opens: its money first, then the table's.
                closed = self._closed(ending, True)
                if closed is not None:
                    yield closed
        elif type(struct) is LimitsRecord:
            outcome = self.on_limits(struct, line)
        elif type(struct) is DealerRecord:
            outcome = self.on_dealer(struct, line)
        elif type(struct) is JackpotRecord:
            outcome = self.on_jackpot(struct, line)
        elif type(struct) is MoneyRecord:
            outcome = self.on_money(struct, line)
        else:
            raise AssertionError(
                f"a valid record without its struct: {record!r}"
            )  # i18n: not shown (a bug: exit 3)
        if outcome is not None:
            yield outcome

    def unreadable(self, line: int, problem: Finding, data: Any) -> RoundOutcome:
        counted = problem.rule not in NOT_A_RECORD and is_round(data)
        if not counted:
            self._damage(line, data)
        facts = self._facts(data) if self.collect and counted and isinstance(data, dict) else None
        return self._outcome(line, problem.round, [problem], "unreadable" if counted else "none", facts)

    def _facts(self, record: dict[str, Any], ruleset: str | None = None) -> RoundFacts:
        """What a round record says without its replay (one that could not be replayed)."""
        return record_facts(self.casino, self.table.id if self.table else None, record, ruleset)

    def _facts_of(self, source: Record) -> RoundFacts:
        """`_facts` of a valid round record, read from its dict."""
        data = source.data
        assert data is not None  # a valid line has its dict
        return self._facts(data)

    def _outcome(
        self,
        line: int,
        round_id: str | None,
        found: list[Finding],
        status: Status,
        facts: RoundFacts | None = None,
    ) -> RoundOutcome:
        for finding in found:
            self.summary.count(finding)
        if status == "unreadable":
            self.summary.rounds_unreadable += 1
            if self.seance is not None:
                self.seance.unreadable += 1
        elif status == "findings":
            self.summary.rounds_with_findings += 1
        elif status == "clean":
            self.summary.rounds_clean += 1
        table = self.table.id if self.table is not None else None
        at = self._round_at if round_id is not None else None
        judge = self._last_judge
        return RoundOutcome(
            self.file,
            line,
            round_id,
            tuple(found),
            status,
            facts=facts,
            table=table,
            at=at,
            titles=judge[2].stake_titles if judge is not None and found else None,
        )

    def _table_event(
        self, event: str, at: str, line: int, burned: Sequence[str] = (), **namespaces: Any
    ) -> RoundOutcome | None:
        assert self.table is not None
        try:
            ruleset = self.ruleset_for(record_date(at))
        except NoVersionInForce as exc:
            finding = format_finding(self.file, line, str(exc), version_rules.NO_VERSION_IN_FORCE)
            return self._outcome(line, None, [finding], "none")
        judge = self.judge_for(ruleset)
        if event == "table":
            self._opened_under, self._came_into_force = ruleset, set()
        if self.shoe is not None:
            # Burned cards leave the shoe like dealt ones: a card with no copy left is judged here too.
            for raw in burned:
                code = normalize(raw)
                in_shoe = self.shoe.take(code)
                judge.check(
                    "card",
                    judge.context(table=self.table, card=CardFacts(code=code, in_shoe=in_shoe)),
                    line=line,
                    round_id=None,
                )
        ctx = judge.context(table=self.table, **namespaces)
        judge.check(event, ctx, line=line, round_id=None)
        return self._outcome(line, None, judge.findings, "none") if judge.findings else None

    def on_table(self, record: TableRecord, line: int) -> RoundOutcome | None:
        try:
            table = table_state(record, line)
        except AmountError as exc:
            self._damage(line, {"type": "table"})
            return self._outcome(
                line,
                None,
                [
                    format_finding(
                        self.file, line, _("table record: {error}").format(error=exc), record_rules.SCHEMA
                    )
                ],
                "none",
            )
        self.table = table
        casino = record.casino
        self.casino = None if casino is UNSET else casino
        declared = record.format not in ("hand-log/1", "hand-log/1.1")
        self.seance = SeanceMoney(self.file, line, table.id, self.casino, record.at, declared)
        self._last_ruleset = None
        self.shoe = None
        self._last_cut_at = self._last_rightmost = None
        return self._table_event("table", record.at, line)

    def _needs_table(self, kind: str, line: int, source: Record | None = None) -> RoundOutcome | None:
        """A finding when no table is open; `source` is the line of a round record."""
        if self.table is None:
            struct = source.struct if source is not None else None
            round_id = struct.round if type(struct) is RoundRecord else None
            if round_id is None:
                message = _("{kind} record comes before any table record: no table is open").format(kind=kind)
            else:
                message = _("round {id} comes before any table record: no table is open").format(id=round_id)
            status: Status = "unreadable" if round_id is not None else "none"
            facts = self._facts_of(source) if self.collect and source is not None else None
            return self._outcome(
                line,
                round_id,
                [format_finding(self.file, line, message, sequence_rules.NO_TABLE, round_id)],
                status,
                facts,
            )
        return None

    def on_limits(self, record: LimitsRecord, line: int) -> RoundOutcome | None:
        if (missing := self._needs_table("limits", line)) is not None:
            return missing
        assert self.table is not None
        try:
            self.table.minimum, self.table.maximum = (
                to_decimal(record.minimum),
                to_decimal(record.maximum),
            )
        except AmountError as exc:
            return self._outcome(
                line,
                None,
                [
                    format_finding(
                        self.file, line, _("limits record: {error}").format(error=exc), record_rules.SCHEMA
                    )
                ],
                "none",
            )
        displayed = record.displayed
        self.table.limits_displayed = None if displayed is UNSET else displayed
        return self._table_event("limits", record.at, line)

    def on_dealer(self, record: DealerRecord, line: int) -> RoundOutcome | None:
        if (missing := self._needs_table("dealer", line)) is not None:
            return missing
        burn = record.burn or []
        return self._table_event("dealer_change", record.at, line, burn, change=ChangeFacts(burned=len(burn)))

    def on_shoe(self, record: ShoeRecord, line: int) -> RoundOutcome | None:
        if (missing := self._needs_table("shoe", line)) is not None:
            return missing
        self.shoe = Shoe(record, self._last_cut_at, self._last_rightmost)
        if record.cut_card is False and record.cut_card_behind is not UNSET:
            # hand-log/1.2: no cut card, and yet cards behind it: the record contradicts itself, and the
            # shoe's rules have no record to judge (the shoe is played as having no cut card).
            message = _(
                "shoe record {shoe}: no cut card (cut_card false), and yet {behind} cards behind it"
            ).format(shoe=repr(record.shoe), behind=record.cut_card_behind)
            return self._outcome(line, None, [format_finding(self.file, line, message, INCONSISTENT)], "none")
        return self._table_event("shoe", record.at, line, record.burn or [], shoe=self.shoe)

    def on_jackpot(self, record: JackpotRecord, line: int) -> RoundOutcome | None:
        if (missing := self._needs_table("jackpot", line)) is not None:
            return missing
        assert self.table is not None
        try:
            reading = jackpot_reading(self.table, record.main, record.secondary)
        except AmountError as exc:
            message = _("jackpot record: {error}").format(error=exc)
            finding = format_finding(self.file, line, message, record_rules.SCHEMA)
            return self._outcome(line, None, [finding], "none")
        return self._table_event("jackpot", record.at, line, jackpot=reading)

    def on_money(self, record: MoneyRecord, line: int) -> RoundOutcome | None:
        """hand-log/1.2: an entry of the séance's table money (validator.casino.seance)."""
        if (missing := self._needs_table("money", line)) is not None:
            return missing
        try:
            amount = to_decimal(record.amount)
        except AmountError as exc:
            self._damage(line, {"type": "money"})
            message = _("money record: {error}").format(error=exc)
            finding = format_finding(self.file, line, message, record_rules.SCHEMA)
            return self._outcome(line, None, [finding], "none")
        if self.seance is not None:
            slip = None if record.slip is UNSET else record.slip
            self.seance.entries.append(Entry(line, record.entry, amount, record.at, slip))
        return None

    def _damage(self, line: int, data: Any) -> None:
        """A money or table record that could not be read: the séance's money can no longer be trusted
        whole (a table record may have opened another séance)."""
        kind = data.get("type") if isinstance(data, dict) else None
        if self.seance is not None and kind in ("money", "table"):
            self.seance.damaged.append((line, f"unreadable-{kind}"))

    def finish(self, closes: bool = True) -> Iterator[RoundOutcome]:
        """The end of the log: its last séance closes (`closes` False: a share of `check --jobs` that
        ends inside a séance, whose part goes back to the client)."""
        seance, self.seance = self.seance, None
        if seance is not None:
            closed = self._closed(seance, closes)
            if closed is not None:
                yield closed

    def continues(self) -> None:
        """A share of `check --jobs` that starts inside a séance, once its preamble is replayed: the
        séance's money counts from here (the rounds the preamble replayed are the share before's), and
        its part goes back to the client (`validator.checking.cluster`), which adds the parts up."""
        if self.seance is not None:
            self.seance = self.seance.fresh()
            self.continued = self.seance.key

    def _closed(self, seance: SeanceMoney, ends: bool) -> RoundOutcome | None:
        """The outcome of a séance that ends (`ends`): reconciled here when this replay saw it whole;
        else (a share's part of it: begun in the share before, or going on in the next) its part, which
        the client adds up and reconciles once it has the last."""
        seance.closed = ends
        if not ends or seance.key == self.continued:
            return RoundOutcome(self.file, seance.line, None, (), "none", seance=seance)
        return settled(self.summary, balance(seance))

    def on_round(self, record: RoundRecord, source: Record) -> RoundOutcome | None:
        """A round record; `source` is its line, whose dict (`source.data`) the audit dataset reads."""
        first = self._round_lines.setdefault(record.round, source.line)
        if first == source.line:  # a round id not given before: nearly every round
            return self._on_round(record, source)
        return self._repeated(record, source, first)

    def _repeated(self, record: RoundRecord, source: Record, first: int) -> RoundOutcome | None:
        """A round record whose id an earlier record of this log has (`hand-log/repeated-round`): replayed
        as any round, its findings numbered by which time the id comes (`Finding.occurrence`), so that
        their fingerprints are not the earlier record's; the finding that says so comes first."""
        round_id = record.round
        occurrence = self._repeats[round_id] = self._repeats.get(round_id, 1) + 1
        outcome = self._on_round(record, source)
        message = sequence_rules.repeated_round_message(round_id, first, occurrence)
        said = format_finding(self.file, source.line, message, sequence_rules.REPEATED_ROUND, round_id)
        self.summary.count(said)
        if outcome is None:
            return self._outcome(source.line, round_id, [], "none")  # not reached: a round has an outcome
        renamed = renumbered((said, *outcome.findings), occurrence)
        status = outcome.status
        if status == "clean":
            self.summary.rounds_clean -= 1
            self.summary.rounds_with_findings += 1
            status = "findings"
        return dataclasses.replace(outcome, findings=renamed, status=status)

    def _on_round(self, record: RoundRecord, source: Record) -> RoundOutcome | None:
        line = source.line
        if (missing := self._needs_table("round", line, source)) is not None:
            return missing
        assert self.table is not None
        round_id = record.round
        self._round_at = record.at
        if self.shoe is None:
            message = _("round {id} is dealt before any shoe record of table {table}").format(
                id=round_id, table=self.table.id
            )
            return self._outcome(
                line,
                round_id,
                [format_finding(self.file, line, message, sequence_rules.NO_SHOE, round_id)],
                "unreadable",
                self._facts_of(source) if self.collect else None,
            )
        try:
            ruleset = self.ruleset_of_round(record.at)
        except NoVersionInForce as exc:
            finding = format_finding(self.file, line, str(exc), version_rules.NO_VERSION_IN_FORCE, round_id)
            return self._outcome(
                line, round_id, [finding], "unreadable", self._facts_of(source) if self.collect else None
            )
        judge = self.judge_for(ruleset)
        if ruleset is not self._opened_under:
            self._in_force(ruleset, judge, line, round_id)
        telling = self.explain == round_id
        if telling:
            judge.trace = []  # before the engine is made: it then runs every rule, for the trace
        engine = ENGINES[self.table.game](judge, self.table, self.shoe, record, line)
        self.shoe.begin_round()
        collect = self.collect
        if collect:
            engine.rules_give = {}
            engine.decisions = []
            meters = copy.copy(self.table.jackpot)  # the JP1 meters before the round, to tell it again
        if telling:
            self._telling(engine, ruleset, judge, line)
        try:
            engine.replay()
        except MalformedRound as exc:
            return self._not_replayed(exc, source, round_id, ruleset)
        finally:
            if telling:
                judge.trace = None
        self._played(engine, round_id)
        found = judge.findings
        if record.shoe != self.shoe.id:
            # The round is replayed with the shoe in play, the only one whose cards are known; but a log
            # whose rounds name another shoe is not the record of what was dealt from it.
            message = _(
                "round {id} names shoe {shoe}, but the shoe in play at table {table} is {in_play}"
            ).format(id=round_id, shoe=repr(record.shoe), table=self.table.id, in_play=repr(self.shoe.id))
            found = [format_finding(self.file, line, message, sequence_rules.OTHER_SHOE, round_id), *found]
        facts = None
        if collect:
            data = source.data
            assert data is not None
            facts = record_facts(self.casino, self.table.id, data, ruleset.version, engine, engine.rules_give)
            if found and self.teller is not None and not telling:
                before = self.shoe.snapshot_before_round()
                trace = self._retell(record, line, ruleset, judge, before, meters, found)
                facts = dataclasses.replace(facts, trace=trace)
        engine.release()
        if found:
            return self._outcome(line, round_id, found, "findings", facts)
        # A clean round, nearly every round: `_outcome` written out for it (nothing to count but the
        # round), its fields given in order rather than by name (for speed).
        self.summary.rounds_clean += 1
        return RoundOutcome(
            self.file, line, round_id, (), "clean", facts, None, self.table.id, self._round_at
        )

    def _telling(self, engine: RoundReplay[Any, Any, Any], ruleset: Ruleset, judge: Judge, line: int) -> None:
        """The round `explain` tells: its engine keeps the story of each step."""
        engine.story = []
        self.explained = {
            "ruleset": ruleset,
            "story": engine.story,
            "table": self.table,
            "line": line,
            "titles": judge.stake_titles,
        }

    def _in_force(self, ruleset: Ruleset, judge: Judge, line: int, round_id: str) -> None:
        """A version that came into force while the table was open (its first round under it): the rules
        that judge the table anew then (`on in_force`), before the round. (Versions compared as objects:
        the registry gives one per version and readings, and the hot path stays cheap.)"""
        opened = self._opened_under
        if opened is not None and ruleset is not opened and id(ruleset) not in self._came_into_force:
            self._came_into_force.add(id(ruleset))
            judge.check("in_force", judge.context(table=self.table), line=line, round_id=round_id)

    def _not_replayed(
        self, exc: MalformedRound, source: Record, round_id: str, ruleset: Ruleset
    ) -> RoundOutcome:
        """A round that cannot be replayed is read again from its dict (`source.data`), as it was
        written: what the engine made of it before it stopped is not to be trusted."""
        assert self.shoe is not None
        line = source.line
        data = source.data
        assert data is not None
        self._remember_round(data)
        self.shoe.undo_round()
        self._discard_cards(data)
        message = _("round {id}: {error}; the round cannot be replayed").format(id=round_id, error=exc)
        finding = format_finding(self.file, line, message, exc.rule, round_id)
        facts = self._facts(data, ruleset.version) if self.collect else None
        return self._outcome(line, round_id, [finding], "unreadable", facts)

    def _played(self, engine: RoundReplay[Any, Any, Any], round_id: str) -> None:
        """What a round replayed leaves to the next and to the séance: where its cut card came out and
        its farthest seated box at the dealer's right, the house's net, the cut card seen, the gaps in
        its charges (hand-log/1.2: reported, never a finding)."""
        assert self.shoe is not None
        self._last_cut_at, self._last_rightmost = engine.cut_card_at, engine.rightmost_seated_box()
        seance = self.seance
        if seance is not None:  # what the house kept of the round, for the séance's money
            seance.rounds += 1
            seance.net += round_net(engine)
        if engine.cut_card_seen:
            self.shoe.cut_card_out = True
        for stake, kind in engine.charge_gaps:
            self.summary.note_charge_gap(round_id, stake, kind)

    def _retell(
        self,
        record: RoundRecord,
        line: int,
        ruleset: Ruleset,
        judge: Judge,
        before: Any,
        meters: Any,
        found: list[Finding],
    ) -> str:
        """A round with findings replayed a second time, traced, for its account in the audit report:
        the shoe and the JP1 meters are set back to where the round began, then to where it ended."""
        assert self.table is not None and self.shoe is not None and self.teller is not None
        after, meters_after, kept = self.shoe.snapshot(), self.table.jackpot, judge.findings
        unjudged = set(judge.unjudged)
        self.shoe.restore(before)
        self.table.jackpot = meters
        judge.findings, judge.trace = [], []
        try:
            engine = ENGINES[self.table.game](judge, self.table, self.shoe, record, line)
            engine.story = []
            told = {
                "ruleset": ruleset,
                "story": engine.story,
                "table": self.table,
                "line": line,
                "titles": judge.stake_titles,
            }
            # It was replayed once already; a round that stops, stops at the same step again.
            with contextlib.suppress(MalformedRound):
                engine.replay()
        finally:
            judge.findings, judge.trace, judge.unjudged = kept, None, unjudged
            self.shoe.restore(after)
            self.table.jackpot = meters_after
        outcome = RoundOutcome(self.file, line, record.round, tuple(found), "findings")
        return self.teller(self.file, record.round, told, outcome)

    def _remember_round(self, record: dict[str, Any]) -> None:
        """Where the round's cut card came out, and its farthest seated box at the dealer's right, read
        from the record of a round that could not be replayed (a replayed round's engine says it)."""
        self._last_cut_at = next(
            (str(a[1]) for a in record.get("actions", []) if a and a[0] == "cut_card" and len(a) > 1), None
        )
        boxes = [
            int(bet["stake"].split(":")[0].split("/")[0])
            for bet in record.get("bets", [])
            if bet.get("seated", True) and ":" not in bet["stake"] and bet["stake"].split("/")[0].isdecimal()
        ]
        self._last_rightmost = str(max(boxes)) if boxes else None

    def _discard_cards(self, record: dict[str, Any]) -> None:
        """The cards of an unreplayable round still left the shoe: keep the next rounds' counts right. A
        mid-round `reshuffle` (hand-log/1.1) puts back every card but those of the round dealt before it
        (read as still on the table) and the cut card; the cards after it leave the shoe again."""
        assert self.shoe is not None
        dealt: list[str] = []
        for action in record.get("actions", []):
            if action and action[0] == "reshuffle":
                self.shoe.reshuffle(dealt)
                self._last_cut_at = None
                for item in action[1] if len(action) > 1 and isinstance(action[1], list) else ():
                    if isinstance(item, str):
                        self.shoe.take(normalize(item))
                continue
            for item in action[1:]:
                if (
                    isinstance(item, str)
                    and len(item) in (2, 3)
                    and item[-1] in "SHDC"
                    and item[0] in "A23456789TJQK1"
                ):
                    card = normalize(item)
                    self.shoe.take(card)
                    if action[0] in ("deal", "deal_down", "hit", "double"):
                        dealt.append(card)
            if action[0] == "cut_card":
                self.shoe.cut_card_out = True
                if self._last_cut_at is None and len(action) > 1:
                    self._last_cut_at = str(action[1])
