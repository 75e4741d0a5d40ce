"""`casino-validator rules test --coverage`: which parts of each ruleset version the fixtures exercise.

What counts (docs/rules-language.md, "Testing a ruleset: coverage"), each item of a version once:

- an `on … require` clause is exercised when, in the passing fixture runs of the version under its default
  readings, its condition was evaluated (its guard holding) and held at least once, and failed at least
  once (a finding the case lists: a case passes only when it gives exactly the findings it lists); a
  condition that is a constant as the version applies it (`require false`, a ban) has one outcome, and
  is exercised once evaluated; a clause whose guard the version's parameters make false never applies
  and is not counted;
- a `settle` clause is exercised when it was the clause chosen for a stake (the first whose guard holds)
  at least once where the log settled the stake as the clause says, and at least once where it did not
  (a payout finding of its rule at that stake);
- a paytable line is exercised when it paid a stake (the first line of its table to hold);
- a parameter is exercised when an exercised clause or line reads it (in its guard, its condition, its
  amount, a named condition it cites, or its rule's message); one no rule reads, only the game's
  mechanics (docs/rules-language.md, "Parameters are the law, or they go"), when a passing run judges the
  version (the replay reads it at every round);
- an alternative of a reading is exercised when a passing run judged the version under it and the same
  log, judged with that reading changed to another alternative (the other readings as they were),
  gives other findings: the case tells the two readings apart. A case chooses readings with
  `"readings": {"ID": "ALTERNATIVE"}`.

A version's figure is its exercised items over all its items. Runs under a non-default reading count for
the alternatives only: the clauses they run are the alternative's, not the version's as written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal
from pathlib import Path
from typing import Any

from validator.checking.fixtures import (
    FixtureResult,
    FixtureRun,
    compare,
    findings_of,
    plan_fixture,
)
from validator.dsl import ast
from validator.dsl.fold import fold
from validator.dsl.messages import PLACEHOLDER
from validator.dsl.model import Rule, Ruleset
from validator.i18n import _
from validator.rulebook.meaning import changed_clauses
from validator.rulebook.probe import Choice, Clause, Line, Observed, Probe, non_default, probed_registry
from validator.rulebook.registry import Registry, under_readings

KINDS = ("require", "settle", "line", "parameter", "alternative")


@dataclass(frozen=True, slots=True)
class Item:
    """One thing of a version the fixtures should exercise: what it is, where it is written, and what
    the fixtures made of it (empty when exercised; else what is missing)."""

    kind: str  # require, settle, line, parameter, alternative
    where: str  # FILE:LINE
    what: str  # `rule dealer-stands-17, on dealer_draw`, `parameter shoe.decks`, …
    missing: str  # "" when exercised


@dataclass(slots=True)
class VersionCoverage:
    version: str
    file: str
    items: list[Item] = field(default_factory=list)

    def count(self, kind: str | None = None) -> tuple[int, int]:
        """(exercised, all) of one kind of item, or of every kind."""
        chosen = [i for i in self.items if kind is None or i.kind == kind]
        return sum(1 for i in chosen if not i.missing), len(chosen)

    @property
    def percent(self) -> Decimal:
        done, total = self.count()
        return percent(done, total)


def percent(done: int, total: int) -> Decimal:
    """done/total in per cent, one decimal, rounded down (99.96 % is not 100 %); 100 when there is nothing."""
    if total == 0:
        return Decimal(100)
    return (Decimal(100) * done / total).quantize(Decimal("0.1"), rounding=ROUND_FLOOR)


@dataclass(slots=True)
class Coverage:
    versions: list[VersionCoverage]
    results: list[FixtureResult]
    # Each passing run's observation and findings: what `rules test --mutate` picks runs with.
    observed: list[tuple[FixtureRun, Observed, list[dict[str, Any]]]]

    def total(self) -> Decimal:
        done = sum(v.count()[0] for v in self.versions)
        return percent(done, sum(v.count()[1] for v in self.versions))


@dataclass(slots=True)
class _Seen:
    """Every passing run's observations, gathered per version (under its default readings)."""

    outcomes: dict[Clause, set[bool]] = field(default_factory=dict)
    agreed: set[Clause] = field(default_factory=set)
    disagreed: set[Clause] = field(default_factory=set)
    paid: set[Line] = field(default_factory=set)
    judged: set[str] = field(default_factory=set)
    # (version, reading, alternative) → the case that tells it from another alternative.
    told_apart: dict[tuple[str, str, str], str] = field(default_factory=dict)


