"""`casino-validator rules list|show|diff|check|test`: read, check, compare and test the rulesets."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from validator.catalogue.builtin_docs import BUILTIN
from validator.catalogue.view import (
    all_rule_ids,
    close_rule_ids,
    diff_lines,
    is_rule_id,
    list_lines,
    rule_lines,
    show_lines,
)
from validator.checking.unreachable import read_unreachable
from validator.commands import common
from validator.dsl.compiler import (
    TRANSLATED,
    untranslated,
    untranslated_address,
    untranslated_notes,
    untranslated_provisions,
)
from validator.dsl.resources import rulesets_dir
from validator.errors import RulesetErrors, ValidatorError
from validator.i18n import _
from validator.rulebook import sources
from validator.rulebook.registry import (
    alternative_errors,
    alternative_rules,
    alternatives,
    load_all,
    refuse_shipped_ids,
    tree_family,
)
from validator.rulebook.registry import ruleset_files as shipped_files
from validator.rulebook.text_coverage import coverage as text_coverage
from validator.rulebook.text_coverage import lines as coverage_lines
from validator.rulebook.text_coverage import stray_problems

if TYPE_CHECKING:
    from validator.checking.fixtures import FixtureResult
    from validator.commands.options import (
        RulesCheckOptions,
        RulesCoverageOptions,
        RulesDiffOptions,
        RulesFmtOptions,
        RulesListOptions,
        RulesLspOptions,
        RulesShowOptions,
        RulesTestOptions,
    )
    from validator.dsl.model import Ruleset
    from validator.rulebook.registry import Registry


def list_(options: RulesListOptions) -> int:
    """Families, their versions and the dates each is in force; with `ids`, every rule id instead."""
    registry = common.registry()
    for line in all_rule_ids(registry) if options.ids else list_lines(registry):
        typer.echo(line)
    return 0


def show(options: RulesShowOptions) -> int:
    """A ruleset version resolved (ID, ID@DATE), or one rule (of a ruleset, or Python-side) with its
    docs (RULE, or RULE@DATE: the wording in force that day); a name that is neither gets the closest."""
    registry = common.registry()
    spec = options.spec
    name, at, when = spec.partition("@")
    if is_rule_id(registry, name):
        day = registry.resolve(f"{registry.all()[0].family}@{when}")[1] if at else None
        lines = rule_lines(registry, name, day)
    elif name in registry.families or (name.count("/") == 1 and not _python_side(name)):
        # A family's shape (jurisdiction/game) that no ruleset has: the registry's own "unknown
        # ruleset" line, with the rulesets known (one from outside needs --rules).
        lines = show_lines(registry.pick(spec))
    else:
        families = difflib.get_close_matches(name, sorted(registry.families), n=2, cutoff=0.6)
        close = families + close_rule_ids(registry, name)
        hint = _(": did you mean {names}?").format(names=", ".join(close)) if close else ""
        raise ValidatorError(
            _(
                "{name!r} is neither a rule nor a ruleset{hint} (`rules "
                "list` lists the rulesets, `rules list --ids` every rule id)"
            ).format(name=name, hint=hint)
        )
    for line in lines:
        typer.echo(line)
    return 0


def _python_side(name: str) -> bool:
    """A name in the namespace of the Python-side rules (`hand-log/*`, `house/*`), not a ruleset's."""
    return name.split("/")[0] in {rule_id.split("/")[0] for rule_id in BUILTIN}


def coverage(options: RulesCoverageOptions) -> int:
    """Each numbered provision of the version's source text and the items encoding it, or why it is out of
    scope: 1 when one is neither (or an item cites a provision the text does not have)."""
    report = text_coverage(common.registry().pick(options.spec))
    for line in coverage_lines(report):
        typer.echo(line)
    return 0 if report.ok else 1


