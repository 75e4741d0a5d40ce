"""`casino-validator rules test --mutate`: each mutable token of a ruleset changed in turn, the fixtures run
against the changed ruleset, and the changes no fixture notices listed.

A *mutant* is one ruleset file with one token changed, in its syntax tree (no text is rewritten):

- a comparison: `<` ↔ `<=`, `>` ↔ `>=` (the boundary), and each into its negation (`<` → `>=`,
  `==` → `!=`, …);
- a connective: `and` ↔ `or`; a `not` dropped;
- a number in a condition or an amount: one more, one less (not below 0); `true` ↔ `false`; a ratio's
  first term one more, one less;
- a parameter's value: a number one more or one less, a boolean flipped, a ratio's first term one more
  or one less, each number of a list one more;
- a paytable line's ratio: its first term one more, one less.

Every version whose encoding holds the file is compiled again from the changed tree; one the compiler
refuses is *stillborn* (not counted: the language itself rejects it). A mutant is *killed* when a passing
fixture case gives other findings than it lists once the change is made. Only the runs that can notice
are judged again: those that evaluated a clause the change alters (`rules test --coverage` observes which
clauses each run evaluates), or every run of a version where the change reaches beyond clauses (a
parameter the game mechanics read, an option, a rule's identity).

A mutant is *proven equivalent* when every version it touches, under its default readings and under each
alternative of each reading, compiles to the same rules: the same clauses as applied (parameters folded
in, named conditions in place), the same paytables, parameters, options and fixed values. The replay reads
nothing else of a version, so no log can tell the mutant from the ruleset (a change the folding of
parameters undoes, say). Any other mutant no fixture kills is *surviving*: a gap in the fixtures.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from validator.checking.coverage import Coverage, judge_run_with
from validator.checking.equivalents import EQUIVALENT_FILE, Declarations, Declared, apply
from validator.checking.fixtures import FixtureRun
from validator.dsl import ast
from validator.dsl.expr import format_value, unparse
from validator.dsl.model import Ruleset
from validator.dsl.readings import chosen
from validator.errors import RulesetError, RulesetErrors, ValidatorError
from validator.i18n import _
from validator.rulebook.meaning import changed_clauses, meaning
from validator.rulebook.probe import Clause, Observed
from validator.rulebook.registry import (
    Registry,
    compile_trees,
    compiled_for_now,
    encoding_files,
    read_tree,
    under_readings,
)
from validator.rulebook.sources import extra

_BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
_NEGATION = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}

Trail = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Mutant:
    file: str  # as the registry names it (rulesets/fr/…)
    line: int
    column: int
    before: str
    after: str
    within: str  # the item it is in: `rule dealer-stands-17`, `parameter shoe.decks`, …
    trail: Trail = field(repr=False)
    node: Any = field(repr=False)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def shown(self) -> str:
        return f"{self.where}: {self.within}: `{self.before}` → `{self.after}`"


@dataclass(slots=True)
class Outcome:
    killed: list[Mutant] = field(default_factory=list)
    equivalent: list[Mutant] = field(default_factory=list)
    alive: list[Mutant] = field(default_factory=list)
    stillborn: list[Mutant] = field(default_factory=list)
    # Surviving mutants the fixtures folder declares equivalent (checking/equivalents.py).
    declared: list[Mutant] = field(default_factory=list)
    files: set[str] = field(default_factory=set)  # the files mutated, as the registry names them
    seconds: float = 0.0

    def surviving(self) -> list[Mutant]:
        return self.alive


# ---------------------------------------------------------------- the mutants of a tree


def mutants(tree: ast.RulesetFile) -> list[Mutant]:
    """Every mutant of a file's tree as written, in the order of the file."""
    found: list[Mutant] = []
    _walk(tree, (), "", tree.file, found)
    return sorted(found, key=lambda m: (m.line, m.column, m.before, m.after))


def _walk(node: Any, trail: Trail, within: str, file: str, found: list[Mutant]) -> None:
    if isinstance(node, tuple):
        for index, item in enumerate(node):
            _walk(item, (*trail, index), within, file, found)
        return
    if not dataclasses.is_dataclass(node) or isinstance(node, ast.Pos | ast.Ref | ast.Header | ast.Field):
        return
    within = _within(node) or within
    for before, after, replacement, pos in _changes(node):
        found.append(Mutant(file, pos.line, pos.column, before, after, within, trail, replacement))
    for item in dataclasses.fields(node):
        if isinstance(node, ast.Option | ast.Fixed):
            continue  # what a house may and may not choose is `lint`'s, tested by house files, not logs
        _walk(getattr(node, item.name), (*trail, item.name), within, file, found)


