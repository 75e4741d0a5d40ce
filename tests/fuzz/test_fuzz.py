"""Fuzzing the command with damaged logs, house-rules files and rulesets (tests/fuzz/mutators.py).

In the normal suite each kind runs a few examples (about ten seconds in all). The long run is the same
tests with many more examples each,

    CASINO_VALIDATOR_FUZZ=long pytest -n 0 -s tests/fuzz tests/logs/test_decode.py

with FUZZ_LOGS, FUZZ_HOUSES, FUZZ_RULESETS, FUZZ_FIXTURES, FUZZ_CONFIGS, FUZZ_BASELINES, FUZZ_DATASETS,
FUZZ_URLS, FUZZ_ADDRESSES, FUZZ_OUTSIDE_RULESETS, FUZZ_WATCHES and FUZZ_OVERLAPS examples (defaults below:
rule fixture folders for `rules test`, datasets given to `report`, URLs of logs, `--scheduler` addresses;
and, since issue 42, rulesets from outside whose named conditions, sums, nesting, readings and chains of
versions expand, folders watched across restarts while their logs are written and rotated and the
watches stopped by bursts of signals or killed, and datasets of overlapping logs given to one `report`);
it prints what it saw. Every case must end without a traceback, with a documented exit status, within
20 s of CPU, and without a hang (a case that uses under 0.5 s of CPU in 120 s of wall-clock), and, for
a log, with as many rounds read as an independent count of its lines finds; a watched folder's report
holds every finding `check` gives for its files exactly once; a report over overlapping datasets counts
each distinct log's rounds once (oracle.py). A case of the last three runs several commands: each one's
status is counted.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import tempfile
from datetime import date
from functools import cache
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inprocess import invoke
from mutators import (
    OVERLAPPING,
    addresses,
    baselines,
    configs,
    dataset_damages,
    fixtures,
    houses,
    logs,
    outside_rulesets,
    overlaps,
    rulesets,
    seed_rulesets,
    urls,
    watch_scripts,
)
from oracle import (
    Tally,
    check_address,
    check_baseline,
    check_config,
    check_fixtures,
    check_house,
    check_log,
    check_outside_ruleset,
    check_overlaps,
    check_report,
    check_ruleset,
    check_url,
    check_watch_script,
    damage_dataset,
)

ROOT = Path(__file__).resolve().parents[2]
CLEAN = ROOT / "samples" / "logs" / "clean" / "BA-01-2025-01-31.jsonl"
DISPUTES = ROOT / "samples" / "logs" / "disputes"
FIXTURE_RULESETS = ROOT / "tests" / "fixtures" / "rulesets"

QUICK = {
    "logs": 12,
    "houses": 12,
    "rulesets": 6,
    "fixtures": 4,
    "configs": 6,
    "baselines": 4,
    "datasets": 4,
    "urls": 6,
    "addresses": 6,
    "outside_rulesets": 2,
    "watches": 1,
    "overlaps": 1,
}
_DEFAULTS = {
    "logs": 10000,
    "houses": 3000,
    "rulesets": 2000,
    "fixtures": 500,
    "configs": 1000,
    "baselines": 500,
    "datasets": 500,
    "urls": 500,
    "addresses": 300,
    "outside_rulesets": 300,
    "watches": 40,
    "overlaps": 100,
}
LONG = {kind: int(os.environ.get(f"FUZZ_{kind.upper()}", str(n))) for kind, n in _DEFAULTS.items()}
# The examples each kind runs: a few in the suite, the long run's when asked (the module's text).
SIZES = LONG if os.environ.get("CASINO_VALIDATOR_FUZZ") == "long" else QUICK
_SETTINGS = {
    "deadline": None,
    "database": None,
    "suppress_health_check": list(HealthCheck),
}
TALLIES = {kind: Tally() for kind in QUICK}
_FOLDER = Path(tempfile.mkdtemp(prefix="casino-validator-fuzz-"))


def test_the_hang_alarm_tells_a_wait_from_slow_work() -> None:
    """The alarm stops a case that used under HANG_CPU s of CPU since the last ring (it waits on
    nothing that comes) or over TIMEOUT s in all; a case that used more since the last ring is let go on
    (a busy machine, not a hang), the alarm set again."""
    import signal
    import time

    from oracle import HANG_CPU, TIMEOUT, Hang, _alarm

    now = time.process_time()
    with pytest.raises(Hang):
        _alarm([now, now])(signal.SIGALRM, None)
    with pytest.raises(Hang):
        _alarm([now - 2 * HANG_CPU, now - 2 * TIMEOUT])(signal.SIGALRM, None)
    since = [now - 2 * HANG_CPU, now - 2 * HANG_CPU]
    try:
        _alarm(since)(signal.SIGALRM, None)
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 0 and since[0] >= now
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


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


def _seeds_beside(seed: Path) -> list[Path]:
    """The seeds checked with `seed` (itself included): the seeds of its folder, the versions an amendment
    there may amend; but a seed of tests/fixtures/rulesets alone, as those are unrelated examples (two of
    them overlap on purpose) among broken files."""
    if seed.parent == FIXTURE_RULESETS:
        return [seed]
    return [path for path, _ in seed_rulesets() if path.parent == seed.parent]


def _seed_folder(seed: Path) -> Path:
    """A copy of the seeds of `seed`'s folder, made afresh."""
    folder = _FOLDER / "rulesets" / seed.parent.name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for path in _seeds_beside(seed):
        shutil.copyfile(path, folder / path.name)
    return folder


