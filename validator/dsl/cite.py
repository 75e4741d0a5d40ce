"""One check, several texts: `same check as FAMILY@DATE rule NAME`, looked up before compiling.

Two texts may require the same thing (the French arrêté and Ontario's licence both want six decks in
the shoe). The second writes its rule with its own reference, severity, message and docs, and says
which rule's check it applies:

    rule six-decks {
        ref "Licence …, section 2"
        …
        same check as fr/blackjack@2024-11-01 rule six-decks
    }

Here the citation is looked up in the version in force on the date given (the family's undated version
when no date is given), as `amends` looks up the version it amends, and the cited rule's clauses
(`on … require`, `settle`) are put in the citing rule, which then compiles as if it had written them:
with the citing ruleset's parameters, house options and named conditions, the events and facts of its
game (`rules check` refuses what does not fit, at the citation's line), its id and its reference.

A rule that writes clauses of its own takes no other's, and a rule that takes its check from another
cannot be cited in turn (the citation names the rule that writes the check): citations never chain, so
they cannot make a cycle.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from validator.dsl import ast
from validator.errors import RulesetError, RulesetErrors
from validator.i18n import _


class NotCitable(LookupError):
    """The version a citation names cannot be found (no version in force that day, or several)."""


# (family, date or None for the undated version) → the cited version, consolidated, and its name
# (ID@DATE as the registry names it); NotCitable when there is none.
Find = Callable[[str, date | None], tuple[ast.RulesetFile, str]]


def cites(tree: ast.RulesetFile) -> bool:
    """Whether some rule of the version (or of one of its readings' alternatives) takes another's check."""
    return any(rule.same_checks for rule in _rules_of(tree))


def resolve(tree: ast.RulesetFile, find: Find) -> ast.RulesetFile:
    """`tree` with each citing rule holding the clauses of the rule it cites (the tree itself when no rule
    cites one); every citation that cannot be followed is a RulesetError at its line."""
    if not cites(tree):
        return tree
    errors: list[RulesetError] = []
    rules = tuple(_resolved(rule, tree.file_of("rule", rule.name), find, errors) for rule in tree.rules)
    readings = tuple(
        replace(
            reading,
            alternatives=tuple(
                replace(
                    alt,
                    changes=tuple(
                        replace(
                            change,
                            item=_resolved(change.item, tree.file_of("reading", reading.name), find, errors),
                        )
                        if isinstance(change.item, ast.RuleDecl)
                        else change
                        for change in alt.changes
                    ),
                )
                for alt in reading.alternatives
            ),
        )
        for reading in tree.readings
    )
    if errors:
        raise RulesetErrors(errors)
    return replace(tree, rules=rules, readings=readings)


def _rules_of(tree: ast.RulesetFile) -> list[ast.RuleDecl]:
    found = list(tree.rules)
    for reading in tree.readings:
        for alt in reading.alternatives:
            found.extend(c.item for c in alt.changes if isinstance(c.item, ast.RuleDecl))
    return found


def _resolved(rule: ast.RuleDecl, file: str, find: Find, errors: list[RulesetError]) -> ast.RuleDecl:
    if not rule.same_checks or rule.same_checks[0].version:
        return rule

    def error(pos: ast.Pos, message: str) -> ast.RuleDecl:
        errors.append(RulesetError(file, pos.line, pos.column, message))
        return rule

    same = rule.same_checks[0]
    if len(rule.same_checks) > 1:
        second = rule.same_checks[1]
        return error(
            second.pos,
            _("rule {rule!r} takes its check from two rules ({first}, {second}): a rule takes one").format(
                rule=rule.name, first=same.cited, second=second.cited
            ),
        )
    if rule.checks or rule.settles:
        return error(
            same.pos,
            _(
                "rule {rule!r} writes clauses of its own and takes the check of {cited}: a rule either "
                "writes its check or takes another's"
            ).format(rule=rule.name, cited=same.cited),
        )
    try:
        version_tree, version = find(same.family, same.on)
    except NotCitable as exc:
        return error(same.pos, str(exc))
    except RulesetErrors as exc:  # the version cited does not compile: its own errors say why
        errors.extend(exc.errors)
        return rule
    cited = next((r for r in version_tree.rules if r.name == same.rule), None)
    if cited is None:
        near = difflib.get_close_matches(same.rule, [r.name for r in version_tree.rules], n=1)
        hint = _("; did you mean {name!r}?").format(name=near[0]) if near else ""
        return error(
            same.pos,
            _("{version} has no rule {rule!r} to take the check of{hint}").format(
                version=version, rule=same.rule, hint=hint
            ),
        )
    if cited.same_checks:
        return error(
            same.pos,
            _(
                "{version} rule {rule!r} takes its own check from {source}: cite that rule, which "
                "writes it (a check is taken from the rule that writes it, so citations never chain)"
            ).format(version=version, rule=same.rule, source=cited.same_checks[0].cited),
        )
    found = replace(
        same,
        version=version,
        file=version_tree.file_of("rule", cited.name),
        line=cited.pos.line,
    )
    return replace(rule, checks=cited.checks, settles=cited.settles, same_checks=(found,))


def not_citable(family: str, on: date | None, found: list[Any]) -> NotCitable:
    """Why no single version of `family` answers a citation (`found`: the versions that matched)."""
    if on is None:
        if found:
            return NotCitable(
                _("{family} has more than one undated version to take a check from").format(family=family)
            )
        return NotCitable(
            _(
                "{family} has no undated version to take a check from: cite the version in force on a "
                "date ({family}@YYYY-MM-DD)"
            ).format(family=family)
        )
    why = (
        _("more than one version of {family} is in force on {day} to take a check from")
        if found
        else _("no version of {family} is in force on {day} to take a check from")
    )
    return NotCitable(why.format(family=family, day=on.isoformat()))
