"""`casino-validator explain LOG --round ID`: one round replayed step by step — cards, totals, the
rules run at each step and whether they held, the money the rules give and the money the log shows,
and each finding with the rule that fired (as `opa eval --explain` tells why a decision was made)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from validator.catalogue.view import check_lines, dates_words, source_line
from validator.dsl.model import Rule, Ruleset
from validator.errors import ValidatorError
from validator.findings.finding import RoundOutcome, Summary
from validator.findings.words import kind_word, stake_words
from validator.formats.base import has_values, values_line
from validator.i18n import _
from validator.logs.reader import read_records
from validator.replay.session import HouseLookup, LogReplay
from validator.rulebook.registry import Registry


@dataclass(frozen=True, slots=True)
class Explanation:
    lines: tuple[str, ...]
    findings: int  # the round's findings: `explain` exits 1 when there are any

    @property
    def exit_status(self) -> int:
        return 1 if self.findings else 0


def explain(
    registry: Registry,
    path: str,
    round_id: str,
    *,
    ruleset: str | None = None,
    house: HouseLookup | None = None,
) -> Explanation:
    found: list[RoundOutcome] = []
    lines = tuple(_lines(registry, path, round_id, ruleset, house, found))
    return Explanation(lines, len(found[0].findings))


def _lines(
    registry: Registry,
    path: str,
    round_id: str,
    ruleset: str | None,
    house: HouseLookup | None,
    found: list[RoundOutcome],
) -> Iterator[str]:
    replay = LogReplay(registry, path, Summary(), pinned=ruleset, house=house)
    replay.explain = round_id
    outcome: RoundOutcome | None = None
    for current in replay.replay(read_records(path)):
        if current.round == round_id:
            outcome = current
            break
    if outcome is None:
        raise ValidatorError(
            _("{path}: no round {round_id!r} in this log").format(path=path, round_id=round_id)
        )
    found.append(outcome)
    yield from tell(path, round_id, replay.explained, outcome)


def trace_text(path: str, round_id: str, told: dict[str, Any], outcome: RoundOutcome) -> str:
    """`tell` as one text: the replay's `Teller` for the audit dataset."""
    return "\n".join(tell(path, round_id, told, outcome))


def tell(path: str, round_id: str, told: dict[str, Any] | None, outcome: RoundOutcome) -> Iterator[str]:
    """The account of one replayed round: `told` is what the replay recorded while tracing it (None when
    the round could not be replayed), `outcome` its findings. The audit report shows the same lines."""
    if told is None:  # the round could not be replayed: say why
        yield _("Round {round} ({where}) could not be replayed:").format(
            round=round_id, where=f"{path}:{outcome.line}"
        )
        for finding in outcome.findings:
            yield f"  {finding.rule}: {finding.message}"
        return
    ruleset_used = told["ruleset"]
    yield _("Round {round} ({where})").format(round=round_id, where=f"{path}:{told['line']}")
    yield "  " + _("table {table}, judged by {version} ({dates})").format(
        table=told["table"].id, version=ruleset_used.version, dates=dates_words(ruleset_used)
    )
    yield ""
    for number, (what, ran, state) in enumerate(told["story"], start=1):
        yield f"{number:>3}. {what}"
        if ran:
            held_word, broken_word = _("held"), _("BROKEN")
            checks = ", ".join(
                f"{rule.rsplit('/', 1)[-1]} {held_word if held else broken_word}"
                for _unused, rule, held in ran
            )
            yield "     " + _("rules: {checks}").format(checks=checks)
        if state:
            yield f"     {state}"
    yield ""
    if outcome.status == "unreadable":
        # The replay stopped part way (a hand never opened, an amount that is no number): what it saw
        # up to there is above; why it stopped is the round's only finding.
        steps = len(told["story"])
        if steps:
            yield _("The round could not be replayed after step {step}:").format(step=steps)
        else:
            yield _("The round could not be replayed:")
        for finding in outcome.findings:
            yield f"  {finding.rule}: {finding.message}"
        return
    if not outcome.findings:
        yield _("No finding: every rule run on this round held.")
        return
    yield _("Findings")
    titles = told.get("titles") or {bet.stake_name: bet.title for bet in ruleset_used.side_bets.values()}
    for finding in outcome.findings:
        yield "  " + _("{rule} [{kind}] on {stake}: {message}").format(
            rule=finding.rule,
            kind=kind_word(finding.kind),
            stake=stake_words(finding.stake, titles) if finding.stake else _("the round"),
            message=finding.message,
        )
        yield "    " + _("ref: {ref}").format(ref=finding.ref)
        if has_values(finding):
            yield f"    {values_line(finding)}"
        rule = _find_rule(ruleset_used, finding.rule)
        if rule is not None:
            cited = source_line(rule)
            if cited is not None:
                yield "    " + _("rule: {line}").format(line=cited)
            for line in check_lines(rule, applied=True):
                yield "    " + _("rule: {line}").format(line=line)


def _find_rule(ruleset: Ruleset, rule_id: str) -> Rule | None:
    try:
        return ruleset.rule(rule_id)
    except KeyError:
        return None