def _within(node: Any) -> str:
    kinds = {
        ast.RuleDecl: "rule",
        ast.Define: "define",
        ast.Parameter: "parameter",
        ast.Fixed: "fixed",
        ast.SideBet: "side_bet",
        ast.Reading: "reading",
        ast.Alternative: "alternative",
    }
    kind = kinds.get(type(node))
    return f"{kind} {node.name}" if kind else ""


def _changes(node: Any) -> Iterator[tuple[str, str, Any, ast.Pos]]:
    """(shown before, shown after, the node that replaces `node`, where) for each mutant of the node."""
    if isinstance(node, ast.Compare):
        for table in (_BOUNDARY, _NEGATION):
            if node.op in table:
                compared = dataclasses.replace(node, op=table[node.op])
                yield unparse(node), unparse(compared), compared, node.pos
    elif isinstance(node, ast.BoolOp):
        joined = dataclasses.replace(node, op="or" if node.op == "and" else "and")
        yield unparse(node), unparse(joined), joined, node.pos
    elif isinstance(node, ast.Not):
        yield unparse(node), unparse(node.item), node.item, node.pos
    elif isinstance(node, ast.Literal):
        for value in _values(node.value):
            literal = dataclasses.replace(node, value=value)
            yield format_value(node.value), format_value(value), literal, node.pos
    elif isinstance(node, ast.Parameter):
        value = node.value
        for new in _values(value.value):
            yield (
                f"{node.name} = {format_value(value.value)}",
                f"{node.name} = {format_value(new)}",
                dataclasses.replace(node, value=dataclasses.replace(value, value=new)),
                value.pos,
            )
    elif isinstance(node, ast.PayLine) and isinstance(node.pays, ast.Ratio):
        for new in _values(node.pays):
            yield (
                f'"{node.label}" pays {node.pays}',
                f'"{node.label}" pays {new}',
                dataclasses.replace(node, pays=new),
                node.pos,
            )


