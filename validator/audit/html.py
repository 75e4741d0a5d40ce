"""The audit report as one self-contained HTML file: Jinja2 templates (package data), charts drawn as inline
SVG (`validator.audit.svg`), no font, style or script fetched from anywhere, and no script at all."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Mapping
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import quote

from validator import __version__
from validator.audit.dialects import dialect
from validator.audit.query import (
    FINDINGS_PER_ITEM,
    PAIR_ALPHA,
    PAIR_MIN_OVERPAID,
    Audit,
)
from validator.audit.shoes import ALPHA as SHOE_ALPHA
from validator.audit.shoes import MIN_CARDS as SHOE_MIN_CARDS
from validator.audit.shoes import RUN as SHOE_RUN
from validator.audit.svg import Chart, bars, lines, scatter
from validator.casino.money import fmt
from validator.errors import ValidatorError
from validator.findings.words import kind_word, severity_word, stake_words
from validator.i18n import DEFAULT, N_, _, current, ngettext
from validator.numbers import NARROW_SPACE, amount, decimal_mark, fixed, percent, whole

TEMPLATES = Path(__file__).parent / "templates"
DEFAULT_TITLE = N_("Audit report")
TEXT_CHARS = 2_000  # of a message, an expected or actual value, a name shown in the findings
TRACE_CHARS = 20_000  # of a round's step-by-step account
WEEK_RULES = 8  # rules drawn one by one in the weekly chart; the others together
DEALER_BARS = 30


def stake_titles(registry: Any) -> dict[str, dict[str, str]]:
    """Each version the registry holds → its stake names' titles (`lucky_ladies` → « Dames de cœur »)."""
    return {
        ruleset.version: {bet.stake_name: bet.title for bet in ruleset.side_bets.values()}
        for ruleset in registry.all()
    }


def reading_glosses(registry: Any) -> dict[tuple[str, str], str]:
    """(reading, alternative) → the first words of its meaning in the language of the run, for every
    reading of the versions the registry holds (none in English: the names are English words)."""
    lang = current()
    glosses: dict[tuple[str, str], str] = {}
    for ruleset in registry.all():
        for name, reading in ruleset.readings.items():
            for info in reading.alternatives:
                gloss = info.gloss(lang)
                if gloss:
                    glosses.setdefault((name, info.name), gloss)
    return glosses


def rule_docs(registry: Any) -> dict[str, dict[str, str]]:
    """Rule id → its article, the official address of its text and its documentation (`checks`, `why`),
    as the newest version words them."""
    lang = current()
    docs: dict[str, dict[str, str]] = {}
    for ruleset in registry.all():
        for rule in ruleset.rules:
            docs[rule.id] = {
                "ref": rule.ref,
                "url": ruleset.url,  # the text's official address ("" where it has none)
                "checks": rule.text("checks", lang),
                "why": rule.text("why", lang),
                "message": rule.text("message", lang),
            }
    return docs


# The page's figures in the language of the page (validator/numbers.py): `39 300`, `3,44 %` in French;
# in English, digits grouped by a narrow space as the page always wrote them.
def _money(value: Any) -> str:
    return "—" if value is None else amount(Decimal(value), sep=NARROW_SPACE)


def _count(value: Any) -> str:
    return whole(int(value), sep=NARROW_SPACE) if value is not None else "—"


def _percent(value: Any, places: int = 2) -> str:
    return "—" if value is None else percent(value, places)


def _number(value: Any, places: int = 2) -> str:
    return "—" if value is None else fixed(value, places)


def _p_value(value: float) -> str:
    """Three significant digits (`0.00279`, `1.2e-05`), the decimal mark the page's."""
    return f"{value:.3g}".replace(".", decimal_mark())


def _f(value: Any) -> float:
    return float(value) if value is not None else 0.0


