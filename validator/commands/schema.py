"""`casino-validator schema`: the JSON Schemas of the formats read (hand-log/1, house-rules/1) and
written (the `json` output; a `jsonl` line is its `$defs/finding`), and the audit dataset's data
dictionary (`dataset`: every column of its Parquet tables, its type and what it holds)."""

from __future__ import annotations

import json
from importlib import import_module
from typing import TYPE_CHECKING, Any

import typer

from validator.errors import ValidatorError
from validator.i18n import _

if TYPE_CHECKING:
    from validator.commands.options import SchemaOptions

# The schemas `schema` prints, by name (the CLI's choices, in this order): the module and the function
# that gives each, imported when it is asked for.
SCHEMAS: dict[str, tuple[str, str]] = {
    "hand-log": ("validator.logs.reader", "load_schema"),
    "house-rules": ("validator.house.schema", "load_schema"),
    "findings": ("validator.formats.schema", "findings_schema"),
    "dataset": ("validator.audit.dataset.columns", "dictionary"),
}


def run(options: SchemaOptions) -> int:
    which = options.which
    if which not in SCHEMAS:
        raise ValidatorError(
            _("unknown schema {which!r}: choose {names}").format(which=which, names=_choices())
        )
    module, function = SCHEMAS[which]
    schema: dict[str, Any] = getattr(import_module(module), function)()
    typer.echo(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0


def _choices() -> str:
    """The schemas' names as the message lists them: `a, b, c or d`."""
    *first, last = SCHEMAS
    return _("{names} or {last}").format(names=", ".join(first), last=last)
