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

An outcome no log can give (`late_bet`'s `bet.before_deal` never holds) is declared in the fixtures
folder's `unreachable-outcomes.json` (`validator.checking.unreachable`): an item whose other outcomes the
passing cases give is then reported apart, "unreachable (declared)", and left out of the figure. A
declared outcome a passing case gives, or a declaration that names no item of a file the run measures,
fails the run.
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
from validator.checking.unreachable import NEVER, UNREACHABLE_FILE, Unreachable
from validator.dsl import ast
from validator.dsl.fold import fold
from validator.dsl.messages import PLACEHOLDER
from validator.dsl.model import Rule, Ruleset
from validator.i18n import _, ngettext
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
    # The outcomes declared unreachable (unreachable-outcomes.json) that leave the item out of the
    # figure: every other outcome it has was given by a passing case. Empty: the item counts.
    unreachable: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The item as a declaration names it: `FILE:LINE: what`."""
        return f"{self.where}: {self.what}"


@dataclass(slots=True)
class VersionCoverage:
    version: str
    file: str
    items: list[Item] = field(default_factory=list)

    def count(self, kind: str | None = None) -> tuple[int, int]:
        """(exercised, all) of one kind of item, or of every kind; the items declared unreachable left out."""
        chosen = [i for i in self.items if (kind is None or i.kind == kind) and not i.unreachable]
        return sum(1 for i in chosen if not i.missing), len(chosen)

    def declared(self) -> list[Item]:
        """The items left out of the figure as unreachable (declared)."""
        return [i for i in self.items if i.unreachable]

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
    # The declarations that left an item out, those a passing case contradicts (with the version and
    # the case that gave the outcome), and those of a file measured that name none of its items.
    declarations: list[Unreachable] = field(default_factory=list)
    false: list[tuple[Unreachable, str, str]] = field(default_factory=list)
    stale: list[Unreachable] = field(default_factory=list)

    def total(self) -> Decimal:
        done = sum(v.count()[0] for v in self.versions)
        return percent(done, sum(v.count()[1] for v in self.versions))

    # The indexes of `observed`, the runs under the default readings first (`by_readings`).
    order: list[int] = field(default_factory=list)

    def failed(self) -> bool:
        """A declaration is false or stale."""
        return bool(self.false or self.stale)

    def by_readings(self) -> list[int]:
        """The indexes of `observed`, the runs under the default readings first, in order otherwise: they
        are judged again without compiling (`rules test --mutate`)."""
        if len(self.order) != len(self.observed):
            self.order[:] = sorted(range(len(self.observed)), key=lambda i: len(self.observed[i][0].readings))
        return self.order


@dataclass(slots=True)
class _Seen:
    """Every passing run's observations, gathered per version (under its default readings)."""

    outcomes: dict[Clause, set[bool]] = field(default_factory=dict)
    paid: set[Line] = field(default_factory=set)
    judged: set[str] = field(default_factory=set)
    # (version, reading, alternative) → the case that tells it from another alternative.
    told_apart: dict[tuple[str, str, str], str] = field(default_factory=dict)
    # (a clause or a line, an outcome of NEVER) → the first passing case that gave it.
    cases: dict[tuple[Clause | Line, str], str] = field(default_factory=dict)


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


def measure(
    registry: Registry,
    runs: list[FixtureRun],
    also: Iterable[Ruleset] = (),
    unreachable: Iterable[Unreachable] = (),
) -> Coverage:
    """Run every planned run probed, and say what of each version the passing runs judged (and of those
    of `also`, judged or not) they exercised, the outcomes of `unreachable` declared none can give."""
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
        _gather(seen, runner.probed(run.readings), now, found, result.label)
    _tell_alternatives(registry, seen, observed)
    wanted = seen.judged | {r.version for r in also}
    shown = [r for r in registry.all() if r.version in wanted]
    declared = _Declared(list(unreachable))
    versions = [_version(ruleset, seen, declared) for ruleset in shown]
    measured = {item.where.rsplit(":", 1)[0] for version in versions for item in version.items}
    return Coverage(
        versions,
        results,
        observed,
        [d for d in declared.all if d in declared.used and d not in {f[0] for f in declared.false}],
        declared.false,
        [d for d in declared.all if d not in declared.used and d.file in measured],
    )


def _gather(seen: _Seen, judging: Registry, now: Observed, found: list[dict[str, Any]], case: str) -> None:
    defaults = {r.version for r in judging.all() if not non_default(r)}
    judged = {clause[0] for clause in now.evaluated}
    seen.judged.update(judged & defaults)
    for clause, outcomes in now.outcomes.items():
        if clause[0] in defaults and outcomes:
            seen.outcomes.setdefault(clause, set()).update(outcomes)
            for outcome in outcomes:
                seen.cases.setdefault((clause, "holds" if outcome else "fails"), case)
    paid_wrong = {(f.get("rule"), f.get("stake")) for f in found if f.get("kind") == "payout"}
    for clause, stakes in now.chosen.items():
        if clause[0] not in defaults:
            continue
        for stake in stakes:
            if (clause[1], stake) in paid_wrong:
                seen.cases.setdefault((clause, "disagrees"), case)
            else:
                seen.cases.setdefault((clause, "agrees"), case)
    for line in now.paid:
        if line[0] in defaults:
            seen.paid.add(line)
            seen.cases.setdefault((line, "pays"), case)


def _tell_alternatives(
    registry: Registry, seen: _Seen, observed: list[tuple[FixtureRun, Observed, list[dict[str, Any]]]]
) -> None:
    """For each passing run, each version it judged and each reading of that version not yet told apart
    under the alternative the run applied: the log judged again with the reading changed to each other
    alternative; other findings tell the applied alternative apart. A run is judged again only where the
    change can reach it: it evaluated a clause the other alternative changes (`meaning.changed_clauses`),
    or the change reaches beyond clauses."""
    reach: dict[tuple[str, Choice, str, str], tuple[set[Clause], bool]] = {}
    # The runs under the default readings first: they tell most alternatives apart, so that a run pinned
    # to an alternative is judged again only for what they left (each choice of readings is compiled anew).
    for run, now, found in sorted(observed, key=lambda each: len(each[0].readings)):
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


# The outcome that is an item reached at all, and the outcomes it must give to be exercised, in the
# order their lack is reported.
_WHOLE = {"require": "evaluated", "settle": "chosen", "line": "pays"}
_NEEDS = {"require": ("holds", "fails"), "settle": ("agrees", "disagrees"), "line": ("pays",)}


def _lacking(outcome: str) -> str:
    """What an item lacks when no passing case gives `outcome`."""
    return {
        "evaluated": _("never evaluated by a passing case"),
        "holds": _("never holds in a passing case"),
        "fails": _("never fails in a passing case (no case lists its finding)"),
        "chosen": _("never the clause chosen in a passing case"),
        "agrees": _("never chosen where the log settles as it says"),
        "disagrees": _("never chosen where the log settles otherwise (no case lists its payout finding)"),
        "pays": _("never pays in a passing case"),
    }[outcome]


@dataclass(slots=True)
class _Declared:
    """The declarations of unreachable outcomes, and what the items of the versions made of them."""

    all: list[Unreachable]
    by_item: dict[str, list[Unreachable]] = field(default_factory=dict)
    used: set[Unreachable] = field(default_factory=set)
    false: list[tuple[Unreachable, str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for declared in self.all:
            self.by_item.setdefault(declared.item, []).append(declared)

    def judge(
        self, version: str, kind: str, name: str, needs: tuple[str, ...], cases: dict[str, str]
    ) -> tuple[str, tuple[str, ...]]:
        """What an item of `kind` named `name` (`FILE:LINE: what`) lacks, and the outcomes declared
        unreachable that leave it out of the figure: `needs` the outcomes it must give, `cases` the first
        passing case that gave each outcome it gave (its whole, `evaluated`/`chosen`/`pays`, among them)."""
        whole = _WHOLE[kind]
        declared = [
            d
            for d in self.by_item.get(name, ())
            if NEVER[d.never] == kind and (d.never == whole or d.never in needs)
        ]
        self.used.update(declared)
        contradicted = [d for d in declared if d.never in cases]
        for wrong in contradicted:
            self.false.append((wrong, version, cases[wrong.never]))
        off = () if contradicted else tuple(sorted({d.never for d in declared}))
        if whole in off:
            return "", off
        remaining = tuple(n for n in needs if n not in off)
        if whole not in cases:
            return _lacking(whole), ()
        lacking = next((n for n in remaining if n not in cases), None)
        if lacking is not None:
            return _lacking(lacking), ()
        return "", off


def _version(ruleset: Ruleset, seen: _Seen, declared: _Declared) -> VersionCoverage:
    """The version's items, each with what its exercise lacks: its clauses, rule by rule, its paytable
    lines, its parameters, its readings' alternatives."""
    out = VersionCoverage(ruleset.version, ruleset.file)
    defines = _defines(ruleset)
    read_by_exercised: set[str] = set()  # the parameters an exercised clause or line reads
    for rule in ruleset.rules:
        read_by_exercised |= _rule_items(ruleset, rule, seen, declared, defines, out.items)
    read_by_exercised |= _line_items(ruleset, seen, declared, defines, out.items)
    _parameter_items(ruleset, seen, defines, read_by_exercised, out.items)
    _alternative_items(ruleset, seen, out.items)
    return out


def _cases(seen: _Seen, key: Clause | Line, kind: str) -> dict[str, str]:
    """The first passing case that gave each outcome of an item (its whole among them)."""
    found = {n: seen.cases[(key, n)] for n in _NEEDS[kind] if (key, n) in seen.cases}
    if found:
        found.setdefault(_WHOLE[kind], next(iter(found.values())))
    return found


def _rule_items(
    ruleset: Ruleset,
    rule: Rule,
    seen: _Seen,
    declared: _Declared,
    defines: dict[str, ast.Expr],
    items: list[Item],
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
        key: Clause = (version, rule.id, "on", index)
        cases = _cases(seen, key, "require")
        # A condition with one outcome (a ban, one the parameters decide) is exercised once evaluated.
        needs = ("evaluated",) if _constant(check.applied_require, values, defines) else _NEEDS["require"]
        name = f"{file}:{check.line}: rule {rule.name}, on {check.event}"
        missing, off = declared.judge(version, "require", name, needs, cases)
        items.append(
            Item("require", f"{file}:{check.line}", f"rule {rule.name}, on {check.event}", missing, off)
        )
        if not missing and "evaluated" in cases:
            exercised = True
            read |= _params_in((check.guard_node, check.require_node), defines)
    for index, settle in enumerate(rule.settles):
        if _never(settle.applied_guard):
            continue
        key = (version, rule.id, "settle", index)
        cases = _cases(seen, key, "settle")
        what = f"rule {rule.name}, settle {settle.stake}"
        name = f"{file}:{settle.line}: {what}"
        missing, off = declared.judge(version, "settle", name, _NEEDS["settle"], cases)
        items.append(Item("settle", f"{file}:{settle.line}", what, missing, off))
        if not missing and "chosen" in cases:
            exercised = True
            read |= _params_in((settle.guard_node, settle.amount_node), defines)
    if exercised:
        message_reads = {m.group(1).removeprefix("param.") for m in PLACEHOLDER.finditer(rule.message)}
        read |= {name for name in message_reads if name in ruleset.parameters}
    return read


def _line_items(
    ruleset: Ruleset, seen: _Seen, declared: _Declared, defines: dict[str, ast.Expr], items: list[Item]
) -> set[str]:
    """Each side bet's paytable lines as items; the parameters the lines that paid read."""
    read: set[str] = set()
    for bet in ruleset.side_bets.values():
        written = _written_lines(ruleset, bet.name)
        file = ruleset.tree.file_of("side_bet", bet.name) if ruleset.tree is not None else ruleset.file
        for table, lines in bet.paytables.items():
            for line in lines:
                key: Line = (ruleset.version, bet.name, table, line.label)
                cases = _cases(seen, key, "line")
                paid = key in seen.paid
                what = f"side_bet {bet.name}, paytable {table}, « {line.label} »"
                name = f"{file}:{line.line}: {what}"
                missing, off = declared.judge(ruleset.version, "line", name, _NEEDS["line"], cases)
                items.append(Item("line", f"{file}:{line.line}", what, missing, off))
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
        head = f"{version.version} ({version.file}): {version.percent} % ({done}/{total})"
        declared = version.declared()
        yield head + (_unreachable_count(len(declared)) if declared else "")
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
        if show_missing and declared:
            yield "    " + _("unreachable (declared):")
            for item in declared:
                never = _("never {outcome}").format(outcome=", ".join(item.unreachable))
                yield f"      {item.name}: {never}"
    yield from _declaration_lines(coverage)
    done = sum(v.count()[0] for v in coverage.versions)
    total = sum(v.count()[1] for v in coverage.versions)
    declared_count = sum(len(v.declared()) for v in coverage.versions)
    yield _("coverage: {percent} % ({done}/{total}) of {count} versions").format(
        percent=coverage.total(), done=done, total=total, count=len(coverage.versions)
    ) + (_unreachable_count(declared_count) if declared_count else "")


def _unreachable_count(count: int) -> str:
    said = ngettext(", {count} item unreachable (declared)", ", {count} items unreachable (declared)", count)
    return said.format(count=count)


def _declaration_lines(coverage: Coverage) -> Iterator[str]:
    """The declarations in use with their reasons, then the false and the stale ones."""
    if coverage.declarations:
        heading = _("unreachable (declared in {file}, each with why no log can give it):")
        yield heading.format(file=UNREACHABLE_FILE)
        for declared in coverage.declarations:
            yield "  " + _("{item}: never {outcome}").format(item=declared.item, outcome=declared.never)
            yield f"      {declared.why}"
    if coverage.false:
        yield _("declared unreachable, yet a passing case gives it (the declaration is false):")
        for declared, _version_name, case in coverage.false:
            yield "  " + _("{item}: never {outcome}: the case {case} gives it").format(
                item=declared.item, outcome=declared.never, case=case
            )
    if coverage.stale:
        yield _(
            "declared unreachable, but no item of the file is that one with that outcome (the file changed: "
            "look again):"
        )
        for declared in coverage.stale:
            yield "  " + _("{item}: never {outcome}").format(item=declared.item, outcome=declared.never)
