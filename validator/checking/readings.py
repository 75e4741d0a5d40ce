"""`check --all-readings`: each round judged under the alternatives of the readings of the version that
judges it, and each finding told which readings it rests on.

The run is made once under the readings applied (the defaults, or those chosen), then once more for each
other alternative of each reading of the versions that judged a round, that reading alone changed (the
others kept as applied): the readings a round's version does not have change nothing in it, so only the
readings of the versions met are judged, and their number bounds the runs. Where two or more readings
each change the findings of one round, the round may also turn on how they combine (« même couleur »
and the ace of the 2 + 1 cartes both decide a K♥ A♦ 2♥): the logs are judged once more under every
combination of their alternatives, up to `MAX_COMBINATIONS` runs (the summary says when some were left
out). A finding of the first run that one of those runs does not give rests on the readings that run
changed (as applied); one they all give is firm. A finding only another alternative (or combination)
gives is reported too, resting on it: the run then says, round by round, what every reading of the text
would find. The summary lists every run made, the readings it changed and the findings it gave.

The runs compare findings by rule, file, line, round and stake (the message may name other amounts
under another reading).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Iterator

from validator.checking.serial import check_logs
from validator.errors import ValidatorError
from validator.findings.finding import Finding, RoundOutcome, Summary
from validator.i18n import _, current
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


# The most runs made for combinations of readings (each judges every log once more).
MAX_COMBINATIONS = 32
# The most alternatives judged one at a time (each judges every log once more): past it, the run stops
# (exit 2) rather than judge the logs hundreds of times. The shipped versions of one family have 17 at
# most; a version may have 32 of its own (`dsl.limits.MAX_ALTERNATIVES`).
MAX_ALTERNATIVES = 64


def _too_many(registry: Registry, versions: Iterable[str], choice: Choice, count: int) -> str:
    """The message for a run whose versions' readings have too many alternatives, at the reading of the
    first alternative past the bound."""
    place = ""
    for ruleset in registry.all():
        reading = ruleset.readings.get(choice[0])
        if ruleset.version in set(versions) and reading is not None:
            place = f"{reading.file}:{reading.line}:1: "
            break
    return place + _(
        "--all-readings: the readings of the versions that judged the logs have {count} alternatives "
        "besides those applied, more than the {most} a run judges one by one: choose the readings to "
        "judge with --reading ID=ALTERNATIVE, or check the versions one at a time"
    ).format(count=count, most=MAX_ALTERNATIVES)


def judged_under_readings(
    registry: Registry,
    logs: Iterable[str],
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
    given = {key(f) for outcome in base for f in outcome.findings}
    said = {key(f): _what(f) for outcome in base for f in outcome.findings}
    summary.readings_judged.append(((), len(given)))

    def judge(changed: tuple[Choice, ...]) -> dict[Key, Finding]:
        other = registry.with_readings({**registry.chosen, **dict(changed)})
        found: dict[Key, Finding] = {}
        for outcome in check_logs(other, logs, ruleset=ruleset, house=house, summary=Summary()):
            for finding in outcome.findings:
                found.setdefault(key(finding), finding)
        summary.readings_judged.append((changed, len(found)))
        return found

    under, combined = _judged_alternatives(registry, applied, said, summary, judge)
    runs: dict[tuple[Choice, ...], dict[Key, Finding]] = {
        **{(choice,): found for choice, found in under.items()},
        **combined,
    }
    extra = _only_under_others(runs, under, given, summary)
    for outcome in base:
        yield _with_readings(outcome, under, combined, applied, extra, summary)
    # Findings of records outside the rounds of the first run (none is expected: the same records are
    # read each time), reported where they were found.
    for (file, _round), findings in extra.items():
        for finding in findings:
            summary.count(finding)
        yield RoundOutcome(file, findings[0].line, findings[0].round, tuple(findings))


def _judged_alternatives(
    registry: Registry,
    applied: dict[str, str],
    said: dict[Key, str],
    summary: Summary,
    judge: Callable[[tuple[Choice, ...]], dict[Key, Finding]],
) -> tuple[dict[Choice, dict[Key, Finding]], dict[tuple[Choice, ...], dict[Key, Finding]]]:
    """The findings of the runs with one reading changed (each alternative not applied, up to
    `MAX_ALTERNATIVES`), then with the combinations of readings that each change one round's findings
    (up to `MAX_COMBINATIONS`, the summary noting those left out)."""
    under: dict[Choice, dict[Key, Finding]] = {}
    singles = alternatives_to_judge(registry, summary.rulesets)
    if len(singles) > MAX_ALTERNATIVES:
        raise ValidatorError(_too_many(registry, summary.rulesets, singles[MAX_ALTERNATIVES], len(singles)))
    for choice in singles:
        under[choice] = judge((choice,))
    combined: dict[tuple[Choice, ...], dict[Key, Finding]] = {}
    wanted = combinations_to_judge(registry, applied, said, under)
    for changed in wanted[:MAX_COMBINATIONS]:
        combined[changed] = judge(changed)
    if len(wanted) > MAX_COMBINATIONS:
        summary.notes.append(
            _(
                "--all-readings: {left} of {all} combinations of readings that change the same rounds "
                "were not judged (at most {most})"
            ).format(left=len(wanted) - MAX_COMBINATIONS, all=len(wanted), most=MAX_COMBINATIONS)
        )
    return under, combined


def _only_under_others(
    runs: dict[tuple[Choice, ...], dict[Key, Finding]],
    under: dict[Choice, dict[Key, Finding]],
    given: set[Key],
    summary: Summary,
) -> dict[tuple[str, str | None], list[Finding]]:
    """The findings the run under the readings applied does not give, by file and round: each once,
    resting on the fewest readings changed that give it (a single alternative before a combination)."""
    extra: dict[tuple[str, str | None], list[Finding]] = {}
    for changed, found in runs.items():
        for k, finding in found.items():
            if k in given or any(key(f) == k for f in extra.get((finding.file, finding.round), [])):
                continue
            least = min((c for c, other in runs.items() if k in other), key=len)
            if least != changed:
                continue
            holds = tuple(c for c, other in under.items() if k in other)
            marked = dataclasses.replace(finding, rests_on=least, holds_under=holds)
            extra.setdefault((finding.file, finding.round), []).append(_said(marked, summary))
    return extra


def _with_readings(
    outcome: RoundOutcome,
    under: dict[Choice, dict[Key, Finding]],
    combined: dict[tuple[Choice, ...], dict[Key, Finding]],
    applied: dict[str, str],
    extra: dict[tuple[str, str | None], list[Finding]],
    summary: Summary,
) -> RoundOutcome:
    """A round of the first run, each finding told what it rests on and holds under, with the findings
    only other readings give in it added (a clean round then has findings)."""
    findings = [_said(_marked(finding, under, combined, applied), summary) for finding in outcome.findings]
    added = extra.pop((outcome.file, outcome.round), []) if outcome.round is not None else []
    for finding in added:
        summary.count(finding)
    if added and outcome.status == "clean":
        summary.rounds_clean -= 1
        summary.rounds_with_findings += 1
    status = "findings" if added and outcome.status == "clean" else outcome.status
    return dataclasses.replace(outcome, findings=(*findings, *added), status=status)


def _marked(
    finding: Finding,
    under: dict[Choice, dict[Key, Finding]],
    combined: dict[tuple[Choice, ...], dict[Key, Finding]],
    applied: dict[str, str],
) -> Finding:
    """A finding of the first run with the readings it rests on (as applied: those a run that changed
    them does not give it under) and the alternatives it holds under."""
    k = key(finding)
    rests = {(name, applied[name]) for (name, _alt), found in under.items() if k not in found}
    if not rests:
        # Dropped only by a combination: it rests on the readings that combination changed.
        for changed, found in combined.items():
            if k not in found:
                rests |= {(name, applied[name]) for name, _alt in changed}
    holds = tuple(sorted({*(c for c, found in under.items() if k in found), *_concerned(applied, under)}))
    return dataclasses.replace(finding, rests_on=tuple(sorted(rests)), holds_under=holds)


def combinations_to_judge(
    registry: Registry,
    applied: dict[str, str],
    said: dict[Key, str],
    under: dict[Choice, dict[Key, Finding]],
) -> list[tuple[Choice, ...]]:
    """The combinations of alternatives (two readings or more changed, each from the alternative
    applied) of the readings that each change the findings of one round (a finding given or not, or
    what it expects), in a fixed order, each once. `said`: what each finding of the run under the
    readings applied expects."""
    changes: dict[tuple[str, str | None], set[str]] = {}
    for (name, _alternative), found in under.items():
        other = {k: _what(f) for k, f in found.items()}
        for k in said.keys() | other.keys():
            if said.get(k) != other.get(k):
                changes.setdefault((k[1], k[3]), set()).add(name)
    alternatives = {name: reading.names for r in registry.all() for name, reading in r.readings.items()}
    wanted: list[tuple[Choice, ...]] = []
    for names in sorted({tuple(sorted(n)) for n in changes.values() if len(n) > 1}):
        for picked in itertools.product(*(alternatives[name] for name in names)):
            changed = tuple(
                (name, alt) for name, alt in zip(names, picked, strict=True) if alt != applied[name]
            )
            if len(changed) > 1 and changed not in wanted:
                wanted.append(changed)
    return wanted


def _what(finding: Finding) -> str:
    """What a finding expects and found, to tell whether another reading changes it."""
    return repr((finding.expected, finding.actual))


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


def _said(finding: Finding, summary: Summary) -> Finding:
    """The finding's message with what it rests on, so that every format shows it; in French, each
    alternative's first words beside its name (`summary.alternatives`)."""
    if not finding.rests_on:
        return finding
    lang = current()

    def named(reading: str, alternative: str) -> str:
        info = summary.alternatives.get((reading, alternative))
        gloss = info.gloss(lang) if info is not None else None
        return f"`{reading}` = `{alternative}`" + (f" ({gloss})" if gloss else "")

    said = ", ".join(named(r, a) for r, a in finding.rests_on)
    return dataclasses.replace(
        finding,
        message=_("{message} (under reading {readings})").format(message=finding.message, readings=said),
    )
