"""Fuzzing the command with damaged logs, house-rules files and rulesets (tests/fuzz/mutators.py).

In the normal suite each kind runs a few examples (a few seconds in all). The long run is

    pytest -m fuzz -s tests/fuzz

with FUZZ_LOGS, FUZZ_HOUSES, FUZZ_RULESETS and FUZZ_FIXTURES examples (default 10,000, 3,000, 2,000 and
500: rule fixture folders for `rules test`); it prints what it saw. Every case must end without a
traceback, with a documented exit status, within 20 s of CPU, and, for a log, with as many rounds read
as an independent count of its lines finds (oracle.py).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from mutators import fixtures, houses, logs, rulesets
from oracle import Tally, check_fixtures, check_house, check_log, check_ruleset

QUICK = {"logs": 12, "houses": 12, "rulesets": 6, "fixtures": 4}
LONG = {
    "logs": int(os.environ.get("FUZZ_LOGS", "10000")),
    "houses": int(os.environ.get("FUZZ_HOUSES", "3000")),
    "rulesets": int(os.environ.get("FUZZ_RULESETS", "2000")),
    "fixtures": int(os.environ.get("FUZZ_FIXTURES", "500")),
}
_SETTINGS = {
    "deadline": None,
    "database": None,
    "suppress_health_check": list(HealthCheck),
}
TALLIES = {kind: Tally() for kind in QUICK}
_FOLDER = Path(tempfile.mkdtemp(prefix="casino-validator-fuzz-"))


@pytest.fixture(autouse=True)
def _no_parse_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # Thousands of damaged rulesets would each leave an entry in the user's cache folder.
    monkeypatch.setenv("CASINO_VALIDATOR_NO_CACHE", "1")


@pytest.fixture(autouse=True, scope="module")
def _registry_loaded() -> None:
    # The rulesets are read once per process (0.4 s, more on a busy machine): not in a case's time.
    from validator.rulebook.registry import default_registry

    default_registry()


def _write(name: str, data: bytes) -> Path:
    path = _FOLDER / name
    path.write_bytes(data)
    return path


def _log_case(case: tuple[bytes, bool]) -> None:
    data, zipped = case
    check_log(_write("case.jsonl.gz" if zipped else "case.jsonl", data), data, zipped, TALLIES["logs"])


def _house_case(data: bytes, with_log: bool) -> None:
    check_house(_write("house.yaml", data), TALLIES["houses"], with_log)


def _ruleset_case(data: bytes) -> None:
    check_ruleset(_write("case.rules", data), TALLIES["rulesets"])


def _fixture_case(case: tuple[bytes, bytes]) -> None:
    log, expect = case
    folder = _FOLDER / "fixtures" / "fr" / "case"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "case.jsonl").write_bytes(log)
    (folder / "case.expect.json").write_bytes(expect)
    check_fixtures(_FOLDER / "fixtures", TALLIES["fixtures"])


@settings(max_examples=QUICK["logs"], **_SETTINGS)
@given(logs())
def test_damaged_logs(case):
    _log_case(case)


@settings(max_examples=QUICK["houses"], **_SETTINGS)
@given(houses())
def test_damaged_house_files(data):
    _house_case(data, with_log=True)


@settings(max_examples=QUICK["rulesets"], **_SETTINGS)
@given(rulesets())
def test_damaged_rulesets(data):
    _ruleset_case(data)


@settings(max_examples=QUICK["fixtures"], **_SETTINGS)
@given(fixtures())
def test_damaged_rule_fixtures(case):
    _fixture_case(case)


@pytest.mark.fuzz
@settings(max_examples=LONG["logs"], **_SETTINGS)
@given(logs())
def test_long_damaged_logs(case):
    _log_case(case)


@pytest.mark.fuzz
@settings(max_examples=LONG["houses"], **_SETTINGS)
@given(houses())
def test_long_damaged_house_files(data):
    # `check --house` once in ten cases: it replays a log, ten times the cost of `lint`.
    _house_case(data, with_log=hash(data) % 10 == 0)


@pytest.mark.fuzz
@settings(max_examples=LONG["rulesets"], **_SETTINGS)
@given(rulesets())
def test_long_damaged_rulesets(data):
    _ruleset_case(data)


@pytest.mark.fuzz
@settings(max_examples=LONG["fixtures"], **_SETTINGS)
@given(fixtures())
def test_long_damaged_rule_fixtures(case):
    _fixture_case(case)


@pytest.mark.fuzz
def test_long_run_report():
    # Printed with -s: the figures of the long run (the tests above, when run before this one).
    for kind, tally in TALLIES.items():
        if tally.cases:
            print(tally.line(kind))
