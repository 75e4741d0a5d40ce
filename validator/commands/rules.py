"""`casino-validator rules list|show|diff|check|test`: read, check, compare and test the rulesets."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from validator.commands import common
from validator.errors import RulesetErrors, ValidatorError
from validator.i18n import _

if TYPE_CHECKING:
    from validator.commands.options import (
        RulesCheckOptions,
        RulesDiffOptions,
        RulesListOptions,
        RulesShowOptions,
        RulesTestOptions,
    )


def list_(options: RulesListOptions) -> int:
    """Families, their versions and the dates each is in force; with `ids`, every rule id instead."""
    from validator.rulebook.view import all_rule_ids, list_lines

    registry = common.registry()
    for line in all_rule_ids(registry) if options.ids else list_lines(registry):
        typer.echo(line)
    return 0


def show(options: RulesShowOptions) -> int:
    """A ruleset version resolved (ID, ID@DATE), or one rule (of a ruleset, or Python-side) with its
    docs (RULE, or RULE@DATE: the wording in force that day); a name that is neither gets the closest."""
    from validator.rulebook.view import close_rule_ids, is_rule_id, rule_lines, show_lines

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
    from validator.rulebook.builtin_docs import BUILTIN

    return name.split("/")[0] in {rule_id.split("/")[0] for rule_id in BUILTIN}


def diff(options: RulesDiffOptions) -> int:
    """What changed between two versions, parameter by parameter and rule by rule."""
    from validator.rulebook.view import diff_lines

    registry = common.registry()
    for line in diff_lines(registry.pick(options.old), registry.pick(options.new)):
        typer.echo(line)
    return 0


def check(options: RulesCheckOptions) -> int:
    """Each file's syntax and meaning; every error as FILE:LINE:COL: message (exit 2). The files are read
    with the shipped rulesets and those from outside (`--rules`), so a file may amend a version of either;
    only the files named are reported."""
    from validator.dsl.resources import rulesets_dir
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

    paths = ruleset_files(options.files)
    shipped_named = {os.path.realpath(path) for path in shipped_files(rulesets_dir())}
    outside = tuple(path for path in paths if os.path.realpath(path) not in shipped_named)
    sources.counted(outside, "rules check")  # i18n: not shown (a command, named as written)
    named = {os.path.realpath(path) for path in paths}
    root = rulesets_dir()
    shipped = shipped_files(root)
    inside = {os.path.realpath(path) for path in shipped}
    pool = [*paths]
    pool += [path for path in (*shipped, *sources.extra()) if os.path.realpath(path) not in named]
    try:
        refuse_shipped_ids(
            tuple(path for path in paths if os.path.realpath(path) not in inside),
            {tree_family(path) for path in shipped},
        )
        registry = load_all(pool)
    except RulesetErrors as exc:
        for error in exc.errors:
            typer.echo(str(error), err=True)
        return 2
    from validator.dsl.compiler import TRANSLATED, untranslated, untranslated_notes

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
    # The header's notes, each reported once where it is written.
    problems.update(dict.fromkeys(p for ruleset in registry.all() for p in untranslated_notes(ruleset)))
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
    """Run the rule fixtures: 1 when one fails, or none was found."""
    from validator.rulebook.fixtures import default_fixture_dir, find_fixtures, run_fixture

    passed = failed = 0
    root = options.directory or default_fixture_dir()
    registry = common.registry()
    for expect in find_fixtures(root):
        for result in run_fixture(registry, expect, root):
            label = result.name + (f" @ {result.ruleset}" if result.ruleset else "")
            if result.ok:
                passed += 1
                if options.verbose:
                    typer.echo(f"PASS: {label}")
            else:
                failed += 1
                typer.echo(f"FAIL: {label}")
                for problem in result.problems:
                    typer.echo(f"  {problem}")
    typer.echo("-" * 60)
    typer.echo(f"PASS: {passed}/{passed + failed}" + (f"   FAIL: {failed}" if failed else ""))
    return 1 if failed or not passed else 0
