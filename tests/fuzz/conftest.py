"""The fuzzing suite runs the command in this process; its helpers are importable as plain modules."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True)
def _no_parse_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # Thousands of damaged rulesets would each leave an entry in the user's cache folder.
    monkeypatch.setenv("CASINO_VALIDATOR_NO_CACHE", "1")


@pytest.fixture(autouse=True, scope="session")
def _registry_loaded() -> None:
    # The rulesets are read once per process (0.4 s, more on a busy machine): not in a case's time.
    from validator.registry import default_registry

    default_registry()