def charts(audit: Audit) -> dict[str, Chart]:
    """Each chart's geometry (`validator.audit.svg`); the template draws them and names their series."""
    out: dict[str, Chart] = {}
    out["kinds"] = bars([kind_word(k["kind"]) for k in audit.kinds], [[float(k["n"]) for k in audit.kinds]])
    top = [r["rule"] for r in audit.rules[:WEEK_RULES]]
    weeks = sorted({str(w["week"]) for w in audit.weeks})
    per_rule: dict[str, dict[str, int]] = defaultdict(dict)
    for w in audit.weeks:
        name = w["rule"] if w["rule"] in top else "…"
        per_rule[name][str(w["week"])] = per_rule[name].get(str(w["week"]), 0) + w["n"]
    audit.week_series = list(per_rule)
    out["weeks"] = bars(
        weeks, [[float(per_rule[name].get(week, 0)) for week in weeks] for name in per_rule], stacked=True
    )
    for key, rows in (("money-table", audit.money_tables), ("money-dealer", audit.money_dealers)):
        out[key] = bars(
            [str(r["key"]) for r in rows],
            [[_f(r["overpaid"]) for r in rows], [-_f(r["underpaid"]) for r in rows]],
        )
    out["money-day"] = lines(
        [str(r["key"]) for r in audit.money_days],
        [[_f(r["overpaid"]) for r in audit.money_days], [-_f(r["underpaid"]) for r in audit.money_days]],
    )
    shown = audit.dealers[:DEALER_BARS]
    out["dealers"] = bars(
        [d["dealer"] for d in shown],
        [[d["rate"] for d in shown]],
        intervals=[(d["low"], d["high"]) for d in shown],
    )
    out["pairs"] = scatter(
        [
            (p["others_rate"], p["rate"], 0 if p["flagged"] else 1, f"{p['dealer']} → {p['player']}")
            for p in audit.pairs
        ]
    )
    hold = audit.hold
    out["hold"] = bars(
        [h["table"] for h in hold],
        [[_f(h["hold_main"]) * 100 if h["hold_main"] is not None else None for h in hold]],
        intervals=[(_f(h["low"]) * 100, _f(h["high"]) * 100) if h["low"] is not None else None for h in hold],
        points=[_f(h["theoretical"]) * 100 if h["theoretical"] is not None else None for h in hold],
    )
    return out


def _cut(text: Any, limit: int) -> Any:
    """A long value of the page cut, saying how long it was: the page's size does not grow with a log's."""
    if isinstance(text, str) and len(text) > limit:
        return f"{text[:limit]}… ({len(text):,} characters)"
    return text


# The columns of a hold table that give the main stakes' hold, and those that set a hold beside its
# theoretical figure and 95 % band: named once for the tables by table, by bet and by period.
_MAIN_HOLD: tuple[tuple[str, str], ...] = (
    ("staked_main", "staked"),
    ("kept_main", "kept_main"),
    ("hold_main", "hold_main"),
)
_BAND: tuple[tuple[str, str], ...] = (
    ("theoretical", "theoretical"),
    ("band_95_low", "low"),
    ("band_95_high", "high"),
    ("outside_band", "outside"),
)
# The registre de contrôle's columns (dataset column, template key): a carnet's figures beside the rounds'
# (every table of the registre), and the séances counted (its totals per table and per gaming day).
_CARNET: tuple[tuple[str, str], ...] = (
    ("avance_initiale", "opening"),
    ("avances_complementaires", "brought"),
    ("credits", "taken"),
    ("drop", "drop"),
    ("encaisse", "closing"),
    ("carnet_result", "carnet_result"),
    ("rounds_result", "rounds_result"),
    ("difference", "difference"),
    ("rounds", "rounds"),
)
_REGISTRE_COUNTS: tuple[tuple[str, str], ...] = (
    ("seances", "seances"),
    ("reconciled", "reconciled"),
    ("with_difference", "differences"),
    ("not_reconciled", "not_reconciled"),
)