def diff(options: RulesDiffOptions) -> int:
    """What changed between two versions, parameter by parameter and rule by rule. With `witness`, for
    each change of the amendments between them and each alternative of their readings, a one-round log
    the two judge differently (from the rounds of `fixtures`), with both verdicts; `output`: each written
    as a pair of fixture cases. 1 when a change or an alternative that a round can show has no witness."""

    registry = common.registry()
    first, second = registry.pick(options.old), registry.pick(options.new)
    witness, fixtures, output = options.witness, options.fixtures, options.output
    for line in diff_lines(first, second):
        typer.echo(line)
    if not witness and output is None:
        return 0
    import tempfile  # start-up: loaded when this part runs

    from validator.checking import witness as witnessing
    from validator.checking.fixtures import default_fixture_dir

    root = fixtures or default_fixture_dir()
    with tempfile.TemporaryDirectory(prefix="casino-validator-witness-") as scratch:
        found = witnessing.find_witnesses(
            registry, witnessing.targets(registry, first, second), root, Path(scratch)
        )
    typer.echo("")
    typer.echo(_("Witnesses (a one-round log the two sides judge differently, and both verdicts)"))
    for line in witnessing.report_lines(found):
        typer.echo(line)
    if output is not None:
        written = witnessing.write_fixtures(found, output)
        typer.echo(
            _(
                "{count} fixture cases written to {folder}: check each finding against the text before "
                "keeping it"
            ).format(count=len(written), folder=output)
        )
    missing = [w for w in found if w.round is None and not w.target.unshowable]
    return 1 if missing else 0


def check(options: RulesCheckOptions) -> int:
    """Each file's syntax and meaning; every error as FILE:LINE:COL: message (exit 2). The files are read
    with the shipped rulesets and those from outside (`--rules`), so a file may amend a version of either;
    only the files named are reported."""
    paths = ruleset_files(options.files)
    shipped_named = {os.path.realpath(path) for path in shipped_files(rulesets_dir())}
    outside = tuple(path for path in paths if os.path.realpath(path) not in shipped_named)
    sources.counted(outside, "rules check")  # i18n: not shown (a command, named as written)
    named = {os.path.realpath(path) for path in paths}
    root = rulesets_dir()
    shipped = shipped_files(root)
    inside = {os.path.realpath(path) for path in shipped}
    outside = tuple(path for path in paths if os.path.realpath(path) not in inside)
    # A file of a shipped family (a contributor's copy in a checkout) is checked as a candidate for the
    # version it states: it takes the place of the installed file of that version for this check.
    candidates = _candidates(outside, shipped)
    replaced = {os.path.realpath(installed) for installed in candidates.values() if installed is not None}
    pool = [*paths]
    pool += [
        path
        for path in (*shipped, *sources.extra())
        if os.path.realpath(path) not in named and os.path.realpath(path) not in replaced
    ]
    try:
        refuse_shipped_ids(
            tuple(path for path in outside if path not in candidates),
            {tree_family(path) for path in shipped},
        )

        registry = load_all(pool)
    except RulesetErrors as exc:
        for error in exc.errors:
            typer.echo(str(error), err=True)
        return 2
    shown = {str(path) for path in paths}
    # The readings' alternatives of the versions named and of those from outside, each compiled once. A
    # shipped version not named is not compiled under its alternatives again: `rules check rulesets`
    # checks them (the test suite runs it), and a file named that amends one has them in its own
    # version's alternatives.
    unnamed_shipped = {str(path) for path in shipped} - shown
    compiled = {
        id(ruleset): alternatives(ruleset)
        for ruleset in registry.all()
        if ruleset.file not in unnamed_shipped
    }
    mine = [ruleset for ruleset in registry.all() if ruleset.file in shown]
    broken = [str(error) for ruleset in mine for error in alternative_errors(ruleset, compiled[id(ruleset)])]
    # A rule's message and docs in one language only: each reported once, where the rule is written
    # (a version that inherits it from the one it amends does not report it again); the readings'
    # alternative rules too (of the versions compiled under them, above).
    problems = dict.fromkeys(
        p
        for ruleset in registry.all()
        for rule in (*ruleset.rules, *alternative_rules(ruleset, compiled.get(id(ruleset), [])))
        for p in untranslated(rule)
    )
    # The header's notes, each reported once where it is written; likewise the provisions' reasons, and the
    # references to provisions the text does not have.
    problems.update(dict.fromkeys(p for ruleset in registry.all() for p in untranslated_notes(ruleset)))
    problems.update(dict.fromkeys(p for ruleset in registry.all() for p in untranslated_provisions(ruleset)))
    problems.update(dict.fromkeys(p for ruleset in registry.all() for p in untranslated_address(ruleset)))
    problems.update(dict.fromkeys(p for ruleset in mine for p in stray_problems(ruleset)))
    # The readings' question, alternatives and reason, likewise, each reported once where it is written.
    problems.update(
        dict.fromkeys(
            p
            for ruleset in registry.all()
            for reading in ruleset.readings.values()
            for p in reading.untranslated(TRANSLATED)
        )
    )
    if broken or problems:
        for problem in (*broken, *problems):
            typer.echo(problem, err=True)
        return 2
    for ruleset in registry.all():
        if ruleset.file in shown:
            typer.echo(f"{ruleset.file}: ok — {ruleset.version}, {len(ruleset.rules)} rules")
    for path, installed in candidates.items():
        for line in _as_candidate(registry, path, installed):
            typer.echo(line)
    return 0


