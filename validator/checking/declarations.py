"""The declaration files of a rule fixtures folder (`equivalent-mutants.json`, `unreachable-outcomes.json`):
each a JSON object whose one key names a list of declarations, read alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError
from validator.i18n import _


def declared_items(path: Path, key: str) -> list[Any]:
    """The list under `key` of the file at `path` (none without the file). A file not of that shape is a
    `ValidatorError` naming it (exit 2)."""
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValidatorError(_("{path}: cannot be read: {error}").format(path=path, error=error)) from None
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list) or set(data) != {key}:
        raise ValidatorError(
            _("{path}: an object with one key, '{key}', a list of declarations").format(path=path, key=key)
        )
    return items
