"""The one record every check produces, and the tally a run keeps of them.

A `Finding` is what `docs/findings.md` calls a finding: the same fields whatever the output format.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from validator.casino.money import fmt
from validator.casino.seance import summary_note
from validator.i18n import N_, _, ngettext

if TYPE_CHECKING:
    from validator.casino.ledger import RoundFacts
    from validator.casino.seance import Balance, SeanceMoney

Kind = Literal["procedure", "payout", "format", "house", "money"]
Severity = Literal["error", "warning"]
# How a round counts in the summary; "none": the outcome is not a round (a table record, a house file).
Status = Literal["clean", "findings", "unreadable", "none"]

KINDS: tuple[Kind, ...] = ("procedure", "payout", "format", "house", "money")


@dataclass(frozen=True, slots=True)
class Finding:
    kind: Kind
    rule: str
    ref: str
    severity: Severity
    file: str
    line: int | None
    message: str
    round: str | None = None
    stake: str | None = None
    path: str | None = None
    expected: dict[str, Any] | None = None
    actual: dict[str, Any] | None = None
    # Money the house paid beyond (positive) or short of (negative) what the rules give, for payout findings.
    discrepancy: Decimal | None = None
    # `check --all-readings`: the readings (reading, alternative applied) some other alternative of which
    # would not give this finding (empty: firm), and every (reading, alternative) judged under which it
    # is given. None: the run judged under the readings applied only.
    rests_on: tuple[tuple[str, str], ...] | None = None
    holds_under: tuple[tuple[str, str], ...] = ()

    @property
    def firm(self) -> bool:
        """Given under every alternative judged (a plain run judges none: it says nothing of them)."""
        return not self.rests_on

    # A consequence of an earlier finding of the same round (docs/findings.md, "One finding per cause"):
    # that finding's fingerprint. None for a finding of its own.
    caused_by: str | None = None
    # A round id the log gives more than once (`hand-log/repeated-round`): which time this is (2 for the
    # second record with that id). The fingerprint tells the findings of each apart; 1 everywhere else.
    occurrence: int = 1

    def as_dict(self) -> dict[str, Any]:
        """The public fields, in the order of `docs/findings.md`; `path` only where there is one (lint)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "rule": self.rule,
            "ref": self.ref,
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "round": self.round,
            "stake": self.stake,
        }
        if self.path is not None:
            out["path"] = self.path
        out["message"] = self.message
        out["expected"] = self.expected
        out["actual"] = self.actual
        if self.rests_on is not None:
            out["firm"] = self.firm
            out["rests_on"] = [{"reading": r, "alternative": a} for r, a in self.rests_on]
            out["holds_under"] = [{"reading": r, "alternative": a} for r, a in self.holds_under]
        if self.caused_by is not None:
            out["caused_by"] = self.caused_by
        return out


# How many stakes whose charges differ from them the notes name (hand-log/1.2 `charge`), and their words.
CHARGE_EXAMPLES = 5
CHARGE_WORDS = {
    "never": N_("never charged"),
    "more": N_("charged more than staked (twice, or more)"),
    "less": N_("charged less than staked"),
}