class Runner:
    """Runs planned fixture runs probed, one probed registry per choice of readings."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.probe = Probe()
        self._probed: dict[Choice, Registry] = {}

    def probed(self, readings: Choice) -> Registry:
        made = self._probed.get(readings)
        if made is None:
            made = self._probed[readings] = probed_registry(
                self.registry.with_readings(dict(readings)), self.probe
            )
        return made

    def run(self, run: FixtureRun) -> tuple[FixtureResult, Observed, list[dict[str, Any]]]:
        observed = self.probe.start()
        result, found = judge_run_with(self.registry, self.probed(run.readings), run)
        return result, observed, found


def judge_run_with(
    registry: Registry, judging: Registry, run: FixtureRun
) -> tuple[FixtureResult, list[dict[str, Any]]]:
    """`judge_run`, the log judged by `judging` (a probed or changed copy of `registry`, its readings
    chosen), the expectation read with `registry` (with `judging` for a rule an alternative adds)."""
    from validator.checking.fixtures import _in_words

    found = findings_of(judging, run)
    wanted = [_in_words(registry, item, run.pinned, judging) for item in run.expectation["findings"]]
    problems = compare(wanted, found)
    return FixtureResult(run.name, run.pinned, not problems, tuple(problems), run.readings), found


def plan_all(registry: Registry, expects: Iterable[Path], root: Path) -> list[FixtureRun]:
    return [run for expect in expects for run in plan_fixture(registry, expect, root)]


def measure(registry: Registry, runs: list[FixtureRun], also: Iterable[Ruleset] = ()) -> Coverage:
    """Run every planned run probed, and say what of each version the passing runs judged (and of those
    of `also`, judged or not) they exercised."""
    runner = Runner(registry)
    seen = _Seen()
    results: list[FixtureResult] = []
    observed: list[tuple[FixtureRun, Observed, list[dict[str, Any]]]] = []
    for run in runs:
        result, now, found = runner.run(run)
        results.append(result)
        if not result.ok:
            continue
        observed.append((run, now, found))
        _gather(seen, runner.probed(run.readings), now, found)
    _tell_alternatives(registry, seen, observed)
    wanted = seen.judged | {r.version for r in also}
    shown = [r for r in registry.all() if r.version in wanted]
    return Coverage([_version(ruleset, seen) for ruleset in shown], results, observed)


def _gather(seen: _Seen, judging: Registry, now: Observed, found: list[dict[str, Any]]) -> None:
    defaults = {r.version for r in judging.all() if not non_default(r)}
    judged = {clause[0] for clause in now.evaluated}
    seen.judged.update(judged & defaults)
    for clause, outcomes in now.outcomes.items():
        if clause[0] in defaults and outcomes:
            seen.outcomes.setdefault(clause, set()).update(outcomes)
    paid_wrong = {(f.get("rule"), f.get("stake")) for f in found if f.get("kind") == "payout"}
    for clause, stakes in now.chosen.items():
        if clause[0] not in defaults:
            continue
        for stake in stakes:
            if (clause[1], stake) in paid_wrong:
                seen.disagreed.add(clause)
            else:
                seen.agreed.add(clause)
    seen.paid.update(line for line in now.paid if line[0] in defaults)


def _tell_alternatives(
    registry: Registry, seen: _Seen, observed: list[tuple[FixtureRun, Observed, list[dict[str, Any]]]]
) -> None:
    """For each passing run, each version it judged and each reading of that version not yet told apart
    under the alternative the run applied: the log judged again with the reading changed to each other
    alternative; other findings tell the applied alternative apart. A run is judged again only where the
    change can reach it: it evaluated a clause the other alternative changes (`meaning.changed_clauses`),
    or the change reaches beyond clauses."""
    reach: dict[tuple[str, Choice, str, str], tuple[set[Clause], bool]] = {}
    for run, now, found in observed:
        judging = registry.with_readings(dict(run.readings))
        by_version = {r.version: r for r in judging.all()}
        for version in sorted({clause[0] for clause in now.evaluated}):
            ruleset = by_version.get(version)
            if ruleset is None:
                continue
            applied = ruleset.reading_choices()
            for name, reading in ruleset.readings.items():
                key = (version, name, applied[name])
                if key in seen.told_apart:
                    continue
                for other in reading.names:
                    if other == applied[name]:
                        continue
                    changes = {**dict(run.readings), name: other}
                    where = (version, run.readings, name, other)
                    if where not in reach:
                        reach[where] = changed_clauses(ruleset, under_readings(ruleset, changes))
                    clauses, everywhere = reach[where]
                    if not everywhere and not clauses & now.evaluated:
                        continue
                    if findings_of(registry.with_readings(changes), run) != found:
                        seen.told_apart[key] = run.name
                        break


def _version(ruleset: Ruleset, seen: _Seen) -> VersionCoverage:
    """The version's items, each with what its exercise lacks: its clauses, rule by rule, its paytable
    lines, its parameters, its readings' alternatives."""
    out = VersionCoverage(ruleset.version, ruleset.file)
    defines = _defines(ruleset)
    read_by_exercised: set[str] = set()  # the parameters an exercised clause or line reads
    for rule in ruleset.rules:
        read_by_exercised |= _rule_items(ruleset, rule, seen, defines, out.items)
    read_by_exercised |= _line_items(ruleset, seen, defines, out.items)
    _parameter_items(ruleset, seen, defines, read_by_exercised, out.items)
    _alternative_items(ruleset, seen, out.items)
    return out