def _candidates(paths: tuple[Path, ...], shipped: list[Path]) -> dict[Path, Path | None]:
    """The files named from outside the package whose family is a shipped one, each with the installed
    file of the same version (None: a version the package does not have)."""
    from validator.rulebook.registry import read_tree, tree_version  # start-up: loaded when this part runs

    families: dict[str, dict[str, Path]] = {}
    for path in shipped:
        tree = read_tree(path)
        families.setdefault(tree.family, {})[tree_version(tree)] = path
    found: dict[Path, Path | None] = {}
    for path in paths:
        try:
            tree = read_tree(path)
        except ValidatorError:
            continue  # reported where it is loaded, with its place
        if tree.family in families:
            found[path] = families[tree.family].get(tree_version(tree))
    return found


def _as_candidate(registry: Registry, path: Path, installed: Path | None) -> list[str]:
    """What `rules check` says of a candidate for a shipped version: what it replaces, and how the version
    it gives differs from the installed one."""
    from validator.rulebook.registry import (
        default_registry,
        read_tree,
        tree_version,
    )  # start-up: loaded when this part runs

    version = tree_version(read_tree(path))
    if installed is None:
        return [
            _(
                "{path}: a candidate new version {version} of a shipped ruleset (the package has no such "
                "version)"
            ).format(path=path, version=version)
        ]
    lines = [
        _("{path}: checked as a candidate for {version}, in place of the installed {installed}").format(
            path=path, version=version, installed=installed
        )
    ]
    mine = registry.pick(version)
    theirs = default_registry().pick(version)
    differences = list(diff_lines(theirs, mine))[2:]
    if not [line for line in differences if line.strip()]:
        lines.append("  " + _("the same as the installed version"))
    else:
        lines.append("  " + _("differs from the installed version:"))
        lines += [f"  {line}" for line in differences if line.strip()]
    return lines


def lsp(options: RulesLspOptions) -> int:
    """The language server for ruleset files, over standard input and output (the `lsp` extra)."""
    from validator.extras import require  # start-up: loaded when this part runs

    require("lsp", "rules lsp")  # i18n: not shown (a command, named as written)
    from validator.lsp.server import serve

    serve()
    return 0


def fmt(options: RulesFmtOptions) -> int:
    """Lay each ruleset file out in the language's one layout (`dsl.format`), in place; with `check`,
    change nothing and say which files are not laid out so (1 when one is). A file that does not parse is
    reported as `rules check` reports it (2)."""
    from validator.dsl.format import format_text  # start-up: loaded when this part runs
    from validator.errors import RulesetError  # start-up: loaded when this part runs

    paths = ruleset_files(options.files)
    check = options.check
    unformatted: list[Path] = []
    broken = False
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValidatorError(_("{path}: cannot be read ({error})").format(path=path, error=exc)) from None
        try:
            formatted = format_text(text, str(path))
        except RulesetError as exc:
            typer.echo(str(exc), err=True)
            broken = True
            continue
        if formatted == text:
            continue
        unformatted.append(path)
        if check:
            typer.echo(_("would reformat {path}").format(path=path))
        else:
            path.write_text(formatted, encoding="utf-8")
            typer.echo(_("reformatted {path}").format(path=path))
    if broken:
        return 2
    if check and unformatted:
        return 1
    left = len(paths) - len(unformatted)
    if check or not unformatted:
        typer.echo(_("{count} file(s) already formatted").format(count=left))
    return 0


def ruleset_files(files: Iterable[Path]) -> list[Path]:
    """The ruleset files named: files as given, folders expanded to every `*.rules` inside (recursively,
    sorted); a file named twice (or also through its folder) once."""
    paths: list[Path] = []
    seen: set[str] = set()
    for path in files:
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.rules") if p.is_file())
            if not found:
                raise ValidatorError(_("{path}: no ruleset file (*.rules) in this folder").format(path=path))
        elif path.exists():
            found = [path]
        else:
            raise ValidatorError(_("{path}: no such file or directory").format(path=path))
        for each in found:
            key = os.path.realpath(each)
            if key not in seen:
                seen.add(key)
                paths.append(each)
    return paths


