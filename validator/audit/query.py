"""The audit's figures, computed by DuckDB (embedded) over the dataset's Parquet files.

Every figure is an aggregate: the report's size does not grow with the number of rounds, only the
findings list does, and it is capped (`FINDINGS_SHOWN`) with the total given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from validator.audit.stats import fisher_greater, wilson
from validator.errors import ValidatorError

FINDINGS_SHOWN = 300  # rounds with findings listed with their traces; the total is always given
DEALERS_SHOWN = 100
PAIRS_SHOWN = 50
BARS_SHOWN = 40  # tables and dealers in the money charts, most money first
PAIR_ALPHA = 0.05  # family-wise: each pair is flagged at PAIR_ALPHA / (pairs tested) (Bonferroni)
PAIR_MIN_OVERPAID = 3  # and only with this many overpaid rounds at least


@dataclass(frozen=True, slots=True)
class Filters:
    start: date | None = None
    end: date | None = None
    casino: str | None = None
    table: str | None = None


@dataclass(slots=True)
class Audit:
    """What the report shows; every list is already sorted and capped."""

    datasets: list[str]
    filters: Filters
    overview: dict[str, Any] = field(default_factory=dict)
    kinds: list[dict[str, Any]] = field(default_factory=list)
    severities: list[dict[str, Any]] = field(default_factory=list)
    rules: list[dict[str, Any]] = field(default_factory=list)
    weeks: list[dict[str, Any]] = field(default_factory=list)
    money_tables: list[dict[str, Any]] = field(default_factory=list)
    money_dealers: list[dict[str, Any]] = field(default_factory=list)
    money_days: list[dict[str, Any]] = field(default_factory=list)
    dealers: list[dict[str, Any]] = field(default_factory=list)
    dealers_total: int = 0
    pairs: list[dict[str, Any]] = field(default_factory=list)
    pairs_tested: int = 0
    pairs_flagged: int = 0
    pair_threshold: float = 0.0
    hold: list[dict[str, Any]] = field(default_factory=list)
    has_theoretical: bool = False
    findings: list[dict[str, Any]] = field(default_factory=list)
    findings_total: int = 0
    runs: list[dict[str, Any]] = field(default_factory=list)


_AT_STAKE = "coalesce(sum(rounds.overpaid), 0) + coalesce(sum(rounds.underpaid), 0)"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _sources(datasets: Sequence[str], table: str) -> list[str]:
    files: list[str] = []
    for root in datasets:
        folder = Path(root) / table
        pattern = "*.parquet" if table == "runs" else "*/*/*.parquet"
        files.extend(str(p) for p in sorted(folder.glob(pattern)))
    return files


def _view(con: Any, name: str, files: list[str], empty_schema: Any, where: list[str]) -> None:
    condition = f" WHERE {' AND '.join(where)}" if where else ""
    if files:
        listing = "[" + ", ".join(_quote(f) for f in files) + "]"
        hive = name != "runs"
        source = (
            f"read_parquet({listing}, hive_partitioning = {str(hive).lower()}, union_by_name = true"
            + (", hive_types_autocast = false" if hive else "")
            + ")"
        )
    else:
        import pyarrow as pa

        con.register(f"{name}_empty", pa.Table.from_pylist([], schema=empty_schema))
        source = f"{name}_empty"
    con.execute(f"CREATE VIEW {name} AS SELECT * FROM {source}{condition}")


def connect(datasets: Sequence[str], filters: Filters) -> Any:
    """A DuckDB connection with the views `rounds`, `findings` and `runs`, filtered."""
    import duckdb

    from validator.audit.dataset import schema
    from validator.audit.dataset.writer import casino_key

    for root in datasets:
        if not Path(root).is_dir():
            raise ValidatorError(f"{root}: no such dataset folder")
        if not any((Path(root) / part).is_dir() for part in ("rounds", "findings", "runs")):
            raise ValidatorError(f"{root}: not a dataset (no rounds/, findings/ or runs/ in it)")
    where: list[str] = []
    if filters.start is not None:
        where.append(f"day >= DATE {_quote(filters.start.isoformat())}")
    if filters.end is not None:
        where.append(f"day <= DATE {_quote(filters.end.isoformat())}")
    if filters.casino is not None:
        where.append(f"casino = {_quote(filters.casino)}")
    if filters.table is not None:
        where.append(f'"table" = {_quote(filters.table)}')
    pruning: list[str] = []  # the partition folders a filter rules out are not even opened
    if filters.start is not None:
        pruning.append(f"(month >= {_quote(filters.start.isoformat()[:7])} OR month = 'none')")
    if filters.end is not None:
        pruning.append(f"(month <= {_quote(filters.end.isoformat()[:7])} OR month = 'none')")
    if filters.casino is not None:
        pruning.append(f"casino_key = {_quote(casino_key(filters.casino))}")
    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = false")
    _view(con, "logged", _sources(datasets, "rounds"), schema.ROUNDS, pruning + where)
    _view(con, "findings", _sources(datasets, "findings"), schema.FINDINGS, pruning + where)
    _view(con, "runs", _sources(datasets, "runs"), schema.RUNS, [])
    # `rounds`: a row per round, `weight` 1, and the rows of summed rounds `check --format html` writes
    # (`dataset.rollup`), each standing for `weight` rounds; `played`: a row per player of a round.
    rounds = "SELECT *, 1::BIGINT AS weight FROM logged"
    played = (
        "SELECT dealer, unnest(players) AS player, 1::BIGINT AS weight FROM logged"
        " WHERE dealer IS NOT NULL AND status <> 'unreadable'"
    )
    condition = f" WHERE {' AND '.join(where)}" if where else ""
    summed = _rollups(datasets, "rounds")
    if summed:
        rounds += f" UNION ALL BY NAME SELECT * FROM read_parquet({summed}){condition}"
    summed = _rollups(datasets, "played")
    if summed:
        played += f" UNION ALL SELECT dealer, player, weight FROM read_parquet({summed}){condition}"
    con.execute(f"CREATE VIEW rounds AS {rounds}")
    con.execute(f"CREATE VIEW played AS {played}")
    return con


def _rollups(datasets: Sequence[str], name: str) -> str:
    """The listing of the datasets' `rollup/NAME.parquet` files, as DuckDB reads it; empty: none."""
    files = [str(Path(root) / "rollup" / f"{name}.parquet") for root in datasets]
    found = [_quote(f) for f in files if Path(f).is_file()]
    return f"[{', '.join(found)}]" if found else ""