def _rule_items(
    ruleset: Ruleset, rule: Rule, seen: _Seen, defines: dict[str, ast.Expr], items: list[Item]
) -> set[str]:
    """A rule's `on … require` and `settle` clauses as items (those its version applies); the
    parameters its exercised clauses read, and its message's when one is exercised."""
    version = ruleset.version
    values = {name: p.value for name, p in ruleset.parameters.items()}
    file = rule.same_check.file if rule.same_check is not None else rule.file
    read: set[str] = set()
    exercised = False
    for index, check in enumerate(rule.checks):
        if _never(check.applied_guard):
            continue  # the version's parameters make its guard false: it never applies
        outcomes = seen.outcomes.get((version, rule.id, "on", index), set())
        missing = _require_missing(outcomes, _constant(check.applied_require, values, defines))
        items.append(Item("require", f"{file}:{check.line}", f"rule {rule.name}, on {check.event}", missing))
        if not missing:
            exercised = True
            read |= _params_in((check.guard_node, check.require_node), defines)
    for index, settle in enumerate(rule.settles):
        if _never(settle.applied_guard):
            continue
        key = (version, rule.id, "settle", index)
        missing = _settle_missing(key in seen.agreed, key in seen.disagreed)
        items.append(
            Item("settle", f"{file}:{settle.line}", f"rule {rule.name}, settle {settle.stake}", missing)
        )
        if not missing:
            exercised = True
            read |= _params_in((settle.guard_node, settle.amount_node), defines)
    if exercised:
        message_reads = {m.group(1).removeprefix("param.") for m in PLACEHOLDER.finditer(rule.message)}
        read |= {name for name in message_reads if name in ruleset.parameters}
    return read


def _line_items(ruleset: Ruleset, seen: _Seen, defines: dict[str, ast.Expr], items: list[Item]) -> set[str]:
    """Each side bet's paytable lines as items; the parameters the lines that paid read."""
    read: set[str] = set()
    for bet in ruleset.side_bets.values():
        written = _written_lines(ruleset, bet.name)
        file = ruleset.tree.file_of("side_bet", bet.name) if ruleset.tree is not None else ruleset.file
        for table, lines in bet.paytables.items():
            for line in lines:
                paid = (ruleset.version, bet.name, table, line.label) in seen.paid
                items.append(
                    Item(
                        "line",
                        f"{file}:{line.line}",
                        f"side_bet {bet.name}, paytable {table}, « {line.label} »",
                        "" if paid else _("never pays in a passing case"),
                    )
                )
                if paid:
                    read |= _params_in(written.get((table, line.label), ()), defines)
    return read


def _parameter_items(
    ruleset: Ruleset,
    seen: _Seen,
    defines: dict[str, ast.Expr],
    read_by_exercised: set[str],
    items: list[Item],
) -> None:
    """Each parameter as an item: exercised when an exercised clause or line reads it, or, one only the
    game's mechanics read, when a passing case judges the version."""
    read_by_rules = _params_read_by_rules(ruleset, defines)
    for name, parameter in ruleset.parameters.items():
        file = ruleset.tree.file_of("parameter", name) if ruleset.tree is not None else ruleset.file
        if name in read_by_rules:
            missing = "" if name in read_by_exercised else _("no clause or line reading it is exercised")
        else:  # read by the game's mechanics alone
            missing = "" if ruleset.version in seen.judged else _("no passing case judges this version")
        items.append(Item("parameter", f"{file}:{parameter.line}", f"parameter {name}", missing))


def _alternative_items(ruleset: Ruleset, seen: _Seen, items: list[Item]) -> None:
    """Each alternative of each reading as an item: exercised when a passing case under it gives
    findings another alternative does not."""
    for name, reading in ruleset.readings.items():
        for alternative in reading.alternatives:
            told = (ruleset.version, name, alternative.name) in seen.told_apart
            items.append(
                Item(
                    "alternative",
                    f"{reading.file}:{reading.line}",
                    f"reading {name} = {alternative.name}"
                    + (_(" (default)") if alternative.name == reading.default else ""),
                    "" if told else _("no passing case under it gives findings another alternative does not"),
                )
            )


