"""What every report format shares: the `Reporter` protocol and the few texts several formats repeat.

A run calls `round()` once per round, in log order (and for findings outside any round, with
`outcome.round` None), then `finish()` once. On a cluster (`check --jobs`), the rounds without findings
stay on the workers: in their place the reporter gets `quiet()`, with what the format's `QuietRounds`
kept of them there, and `merge()` with each share's total. Streaming formats write as rounds come so
memory stays flat however long the logs; the others may collect until `finish()`.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, ClassVar, TextIO

from validator import __version__
from validator.casino.money import fmt
from validator.dsl.wording import label
from validator.dsl.wording import value as worded
from validator.findings.finding import KINDS, Finding, RoundOutcome, RuleInfo, Summary
from validator.findings.words import kind_word, stake_words
from validator.i18n import N_, _, ngettext
from validator.numbers import amount, whole

TOOL_NAME = "casino-validator"


def project_url() -> str | None:
    """Where the project is documented: the installed package's Homepage (pyproject.toml's
    `[project.urls]`), None while it declares none: SARIF's `informationUri` names only a real address."""
    # start-up: importlib.metadata costs about 100 ms to import, and only SARIF asks
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        urls: list[str] = metadata(TOOL_NAME).get_all("Project-URL") or []
    except PackageNotFoundError:
        return None
    for entry in urls:
        name, _comma, url = entry.partition(",")
        if name.strip().lower() == "homepage" and url.strip():
            return url.strip()
    return None


NO_HOUSE = N_("none: regulation defaults")


class QuietRounds:
    """What a format keeps of the rounds without findings that another process replays (`check --jobs`):
    that process gives each such round to `add`, then sends back what `take` returns, in the rounds'
    place among the outcomes with findings (for `Reporter.quiet`), and at the end of its share what
    `total` returns (for `Reporter.merge`). Formats that write nothing of such rounds have none."""

    def reads(self, name: str, location: str) -> None:
        """The rounds to come are of the log the report names `name`, which this process reads at
        `location` (a worker's folder is not the client's)."""

    def add(self, outcome: RoundOutcome) -> None:
        """One round without findings, in log order."""

    def take(self) -> Any:
        """What the rounds added since the last call give the report, in their place."""
        return None

    def total(self) -> Any:
        """What all the rounds added give the report, in no particular place."""
        return None


class Reporter(ABC):
    """One output format. Subclasses set `name` and implement `round` and `finish`."""

    name: ClassVar[str]

    @classmethod
    def quiet_rounds(cls) -> QuietRounds | None:
        """What this format keeps of rounds without findings replayed elsewhere; None: their count only."""
        return None

    def quiet(self, rounds: int, part: Any) -> None:
        """`rounds` rounds without findings, replayed by another process, in their place: `part` is what
        its `QuietRounds.take` gave (None for formats that keep nothing of them)."""
        return None

    def merge(self, total: Any) -> None:
        """What `QuietRounds.total` gave for a share's rounds without findings, replayed elsewhere."""
        return None

    def __init__(self, out: TextIO, *, color: bool = False, tool_version: str = __version__) -> None:
        self.out = out
        self.color = color
        self.tool_version = tool_version

    @abstractmethod
    def round(self, outcome: RoundOutcome) -> None:
        """One round's outcome, or findings outside any round (`outcome.round` is None)."""

    @abstractmethod
    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        """The end of the run: write whatever is left (a summary, or the whole document)."""


class Repeats:
    """The deviations that repeat through a run: each rule found in two rounds or more, with the number
    of rounds it was found in, told once in the summary ("in 2,999 of 3,000 rounds: …") so that a
    systematic deviation reads as one fact. Counted as rounds come; a few counters, whatever the run's
    length."""

    def __init__(self) -> None:
        self.rounds: Counter[str] = Counter()
        self.first: dict[str, Finding] = {}

    def add(self, outcome: RoundOutcome) -> None:
        if outcome.round is None or not outcome.findings:  # a clean round (most of them): nothing to add
            return
        seen: set[str] = set()
        for finding in outcome.findings:
            if finding.rule not in seen:
                seen.add(finding.rule)
                self.rounds[finding.rule] += 1
                self.first.setdefault(finding.rule, finding)

    def items(self, rounds_checked: int) -> list[dict[str, Any]]:
        """Most rounds first, ties by rule id: `{"rule", "rounds", "of_rounds", "message"}`, the message
        being the rule's first finding's."""
        repeated = [(rule, count) for rule, count in self.rounds.items() if count >= 2]
        repeated.sort(key=lambda item: (-item[1], item[0]))
        return [
            {"rule": rule, "rounds": count, "of_rounds": rounds_checked, "message": self.first[rule].message}
            for rule, count in repeated
        ]


