"""Versions as amendments: a later wording is written as what its amending text did to the version
before it, and the consolidated version of a date is resolved here, before compiling.

A file that says `amends fr/blackjack@2013-12-15` inherits every parameter, option, fixed value, side
bet and rule of the version in force on that date, then applies its `amendment "…" { … }` blocks in
order: `add` an item the version before did not have, `replace` one it had (written whole, as the
amending text rewrites a paragraph), `repeal` one. Each change is checked against the version it
amends — adding what exists, or replacing or repealing what does not, is an error at its line — so the
versions cannot silently disagree, as copies could. The amending file gives its own title, source,
dates and notes; the game is inherited.

A file may amend another family's version (`ruleset zz/acme-blackjack` + `amends fr/blackjack@2024-11-01`):
a variant of a text, or another jurisdiction's copy of it, written as what it changes. Its rules take its
own id (`zz/acme-blackjack/…`); where each item was written stays known (`origins`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from validator.dsl import ast
from validator.errors import RulesetError, RulesetErrors
from validator.i18n import _


def consolidate(tree: ast.RulesetFile, base: ast.RulesetFile, base_version: str) -> ast.RulesetFile:
    """`tree` (an amending file) applied to `base` (already consolidated): one whole version."""
    assert tree.amends is not None
    errors: list[RulesetError] = []

    def error(pos: ast.Pos, message: str) -> None:
        errors.append(RulesetError(tree.file, pos.line, pos.column, message))

    for kind, field in ast.AMENDABLE.items():
        for item in getattr(tree, field):
            error(
                item.pos,
                _(
                    "this file amends {version}: the {kind} {name} must sit in an "
                    '`amendment "…" {{ … }}` block that cites the text making the change '
                    "(add, replace or repeal)"
                ).format(version=base_version, kind=kind, name=item.name),
            )

    items = items_of(base)
    origin: dict[tuple[str, str], str] = {
        (kind, item.name): base.file_of(kind, item.name) for kind, found in items.items() for item in found
    }
    for amendment in tree.amendments:
        apply_changes(items, amendment.changes, base_version, error, origin, tree.file)
    if errors:
        raise RulesetErrors(errors)

    headers = tree.headers
    for inherited in ("game", "side_bets_alias"):  # the same game, the same words, unless it says others
        if not any(h.key == inherited for h in headers):
            headers = (*headers, *(h for h in base.headers if h.key == inherited))
    return with_items(
        tree,
        items,
        headers=headers,
        origins=tuple((kind, name, file) for (kind, name), file in origin.items() if file != tree.file),
    )


def items_of(tree: ast.RulesetFile) -> dict[str, list[Any]]:
    """A version's amendable items, kind by kind, in order (lists a change may edit)."""
    return {kind: list(getattr(tree, field)) for kind, field in ast.AMENDABLE.items()}


def with_items(tree: ast.RulesetFile, items: dict[str, list[Any]], **other: Any) -> ast.RulesetFile:
    """`tree` holding `items` (what `items_of` gave, changed), and the `other` fields given."""
    fields: dict[str, Any] = {field: tuple(items[kind]) for kind, field in ast.AMENDABLE.items()}
    return replace(tree, **fields, **other)


def apply_changes(
    items: dict[str, list[Any]],
    changes: tuple[ast.Change, ...],
    base_version: str,
    error: Callable[[ast.Pos, str], None],
    origin: dict[tuple[str, str], str] | None = None,
    file: str = "",
) -> None:
    """Apply add, replace and repeal changes to `items` in place (an amendment's, or a reading's
    alternative's); each change that does not fit the version it edits is an `error` at its line."""
    for change in changes:
        found = items[change.kind]
        at = next((i for i, item in enumerate(found) if item.name == change.name), None)
        what = f"{change.kind} {change.name}"
        if change.verb == "add":
            if at is not None:
                error(
                    change.pos,
                    _("{what} is already in {version}: replace it instead of adding it").format(
                        what=what, version=base_version
                    ),
                )
                continue
            place = len(found)
            if change.after is not None:
                anchor = next((i for i, item in enumerate(found) if item.name == change.after), None)
                if anchor is None:
                    error(
                        change.pos,
                        _("no {kind} {anchor} to add {name} after").format(
                            kind=change.kind, anchor=change.after, name=change.name
                        ),
                    )
                    continue
                place = anchor + 1
            found.insert(place, change.item)
            if origin is not None:
                origin[(change.kind, change.name)] = file
        elif at is None:
            error(
                change.pos,
                _("{version} has no {what} to {verb}").format(
                    version=base_version, what=what, verb=change.verb
                ),
            )
        elif change.verb == "replace":
            found[at] = change.item
            if origin is not None:
                origin[(change.kind, change.name)] = file
        else:
            del found[at]
            if origin is not None:
                origin.pop((change.kind, change.name), None)


def in_force_on(tree: ast.RulesetFile, day: Any) -> bool:
    """Whether the file's own `in force` header covers `day` (read before compiling, to find a base)."""
    for header in tree.headers:
        if header.key == "in_force":
            start, end = header.value
            return (start is None or start <= day) and (end is None or day <= end)
    return False


def undated(tree: ast.RulesetFile) -> bool:
    """Whether the file says `in force undated` (a text that carries no date, applied to every date)."""
    return any(h.key == "in_force" and h.value == (None, None) for h in tree.headers)
