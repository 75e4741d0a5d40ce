"""`check --all-readings`: each round judged under the alternatives of the readings of the version that
judges it, and each finding told which readings it rests on.

The run is made once under the readings applied (the defaults, or those chosen), then once more for each
other alternative of each reading of the versions that judged a round, that reading alone changed (the
others kept as applied): the readings a round's version does not have change nothing in it, so only the
readings of the versions met are judged, and their number bounds the runs. A finding of the first run
that one of those runs does not give rests on that reading (as applied); one they all give is firm. A
finding only another alternative gives is reported too, resting on that alternative: the run then says,
round by round, what every reading of the text would find.

The runs compare findings by rule, file, line, round and stake (the message may name other amounts
under another reading).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from validator.checking.serial import check_logs
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.i18n import _
from validator.replay.session import HouseLookup
from validator.rulebook.registry import Registry

Key = tuple[str, str, int | None, str | None, str | None]
Choice = tuple[str, str]


def key(finding: Finding) -> Key:
    return (finding.rule, finding.file, finding.line, finding.round, finding.stake)


def alternatives_to_judge(registry: Registry, versions: Iterable[str]) -> list[Choice]:
    """(reading, alternative) for every alternative other than the one applied, of every reading of the
    versions named, each once."""
    wanted = set(versions)
    found: list[Choice] = []
    for ruleset in registry.all():
        if ruleset.version not in wanted:
            continue
        applied = ruleset.reading_choices()
        for name, reading in ruleset.readings.items():
            for alternative in reading.names:
                if alternative != applied[name] and (name, alternative) not in found:
                    found.append((name, alternative))
    return found


def judged_under_readings(
    registry: Registry,
    logs: list[str],
    *,
    ruleset: str | None,
    house: HouseLookup | None,
    summary: Summary,
    collect: bool = False,
) -> Iterator[RoundOutcome]:
    """The outcomes of the run under the readings applied, each finding with `rests_on` and
    `holds_under`, and the findings only another alternative gives added to their rounds."""
    base = list(check_logs(registry, logs, ruleset=ruleset, house=house, summary=summary, collect=collect))
    applied = _applied(registry, summary.rulesets)
    under: dict[Choice, dict[Key, Finding]] = {}
    for name, alternative in alternatives_to_judge(registry, summary.rulesets):
        other = registry.with_readings({**registry.chosen, name: alternative})
        found: dict[Key, Finding] = {}
        for outcome in check_logs(other, logs, ruleset=ruleset, house=house, summary=Summary()):
            for finding in outcome.findings:
                found.setdefault(key(finding), finding)
        under[(name, alternative)] = found
    given = {key(f) for outcome in base for f in outcome.findings}
    extra: dict[tuple[str, str | None], list[Finding]] = {}
    for choice, found in under.items():
        for k, finding in found.items():
            if k in given:
                continue
            holds = tuple(c for c, other in under.items() if k in other)
            marked = dataclasses.replace(finding, rests_on=(choice,), holds_under=holds)
            place = (finding.file, finding.round)
            if not any(key(f) == k for f in extra.get(place, [])):
                extra.setdefault(place, []).append(_said(marked))
    for outcome in base:
        findings = []
        for finding in outcome.findings:
            k = key(finding)
            rests = tuple(
                sorted({(name, applied[name]) for (name, _), found in under.items() if k not in found})
            )
            holds = tuple(
                sorted({*(c for c, found in under.items() if k in found), *_concerned(applied, under)})
            )
            findings.append(_said(dataclasses.replace(finding, rests_on=rests, holds_under=holds)))
        added = extra.pop((outcome.file, outcome.round), []) if outcome.round is not None else []
        for finding in added:
            summary.count(finding)
        if added and outcome.status == "clean":
            summary.rounds_clean -= 1
            summary.rounds_with_findings += 1
        status = "findings" if added and outcome.status == "clean" else outcome.status
        yield dataclasses.replace(outcome, findings=(*findings, *added), status=status)
    # Findings of records outside the rounds of the first run (none is expected: the same records are
    # read each time), reported where they were found.
    for (file, _line), findings in extra.items():
        for finding in findings:
            summary.count(finding)
        yield RoundOutcome(file, findings[0].line, findings[0].round, tuple(findings))


def _applied(registry: Registry, versions: Iterable[str]) -> dict[str, str]:
    applied: dict[str, str] = {}
    wanted = set(versions)
    for ruleset in registry.all():
        if ruleset.version in wanted:
            applied.update(ruleset.reading_choices())
    return applied


def _concerned(applied: dict[str, str], under: dict[Choice, dict[Key, Finding]]) -> set[Choice]:
    """The alternatives applied of the readings judged (a finding of the run holds under them)."""
    return {(name, applied[name]) for name, _ in under}


def _said(finding: Finding) -> Finding:
    """The finding's message with what it rests on, so that every format shows it."""
    if not finding.rests_on:
        return finding
    said = ", ".join(f"`{r}` = `{a}`" for r, a in finding.rests_on)
    return dataclasses.replace(
        finding,
        message=_("{message} (under reading {readings})").format(message=finding.message, readings=said),
    )