# Each table of the page as CSV: its file name → (columns, the audit's rows and the key of each column).
# In English the column names are the dataset's words (snake_case); in French each is the page's word for
# it (`COLUMN_WORDS`), as a spreadsheet's reader reads a heading. Amounts are exact decimals, signed where
# the column says net; the cells between `,` or `;` and decimals written with `.` or `,`, as the dialect
# says (validator/audit/dialects.py).
_CSV: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "findings_by_kind": ("kinds", (("kind", "kind"), ("findings", "n"))),
    "findings_by_severity": ("severities", (("severity", "severity"), ("findings", "n"))),
    "findings_by_rule": (
        "rules",
        (
            ("rule", "rule"),
            ("ref", "ref"),
            ("kind", "kind"),
            ("severity", "severity"),
            ("findings", "n"),
            ("rounds", "rounds"),
            ("overpaid", "overpaid"),
            ("underpaid", "underpaid"),
        ),
    ),
    "findings_by_week": ("weeks", (("gaming_week", "week"), ("rule", "rule"), ("findings", "n"))),
    "money_by_table": (
        "money_tables",
        (
            ("table_id", "key"),
            ("rounds", "rounds"),
            ("overpaid", "overpaid"),
            ("underpaid", "underpaid"),
            ("net_overpaid", "net"),
        ),
    ),
    "money_by_dealer": (
        "money_dealers",
        (
            ("dealer", "key"),
            ("rounds", "rounds"),
            ("overpaid", "overpaid"),
            ("underpaid", "underpaid"),
            ("net_overpaid", "net"),
        ),
    ),
    "money_by_gaming_day": (
        "money_days",
        (
            ("gaming_day", "key"),
            ("rounds", "rounds"),
            ("overpaid", "overpaid"),
            ("underpaid", "underpaid"),
            ("net_overpaid", "net"),
        ),
    ),
    # The registre de contrôle (art. 69): each séance's carnet beside its rounds; the totals per table and
    # gaming day count the séances whose carnet is whole; difference = carnet_result − rounds_result.
    "registre_seances": (
        "registre",
        (
            ("casino", "casino"),
            ("table_id", "table_id"),
            ("gaming_day", "gaming_day"),
            ("opened", "opened"),
            ("file", "file"),
            ("line", "line"),
            ("closing_line", "closing_line"),
            ("status", "status"),
            ("reason", "reason"),
            ("style", "style"),
            *_CARNET,
            ("video_kept_until", "video_kept_until"),
        ),
    ),
    "registre_by_table": (
        "registre_tables",
        (
            ("casino", "casino"),
            ("table_id", "table_id"),
            *_REGISTRE_COUNTS,
            *_CARNET,
        ),
    ),
    "registre_by_gaming_day": (
        "registre_days",
        (
            ("gaming_day", "gaming_day"),
            *_REGISTRE_COUNTS,
            *_CARNET,
        ),
    ),
    # The findings whose table video (art. 21) is soon erased: to be looked at on the footage now.
    "video_soon": (
        "video_soon",
        (
            ("video_kept_until", "video_kept_until"),
            ("rule", "rule"),
            ("kind", "kind"),
            ("casino", "casino"),
            ("table_id", "table_id"),
            ("dealer", "dealer"),
            ("file", "file"),
            ("line", "line"),
            ("round", "round"),
            ("message", "message"),
        ),
    ),
    "dealers": (
        "dealers",
        (
            ("dealer", "dealer"),
            ("rounds", "rounds"),
            ("rounds_per_hour", "per_hour"),
            ("rounds_with_finding", "rounds_wrong"),
            ("per_100_rounds", "rate"),
            ("wilson_95_low", "low"),
            ("wilson_95_high", "high"),
        ),
    ),
    "pairs": (
        "pairs",
        (
            ("dealer", "dealer"),
            ("player", "player"),
            ("rounds", "rounds"),
            ("overpaid_rounds", "overpaid_rounds"),
            ("per_100", "rate"),
            ("dealer_others_per_100", "others_rate"),
            ("overpaid", "amount"),
            ("p_one_sided_fisher", "p"),
            ("flagged", "flagged"),
        ),
    ),
    "hold_by_table": (
        "hold",
        (
            ("table_id", "table_id"),
            ("rulesets", "rulesets"),
            ("rounds", "rounds"),
            ("wagered", "wagered"),
            ("kept", "kept"),
            ("hold", "hold"),
            *_MAIN_HOLD,
            *_BAND,
            ("decisions_not_priced", "unpriced"),
        ),
    ),
    "hold_by_bet": (
        "hold_bets",
        (
            ("table_id", "table"),
            ("bet", "bet_words"),
            ("rounds", "rounds"),
            ("bet_wagered", "wagered"),
            ("bet_kept", "kept"),
            ("bet_hold", "hold"),
            *_BAND,
        ),
    ),
    "hold_by_period": (
        "hold_periods",
        (
            ("table_id", "table_id"),
            ("period", "period"),
            ("gaming_day", "day"),
            ("rounds", "rounds"),
            *_MAIN_HOLD,
            *_BAND,
        ),
    ),
}


# What a spreadsheet reads at the start of a cell as a formula (or the start of one): OWASP's list.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