@dataclass
class Summary:
    """What a run read and found; every round read lands in exactly one of clean/with_findings/unreadable."""

    files: int = 0
    records: int = 0
    rounds_clean: int = 0
    rounds_with_findings: int = 0
    rounds_unreadable: int = 0
    by_rule: Counter[str] = field(default_factory=Counter)
    by_kind: Counter[str] = field(default_factory=Counter)
    by_severity: Counter[str] = field(default_factory=Counter)
    overpaid: Decimal = Decimal(0)
    underpaid: Decimal = Decimal(0)
    rulesets: set[str] = field(default_factory=set)
    house: str | None = None
    notes: list[str] = field(default_factory=list)
    # "lint": the run read house files, whose records are table entries; it has no rounds and no money.
    subject: Literal["logs", "house"] = "logs"
    tables_with_findings: int = 0
    # Rules that could not be judged somewhere ("<rule id>: why"), shown after the notes, sorted: the
    # same list however the logs were shared out between processes.
    unjudged: set[str] = field(default_factory=set)
    # What `policy.py` left out of the report (never counted above), and how.
    ignored: int = 0
    baselined: int = 0
    suppressed: Counter[str] = field(default_factory=Counter)
    # The readings applied: (version, reading, alternative, whether it is the reading's default).
    readings: set[tuple[str, str, str, bool]] = field(default_factory=set)
    # `check --all-readings`: each run made, the readings it changed from those applied ((reading,
    # alternative) pairs; none for the run under the readings applied) and the findings it gave.
    readings_judged: list[tuple[tuple[tuple[str, str], ...], int]] = field(default_factory=list)
    # The ruleset files the processes that judged the rounds read (a Dask worker's, sent back with its
    # share's tally): (file as the run names it, version, SHA-256 of the bytes read). The audit dataset's
    # `ruleset_files` lists them with the client's own.
    judged_by: set[tuple[str, str, str]] = field(default_factory=set)
    # The séances whose table's money was looked at (hand-log/1.2 `money` records, or a hand-log/1.2 log):
    # reconciled, with a difference, or why not reconciled (validator.casino.seance.summary_key).
    seances: Counter[str] = field(default_factory=Counter)
    # hand-log/1.2 `charge`: the stakes whose charges differ from the stake, by kind (never, more, less),
    # and the first few of them ("round R1, stake 3: …"). No text encoded here judges a player's account:
    # reported in the notes, never a finding.
    charges: Counter[str] = field(default_factory=Counter)
    charge_examples: list[str] = field(default_factory=list)
    # (reading, alternative) → its `dsl.readings.AlternativeInfo`, for every alternative of the readings
    # of the versions met: what a run in French says beside the alternative's name (its gloss). Not in
    # the machine formats, which keep the names.
    alternatives: dict[tuple[str, str], Any] = field(default_factory=dict)

    def record_readings(self, ruleset: Any) -> None:
        """Note the alternative of each reading the version applies (`dsl.model.Ruleset`)."""
        for name, alternative in ruleset.reading_choices().items():
            default = ruleset.readings[name].default == alternative
            self.readings.add((ruleset.version, name, alternative, default))
        for name, reading in ruleset.readings.items():
            for info in reading.alternatives:
                self.alternatives.setdefault((name, info.name), info)

    def readings_by_version(self) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        for version, name, alternative, default in sorted(self.readings):
            out.setdefault(version, []).append(
                {"reading": name, "alternative": alternative, "default": default}
            )
        return out

    @property
    def rounds_read(self) -> int:
        return self.rounds_clean + self.rounds_with_findings + self.rounds_unreadable

    @property
    def rounds_checked(self) -> int:
        return self.rounds_clean + self.rounds_with_findings

    @property
    def findings(self) -> int:
        return sum(self.by_kind.values())

    def count(self, finding: Finding) -> None:
        self.by_rule[finding.rule] += 1
        self.by_kind[finding.kind] += 1
        self.by_severity[finding.severity] += 1
        if finding.discrepancy is not None:
            if finding.discrepancy > 0:
                self.overpaid += finding.discrepancy
            else:
                self.underpaid -= finding.discrepancy

    def uncount(self, finding: Finding) -> None:
        """Take back a finding `count` took, when the policy leaves it out of the report."""
        self.by_rule[finding.rule] -= 1
        self.by_kind[finding.kind] -= 1
        self.by_severity[finding.severity] -= 1
        self._drop_zeros()
        if finding.discrepancy is not None:
            if finding.discrepancy > 0:
                self.overpaid -= finding.discrepancy
            else:
                self.underpaid += finding.discrepancy

    def _drop_zeros(self) -> None:
        # A finding taken back before the share that counted it is merged (--jobs) leaves a zero behind.
        for counter in (self.by_rule, self.by_kind, self.by_severity):
            for key in [k for k, v in counter.items() if v == 0]:
                del counter[key]

    @property
    def left_out(self) -> int:
        return self.ignored + self.baselined + sum(self.suppressed.values())

    def merge(self, other: Summary) -> None:
        self.files += other.files
        self.records += other.records
        self.rounds_clean += other.rounds_clean
        self.rounds_with_findings += other.rounds_with_findings
        self.rounds_unreadable += other.rounds_unreadable
        self.by_rule.update(other.by_rule)
        self.by_kind.update(other.by_kind)
        self.by_severity.update(other.by_severity)
        self._drop_zeros()
        self.overpaid += other.overpaid
        self.underpaid += other.underpaid
        self.rulesets |= other.rulesets
        for note in other.notes:
            if note not in self.notes:
                self.notes.append(note)
        self.unjudged |= other.unjudged
        self.ignored += other.ignored
        self.baselined += other.baselined
        self.suppressed.update(other.suppressed)
        self.readings |= other.readings
        self.readings_judged.extend(other.readings_judged)
        self.judged_by |= other.judged_by
        self.seances.update(other.seances)
        self.charges.update(other.charges)
        for example in other.charge_examples:
            if len(self.charge_examples) < CHARGE_EXAMPLES and example not in self.charge_examples:
                self.charge_examples.append(example)
        for key, info in other.alternatives.items():
            self.alternatives.setdefault(key, info)

    @property
    def all_notes(self) -> list[str]:
        money = summary_note(self.seances)
        charges = self.charges_note()
        return [
            *self.notes,
            *sorted(self.unjudged - set(self.notes)),
            *([money] if money else []),
            *([charges] if charges else []),
        ]

    def note_charge_gap(self, round_id: str, stake: str, kind: str) -> None:
        """A stake whose hand-log/1.2 charges differ from it (`kind`: never, more, less)."""
        self.charges[kind] += 1
        if len(self.charge_examples) < CHARGE_EXAMPLES:
            self.charge_examples.append(
                _("round {round}, stake {stake}: {what}").format(
                    round=round_id, stake=stake, what=_(CHARGE_WORDS[kind])
                )
            )

    def charges_note(self) -> str | None:
        if not self.charges:
            return None
        counts = ", ".join(
            ngettext("{n} stake {what}", "{n} stakes {what}", n).format(n=n, what=_(CHARGE_WORDS[kind]))
            for kind, n in sorted(self.charges.items())
        )
        return _(
            "charges (hand-log/1.2) that differ from the stakes, which no text encoded here judges, so no "
            "finding: {counts} (first: {examples})"
        ).format(counts=counts, examples="; ".join(self.charge_examples))

    def as_dict(self) -> dict[str, Any]:
        out = self._as_dict()
        if self.subject == "house":
            for key in ("records", "rounds", "money"):
                del out[key]
            out["tables"] = {
                "checked": self.records,
                "clean": self.records - self.tables_with_findings,
                "with_findings": self.tables_with_findings,
            }
        if self.readings:
            out["readings"] = self.readings_by_version()
        if self.readings_judged:
            out["readings_judged"] = [
                {"changed": [{"reading": r, "alternative": a} for r, a in changed], "findings": found}
                for changed, found in self.readings_judged
            ]
        if not self.left_out:
            del out["left_out"]  # only where a selection, a baseline or a suppression left something out
        return out

    def _money(self) -> dict[str, Any]:
        money: dict[str, Any] = {
            "overpaid_by_house": fmt(self.overpaid),
            "underpaid_to_players": fmt(self.underpaid),
        }
        if self.seances:
            counts = self.seances
            money["seances"] = {
                "reconciled": counts.get("reconciled", 0),
                "with_difference": counts.get("difference", 0),
                "not_reconciled": sum(n for k, n in counts.items() if k not in ("reconciled", "difference")),
            }
        return money

    def _as_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "records": self.records,
            "rounds": {
                "read": self.rounds_read,
                "checked": self.rounds_checked,
                "clean": self.rounds_clean,
                "with_findings": self.rounds_with_findings,
                "unreadable": self.rounds_unreadable,
            },
            "findings": {
                "total": self.findings,
                "by_kind": {k: self.by_kind[k] for k in KINDS if self.by_kind[k]},
                "by_rule": dict(sorted(self.by_rule.items())),
                "by_severity": dict(sorted(self.by_severity.items())),
            },
            "money": self._money(),
            "rulesets": sorted(self.rulesets),
            "house": self.house,
            "notes": self.all_notes,
            "left_out": {
                "ignored": self.ignored,
                "baselined": self.baselined,
                "suppressed": sum(self.suppressed.values()),
                "suppressions": dict(sorted(self.suppressed.items())),
            },
        }


