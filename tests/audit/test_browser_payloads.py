"""The report cannot be defaced by what the logs say: script and markup payloads in every string field a
log gives (casino, table, shoe, round, dealer, player, the file's own name), then the page opened in
headless Chromium. Every section and chart (inline SVG) is drawn, no link comes from the data, the page
holds no script and nothing runs, nothing is fetched, and each payload is shown as the text it is, in the
tables, the charts' labels and their tooltips. Skipped without chromium, as test_browser.py."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from browser import Browser, find_chromium
from conftest import run_cli
from seance import write_seance

from validator.rulebook.registry import default_registry

SECTIONS = ("overview", "rules", "money", "dealers", "pairs", "hold", "findings")
# What each payload would do if it were not text: set a global or the title, add a link, open a script or
# a comment, add an SVG element with a handler.
DEALER = "<!--<script>"
TABLE = "</script><script>window.pwned='table'</script>"
PLAYER = '<a href="https://evil.example/phish">P2</a>'
CASINO = "<img src=x onerror=\"window.pwned='casino'\">"
OTHER_DEALER = "D\u2028<b>x</b>\u2029'&amp;\""
FILE = "<svg onload=window.pwned=1>.jsonl"


def _defaced(text: str) -> str:
    """The séance's names replaced by the payloads, in every field they appear in (ids of rounds and
    shoes start with the table's)."""
    out = []
    for line in text.splitlines():
        record = json.loads(line)
        if record.get("type") == "table":
            record["casino"] = CASINO
        for key in ("table", "shoe", "round"):
            if isinstance(record.get(key), str):
                record[key] = record[key].replace("BJ-21", TABLE)
        if record.get("dealer") == "D-12":
            record["dealer"] = DEALER
        elif record.get("dealer") == "D-13":
            record["dealer"] = OTHER_DEALER
        for bet in record.get("bets", ()):
            if bet.get("player") == "P2":
                bet["player"] = PLAYER
        out.append(json.dumps(record, ensure_ascii=False))
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("payloads")
    write_seance(tmp / "seance.jsonl", rounds=300, seed=7, pair=("D-12", "P2"), rate=0.2, noise_rate=0.05)
    (tmp / FILE).write_text(_defaced((tmp / "seance.jsonl").read_text()), encoding="utf-8")
    (tmp / "seance.jsonl").unlink()
    done = run_cli("check", FILE, "--dataset", "ds", "-q", cwd=tmp)
    assert done.returncode == 1, done.stderr  # the planted mistakes, and nothing refused in the log
    assert "fr/blackjack/" in done.stdout  # the run's findings, as text (what a run without --dataset says)
    assert "hand-log/" not in done.stdout  # every record was read
    done = run_cli("report", "ds", "-o", "audit.html", cwd=tmp)
    assert done.returncode == 0, done.stderr
    return tmp / "audit.html"


@pytest.fixture(scope="module")
def opened(page):
    executable = find_chromium()
    if executable is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is not installed, and CI=true: run .ci/browser first")
        pytest.skip("chromium is not installed (apt-get install chromium, or .ci/browser): skipped")
    browser = Browser(executable)
    browser.open(page)
    browser.wait_for("document.readyState == 'complete'", timeout=60)
    yield browser
    browser.close()


def test_the_page_source_holds_no_payload_raw(page: Path) -> None:
    source = page.read_text(encoding="utf-8")
    for payload in (DEALER, TABLE, PLAYER, CASINO, FILE):
        assert payload not in source, payload


def test_every_section_and_chart_drawn(opened) -> None:
    for section in SECTIONS:
        assert opened.evaluate(f"document.getElementById('{section}').offsetHeight") > 100, section
    charts = opened.evaluate(
        "Array.from(document.querySelectorAll('figure.chart')).map(e => "
        "[e.querySelector('figcaption').innerText, e.querySelectorAll('svg .mark').length])"
    )
    assert len(charts) == 8
    for caption, marks in charts:
        assert marks > 0, caption


def test_nothing_ran_nothing_fetched_no_link_from_data(opened, page: Path) -> None:
    assert opened.evaluate("typeof window.pwned") == "undefined"
    assert opened.evaluate("document.querySelectorAll('script, img, iframe, object, embed').length") == 0
    links = opened.evaluate(
        "Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href'))"
    )
    # the page's own anchors, its tables as CSV downloads (the data percent-encoded inside them), and the
    # official addresses of the texts the rules cite, which the rulesets name, never the data
    csv = "data:text/csv;charset=utf-8,"
    texts = {ruleset.url for ruleset in default_registry().all() if ruleset.url}
    assert links and all(link.startswith(("#", csv)) or link in texts for link in links), links
    assert any(link.startswith(csv) and "%3C%21--%3Cscript%3E" in link for link in links)
    assert opened.evaluate("document.querySelectorAll('svg a, [onerror], [onload]').length") == 0
    assert opened.console_errors() == []
    assert opened.requests() == [page.resolve().as_uri()]


def test_each_payload_is_shown_as_text(opened) -> None:
    text = opened.evaluate("document.body.innerText")
    for payload in (DEALER, PLAYER, TABLE):
        assert payload in text, payload
    # the charts' labels and tooltips too: the dealers chart names the payload dealer as plain text
    labels = opened.evaluate(
        "Array.from(document.querySelectorAll('figure.chart text.xtick')).map(t => t.textContent).join('\\n')"
    )
    assert DEALER in labels
    tips = opened.evaluate(
        "Array.from(document.querySelectorAll('figure.chart svg title')).map(t => t.textContent).join('\\n')"
    )
    assert DEALER in tips