def _ruleset_case(case: tuple[Path, bytes]) -> None:
    """The damaged file in place of its seed, in a copy of the seed's folder, checked with the versions
    beside it named (an amendment is checked with the versions it amends, which are read only when
    named)."""
    seed, data = case
    folder = _seed_folder(seed)
    (folder / seed.name).write_bytes(data)
    beside = tuple(folder / path.name for path in _seeds_beside(seed) if path.name != seed.name)
    check_ruleset(folder / seed.name, TALLIES["rulesets"], beside)


@pytest.mark.parametrize(
    "seeds",
    sorted({tuple(_seeds_beside(path)) for path, _ in seed_rulesets()}),
    ids=lambda seeds: seeds[0].parent.name if len(seeds) > 1 else seeds[0].name,
)
def test_every_ruleset_seed_passes_rules_check(seeds: tuple[Path, ...]) -> None:
    """A seed refused before any mutation tests nothing: every seed passes `rules check` as it is, each
    named with the other seeds of its folder (as its damaged copies are checked), in one run a folder."""
    folder = _seed_folder(seeds[0])
    copies = [folder / seed.name for seed in seeds]
    ran = invoke("rules", "check", *map(str, copies))
    assert ran.code == 0, ran.stderr
    for copy in copies:
        assert any(line.startswith(f"{copy}: ok") for line in ran.stdout.splitlines()), ran.stdout


@cache
def _seed_baseline() -> bytes:
    """The baseline `--write-baseline` writes for the dispute samples."""
    path = _FOLDER / "seed-baseline.json"
    assert invoke("check", str(DISPUTES), "-q", "--write-baseline", str(path)).code == 0
    return path.read_bytes()


def _priced(logs: list[Path]) -> None:
    """`report` prices each version its rounds were judged by (validator/audit/theory.py, through
    validator/maths/api.py, which computes a version's figures once a process): the same figures in every
    case that holds that version, computed here, not in a case's time, whose limit (oracle.TIMEOUT)
    bounds the work a damaged input makes. With no kept figures (`validator/maths/kept.py`: a fresh
    cache, or one whose entries another build of the program replaced), the first `report` of the seed
    dataset took 21.5 s of CPU on the shared machine (0.6 s the next): a case failed at 20.7 s, then
    passed when Hypothesis ran it again. Only the versions of `logs` (what the case's report prices)."""
    from validator.errors import ValidatorError
    from validator.maths.api import table_theory

    for path in logs:
        for family, day in _versions_of(path):
            # As the report: a version it cannot price (a payout left to house rules none gives) has no
            # figure.
            with contextlib.suppress(ValidatorError):
                table_theory(family, day)


@cache
def _versions_of(path: Path) -> frozenset[tuple[str, date]]:
    """The versions a sample log's rounds are judged by: (family, the day it is in force from), as the
    report names them (validator/audit/theory.py `_priced`)."""
    from validator.rulebook.registry import default_registry

    data = path.read_bytes()
    found = set()
    family = None
    for line in (gzip.decompress(data) if path.suffix == ".gz" else data).splitlines():
        record = orjson.loads(line)
        if record["type"] == "table":
            family = record["ruleset"]
        elif record["type"] == "round" and family is not None:
            version = default_registry().in_force(family, date.fromisoformat(record["at"][:10]))
            found.add((version.family, version.valid_from or date.today()))
    return frozenset(found)


@cache
def _seed_dataset() -> Path:
    root = _FOLDER / "seed-dataset"
    assert invoke("check", str(DISPUTES), "-q", "--dataset", str(root)).code == 1
    _priced(sorted(DISPUTES.glob("*.jsonl")))
    return root


@cache
def _url_folder() -> str:
    import tarfile
    import zipfile

    folder = _FOLDER / "urls"
    folder.mkdir(exist_ok=True)
    shutil.copy(CLEAN, folder / "log.jsonl")
    with zipfile.ZipFile(folder / "logs.zip", "w") as archive:
        archive.write(CLEAN, "log.jsonl")
    with tarfile.open(folder / "logs.tar", "w") as archive:
        archive.add(CLEAN, "log.jsonl")
    return str(folder)