# The words of each column in a language other than English (their French in the catalog).
COLUMN_WORDS: dict[str, str] = {
    "kind": N_("kind"),
    "findings": N_("findings"),
    "severity": N_("severity"),
    "rule": N_("rule"),
    "ref": N_("reference"),
    "rounds": N_("rounds"),
    "overpaid": N_("overpaid"),
    "underpaid": N_("underpaid"),
    "gaming_week": N_("week starting"),
    "table_id": N_("table"),
    "net_overpaid": N_("net overpaid"),
    "dealer": N_("dealer"),
    "gaming_day": N_("gaming day"),
    "rounds_per_hour": N_("rounds/hour"),
    "rounds_with_finding": N_("rounds with a finding"),
    "per_100_rounds": N_("per 100 rounds"),
    "wilson_95_low": N_("Wilson 95 %, low"),
    "wilson_95_high": N_("Wilson 95 %, high"),
    "player": N_("player"),
    "overpaid_rounds": N_("overpaid rounds"),
    "per_100": N_("per 100"),
    "dealer_others_per_100": N_("dealer's others per 100"),
    "p_one_sided_fisher": N_("p (one-sided Fisher)"),
    "flagged": N_("flagged"),
    "rulesets": N_("rules"),
    "wagered": N_("wagered, every stake"),
    "kept": N_("kept, every stake"),
    "hold": N_("hold, every stake"),
    "staked_main": N_("main bets placed"),
    "kept_main": N_("kept on them"),
    "hold_main": N_("hold, main stake"),
    "theoretical": N_("theoretical"),
    "band_95_low": N_("95 % band, low"),
    "band_95_high": N_("95 % band, high"),
    "outside_band": N_("outside the band"),
    "period": N_("period"),
    "decisions_not_priced": N_("decisions not priced"),
    "bet": N_("bet"),
    "bet_wagered": N_("wagered"),
    "bet_kept": N_("kept"),
    "bet_hold": N_("hold"),
    # The registre de contrôle (art. 69) and the findings whose video is soon erased (art. 21).
    "casino": N_("casino"),
    "opened": N_("opened"),
    "file": N_("file"),
    "line": N_("line"),
    "closing_line": N_("line of the encaisse"),
    "status": N_("status"),
    "reason": N_("why not reconciled"),
    "style": N_("carnet or US count"),
    "avance_initiale": N_("avance initiale"),
    "avances_complementaires": N_("avances complémentaires"),
    "credits": N_("credits"),
    "drop": N_("drop"),
    "encaisse": N_("encaisse"),
    "carnet_result": N_("the carnet's result"),
    "rounds_result": N_("the rounds' result"),
    "difference": N_("difference"),
    "video_kept_until": N_("video kept until"),
    "seances": N_("séances"),
    "reconciled": N_("reconciled"),
    "with_difference": N_("with a difference"),
    "not_reconciled": N_("not reconciled"),
    "round": N_("round"),
    "message": N_("message"),
}
# The values that are words, in a language other than English: a kind, a severity, a period, yes or no.
_PERIOD_WORDS = {"day": N_("gaming day"), "month": N_("month to date"), "year": N_("year to date")}
_STATUS_WORDS = {
    "reconciled": N_("reconciled"),
    "difference": N_("difference"),
    "not_reconciled": N_("not reconciled"),
}
_VALUE_WORDS: dict[str, Any] = {
    "status": lambda value: _(_STATUS_WORDS.get(str(value), str(value))),
    "kind": kind_word,
    "severity": severity_word,
    "period": lambda value: _(_PERIOD_WORDS.get(str(value), str(value))),
}


def _cell(value: Any, decimal: str = ".", column: str = "", words: bool = False) -> str:
    if value is None:
        return ""
    if words:
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if column in _VALUE_WORDS:
            return str(_VALUE_WORDS[column](value))
    if isinstance(value, Decimal):
        return (fmt(value) or "0").replace(".", decimal)
    if isinstance(value, float):
        return f"{value:.6g}".replace(".", decimal)
    text = str(value)
    if isinstance(value, str) and text.startswith(_FORMULA_STARTS):
        # A name the logs wrote (a dealer, a player, a table): a spreadsheet opening the CSV must show
        # it, not run it (`=HYPERLINK(…)`). OWASP's advice: a leading apostrophe makes it text. Numbers
        # are the report's own and keep their sign.
        return "'" + text
    return text