def repeat_sentence(item: Mapping[str, Any]) -> str:
    """`in 2,999 of 3,000 rounds: RULE: message`."""
    return _("in {rounds} of {of_rounds} rounds: {rule}: {message}").format(
        rounds=whole(item["rounds"]),
        of_rounds=whole(item["of_rounds"]),
        rule=item["rule"],
        message=item["message"],
    )


# --- texts several formats share ----------------------------------------------------------------------


def json_default(value: Any) -> Any:
    """Findings should carry JSON values only; an amount left as a Decimal is written as its exact text
    rather than crashing the report at the end of a long run."""
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")  # i18n: not shown (json's)


def one_line_json(value: Any) -> str:
    """JSON on one line, spaced as docs/findings.md writes it: `{"pay": "30"}`."""
    return json.dumps(value, ensure_ascii=False, default=json_default)


def with_ref(finding: Finding) -> str:
    """The message followed by its legal reference, which an auditor needs to check the claim."""
    return f"{finding.message} ({finding.ref})" if finding.ref else finding.message


def location(finding: Finding) -> str:
    return finding.file if finding.line is None else f"{finding.file}:{finding.line}"


def headline(finding: Finding) -> str:
    """`file:line: RULE [kind] message (ref)`, the line of docs/findings.md."""
    return f"{location(finding)}: {finding.rule} [{kind_word(finding.kind)}] {with_ref(finding)}"


def has_values(finding: Finding) -> bool:
    return finding.expected is not None or finding.actual is not None


def values_line(finding: Finding) -> str:
    """`expected {...}, actual {...}`: what the rules give against what the log shows."""
    return _("expected {expected}, actual {actual}").format(
        expected=one_line_json(finding.expected), actual=one_line_json(finding.actual)
    )


# A settlement in words (a payout finding's expected and actual: `{"pay": "30"}`, with the paytable's
# `line` for a side bet), and how a vendor reads the pair.
_SETTLED = {
    "pay": N_("a payment of {amount}"),
    "lose": N_("the stake collected ({amount})"),
    "push": N_("the stake returned ({amount})"),
}


def _shown(value: Any) -> str:
    """A value of a finding's expected or actual in words: a comparison as `5000 or less`, cards with their
    suits, yes/no, a list as its items."""
    value = worded(value)
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict):
        return one_line_json(value)
    return str(value)


def _settlement(values: Mapping[str, Any]) -> str:
    said = [_(_SETTLED[verb]).format(amount=values[verb]) for verb in _SETTLED if verb in values]
    if "line" in values:
        said.append(_("line {line}").format(line=values["line"]))
    return ", ".join(said) or _("nothing")


def values_prose(finding: Finding) -> str:
    """What the rules give against what the log shows, as a sentence a vendor reads (the machine formats
    keep the values themselves): `the rules give a payment of 30; the log shows a payment of 20`, or, for
    a procedure, `the dealer's total: expected 16 or less, found 17`."""
    expected, actual = finding.expected or {}, finding.actual or {}
    settlement = set(_SETTLED) | {"line"}
    if (set(expected) | set(actual)) <= settlement and (set(expected) | set(actual)) & set(_SETTLED):
        return _("the rules give {expected}; the log shows {actual}").format(
            expected=_settlement(expected), actual=_settlement(actual)
        )
    parts = []
    for key in dict.fromkeys([*expected, *actual]):
        what = label(key) if "." in key and " " not in key else key
        if key in expected and key in actual:
            parts.append(
                _("{what}: expected {expected}, found {actual}").format(
                    what=what, expected=_shown(expected[key]), actual=_shown(actual[key])
                )
            )
        elif key in expected:
            parts.append(_("{what}: expected {expected}").format(what=what, expected=_shown(expected[key])))
        else:
            parts.append(_("{what}: found {actual}").format(what=what, actual=_shown(actual[key])))
    return "; ".join(parts)


# The words of a count, in the language in use: `counted(3, "error")` → "3 errors" / "3 erreurs".
_COUNTED = {
    "error": lambda n: ngettext("{n} error", "{n} errors", n),
    "warning": lambda n: ngettext("{n} warning", "{n} warnings", n),
    "finding": lambda n: ngettext("{n} finding", "{n} findings", n),
    "round": lambda n: ngettext("{n} round", "{n} rounds", n),
    "file": lambda n: ngettext("{n} file", "{n} files", n),
    "record": lambda n: ngettext("{n} record", "{n} records", n),
    "table": lambda n: ngettext("{n} table", "{n} tables", n),
}


