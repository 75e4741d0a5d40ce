"""The report as an auditor opens it: headless Chromium (Debian's `chromium`), network cut, the page
opened from disk. Every section and chart must render, the console must stay free of errors, nothing
may be fetched, and a finding's step-by-step account must open on a click. A screenshot of each section
is taken (into $CASINO_VALIDATOR_SCREENSHOTS when set, e.g. docs/screenshots; else a temporary folder).

Without chromium the tests are skipped, saying so; under CI (CI=true) they fail instead: `.ci/browser`
installs it.
"""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pytest
from browser import Browser, find_chromium
from seance import write_seance

from validator.audit.dataset.writer import DatasetRun
from validator.audit.html import render, rule_docs
from validator.audit.query import build
from validator.checking.serial import check_logs
from validator.findings.finding import Summary
from validator.house.apply import house_lookup
from validator.rulebook.registry import default_registry

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("overview", "rules", "money", "dealers", "pairs", "hold", "findings")


def _dataset(root: Path, paths: list[str], house: Path | None, cwd: Path) -> None:
    """The logs checked from `cwd`, so that the report names them as a user's run would."""
    here = Path.cwd()
    os.chdir(cwd)
    try:
        _check(root, paths, house)
    finally:
        os.chdir(here)


def _check(root: Path, paths: list[str], house: Path | None) -> None:
    registry = default_registry()
    lookup = house_lookup(house, registry)[0] if house else None
    run = DatasetRun.start(str(root), paths, {}, str(house) if house else None)
    summary = Summary()
    for _ in run.writer().write_all(check_logs(registry, paths, house=lookup, summary=summary, collect=True)):
        pass
    run.commit(summary)


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    """Two datasets in one report: the samples, and a séance where dealer D-12 overpays player P2."""
    tmp = tmp_path_factory.mktemp("browser")
    _dataset(tmp / "samples", ["samples"], ROOT / "samples" / "house" / "trouville.yaml", ROOT)
    write_seance(tmp / "seance.jsonl", rounds=800, seed=5, pair=("D-12", "P2"), rate=0.15)
    _dataset(tmp / "seance", ["seance.jsonl"], None, tmp)
    audit = build([str(tmp / "samples"), str(tmp / "seance")], theory={"BA-01": (Decimal("0.023"), 1.0)})
    path = tmp / "audit.html"
    path.write_text(render(audit, rule_docs(default_registry())), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def browser():
    executable = find_chromium()
    if executable is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed, and CI=true: run .ci/browser first")
        pytest.skip(
            "chromium is not installed (apt-get install chromium, or .ci/browser): browser tests skipped"
        )
    opened = Browser(executable)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def opened(browser, page):
    browser.open(page)
    browser.wait_for("document.readyState == 'complete'", timeout=60)
    return browser


def test_every_section_and_chart_rendered(opened) -> None:
    for section in SECTIONS:
        assert opened.evaluate(f"document.getElementById('{section}').offsetHeight") > 100, section
    charts = opened.evaluate(
        "Array.from(document.querySelectorAll('figure.chart')).map(e => "
        "[e.querySelector('figcaption').innerText, e.querySelectorAll('svg').length,"
        " e.querySelectorAll('svg .mark').length,"
        " e.querySelector('svg') ? e.querySelector('svg').getBoundingClientRect().height : 0])"
    )
    assert len(charts) == 8
    for caption, svgs, marks, height in charts:
        assert svgs == 1 and marks > 0 and height > 100, caption


def test_no_console_error_and_nothing_fetched(opened, page) -> None:
    assert opened.console_errors() == []
    assert opened.requests() == [page.resolve().as_uri()]


def test_the_planted_pair_is_shown_flagged(opened) -> None:
    assert opened.evaluate("document.querySelector('#pairs .verdict').dataset.flagged") == "1"
    row = opened.evaluate("document.querySelector('#pairs tr[data-flagged=yes]').innerText")
    assert row.startswith("D-12\tP2")


def test_a_findings_trace_opens(opened) -> None:
    assert opened.evaluate("document.querySelector('details.round').open") is False
    visible = "document.querySelector('details.round pre.trace').checkVisibility()"
    assert opened.evaluate(visible) is False
    opened.click("details.round summary")
    assert opened.evaluate("document.querySelector('details.round').open") is True
    assert opened.evaluate(visible) is True
    assert opened.evaluate("document.querySelector('details.round pre.trace').offsetHeight") > 50
    text = opened.evaluate("document.querySelector('details.round pre.trace').innerText")
    assert text.startswith("Round ") and "the log shows" in text


def test_screenshot_of_each_section(opened, tmp_path) -> None:
    folder = Path(os.environ.get("CASINO_VALIDATOR_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    for section in SECTIONS:
        target = folder / f"audit-{section}.png"
        opened.screenshot(f"#{section}", target)
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert target.stat().st_size > 5000