def csv_tables(audit: Audit, dialect_name: str | None = None) -> dict[str, str]:
    """Each table of the page as CSV text, by file name (without `.csv`), in `dialect_name` (`comma`,
    `semicolon`; by default the language's) and the language of the run."""
    chosen = dialect(dialect_name)
    words = current() != DEFAULT
    for rows in (audit.money_tables, audit.money_dealers, audit.money_days):
        for row in rows:
            row["net"] = Decimal(row["overpaid"] or 0) - Decimal(row["underpaid"] or 0)
    out: dict[str, str] = {}
    for name, (attribute, columns) in _CSV.items():
        buffer = io.StringIO()
        # Rows end with CRLF (RFC 4180): a cell holding either character is then quoted, whereas with "\n"
        # alone a carriage return in a name would end the row for the reader.
        writer = csv.writer(buffer, delimiter=chosen.delimiter, lineterminator="\r\n")
        writer.writerow([_(COLUMN_WORDS[column]) if words else column for column, _key in columns])
        for row in getattr(audit, attribute):
            writer.writerow([_cell(row.get(key), chosen.decimal, column, words) for column, key in columns])
        out[name] = buffer.getvalue()
    return out


def write_csv(audit: Audit, folder: str, dialect_name: str | None = None) -> None:
    """`report --csv DIR`: each table of the page as DIR/NAME.csv."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for name, text in csv_tables(audit, dialect_name).items():
            (Path(folder) / f"{name}.csv").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise ValidatorError(
            _("--csv {folder}: cannot write ({reason})").format(folder=folder, reason=exc.strerror or exc)
        ) from None


def _signed(value: Any) -> str:
    """An amount with its sign always shown: `+225`, `−225` (a true minus sign), `0`."""
    if value is None:
        return "—"
    amount = Decimal(value)
    text = _money(abs(amount))
    return text if amount == 0 else ("+" if amount > 0 else "\u2212") + text


def render(
    audit: Audit,
    docs: Mapping[str, Mapping[str, str]],
    *,
    title: str = DEFAULT_TITLE,
    csv_dialect: str | None = None,
    titles: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """The page; `titles`: each version → its stake names' titles, to name a finding's stake in the
    words of the version that judged its round (`stake_titles`)."""
    import jinja2

    # A stake of a bet the round's version does not have (a bataille bet at a blackjack table) by its
    # title in the versions that have it.
    every: dict[str, str] = {
        name: title for named in (titles or {}).values() for name, title in named.items()
    }

    # The page's fixed texts are the template's `{{ _("…") }}` (jinja2's i18n extension, with the
    # program's catalog: scripts/i18n.py extracts them with the Python texts); `lang` is the page's.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(gettext=_, ngettext=ngettext, newstyle=False)  # type: ignore[attr-defined]
    env.filters.update(
        money=_money,
        signed=_signed,
        count=_count,
        percent=_percent,
        number=_number,
        p_value=_p_value,
        kind_word=kind_word,
        severity_word=severity_word,
        stake_words=lambda stake, version: stake_words(
            stake, {**every, **(titles or {}).get(version or "", {})}
        ),
    )
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
                "trace": _cut(finding["trace"], TRACE_CHARS),
                "money": finding["round_net"],
                "findings": [],
                # query.FINDINGS_PER_ITEM are listed, the others counted
                "more": max(0, int(finding["item_findings"]) - FINDINGS_PER_ITEM),
                "contested": False,
            },
        )
        shown = {
            k: _cut(v, TEXT_CHARS) for k, v in finding.items() if k not in ("finding_src", "finding_row")
        }
        shown["consequences"] = []
        group["findings"].append(shown)
        # A consequence (`caused_by`, docs/findings.md) is listed under its cause, which the replay wrote
        # just before it; a dataset written before the column existed has none.
        causes = group.setdefault("causes", [])
        if finding.get("caused_by") is not None and causes:
            causes[-1]["consequences"].append(shown)
        else:
            causes.append(shown)
        # check --all-readings: a round with a finding that rests on a reading is listed after the firm ones.
        if finding.get("rests_on") not in (None, "[]"):
            group["contested"] = True
    template = env.get_template("report.html.j2")
    return template.render(
        audit=audit,
        docs=docs,
        title=_(title),
        rounds=sorted(rounds.values(), key=lambda r: r["contested"]),
        charts=charts(audit),
        csv={
            name: "data:text/csv;charset=utf-8," + quote(text)
            for name, text in csv_tables(audit, csv_dialect).items()
        },
        version=__version__,
        lang=current(),
        made=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        pair_alpha=PAIR_ALPHA,
        pair_min=PAIR_MIN_OVERPAID,
        shoe_alpha=SHOE_ALPHA,
        shoe_min_cards=SHOE_MIN_CARDS,
        shoe_run=SHOE_RUN,
    )
