"""The HTML audit report lists a consequence under its cause, as the text report does (docs/findings.md,
"One finding per cause"): `check --format html` through the real command, the page read back.

The round is art. 55-4's: the dealer's ace, then his early 9 at the deal (1°: he gives himself one card in
the initial deal and draws the others « Lorsque tous les joueurs ont déterminé la situation de leurs
mains »); box 1 (T K = 20) insures after it (2°: the insurance is decided by his second card, so taking
it once that card is out is a finding, there only because of the early card); the insurance is collected
(A 9 is no blackjack) and 20 against 20 is returned. Two findings: the early card, and the insurance
under it. A second round (box 1 paid at the deal, then the dealer draws) has one finding of its own.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from inprocess import invoke
from logbuilders import shoe_record, table_record

DAY = "2016-03-14"


def _round(rid: str, actions: list[list[object]]) -> dict[str, object]:
    return {
        "type": "round",
        "round": rid,
        "shoe": "S1",
        "at": f"{DAY}T21:00:00+01:00",
        "bets": [{"stake": "1", "amount": 20, "player": "P1", "seated": True}],
        "actions": actions,
    }


class _Lists(HTMLParser):
    """Each finding item of the findings section: its rule, the rule of the item it is nested in (or
    None), and its caused-by label."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[dict[str, object]] = []  # open <li>s of the findings section
        self.items: list[dict[str, object]] = []
        self.in_findings = False
        self._code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "section":
            self.in_findings = dict(attrs).get("id") == "findings"
        if not self.in_findings:
            return
        if tag == "li":
            parent = self.stack[-1]["rule"] if self.stack else None
            item: dict[str, object] = {
                "rule": None,
                "parent": parent,
                "caused_by": dict(attrs).get("data-caused-by"),
            }
            self.stack.append(item)
            self.items.append(item)
        elif tag == "code" and self.stack and self.stack[-1]["rule"] is None:
            self._code = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "section":
            self.in_findings = False
        if self.in_findings and tag == "li" and self.stack:
            self.stack.pop()
        if tag == "code":
            self._code = False

    def handle_data(self, data: str) -> None:
        if self._code and self.stack:
            self.stack[-1]["rule"] = data


def test_a_consequence_is_listed_under_its_cause(tmp_path: Path) -> None:
    insured = [
        ["deal", "1", "TS"], ["deal", "D", "AH"], ["deal", "1", "KS"], ["deal", "D", "9H"],
        ["insurance", "1", 10], ["stand", "1"], ["lose", "1:insurance"], ["push", "1"],
    ]  # fmt: skip
    # Box 1: T 9 = 19 paid before the dealer draws (1°, al. 5: « après avoir déterminé et annoncé un
    # point »); the dealer 6 then K 2 = 18: 19 wins, paid 20 as the cards say.
    paid_early = [
        ["deal", "1", "TC"], ["deal", "D", "6C"], ["deal", "1", "9C"], ["stand", "1"], ["pay", "1", 20],
        ["deal", "D", "KC"], ["deal", "D", "2C"],
    ]  # fmt: skip
    records = [table_record(day=DAY), shoe_record(day=DAY), _round("R1", insured), _round("R2", paid_early)]
    log = tmp_path / "caused.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in records))
    lines = invoke("check", str(log), "--format", "jsonl", "--no-config").stdout.splitlines()
    found = [json.loads(line) for line in lines]
    assert [(f["rule"], f.get("caused_by") is not None) for f in found] == [
        ("fr/blackjack/dealer-second-card-after-players", False),
        ("fr/blackjack/insurance-before-dealer-second-card", True),
        ("fr/blackjack/settlement-after-dealer-point", False),
    ]
    page = tmp_path / "audit.html"
    ran = invoke("check", str(log), "--format", "html", "--output", str(page), "--no-config")
    assert ran.code == 1, ran.output
    html = page.read_text(encoding="utf-8")
    parsed = _Lists()
    parsed.feed(html)
    items = [(i["rule"], i["parent"], i["caused_by"]) for i in parsed.items]
    assert items == [
        ("fr/blackjack/dealer-second-card-after-players", None, None),
        (
            "fr/blackjack/insurance-before-dealer-second-card",
            "fr/blackjack/dealer-second-card-after-players",
            found[1]["caused_by"],
        ),
        ("fr/blackjack/settlement-after-dealer-point", None, None),
    ]
    assert html.count("caused by the finding above:") == 1
    # In French, the same page says it in French.
    french = tmp_path / "audit-fr.html"
    invoke("--lang", "fr", "check", str(log), "--format", "html", "--output", str(french), "--no-config")
    assert french.read_text(encoding="utf-8").count("causé par le constat ci-dessus :") == 1
