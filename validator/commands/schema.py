"""`casino-validator schema`: the JSON Schemas of the formats read (hand-log/1, house-rules/1) and
written (the `json` output; a `jsonl` line is its `$defs/finding`), and the audit dataset's data
dictionary (`dataset`: every column of its Parquet tables, its type and what it holds)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import typer

from validator.errors import ValidatorError
from validator.i18n import _


def run(which: str) -> int:
    load_schema: Callable[[], dict[str, Any]]
    if which == "hand-log":
        from validator.logs.reader import load_schema  # start-up: the module of the schema asked for only
    elif which == "house-rules":
        from validator.house.schema import load_schema  # start-up: as above
    elif which == "findings":
        from validator.formats.schema import findings_schema as load_schema  # start-up: as above
    elif which == "dataset":
        from validator.audit.dataset.columns import dictionary as load_schema  # start-up: as above
    else:
        raise ValidatorError(
            _("unknown schema {which!r}: choose hand-log, house-rules, findings or dataset").format(
                which=which
            )
        )
    typer.echo(json.dumps(load_schema(), indent=2, ensure_ascii=False))
    return 0