def _config_case(case: tuple[str, bytes]) -> None:
    name, data = case
    folder = _FOLDER / "config"
    folder.mkdir(exist_ok=True)
    (folder / "baseline.json").write_bytes(_seed_baseline())
    path = folder / name
    path.write_bytes(data)
    check_config(path, CLEAN, TALLIES["configs"])


def _baseline_case(data: bytes) -> None:
    check_baseline(_write("baseline.json", data), DISPUTES, TALLIES["baselines"])


def _dataset_case(damages: list[tuple[str, int, int]]) -> None:
    root = _FOLDER / "case-dataset" / "ds"
    shutil.rmtree(root.parent, ignore_errors=True)
    shutil.copytree(_seed_dataset(), root)
    damage_dataset(root, damages)
    check_report(root, TALLIES["datasets"])


_DATASET_FILES = 8  # damages pick among the files by index, modulo their number


def _fixture_case(case: tuple[bytes, bytes]) -> None:
    log, expect = case
    folder = _FOLDER / "fixtures" / "fr" / "case"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "case.jsonl").write_bytes(log)
    (folder / "case.expect.json").write_bytes(expect)
    check_fixtures(_FOLDER / "fixtures", TALLIES["fixtures"])


@settings(max_examples=SIZES["logs"], **_SETTINGS)
@given(logs())
def test_damaged_logs(case):
    _log_case(case)


@settings(max_examples=SIZES["houses"], **_SETTINGS)
@given(houses())
def test_damaged_house_files(data):
    _house_case(data, with_log=True)


@settings(max_examples=SIZES["rulesets"], **_SETTINGS)
@given(rulesets())
def test_damaged_rulesets(data):
    _ruleset_case(data)


@settings(max_examples=SIZES["fixtures"], **_SETTINGS)
@given(fixtures())
def test_damaged_rule_fixtures(case):
    _fixture_case(case)


@settings(max_examples=SIZES["configs"], **_SETTINGS)
@given(configs())
def test_damaged_configuration_files(case):
    _config_case(case)


@settings(max_examples=SIZES["baselines"], **_SETTINGS)
@given(st.data())
def test_damaged_baselines(data):
    _baseline_case(data.draw(baselines(_seed_baseline())))


@settings(max_examples=SIZES["datasets"], **_SETTINGS)
@given(dataset_damages(_DATASET_FILES))
def test_damaged_datasets(damages):
    _dataset_case(damages)


@settings(max_examples=SIZES["urls"], **_SETTINGS)
@given(st.data())
def test_odd_urls(data):
    check_url(data.draw(urls(_url_folder())), TALLIES["urls"])


@settings(max_examples=SIZES["addresses"], **_SETTINGS)
@given(addresses())
def test_odd_scheduler_addresses(address):
    check_address(address, CLEAN, TALLIES["addresses"])


@cache
def _short_log() -> Path:
    """The first 30 lines of the 2025 blackjack sample: judged by a ruleset from outside in force then."""
    import gzip

    data = gzip.decompress((ROOT / "samples" / "logs" / "clean" / "BJ-07-2025-03-14.jsonl.gz").read_bytes())
    return _write("short-2025.jsonl", b"".join(data.splitlines(keepends=True)[:30]))


def _outside_case(case: tuple[list[bytes], bool]) -> None:
    files, all_readings = case
    check_outside_ruleset(_FOLDER / "outside", files, all_readings, _short_log(), TALLIES["outside_rulesets"])


@settings(max_examples=SIZES["outside_rulesets"], **_SETTINGS)
@given(outside_rulesets())
def test_expanding_rulesets_from_outside(case):
    _outside_case(case)


@settings(max_examples=SIZES["watches"], **_SETTINGS)
@given(watch_scripts())
def test_watched_folders_rotated_and_signalled(script):
    check_watch_script(_FOLDER / "watch", script, TALLIES["watches"])


@settings(max_examples=SIZES["overlaps"], **_SETTINGS)
@given(overlaps())
def test_overlapping_datasets(datasets):
    _priced([OVERLAPPING[index] for chosen in datasets for index, _copied in chosen])
    check_overlaps(_FOLDER / "overlaps", datasets, TALLIES["overlaps"])


def test_the_run_report():
    # Printed with -s: the figures of the run (the tests above, when run before this one in one
    # process: `CASINO_VALIDATOR_FUZZ=long pytest -n 0 -s tests/fuzz`).
    for kind, tally in TALLIES.items():
        if tally.cases:
            print(tally.line(kind))
