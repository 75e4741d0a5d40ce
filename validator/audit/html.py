"""The audit report as one self-contained HTML file: Jinja2 templates (package data), plotly charts whose
script is inlined once, no font, style or script fetched from anywhere."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from validator import __version__
from validator.audit.query import (
    PAIR_ALPHA,
    PAIR_MIN_OVERPAID,
    Audit,
)
from validator.casino.money import fmt

TEMPLATES = Path(__file__).parent / "templates"
WEEK_RULES = 8  # rules drawn one by one in the weekly chart; the others together
DEALER_BARS = 30


def rule_docs(registry: Any) -> dict[str, dict[str, str]]:
    """Rule id → its article and documentation (`checks`, `why`), as the newest version words them."""
    docs: dict[str, dict[str, str]] = {}
    for ruleset in registry.all():
        for rule in ruleset.rules:
            docs[rule.id] = {
                "ref": rule.ref,
                "checks": rule.doc.get("checks", ""),
                "why": rule.doc.get("why", ""),
                "message": rule.message,
            }
    return docs


def _money(value: Any) -> str:
    if value is None:
        return "—"
    text = fmt(Decimal(value)) or "0"
    if "." in text:
        whole, _, cents = text.partition(".")
        return f"{int(whole):,}".replace(",", "\u202f") + "." + cents
    return f"{int(text):,}".replace(",", "\u202f")


def _count(value: Any) -> str:
    return f"{int(value):,}".replace(",", "\u202f") if value is not None else "—"


def _percent(value: Any, places: int = 2) -> str:
    if value is None:
        return "—"
    return f"{float(value) * 100:.{places}f} %"


def _number(value: Any, places: int = 2) -> str:
    return "—" if value is None else f"{float(value):.{places}f}"


def _p_value(value: float) -> str:
    return f"{value:.3g}"


def _bar(name: str, x: list[Any], y: list[Any], **extra: Any) -> dict[str, Any]:
    return {"type": "bar", "name": name, "x": x, "y": y, **extra}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    return {
        "title": {"text": title, "font": {"size": 14}},
        "margin": {"l": 60, "r": 20, "t": 40, "b": 80},
        "height": 340,
        "font": {"family": "system-ui, sans-serif", "size": 11},
        "legend": {"orientation": "h"},
        **extra,
    }


def _f(value: Any) -> float:
    return float(value) if value is not None else 0.0


def charts(audit: Audit) -> dict[str, dict[str, Any]]:
    """Plotly figures as plain JSON (floats are for drawing only; every table shows exact amounts)."""
    out: dict[str, dict[str, Any]] = {}
    out["chart-kinds"] = {
        "data": [_bar("findings", [k["kind"] for k in audit.kinds], [k["n"] for k in audit.kinds])],
        "layout": _layout("Findings by kind"),
    }
    top = [r["rule"] for r in audit.rules[:WEEK_RULES]]
    weeks = sorted({str(w["week"]) for w in audit.weeks})
    per_rule: dict[str, dict[str, int]] = defaultdict(dict)
    for w in audit.weeks:
        name = w["rule"] if w["rule"] in top else "other rules"
        per_rule[name][str(w["week"])] = per_rule[name].get(str(w["week"]), 0) + w["n"]
    out["chart-weeks"] = {
        "data": [_bar(name, weeks, [per_rule[name].get(week, 0) for week in weeks]) for name in per_rule],
        "layout": _layout("Findings by week (week starting)", barmode="stack"),
    }
    for key, rows, title in (
        ("chart-money-table", audit.money_tables, "Money discrepancy by table"),
        ("chart-money-dealer", audit.money_dealers, "Money discrepancy by dealer"),
    ):
        names = [str(r["key"]) for r in rows]
        out[key] = {
            "data": [
                _bar("overpaid by the house", names, [_f(r["overpaid"]) for r in rows]),
                _bar("underpaid to players", names, [_f(r["underpaid"]) for r in rows]),
            ],
            "layout": _layout(title, barmode="group", xaxis={"type": "category"}),
        }
    days = [str(r["key"]) for r in audit.money_days]
    out["chart-money-day"] = {
        "data": [
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "overpaid by the house",
                "x": days,
                "y": [_f(r["overpaid"]) for r in audit.money_days],
            },
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": "underpaid to players",
                "x": days,
                "y": [_f(r["underpaid"]) for r in audit.money_days],
            },
        ],
        "layout": _layout("Money discrepancy by day"),
    }
    shown = audit.dealers[:DEALER_BARS]
    out["chart-dealers"] = {
        "data": [
            _bar(
                "rounds with a finding per 100",
                [d["dealer"] for d in shown],
                [d["rate"] for d in shown],
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": [d["high"] - d["rate"] for d in shown],
                    "arrayminus": [d["rate"] - d["low"] for d in shown],
                },
            )
        ],
        "layout": _layout(
            "Dealers: rounds with a finding per 100, Wilson 95 % interval", xaxis={"type": "category"}
        ),
    }
    out["chart-pairs"] = {
        "data": [
            {
                "type": "scatter",
                "mode": "markers",
                "name": "flagged" if flagged else "not flagged",
                "x": [p["others_rate"] for p in audit.pairs if p["flagged"] == flagged],
                "y": [p["rate"] for p in audit.pairs if p["flagged"] == flagged],
                "text": [f"{p['dealer']} → {p['player']}" for p in audit.pairs if p["flagged"] == flagged],
                "marker": {"size": 9, "color": "#c0392b" if flagged else "#7f8c8d"},
            }
            for flagged in (True, False)
        ],
        "layout": _layout(
            "Overpaid rounds per 100: the pair against the dealer's other players",
            xaxis={"title": {"text": "dealer with his other players"}, "rangemode": "tozero"},
            yaxis={"title": {"text": "dealer with this player"}, "rangemode": "tozero"},
        ),
    }
    tables = [h["table"] for h in audit.hold]
    hold_data = [_bar("observed hold %", tables, [_f(h["hold"]) * 100 for h in audit.hold])]
    if audit.has_theoretical:
        hold_data.append(
            {
                "type": "scatter",
                "mode": "markers",
                "name": "theoretical edge %",
                "x": tables,
                "y": [
                    _f(h["theoretical"]) * 100 if h["theoretical"] is not None else None for h in audit.hold
                ],
                "marker": {"symbol": "diamond", "size": 11, "color": "#c0392b"},
            }
        )
    out["chart-hold"] = {
        "data": hold_data,
        "layout": _layout("Hold per table (kept ÷ wagered, %)", xaxis={"type": "category"}),
    }
    return out


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(value, ensure_ascii=False, default=str).replace("</", "<\\/")


def render(audit: Audit, docs: Mapping[str, Mapping[str, str]], *, title: str = "Audit report") -> str:
    import jinja2
    from plotly.offline import get_plotlyjs

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(money=_money, count=_count, percent=_percent, number=_number, p_value=_p_value)
    rounds: dict[str, dict[str, Any]] = {}
    for finding in audit.findings:
        item = finding["round_key"] or finding["fingerprint"]
        group = rounds.setdefault(
            item,
            {
                "file": finding["file"],
                "line": finding["line"],
                "round": finding["round"],
                "dealer": finding["round_dealer"] or finding["dealer"],
                "at": finding["round_at"],
                "trace": finding["trace"],
                "money": finding["round_money"],
                "findings": [],
            },
        )
        group["findings"].append(finding)
    template = env.get_template("report.html.j2")
    return template.render(
        audit=audit,
        docs=docs,
        title=title,
        rounds=list(rounds.values()),
        charts=_script_json(charts(audit)),
        plotly_js=get_plotlyjs(),
        version=__version__,
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        pair_alpha=PAIR_ALPHA,
        pair_min=PAIR_MIN_OVERPAID,
    )
