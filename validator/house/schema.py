"""The house-rules/1 JSON Schema, shipped in the package beside this module (`schema.json`)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_schema() -> dict[str, Any]:
    """The house-rules/1 JSON Schema, freshly parsed (callers may change their copy)."""
    text = resources.files("validator.house").joinpath("schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