def test(options: RulesTestOptions) -> int:
    """Run the rule fixtures: 1 when one fails, or none was found. With `coverage`, what of each version
    they exercise (1 when a version is below `fail_under` per cent); with `mutate`, the mutants of the
    rulesets (those of `only`'s files) no fixture kills (1 when one is not proven equivalent)."""
    from validator.checking.fixtures import default_fixture_dir, find_fixtures, run_fixture

    root = options.directory or default_fixture_dir()
    registry = common.registry()
    verbose, coverage, fail_under = options.verbose, options.coverage, options.fail_under
    mutate, only = options.mutate, list(options.only)
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise ValidatorError(
            _("--fail-under {value}: give a percentage from 0 to 100").format(value=fail_under)
        )
    if coverage or mutate or fail_under is not None:
        return _measured(
            registry, root, verbose, coverage or fail_under is not None, fail_under, mutate, only
        )
    passed = failed = 0
    for expect in find_fixtures(root):
        for result in run_fixture(registry, expect, root):
            passed, failed = _tell(result, verbose, passed, failed)
    return _tally(passed, failed)


def _tell(result: FixtureResult, verbose: bool, passed: int, failed: int) -> tuple[int, int]:
    if result.ok:
        if verbose:
            typer.echo(f"PASS: {result.label}")
        return passed + 1, failed
    typer.echo(f"FAIL: {result.label}")
    for problem in result.problems:
        typer.echo(f"  {problem}")
    return passed, failed + 1


def _tally(passed: int, failed: int) -> int:
    typer.echo("-" * 60)
    typer.echo(f"PASS: {passed}/{passed + failed}" + (f"   FAIL: {failed}" if failed else ""))
    return 1 if failed or not passed else 0


def _measured(
    registry: Registry,
    root: Path,
    verbose: bool,
    coverage: bool,
    fail_under: float | None,
    mutate: bool,
    only: list[Path] | None,
) -> int:
    """`rules test --coverage` / `--mutate`: the fixtures run probed, then what they exercise, then the
    mutants they leave alive."""
    from validator.checking import coverage as measuring
    from validator.checking.fixtures import find_fixtures

    # Read first: a malformed file stops the run before the fixtures are run.
    unreachable = read_unreachable(root) if coverage else []
    runs = measuring.plan_all(registry, find_fixtures(root), root)
    measured = measuring.measure(registry, runs, _from_outside(registry), unreachable)
    passed = failed = 0
    for result in measured.results:
        passed, failed = _tell(result, verbose, passed, failed)
    status = _tally(passed, failed)
    if coverage:
        for line in measuring.report_lines(measured):
            typer.echo(line)
        if measured.failed():
            status = 1
        below = [
            v for v in measured.versions if fail_under is not None and v.percent < Decimal(str(fail_under))
        ]
        for version in below:
            typer.echo(
                _("{version}: coverage {percent} % is below --fail-under {limit}").format(
                    version=version.version, percent=version.percent, limit=fail_under
                ),
                err=True,
            )
        if below:
            status = 1
    if mutate:
        from validator.checking import mutate as mutating
        from validator.checking.equivalents import read_declarations  # with --mutate only, as mutate

        files = [str(path) for path in only] if only else None
        declarations = read_declarations(root)
        outcome = mutating.run_mutants(registry, measured, files)
        found = mutating.declare(outcome, declarations)
        for line in mutating.report_lines(outcome, found):
            typer.echo(line)
        if outcome.surviving() or found.failed():
            status = 1
    return status


def _from_outside(registry: Registry) -> list[Ruleset]:
    """The versions of the rulesets from outside the package (`--rules`): `--coverage` reports them even
    when no case judges them (at 0 %), with every version the passing cases judge."""
    from validator.rulebook import sources  # start-up: loaded when this part runs

    extra = {os.path.realpath(path) for path in sources.extra()}
    return [r for r in registry.all() if _outside(r.file, extra)]


def _outside(file: str, extra: set[str]) -> bool:
    real = os.path.realpath(file)
    return any(real == path or real.startswith(path.rstrip(os.sep) + os.sep) for path in extra)