def _rows(con: Any, sql: str) -> list[dict[str, Any]]:
    cursor = con.execute(sql)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _one(con: Any, sql: str) -> dict[str, Any]:
    return _rows(con, sql)[0]


def build(
    datasets: Sequence[str],
    filters: Filters | None = None,
    *,
    theoretical: Mapping[str, Decimal] | None = None,
    findings_shown: int = FINDINGS_SHOWN,
) -> Audit:
    """Every section's figures. `theoretical`: table id → the house edge its rules give (a fraction),
    shown beside the observed hold with the distance between them."""
    filters = filters or Filters()
    con = connect(datasets, filters)
    audit = Audit(list(datasets), filters)
    audit.overview = _one(
        con,
        """
        SELECT coalesce(sum(weight), 0) AS rounds,
               coalesce(sum(weight) FILTER (WHERE status = 'clean'), 0) AS clean,
               coalesce(sum(weight) FILTER (WHERE status = 'findings'), 0) AS with_findings,
               coalesce(sum(weight) FILTER (WHERE status = 'unreadable'), 0) AS unreadable,
               min(day) AS first_day, max(day) AS last_day,
               count(DISTINCT log_digest) AS logs, count(DISTINCT casino) AS casinos,
               count(DISTINCT "table") AS tables, count(DISTINCT dealer) AS dealers,
               coalesce(sum(wagered), 0) AS wagered,
               coalesce(sum(collected), 0) - coalesce(sum(paid), 0) AS kept
        FROM rounds
        """,
    )
    audit.overview.update(
        _one(
            con,
            """
            SELECT count(*) AS findings,
                   coalesce(sum(discrepancy) FILTER (WHERE discrepancy > 0), 0) AS overpaid,
                   coalesce(-sum(discrepancy) FILTER (WHERE discrepancy < 0), 0) AS underpaid
            FROM findings
            """,
        )
    )
    audit.kinds = _rows(con, "SELECT kind, count(*) AS n FROM findings GROUP BY kind ORDER BY n DESC, kind")
    audit.severities = _rows(
        con, "SELECT severity, count(*) AS n FROM findings GROUP BY severity ORDER BY severity"
    )
    audit.rules = _rows(
        con,
        """
        SELECT rule, any_value(ref) AS ref, any_value(kind) AS kind, any_value(severity) AS severity,
               count(*) AS n, count(DISTINCT round_key) AS rounds,
               coalesce(sum(discrepancy) FILTER (WHERE discrepancy > 0), 0) AS overpaid,
               coalesce(-sum(discrepancy) FILTER (WHERE discrepancy < 0), 0) AS underpaid
        FROM findings GROUP BY rule ORDER BY n DESC, rule
        """,
    )
    audit.weeks = _rows(
        con,
        """
        SELECT date_trunc('week', day) AS week, rule, count(*) AS n
        FROM findings WHERE day IS NOT NULL GROUP BY ALL ORDER BY week, rule
        """,
    )
    money = """
        SELECT {key} AS key, coalesce(sum(overpaid), 0) AS overpaid, coalesce(sum(underpaid), 0) AS underpaid,
               sum(weight) AS rounds
        FROM rounds WHERE {key} IS NOT NULL GROUP BY 1
    """
    audit.money_tables = _rows(
        con, money.format(key='"table"') + f" ORDER BY {_AT_STAKE} DESC, key LIMIT {BARS_SHOWN}"
    )
    audit.money_dealers = _rows(
        con, money.format(key="dealer") + f" ORDER BY {_AT_STAKE} DESC, key LIMIT {BARS_SHOWN}"
    )
    audit.money_days = _rows(con, money.format(key="day") + " ORDER BY key")
    _dealers(con, audit)
    _pairs(con, audit)
    _hold(con, audit, theoretical)
    audit.findings_total = int(audit.overview["findings"])
    audit.findings = _findings(con, findings_shown)
    audit.runs = _rows(
        con,
        """
        SELECT run_id, started, finished, tool_version, house_file, rounds, findings, len(logs) AS logs
        FROM runs ORDER BY started DESC LIMIT 20
        """,
    )
    con.close()
    return audit


