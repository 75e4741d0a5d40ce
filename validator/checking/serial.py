"""`casino-validator check`: logs in, outcomes to a reporter, a summary out. The CLI only wires it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any

from validator.catalogue.builtin_docs import builtin_docs
from validator.checking.explain import trace_text
from validator.findings.finding import RoundOutcome, RuleInfo, Summary
from validator.i18n import current
from validator.logs.reader import iter_log_paths, read_records
from validator.replay.session import HouseLookup, LogReplay, Teller
from validator.rulebook.registry import Registry


def check_logs(
    registry: Registry,
    paths: Iterable[str],
    *,
    ruleset: str | None = None,
    house: HouseLookup | None = None,
    summary: Summary | None = None,
    collect: bool = False,
) -> Iterator[RoundOutcome]:
    """Every round of every log, in order, as outcomes; `summary` is filled as they go. With `collect`,
    each round's outcome carries its facts and money for the audit dataset (`game.ledger`)."""
    summary = summary if summary is not None else Summary()
    # Each file's outcomes chained in C, not passed on by a generator of this module (for speed: an
    # interpreted `yield from` costs every round); nothing is read before the first is asked for.
    return chain.from_iterable(_replays(registry, paths, ruleset, house, summary, collect))


def _replays(
    registry: Registry,
    paths: Iterable[str],
    ruleset: str | None,
    house: HouseLookup | None,
    summary: Summary,
    collect: bool,
) -> Iterator[Iterator[RoundOutcome]]:
    """The outcomes of each log in turn (`check_logs`)."""
    if ruleset:
        registry.resolve(ruleset)  # an unknown ruleset stops the run before any file is read
    for path in iter_log_paths(paths):
        summary.files += 1
        replay = LogReplay(
            registry, path, summary, pinned=ruleset, house=house, collect=collect, teller=teller(collect)
        )
        yield replay.replay(read_records(path))
        yield replay.finish()  # the log's last séance closes: its money reconciled


def teller(collect: bool) -> Teller | None:
    """What writes a round's account for the audit dataset: `explain`'s, when facts are collected."""
    if not collect:
        return None
    return trace_text


def rule_catalogue(
    registry: Registry,
    used: Iterable[str] | None = None,
    *,
    builtin: tuple[str, ...] = ("hand-log/", "ruleset/", "money/"),
) -> dict[str, RuleInfo]:
    """Rules for reports (SARIF's rule list): of the versions used, else of every version (newest wording
    wins), and the Python-side rules whose ids start with `builtin` (the reader's for check, `house/` for
    lint), each described by its own docs."""
    used_set = set(used) if used is not None else None
    catalogue: dict[str, RuleInfo] = {}
    for doc in (d.shown() for d in builtin_docs(builtin)):
        catalogue[doc.id] = RuleInfo(
            doc.id, doc.ref, doc.severity, doc.checks, doc.why, doc.fails, doc.passes
        )
    for ruleset in registry.all():
        if used_set is not None and ruleset.version not in used_set:
            continue
        for rule in ruleset.rules:
            lang = current()
            catalogue[rule.id] = RuleInfo(
                rule.id,
                rule.ref,
                rule.severity,  # type: ignore[arg-type]
                rule.text("checks", lang),
                rule.text("why", lang),
                rule.text("fails", lang),
                rule.text("passes", lang),
            )
    return catalogue


def run(
    registry: Registry,
    paths: Iterable[str],
    on_outcome: Callable[[RoundOutcome], Any],
    *,
    ruleset: str | None = None,
    house: HouseLookup | None = None,
) -> Summary:
    summary = Summary()
    for outcome in check_logs(registry, paths, ruleset=ruleset, house=house, summary=summary):
        on_outcome(outcome)
    return summary