def _never(guard: ast.Expr | None) -> bool:
    return isinstance(guard, ast.Literal) and guard.value is False


def _constant(applied: ast.Expr, values: dict[str, Any], defines: dict[str, ast.Expr]) -> bool:
    """Whether a condition as the version applies it has one outcome: `require false` (a ban), or a
    condition the parameters decide. The compiler keeps a lone comparison as written, for its finding's
    words (`param.surrender.offered != "never"`): folded whole here, it is the constant it is."""
    return isinstance(fold(applied, values, defines), ast.Literal)


def _require_missing(outcomes: set[bool], constant: bool) -> str:
    if not outcomes:
        return _("never evaluated by a passing case")
    if constant:  # one outcome only: evaluated is exercised
        return ""
    if True not in outcomes:
        return _("never holds in a passing case")
    if False not in outcomes:
        return _("never fails in a passing case (no case lists its finding)")
    return ""


def _settle_missing(agreed: bool, disagreed: bool) -> str:
    if not agreed and not disagreed:
        return _("never the clause chosen in a passing case")
    if not agreed:
        return _("never chosen where the log settles as it says")
    if not disagreed:
        return _("never chosen where the log settles otherwise (no case lists its payout finding)")
    return ""


def _defines(ruleset: Ruleset) -> dict[str, ast.Expr]:
    tree = ruleset.tree
    return {d.name: d.body for d in tree.defines} if tree is not None else {}


def _written_lines(ruleset: Ruleset, bet: str) -> dict[tuple[str, str], tuple[ast.Expr | None, ...]]:
    """A side bet's lines as written: (table, label) → its condition and amount."""
    tree = ruleset.tree
    out: dict[tuple[str, str], tuple[ast.Expr | None, ...]] = {}
    if tree is None:
        return out
    for side in tree.side_bets:
        if side.name != bet:
            continue
        for table in side.paytables:
            for line in table.lines:
                amount = line.pays if not isinstance(line.pays, ast.Ratio | str) else None
                out[(table.name, line.label)] = (line.when, amount)
    return out


def _params_read_by_rules(ruleset: Ruleset, defines: dict[str, ast.Expr]) -> set[str]:
    found: set[str] = set()
    for rule in ruleset.rules:
        for m in PLACEHOLDER.finditer(rule.message):
            found.add(m.group(1).removeprefix("param."))
        for check in rule.checks:
            found |= _params_in((check.guard_node, check.require_node), defines)
        for settle in rule.settles:
            found |= _params_in((settle.guard_node, settle.amount_node), defines)
    for bet in ruleset.side_bets:
        for nodes in _written_lines(ruleset, bet).values():
            found |= _params_in(nodes, defines)
    return found & set(ruleset.parameters)


def _params_in(nodes: Iterable[ast.Expr | None], defines: dict[str, ast.Expr]) -> set[str]:
    """The parameters the expressions read, through the named conditions they cite."""
    found: set[str] = set()
    todo = [node for node in nodes if node is not None]
    cited: set[str] = set()
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            if node.path.startswith("param."):
                found.add(node.path.removeprefix("param."))
            elif node.path in defines and node.path not in cited:
                cited.add(node.path)
                todo.append(defines[node.path])
        elif isinstance(node, ast.AnyOf):
            found.add(node.collection.removeprefix("param."))
        todo.extend(ast.children(node))
    return found


def report_lines(coverage: Coverage, *, show_missing: bool = True) -> Iterator[str]:
    """The coverage as `rules test --coverage` prints it."""
    labels = {
        "require": _("require clauses"),
        "settle": _("settle clauses"),
        "line": _("paytable lines"),
        "parameter": _("parameters"),
        "alternative": _("reading alternatives"),
    }
    for version in coverage.versions:
        done, total = version.count()
        yield f"{version.version} ({version.file}): {version.percent} % ({done}/{total})"
        for kind in KINDS:
            kind_done, kind_total = version.count(kind)
            if kind_total:
                share = percent(kind_done, kind_total)
                yield f"    {labels[kind]:<22} {kind_done:>4}/{kind_total:<4} {share} %"
        missing = [item for item in version.items if item.missing]
        if show_missing and missing:
            yield "    " + _("not exercised:")
            for item in missing:
                yield f"      {item.where}: {item.what}: {item.missing}"
    done = sum(v.count()[0] for v in coverage.versions)
    total = sum(v.count()[1] for v in coverage.versions)
    yield _("coverage: {percent} % ({done}/{total}) of {count} versions").format(
        percent=coverage.total(), done=done, total=total, count=len(coverage.versions)
    )