# Not frozen, for speed: one is made for every round `check` reads, and a frozen dataclass's __init__
# sets each of its ten fields through `object.__setattr__` (about 1 µs a round, measured). Treat it as
# immutable all the same: nothing changes one once made (`dataclasses.replace` makes another, as the
# policy does).
@dataclass(slots=True)
class RoundOutcome:
    """One unit a reporter receives: a round with its findings, or (round=None) findings outside any
    round (a table or shoe record, an unreadable line). `status` says how the round counts in the summary.
    Immutable by convention (see above): never assign to its fields."""

    file: str
    line: int | None
    round: str | None
    findings: tuple[Finding, ...]
    status: Status = "none"
    # The round's facts and money, only when the run asks for them (the audit dataset); None otherwise.
    facts: RoundFacts | None = None
    # lint: the table entry of the house file this outcome is about (JUnit's test case), even when clean.
    entry: str | None = None
    # check: the table the round was played at and the round's time as logged, for reports to name.
    table: str | None = None
    at: str | None = None
    # Findings a house file's inline comment suppressed, with its reason: only SARIF reports them (as
    # results with `suppressions`); the other formats count them in the summary's notes.
    suppressed: tuple[tuple[Finding, str], ...] = ()
    # check: the end of a séance (round None, status "none"): its table's money reconciled (a `Balance`,
    # for the dataset's registre de contrôle), or, from a share of `check --jobs` that replays part of
    # it, its part (a `SeanceMoney`, which the client adds up: validator.checking.cluster).
    seance: Balance | SeanceMoney | None = None
    # check: the hand-log/1 stake names of the version that judged the round → the titles of their side
    # bets (`lucky_ladies` → « Dames de cœur »), for reports to name a finding's stake in the text's
    # words; only on outcomes with findings (one mapping per version, shared).
    titles: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """What a report needs to describe a rule (SARIF's rule list): its reference, and its docs as the
    ruleset (or `catalogue/builtin_docs.py`) writes them: `summary` what it checks, `doc` why (the words of
    the text), then what fails and what passes; `url` the official address of the text the reference cites
    (its ruleset's `address`; "" where there is none)."""

    id: str
    ref: str
    severity: Severity
    summary: str
    doc: str = ""
    fails: str = ""
    passes: str = ""
    url: str = ""