def _dealers(con: Any, audit: Audit) -> None:
    rows = _rows(
        con,
        """
        SELECT dealer, sum(weight) AS rounds,
               count(DISTINCT date_trunc('hour', local_time)) AS hours,
               coalesce(sum(weight) FILTER (WHERE findings_procedure + findings_payout > 0), 0)
                   AS rounds_wrong,
               coalesce(sum(findings_procedure + findings_payout), 0) AS findings
        FROM rounds
        WHERE dealer IS NOT NULL AND status <> 'unreadable'
        GROUP BY dealer
        """,
    )
    for row in rows:
        low, high = wilson(row["rounds_wrong"], row["rounds"])
        row["rate"] = 100 * row["rounds_wrong"] / row["rounds"] if row["rounds"] else 0.0
        row["low"], row["high"] = 100 * low, 100 * high
        row["per_hour"] = row["rounds"] / row["hours"] if row["hours"] else None
    rows.sort(key=lambda r: (-r["low"], -r["rate"], r["dealer"]))
    audit.dealers_total = len(rows)
    audit.dealers = rows[:DEALERS_SHOWN]


def _pairs(con: Any, audit: Audit) -> None:
    rows = _rows(
        con,
        """
        WITH seen AS (SELECT dealer, player, sum(weight) AS rounds FROM played GROUP BY ALL),
        over AS (
            SELECT dealer, player, count(DISTINCT round_key) AS overpaid_rounds, sum(discrepancy) AS amount
            FROM findings
            WHERE kind = 'payout' AND discrepancy > 0 AND dealer IS NOT NULL AND player IS NOT NULL
            GROUP BY ALL
        )
        SELECT seen.dealer, seen.player, seen.rounds,
               coalesce(over.overpaid_rounds, 0) AS overpaid_rounds, coalesce(over.amount, 0) AS amount,
               sum(seen.rounds) OVER (PARTITION BY seen.dealer) AS dealer_rounds,
               sum(coalesce(over.overpaid_rounds, 0)) OVER (PARTITION BY seen.dealer) AS dealer_overpaid
        FROM seen LEFT JOIN over USING (dealer, player)
        """,
    )
    audit.pairs_tested = len(rows)
    threshold = PAIR_ALPHA / max(1, len(rows))
    audit.pair_threshold = threshold
    for row in rows:
        k, n = int(row["overpaid_rounds"]), int(row["rounds"])
        others_k = int(row["dealer_overpaid"]) - k
        others_n = int(row["dealer_rounds"]) - n
        row["others_rounds"], row["others_overpaid"] = others_n, others_k
        row["rate"] = 100 * k / n if n else 0.0
        row["others_rate"] = 100 * others_k / others_n if others_n else 0.0
        row["p"] = fisher_greater(k, n - k, others_k, others_n - others_k) if k else 1.0
        row["flagged"] = row["p"] < threshold and k >= PAIR_MIN_OVERPAID
    rows = [r for r in rows if r["overpaid_rounds"] > 0]
    rows.sort(key=lambda r: (r["p"], -r["overpaid_rounds"], r["dealer"], r["player"]))
    audit.pairs_flagged = sum(1 for r in rows if r["flagged"])
    audit.pairs = rows[:PAIRS_SHOWN]