def plural(count: int, word: str, words: str | None = None) -> str:
    counted = _COUNTED.get(word)
    if counted is not None and words is None:
        return counted(count).format(n=whole(count, sep=""))
    return f"{whole(count, sep='')} {word if count == 1 else (words or word + 's')}"


def kinds_text(summary: Summary) -> str:
    """`2 procedure, 1 payout`, in the order docs/findings.md lists the kinds; kinds not seen are left out."""
    return ", ".join(
        f"{whole(summary.by_kind[k], sep='')} {kind_word(k)}" for k in KINDS if summary.by_kind[k]
    )


def rules_by_count(summary: Summary) -> list[tuple[str, int]]:
    """Most frequent rule first, so the auditor starts with the systematic mistakes; ties by id."""
    return sorted(summary.by_rule.items(), key=lambda item: (-item[1], item[0]))


def summary_sentence(summary: Summary) -> str:
    """The whole run in one sentence, for formats that have room for no more (a CI notice)."""
    if summary.subject == "house":
        return f"{TOOL_NAME}: {lint_sentence(summary)}."
    rounds = _(
        "{rounds} read in {files}: {checked} checked ({clean} clean, {with_findings} with findings), "
        "{unreadable} unreadable"
    ).format(
        rounds=plural(summary.rounds_read, "round"),
        files=plural(summary.files, "file"),
        checked=whole(summary.rounds_checked, sep=""),
        clean=whole(summary.rounds_clean, sep=""),
        with_findings=whole(summary.rounds_with_findings, sep=""),
        unreadable=whole(summary.rounds_unreadable, sep=""),
    )
    if summary.findings:
        errors = summary.by_severity["error"]
        warnings = summary.by_severity["warning"]
        found = (
            f"{plural(summary.findings, 'finding')} "
            f"({plural(errors, 'error')}, {plural(warnings, 'warning')}: {kinds_text(summary)})"
        )
    else:
        found = _("no findings")
    money = _("overpaid by the house {overpaid}, underpaid to players {underpaid}").format(
        overpaid=amount(summary.overpaid, sep=""), underpaid=amount(summary.underpaid, sep="")
    )
    return f"{TOOL_NAME}: {rounds}; {found}; {money}."


def findings_text(summary: Summary) -> str:
    if not summary.findings:
        return _("no findings")
    errors = summary.by_severity["error"]
    warnings = summary.by_severity["warning"]
    return f"{plural(summary.findings, 'finding')} ({plural(errors, 'error')}, {plural(warnings, 'warning')})"


def lint_sentence(summary: Summary) -> str:
    """`2 files, 5 tables (1 with findings): 3 findings (2 errors, 1 warning)`: what lint read and found."""
    return _("{files}, {tables} ({with_findings} with findings): {findings}").format(
        files=plural(summary.files, "file"),
        tables=plural(summary.records, "table"),
        with_findings=whole(summary.tables_with_findings, sep=""),
        findings=findings_text(summary),
    )


def round_context(
    finding: Finding,
    table: str | None = None,
    at: str | None = None,
    titles: Mapping[str, str] | None = None,
) -> str:
    """`table BJ-03, round BJ-03/1/17 at 2025-03-14 21:05:09+01:00, box 3`: where at the table a round
    finding happened, for an auditor to find it in the table's own records."""
    parts = []
    if table:
        parts.append(_("table {table}").format(table=table))
    if finding.round is not None:
        if at:
            parts.append(
                _("round {round} at {time}").format(round=finding.round, time=at.replace("T", " ", 1))
            )
        else:
            parts.append(_("round {round}").format(round=finding.round))
    if finding.stake:
        parts.append(stake_words(finding.stake, titles))
    return ", ".join(parts)


def evidence(
    finding: Finding,
    table: str | None = None,
    at: str | None = None,
    titles: Mapping[str, str] | None = None,
) -> str:
    """The message, its reference, then where and what, in words: `… (art. 55-6). Table BJ-03, round
    BJ-03/1/17 at 2025-03-14 21:05:09+01:00, box 3: the rules give a payment of 30; the log shows a payment
    of 20.` For dashboards that show the message only (GitHub code scanning, annotations, GitLab's
    widget)."""
    text = with_ref(finding)
    where = round_context(finding, table, at, titles)
    if where:
        where = where[0].upper() + where[1:]
    said = values_prose(finding) if has_values(finding) else ""
    if where and said:
        return f"{text}. {where}: {said}."
    if where or said:
        return f"{text}. {(where or said[0].upper() + said[1:])}."
    return text