def _values(value: Any) -> list[Any]:
    """The values a value is changed into."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, Decimal):
        return [value + 1] + ([value - 1] if value >= 1 else [])
    if isinstance(value, ast.Ratio):
        more = [ast.Ratio(value.numerator + 1, value.denominator)]
        return more + ([ast.Ratio(value.numerator - 1, value.denominator)] if value.numerator > 1 else [])
    if isinstance(value, tuple):
        return [
            tuple(v + 1 if i == index else v for i, v in enumerate(value))
            for index, item in enumerate(value)
            if isinstance(item, Decimal) and not isinstance(item, bool)
        ]
    return []


def mutated(tree: ast.RulesetFile, mutant: Mutant) -> ast.RulesetFile:
    made: ast.RulesetFile = _put(tree, mutant.trail, mutant.node)
    return made


def _put(node: Any, trail: Trail, new: Any) -> Any:
    if not trail:
        return new
    head, rest = trail[0], trail[1:]
    if isinstance(node, tuple):
        assert isinstance(head, int)
        items = list(node)
        items[head] = _put(node[head], rest, new)
        return tuple(items)
    assert isinstance(head, str)
    return dataclasses.replace(node, **{head: _put(getattr(node, head), rest, new)})


def _alternative_meanings(ruleset: Ruleset) -> dict[tuple[str, str], dict[str, Any] | None]:
    """Each non-default alternative of each reading: the meaning of the version under it (None: it does not
    compile)."""
    out: dict[tuple[str, str], dict[str, Any] | None] = {}
    tree = ruleset.tree
    if tree is None:
        return out
    from validator.dsl.compiler import compile_ruleset  # start-up: loaded when this part runs

    for name, reading in ruleset.readings.items():
        for alternative in reading.names:
            if alternative == reading.default:
                continue
            try:
                compiled = compile_ruleset(chosen(tree, {name: alternative}), generate=False)
                out[(name, alternative)] = meaning(compiled)
            except (RulesetError, RulesetErrors):
                out[(name, alternative)] = None
    return out


# ---------------------------------------------------------------- running them


@dataclass(slots=True)
class _Files:
    """The registry's ruleset files, read once: their trees, and which versions each one's text reaches."""

    trees: dict[Path, ast.RulesetFile]
    names: dict[Path, str]  # path → the name the registry gives the file
    reaches: dict[str, set[str]]  # file name → the versions whose encoding holds it


def _files(registry: Registry) -> _Files:
    from validator.dsl.resources import rulesets_dir  # start-up: loaded when this part runs
    from validator.rulebook.registry import ruleset_files  # start-up: loaded when this part runs

    root = rulesets_dir()
    trees: dict[Path, ast.RulesetFile] = {}
    names: dict[Path, str] = {}
    for path in ruleset_files(root):
        name = f"rulesets/{path.relative_to(root)}"
        trees[path], names[path] = read_tree(path, name), name
    for path in extra():
        for each in sorted(path.rglob("*.rules")) if path.is_dir() else [path]:
            trees[each], names[each] = read_tree(each), str(each)
    reaches: dict[str, set[str]] = {}
    for ruleset in registry.all():
        for entry in encoding_files(registry, [ruleset.version]):
            reaches.setdefault(entry["file"], set()).add(ruleset.version)
    return _Files(trees, names, reaches)


def run_mutants(registry: Registry, coverage: Coverage, only: list[str] | None = None) -> Outcome:
    """Every mutant of the registry's ruleset files (of `only`'s files), judged by the passing runs of
    `coverage` that can notice it."""
    import os  # start-up: loaded when this part runs

    started = time.perf_counter()
    files = _files(registry)
    wanted = {os.path.realpath(path) for path in only} if only is not None else None
    if wanted is not None:
        unknown = wanted - {os.path.realpath(path) for path in files.trees}
        if unknown:
            raise ValidatorError(
                _("--only {files}: not a ruleset file of this run").format(files=", ".join(sorted(unknown)))
            )
    outcome = Outcome()
    by_version = {r.version: r for r in registry.all()}
    originals: dict[str, dict[str, Any]] = {}
    alternatives: dict[str, dict[tuple[str, str], dict[str, Any] | None]] = {}
    given = list(files.trees.items())
    for path, tree in files.trees.items():
        if wanted is not None and os.path.realpath(path) not in wanted:
            continue
        outcome.files.add(files.names[path])
        reached = files.reaches.get(files.names[path], set())
        only_paths = frozenset(p for p, t in given if _version_of(t) in reached)
        for mutant in mutants(tree):
            changed = [(p, mutated(t, mutant) if p == path else t) for p, t in given]
            with compiled_for_now():
                try:
                    made = compile_trees(changed, only_paths)
                except (RulesetError, RulesetErrors):
                    outcome.stillborn.append(mutant)
                    continue
                verdict = _judge(registry, coverage, by_version, made, originals, alternatives)
            getattr(outcome, verdict).append(mutant)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _version_of(tree: ast.RulesetFile) -> str:
    for header in tree.headers:
        if header.key == "in_force" and header.value[0] is not None:
            return f"{tree.family}@{header.value[0].isoformat()}"
    return tree.family


def _judge(
    registry: Registry,
    coverage: Coverage,
    by_version: dict[str, Ruleset],
    made: list[Ruleset],
    originals: dict[str, dict[str, Any]],
    alternatives: dict[str, dict[tuple[str, str], dict[str, Any] | None]],
) -> str:
    """ "killed", "equivalent" or "alive".

    In two steps, for the same verdict at less cost: first the versions whose rules as written changed,
    judged by the runs that notice (those under the default readings first: they need no compiling);
    only when none fails, the alternatives of the versions whose rules as written did not change are
    compiled (a dozen compilations a version) to find what else changed, and the runs that notice that
    alone are judged. A mutant is killed when one run that notices fails, in either step."""
    changed: set[Clause] = set()
    everywhere: set[str] = set()
    touched: set[str] = set()  # versions whose meaning, or that of one of their alternatives, changed
    under: set[tuple[str, str, str]] = set()  # (version, reading, alternative) whose meaning changed
    unchanged: list[tuple[Ruleset, Ruleset]] = []  # (as shipped, as mutated) of the same meaning
    for new in made:
        old = by_version[new.version]
        if old.version not in originals:
            originals[old.version] = meaning(old)
        if meaning(new) != originals[old.version]:
            clauses, all_runs = changed_clauses(old, new)
            changed |= clauses
            if all_runs:
                everywhere.add(old.version)
            touched.add(old.version)
        elif old.readings:
            unchanged.append((old, new))
    changed_registry = Registry(
        [next((n for n in made if n.version == r.version), r) for r in registry.all()], registry.chosen
    )
    notice = _Notice(changed, everywhere, touched, under)
    judged: set[int] = set()
    if touched and _one_fails(registry, coverage, changed_registry, notice, judged):
        return "killed"
    for old, new in unchanged:
        if old.version not in alternatives:
            alternatives[old.version] = _alternative_meanings(old)
        for key, then in _alternative_meanings(new).items():
            if alternatives[old.version].get(key) != then:
                under.add((old.version, *key))
                touched.add(old.version)
    if not touched:
        return "equivalent"
    if under and _one_fails(registry, coverage, changed_registry, notice, judged):
        return "killed"
    return "alive"


@dataclass(frozen=True, slots=True)
class _Notice:
    """What a mutant changed, by which a run can notice it (`_Notice.by`)."""

    changed: set[Clause]  # the clauses it changed
    everywhere: set[str]  # the versions where it reaches beyond clauses
    touched: set[str]  # the versions whose meaning, or that of one of their alternatives, changed
    under: set[tuple[str, str, str]]  # (version, reading, alternative) whose meaning changed

    def by(self, readings: tuple[tuple[str, str], ...], observed: Observed) -> bool:
        judged = {clause[0] for clause in observed.evaluated}
        if not judged & self.touched:
            return False
        if readings:  # a run under alternatives: any change to a version it judged
            return True
        return any(v in self.everywhere for v in judged) or bool(observed.evaluated & self.changed)


def _one_fails(
    registry: Registry, coverage: Coverage, changed: Registry, notice: _Notice, judged: set[int]
) -> bool:
    """Whether a passing run that notices the change, not yet `judged` (indexes of `coverage.observed`,
    added to), fails under the `changed` registry. The runs under the default readings first."""
    for index in coverage.by_readings():
        if index in judged:
            continue
        run, observed, _found = coverage.observed[index]
        if not notice.by(run.readings, observed):
            continue
        judged.add(index)
        result, _unused = judge_run_with(registry, _under_readings(changed, run, observed), run)
        if not result.ok:
            return True
    return False


def _under_readings(changed: Registry, run: FixtureRun, observed: Observed) -> Registry:
    """The `changed` registry under the run's readings. A run pinned to one version judges that version
    alone (the versions whose clauses it evaluated): only it is compiled under the readings, not every
    version the mutant touched that has them; any other run gets every version under them."""
    if not run.readings:
        return changed
    choices = dict(run.readings)
    target = changed.pick(run.pinned).version if run.pinned else None
    if target is None or not {clause[0] for clause in observed.evaluated} <= {target}:
        return changed.with_readings(choices)
    versions = [under_readings(r, choices) if r.version == target else r for r in changed.all()]
    return Registry(versions, {**changed.chosen, **choices})


def declare(outcome: Outcome, declarations: list[Declared]) -> Declarations:
    """The fixtures folder's declarations applied: the surviving mutants it declares equivalent leave the
    survivors for `outcome.declared`; what is wrong with the declarations is returned."""
    every = outcome.killed + outcome.equivalent + outcome.alive + outcome.stillborn
    found = apply(
        declarations,
        [m.shown() for m in outcome.alive],
        [m.shown() for m in outcome.killed],
        [m.shown() for m in every],
        outcome.files,
    )
    names = {shown for shown, _why in found.declared}
    outcome.declared = [m for m in outcome.alive if m.shown() in names]
    outcome.alive = [m for m in outcome.alive if m.shown() not in names]
    return found


def report_lines(outcome: Outcome, declarations: Declarations | None = None) -> Iterator[str]:
    counted = len(outcome.killed) + len(outcome.equivalent) + len(outcome.declared) + len(outcome.alive)
    yield _(
        "mutants: {count} ({killed} killed, {equivalent} proven equivalent, {declared} declared equivalent, "
        "{alive} surviving; {stillborn} more refused by the compiler) in {seconds:.1f} s"
    ).format(
        count=counted,
        killed=len(outcome.killed),
        equivalent=len(outcome.equivalent),
        declared=len(outcome.declared),
        alive=len(outcome.alive),
        stillborn=len(outcome.stillborn),
        seconds=outcome.seconds,
    )
    if declarations is not None:
        yield from _declaration_lines(declarations)
    if outcome.equivalent:
        yield _(
            "proven equivalent (every version it touches compiles to the same rules under every reading):"
        )
        for mutant in outcome.equivalent:
            yield f"  {mutant.shown()}"
    if outcome.alive:
        yield _("surviving (no fixture notices the change):")
        for mutant in outcome.alive:
            yield f"  {mutant.shown()}"


def _declaration_lines(found: Declarations) -> Iterator[str]:
    if found.declared:
        heading = _("declared equivalent ({file}, each with why no log can show it):")
        yield heading.format(file=EQUIVALENT_FILE)
        for shown, why in found.declared:
            yield f"  {shown}"
            yield f"      {why}"
    if found.killed:
        yield _("declared equivalent, yet a fixture kills it (the declaration is false):")
        for shown, _why in found.killed:
            yield f"  {shown}"
    if found.stale:
        yield _("declared equivalent, but no mutant of the file is that one (the file changed: look again):")
        for declared in found.stale:
            yield f"  {declared.mutant}"