def _hold(con: Any, audit: Audit, theoretical: Mapping[str, Decimal] | None) -> None:
    rows = _rows(
        con,
        """
        SELECT "table", string_agg(DISTINCT ruleset, ', ' ORDER BY ruleset) AS rulesets,
               sum(weight) AS rounds,
               coalesce(sum(wagered), 0) AS wagered,
               coalesce(sum(collected), 0) - coalesce(sum(paid), 0) AS kept
        FROM rounds WHERE "table" IS NOT NULL AND status <> 'unreadable'
        GROUP BY "table" ORDER BY "table"
        """,
    )
    audit.has_theoretical = bool(theoretical)
    for row in rows:
        wagered: Decimal = row["wagered"]
        row["hold"] = row["kept"] / wagered if wagered else None
        edge = (theoretical or {}).get(row["table"])
        row["theoretical"] = edge
        row["distance"] = row["hold"] - edge if edge is not None and row["hold"] is not None else None
    audit.hold = rows


def _findings(con: Any, shown: int) -> list[dict[str, Any]]:
    """The findings of the rounds with the most money at stake first (then errors, then the log's order),
    each round with its step-by-step account; capped at `shown` rounds."""
    return _rows(
        con,
        f"""
        WITH ranked AS (
            SELECT coalesce(round_key, fingerprint) AS item, max(abs(coalesce(discrepancy, 0))) AS money,
                   max(CASE WHEN severity = 'error' THEN 1 ELSE 0 END) AS error,
                   min(file) AS file, min(line) AS line
            FROM findings GROUP BY 1
            ORDER BY money DESC, error DESC, file, line LIMIT {int(shown)}
        ),
        picked AS (
            SELECT f.*, ranked.money AS round_money, ranked.error AS round_error
            FROM findings f JOIN ranked ON coalesce(f.round_key, f.fingerprint) = ranked.item
        )
        SELECT picked.*, r.trace, r.dealer AS round_dealer, r."at" AS round_at
        FROM picked LEFT JOIN (
            SELECT round_key, trace, dealer, "at" FROM rounds
            WHERE round_key IN (SELECT item FROM ranked)
        ) r USING (round_key)
        ORDER BY round_money DESC, round_error DESC, picked.file, picked.line, picked.fingerprint
        """,
    )
