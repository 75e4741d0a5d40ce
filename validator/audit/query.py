"""The audit's figures, computed by DuckDB (embedded) over the dataset's Parquet files.

Every figure is an aggregate: the report's size does not grow with the number of rounds, only the
findings list does, and it is capped (`FINDINGS_SHOWN`) with the total given.
"""

from __future__ import annotations

import difflib
import json
import math
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from statistics import NormalDist
from typing import Any

from validator.audit.dataset.writer import DECISION_KEY, casino_key
from validator.audit.shoes import ALPHA as SHOE_ALPHA
from validator.audit.shoes import MIN_CARDS, cards_of, order_test, reused
from validator.audit.stats import fisher_greater, wilson
from validator.audit.theory import Theory, priced
from validator.errors import ValidatorError
from validator.i18n import _

MEMORY_LIMIT = "256MB"  # DuckDB's, per report (it spills past it)
FINDINGS_SHOWN = 300  # rounds with findings listed with their traces; the total is always given
FINDINGS_PER_ITEM = 50  # findings listed under one round (or a finding outside rounds, by fingerprint)
DEALERS_SHOWN = 100
PAIRS_SHOWN = 50
BARS_SHOWN = 40  # tables and dealers in the money charts, most money first
PAIR_ALPHA = 0.05  # family-wise: each pair is flagged at PAIR_ALPHA / (pairs tested) (Bonferroni)
PAIR_MIN_OVERPAID = 3  # and only with this many overpaid rounds at least
HOLD_ALPHA = 0.05  # report-wide: the chance that any hold line of the report falls outside its band by luck
SEANCES_SHOWN = 500  # séances listed in the registre de contrôle (differences first); the CSV has as many
VIDEO_SOON_DAYS = 3  # findings whose footage is erased within this many days of the report's date


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
    hold_periods: list[dict[str, Any]] = field(default_factory=list)
    hold_outside: int = 0
    hold_unpriced: int = 0  # logged decisions the figures could not price (priced as the best play)
    hold_bets: list[dict[str, Any]] = field(default_factory=list)  # each bet of its own, per table
    shoes_tested: int = 0  # shoes with MIN_CARDS cards dealt at least, tested for their order
    shoe_threshold: float = 0.0
    shoes_flagged: list[dict[str, Any]] = field(default_factory=list)  # an order unlikely at random
    shoes_reused: list[dict[str, Any]] = field(default_factory=list)  # an earlier shoe's order
    hold_bets_outside: int = 0
    has_theoretical: bool = False
    week_series: list[str] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    findings_total: int = 0
    runs: list[dict[str, Any]] = field(default_factory=list)
    # The registre de contrôle (art. 69): each séance's carnet beside its rounds (differences first), and
    # its totals per table and per gaming day; the séances' counts by status.
    registre: list[dict[str, Any]] = field(default_factory=list)
    registre_total: int = 0
    registre_tables: list[dict[str, Any]] = field(default_factory=list)
    registre_days: list[dict[str, Any]] = field(default_factory=list)
    registre_counts: dict[str, int] = field(default_factory=dict)
    # The findings whose video (art. 21) is erased within VIDEO_SOON_DAYS of `as_of`, soonest first;
    # how many are already past it.
    as_of: datetime | None = None
    video_soon: list[dict[str, Any]] = field(default_factory=list)
    video_gone: int = 0


_AT_STAKE = "coalesce(sum(rounds.overpaid), 0) + coalesce(sum(rounds.underpaid), 0)"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _partition(path: str) -> tuple[str, str]:
    """The casino key and month of a data file, from its own two partition folders (never from the
    folders above the dataset, whatever `key=value` names they have)."""
    parts = Path(path).parts
    casino = parts[-3].partition("=")[2] if len(parts) >= 3 else ""
    month = parts[-2].partition("=")[2] if len(parts) >= 2 else ""
    return casino, month


def unique_datasets(datasets: Sequence[str]) -> list[str]:
    """Each dataset once, however it is named (`ds`, `./ds/`, a link to it)."""
    seen: dict[str, None] = {}
    for root in datasets:
        seen.setdefault(os.path.realpath(root), None)
    return list(seen)


@dataclass(slots=True)
class Sources:
    """The files a report reads: those the committed runs' manifests list and still count."""

    rounds: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    seances: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def sources(datasets: Sequence[str]) -> Sources:
    """Every dataset's counted files, each checked against its manifest: a plain file, of its table's
    schema, holding the rows the run wrote. A damaged file stops the report (exit 2) naming it."""
    import pyarrow.parquet as pq

    from validator.audit.dataset import manifest, schema

    expected = {"rounds": schema.ROUNDS, "findings": schema.FINDINGS, "seances": schema.SEANCES}
    out = Sources()
    roots = unique_datasets(datasets)
    states = [manifest.read_state(Path(root)) for root in roots]
    counted, out.notes = manifest.counted_once(states)
    for root, state, files in zip(roots, states, counted, strict=True):
        folder = Path(root)
        out.runs.extend(str(folder / "runs" / f"{m.run_id}.parquet") for m in state.manifests)
        for path, listed in files:
            if not manifest.regular(path):
                raise ValidatorError(
                    _("{path}: listed by run {run} but missing or not a plain file").format(
                        path=path, run=_run_named(state, listed)
                    )
                )
            try:
                with path.open("rb") as handle:
                    metadata = pq.read_metadata(handle)
                    found = metadata.schema.to_arrow_schema()
            except Exception as error:  # pyarrow's errors: not Parquet, truncated
                raise ValidatorError(
                    _("{path}: not a Parquet file of this dataset ({why})").format(
                        path=path, why=_line(error)
                    )
                ) from None
            if not found.equals(expected[listed.table], check_metadata=False):
                raise ValidatorError(
                    _("{path}: not a {table} file of this dataset (its columns differ)").format(
                        path=path, table=listed.table
                    )
                )
            if metadata.num_rows != listed.rows:
                raise ValidatorError(
                    _("{path}: holds {rows} rows, its run wrote {written}: the dataset is damaged").format(
                        path=path, rows=metadata.num_rows, written=listed.rows
                    )
                )
            getattr(out, listed.table).append(str(path))
        for run_id, unlisted in sorted(state.uncommitted.items()):
            how = (
                _("still running")
                if manifest.is_running(folder, run_id)
                else _("stopped before its commit (killed?); the next check --dataset removes them")
            )
            out.notes.append(
                _("{root}: run {run}, {how}: its {count} files are not counted").format(
                    root=root, run=run_id, how=how, count=len(unlisted)
                )
            )
    return out


def _run_named(state: Any, listed: Any) -> str:
    return str(next(m.run_id for m in state.manifests if listed in m.files))


def _line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__


def _view(con: Any, name: str, files: list[str], empty_schema: Any, where: list[str]) -> None:
    condition = f" WHERE {' AND '.join(where)}" if where else ""
    if files:
        listing = "[" + ", ".join(_quote(f) for f in files) + "]"
        # findings carry their file and row: the report names a finding by them (`_findings`)
        # i18n: not shown (SQL)
        extra = ", filename = true, file_row_number = true" if name == "findings" else ""
        source = f"read_parquet({listing}, hive_partitioning = false{extra})"
    else:
        import pyarrow as pa

        if name == "findings":
            empty_schema = empty_schema.append(pa.field("filename", pa.string()))
            empty_schema = empty_schema.append(pa.field("file_row_number", pa.int64()))
        con.register(f"{name}_empty", pa.Table.from_pylist([], schema=empty_schema))
        source = f"{name}_empty"
    con.execute(f"CREATE VIEW {name} AS SELECT * FROM {source}{condition}")


def connect(datasets: Sequence[str], filters: Filters) -> Any:
    """A DuckDB connection with the views `rounds`, `findings` and `runs`, filtered."""
    import duckdb

    from validator.audit.dataset import schema

    for root in datasets:
        if not Path(root).is_dir():
            raise ValidatorError(_("{root}: no such dataset folder").format(root=root))
        if not any((Path(root) / part).is_dir() for part in ("rounds", "findings", "runs")):
            raise ValidatorError(
                _("{root}: not a dataset (no rounds/, findings/ or runs/ in it)").format(root=root)
            )
    where = _where(filters)
    found = sources(datasets)
    con = duckdb.connect()
    con.execute("SET preserve_insertion_order = false")
    # DuckDB's memory bounded whatever the dataset: past the limit it spills to a temporary folder.
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(
        f"SET temp_directory = {_quote(os.path.join(tempfile.gettempdir(), 'casino-validator-duckdb'))}"
    )
    # The partition folders a filter rules out are not even opened.
    _view(con, "logged", [f for f in found.rounds if _wanted(f, filters)], schema.ROUNDS, where)
    _view(con, "findings", [f for f in found.findings if _wanted(f, filters)], schema.FINDINGS, where)
    _view(con, "seances", [f for f in found.seances if _wanted(f, filters)], schema.SEANCES, where)
    _view(con, "runs", found.runs, schema.RUNS, [])
    condition = f" WHERE {' AND '.join(where)}" if where else ""
    for name, logged, rollup, summed_rows in _SUMMED_VIEWS:
        summed = _rollups(datasets, rollup)
        union = f" UNION ALL {summed_rows} FROM read_parquet({summed}){condition}" if summed else ""
        con.execute(f"CREATE VIEW {name} AS {logged}{union}")
    return con


def _where(filters: Filters) -> list[str]:
    """The conditions on a row's gaming day, casino and table the filters set."""
    where: list[str] = []
    if filters.start is not None:
        where.append(f"gaming_day >= DATE {_quote(filters.start.isoformat())}")
    if filters.end is not None:
        where.append(f"gaming_day <= DATE {_quote(filters.end.isoformat())}")
    if filters.casino is not None:
        where.append(f"casino = {_quote(filters.casino)}")
    if filters.table is not None:
        where.append(f"table_id = {_quote(filters.table)}")
    return where


def _wanted(path: str, filters: Filters) -> bool:
    """Whether a partition folder (a casino's month) may hold rows the filters keep."""
    casino, month = _partition(path)
    if filters.casino is not None and casino != casino_key(filters.casino):
        return False
    if month == "none":
        return True
    if filters.start is not None and month < filters.start.isoformat()[:7]:
        return False
    return not (filters.end is not None and month > filters.end.isoformat()[:7])


# The views over the logged rounds with, after them, the rows `check --format html` summed
# (`dataset.rollup`): the view, its rows from the logged rounds, the rollup file, and what its rows are
# read as after `UNION ALL` (each filtered as the logged rows are).
_SUMMED_VIEWS = (
    # `own_bets`: per round and bet of its own (insurance, each side bet), wagered, kept and the round's
    # wager squared.
    (
        "own_bets",
        "SELECT table_id, gaming_day, ruleset, house_file, s.bet AS bet, sum(s.wagered) AS wagered,"
        " sum(s.collected - s.paid) AS kept, sum(s.wagered)::DOUBLE * sum(s.wagered)::DOUBLE AS wagered_sq,"
        " 1::BIGINT AS weight"
        " FROM (SELECT table_id, gaming_day, ruleset, house_file, round_key, unnest(stakes) AS s FROM logged"
        " WHERE status <> 'unreadable') WHERE NOT coalesce(s.main_game, s.bet = 'main')"
        " GROUP BY table_id, gaming_day, ruleset, house_file, round_key, s.bet",
        "bets",
        "SELECT table_id, gaming_day, ruleset, house_file, bet, wagered, kept, wagered_sq, weight",
    ),
    # `dealt`: each round's cards out of the shoe.
    (
        "dealt",
        "SELECT table_id, shoe, at_utc, file, line, cards FROM logged"
        " WHERE status <> 'unreadable' AND cards IS NOT NULL",
        "dealt",
        "SELECT table_id, shoe, at_utc, file, line, cards",
    ),
    # `rounds`: a row per round, `weight` 1, and the summed rows, each standing for `weight` rounds
    # (`staked_sq`: the round's main stake squared, which the rollup sums for the hold band).
    (
        "rounds",
        "SELECT *, staked_main::DOUBLE * staked_main::DOUBLE AS staked_sq, 1::BIGINT AS weight FROM logged",
        "rounds",
        "BY NAME SELECT *",
    ),
    # `played`: a row per player of a round.
    (
        "played",
        "SELECT dealer, unnest(players) AS player, 1::BIGINT AS weight FROM logged"
        " WHERE dealer IS NOT NULL AND status <> 'unreadable'",
        "played",
        "SELECT dealer, player, weight",
    ),
    # `decided`: a row per logged decision, with its round's table, day and version (the hold's
    # theoretical figure prices each).
    (
        "decided",
        "SELECT table_id, gaming_day, ruleset, house_file, d.verb AS verb, d.cards AS cards,"
        " d.dealer_cards AS dealer_cards, d.split AS split, d.split_aces AS split_aces, d.hands AS hands,"
        " d.stake AS stake, 1::BIGINT AS weight"
        " FROM (SELECT table_id, gaming_day, ruleset, house_file, unnest(decisions) AS d FROM logged"
        " WHERE status <> 'unreadable')",
        "decisions",
        "SELECT table_id, gaming_day, ruleset, house_file, verb, cards, dealer_cards, split, split_aces,"
        " hands, stake, weight",
    ),
)


def _rollups(datasets: Sequence[str], name: str) -> str:
    """The listing of the datasets' `rollup/NAME.parquet` files, as DuckDB reads it; empty: none."""
    files = [str(Path(root) / "rollup" / f"{name}.parquet") for root in datasets]
    found = [_quote(f) for f in files if Path(f).is_file()]
    return f"[{', '.join(found)}]" if found else ""


def check_filters(datasets: Sequence[str], filters: Filters) -> None:
    """A filter that matches nothing stops the run (exit 2) naming what the datasets hold, the closest
    names first, rather than a report over no round that would read as all clear."""
    if filters.casino is None and filters.table is None and filters.start is None and filters.end is None:
        return
    con = connect(datasets, Filters())
    if filters.casino is not None:
        held = [
            r[0]
            for r in con.execute("SELECT DISTINCT casino FROM rounds WHERE casino IS NOT NULL").fetchall()
        ]
        if filters.casino not in held:
            raise ValidatorError(_no_match("--casino", filters.casino, _("casinos"), held))
    if filters.table is not None:
        scope = Filters(casino=filters.casino)
        con = connect(datasets, scope)
        held = [
            r[0]
            for r in con.execute("SELECT DISTINCT table_id FROM rounds WHERE table_id IS NOT NULL").fetchall()
        ]
        if filters.table not in held:
            what = _("tables of {casino}").format(casino=filters.casino) if filters.casino else _("tables")
            raise ValidatorError(_no_match("--table", filters.table, what, held))
    if filters.start is not None or filters.end is not None:
        con = connect(datasets, Filters(casino=filters.casino, table=filters.table))
        first, last = con.execute("SELECT min(gaming_day), max(gaming_day) FROM rounds").fetchone()
        inside = connect(datasets, filters).execute("SELECT count(*) FROM rounds").fetchone()[0]
        if not inside:
            asked = f"{filters.start or '…'} to {filters.end or '…'}"
            held_days = (
                _("from {first} to {last}").format(first=first, last=last) if first is not None else _("none")
            )
            raise ValidatorError(
                _("--from/--to {asked}: no round on those gaming days; the dataset's run {held_days}").format(
                    asked=asked, held_days=held_days
                )
            )


def _no_match(option: str, value: str, what: str, held: Sequence[str]) -> str:
    """`--casino 'x': not in the dataset, whose casinos are 'X', 'Y'; did you mean 'X'? (…)`, the
    closest names first (a case-insensitive match, then by likeness)."""
    folded = value.casefold()
    ranked = sorted(
        held,
        key=lambda name: (
            name.casefold() != folded,
            -difflib.SequenceMatcher(None, folded, name.casefold()).ratio(),
            name,
        ),
    )
    if not ranked:
        return _("{option} {value!r}: the dataset holds no {what}").format(
            option=option, value=value, what=what
        )
    same = [name for name in ranked if name.casefold() == folded]
    shown = ", ".join(repr(name) for name in ranked[:10]) + (", …" if len(ranked) > 10 else "")
    hint = _("; did you mean {name!r}? (the case differs)").format(name=same[0]) if same else ""
    return _("{option} {value!r}: not in the dataset, whose {what} are {shown}{hint}").format(
        option=option, value=value, what=what, shown=shown, hint=hint
    )


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
    theory: Theory | None = None,
    findings_shown: int = FINDINGS_SHOWN,
    as_of: datetime | None = None,
    glosses: Mapping[tuple[str, str], str] | None = None,
) -> Audit:
    """Every section's figures. `theory`: table id → its figures (`audit.theory.Theory`), for the hold's
    theoretical figure and band. `glosses`: (reading, alternative) → the words a run in French says
    beside the alternative's name."""
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
               min(gaming_day) AS first_day, max(gaming_day) AS last_day,
               count(DISTINCT log_digest) AS logs, count(DISTINCT casino) AS casinos,
               count(DISTINCT table_id) AS tables, count(DISTINCT dealer) AS dealers,
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
        SELECT date_trunc('week', gaming_day)::DATE AS week, rule, count(*) AS n
        FROM findings WHERE gaming_day IS NOT NULL GROUP BY ALL ORDER BY week, rule
        """,
    )
    money = """
        SELECT {key} AS key, coalesce(sum(overpaid), 0) AS overpaid, coalesce(sum(underpaid), 0) AS underpaid,
               sum(weight) AS rounds
        FROM rounds WHERE {key} IS NOT NULL GROUP BY 1
    """
    audit.money_tables = _rows(
        con, money.format(key="table_id") + f" ORDER BY {_AT_STAKE} DESC, key LIMIT {BARS_SHOWN}"
    )
    audit.money_dealers = _rows(
        con, money.format(key="dealer") + f" ORDER BY {_AT_STAKE} DESC, key LIMIT {BARS_SHOWN}"
    )
    audit.money_days = _rows(con, money.format(key="gaming_day") + " ORDER BY key")
    _dealers(con, audit)
    _pairs(con, audit)
    _hold(con, audit, theory)
    _shoes(con, audit)
    audit.findings_total = int(audit.overview["findings"])
    audit.findings = _findings(con, findings_shown)
    _registre(con, audit)
    _video(con, audit, as_of if as_of is not None else datetime.now(UTC))
    audit.runs = _rows(
        con,
        """
        SELECT run_id, started, finished, tool_version, house_file, rounds, findings, len(logs) AS logs,
               summary
        FROM runs ORDER BY started DESC LIMIT 20
        """,
    )
    for run in audit.runs:
        run["readings"] = run_readings(run.pop("summary"), glosses)
    con.close()
    return audit


# The séances with a whole carnet (reconciled, or with a difference): the sums of a table or a day count
# them only (an incomplete carnet has no result to add); the counts count every séance.
# i18n: not shown (SQL)
_WHOLE = "FILTER (WHERE status <> 'not_reconciled')"
# i18n: not shown (SQL)
_REGISTRE_SUMS = f"""
    count(*) AS seances,
    count(*) FILTER (WHERE status = 'reconciled') AS reconciled,
    count(*) FILTER (WHERE status = 'difference') AS differences,
    count(*) FILTER (WHERE status = 'not_reconciled') AS not_reconciled,
    sum(opening) {_WHOLE} AS opening, sum(brought) {_WHOLE} AS brought, sum(taken) {_WHOLE} AS taken,
    sum("drop") {_WHOLE} AS "drop", sum(closing) {_WHOLE} AS closing,
    sum(carnet_result) {_WHOLE} AS carnet_result, sum(rounds_result) {_WHOLE} AS rounds_result,
    sum(difference) {_WHOLE} AS difference, sum(rounds) AS rounds
"""


def _registre(con: Any, audit: Audit) -> None:
    """The registre de contrôle: the séances' carnets beside their rounds, and the totals of each table
    and gaming day (« totalisé, arrêté et visé à la fin de chaque journée », art. 69)."""
    audit.registre_total = int(_one(con, "SELECT count(*) AS n FROM seances")["n"])
    audit.registre = _rows(
        con,
        f"""
        SELECT casino, table_id, gaming_day, opened, file, line, closing_line, status, reason, style,
               opening, brought, taken, "drop", closing, carnet_result, rounds_result, difference, rounds,
               video_kept_until
        FROM seances
        ORDER BY status = 'difference' DESC, abs(difference) DESC NULLS LAST, opened_utc, table_id, file, line
        LIMIT {SEANCES_SHOWN}
        """,
    )
    counts = _one(
        con,
        """
        SELECT count(*) FILTER (WHERE status = 'reconciled') AS reconciled,
               count(*) FILTER (WHERE status = 'difference') AS difference,
               count(*) FILTER (WHERE status = 'not_reconciled') AS not_reconciled
        FROM seances
        """,
    )
    audit.registre_counts = {key: int(value) for key, value in counts.items()}
    audit.registre_tables = _rows(
        con, f"SELECT casino, table_id, {_REGISTRE_SUMS} FROM seances GROUP BY ALL ORDER BY casino, table_id"
    )
    audit.registre_days = _rows(
        con, f"SELECT gaming_day, {_REGISTRE_SUMS} FROM seances GROUP BY ALL ORDER BY gaming_day NULLS LAST"
    )


def _video(con: Any, audit: Audit, as_of: datetime) -> None:
    """The findings whose table video (art. 21) is erased within VIDEO_SOON_DAYS of `as_of`, soonest
    first, and how many are past it already: to be looked at on the footage while it is kept."""
    audit.as_of = as_of
    now = _quote(as_of.astimezone(UTC).isoformat())
    until = _quote((as_of + timedelta(days=VIDEO_SOON_DAYS)).astimezone(UTC).isoformat())
    audit.video_gone = int(
        _one(con, f"SELECT count(*) AS n FROM findings WHERE video_kept_until < TIMESTAMPTZ {now}")["n"]
    )
    audit.video_soon = _rows(
        con,
        f"""
        SELECT video_kept_until, rule, kind, casino, table_id, dealer, file, line, round, message
        FROM findings
        WHERE video_kept_until >= TIMESTAMPTZ {now} AND video_kept_until < TIMESTAMPTZ {until}
        ORDER BY video_kept_until, file, line LIMIT {FINDINGS_SHOWN}
        """,
    )


def run_readings(summary: str | None, glosses: Mapping[tuple[str, str], str] | None = None) -> str:
    """The readings a run applied, from its summary: `version: reading = alternative, …`; those other than
    the reading's default marked; each alternative's gloss beside its name where `glosses` has one
    (`per-box (Case par case)`)."""
    glosses = glosses or {}

    def named(reading: str, alternative: str) -> str:
        gloss = glosses.get((reading, alternative))
        return f"{reading} = {alternative}" + (f" ({gloss})" if gloss else "")

    data = json.loads(summary) if summary else {}
    applied = data.get("readings", {})
    not_default = _(" (not the default)")
    said = "; ".join(
        f"{version}: "
        + ", ".join(
            named(r["reading"], r["alternative"]) + ("" if r["default"] else not_default) for r in rows
        )
        for version, rows in sorted(applied.items())
    )
    # check --all-readings: every run made under other readings, with the findings it gave.
    others = [
        ", ".join(named(c["reading"], c["alternative"]) for c in run["changed"]) + f" ({run['findings']})"
        for run in data.get("readings_judged", [])
        if run["changed"]
    ]
    if others:
        said += _("; judged again under {runs}").format(runs="; ".join(others))
    return said


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


def _hold(con: Any, audit: Audit, theory: Theory | None) -> None:
    """Hold against theoretical over the main game's stakes, per table, then per table and gaming day,
    month-to-date and year-to-date (to the report's last gaming day), each with its band (`_banded`)."""
    theory = theory or {}
    audit.has_theoretical = bool(theory)
    base = """
        SELECT table_id, {period} ruleset, house_file, sum(weight) AS rounds,
               string_agg(DISTINCT ruleset, ', ' ORDER BY ruleset) AS rulesets,
               coalesce(sum(wagered), 0) AS wagered,
               coalesce(sum(collected), 0) - coalesce(sum(paid), 0) AS kept,
               sum(staked_main) AS staked,
               sum(kept_main) FILTER (WHERE staked_main IS NOT NULL) AS kept_main,
               sum(staked_sq) AS staked_sq,
               sum(coalesce(staked_box_sq, staked_sq)) AS staked_box_sq
        FROM rounds WHERE table_id IS NOT NULL AND status <> 'unreadable' {where}
        GROUP BY ALL ORDER BY ALL
    """
    decided = """
        SELECT table_id, {period} ruleset, house_file, verb, cards, dealer_cards, split, split_aces, hands,
               sum(stake) AS stake, sum(weight) AS taken
        FROM decided WHERE table_id IS NOT NULL {where}
        GROUP BY ALL
    """
    costs = _Costs(theory)

    def rows(period: str, where: str, name: str | None = None) -> list[dict[str, Any]]:
        grouped = _rows(con, base.format(period=period, where=where))
        taken = _rows(con, decided.format(period=period, where=where))
        return _merged(grouped, taken, theory, costs, name)

    tables = rows("", "")
    last = audit.overview.get("last_day")
    periods: list[dict[str, Any]] = []
    if last is not None:
        # i18n: not shown (SQL)
        periods.extend(rows("gaming_day AS day,", "AND gaming_day IS NOT NULL", "day"))
        for name, since in (("month", last.replace(day=1)), ("year", last.replace(month=1, day=1))):
            window = (
                f"AND gaming_day BETWEEN DATE {_quote(since.isoformat())} AND DATE {_quote(last.isoformat())}"
            )
            found = rows("", window, name)
            for row in found:
                row["day"] = last
            periods.extend(found)
    bets = _bet_lines(con, theory)
    # One z for every hold line of the report (Bonferroni over them all): the chance that a clean
    # casino's report flags any line by luck alone stays under HOLD_ALPHA. Held per list (tables,
    # table-days, month, year, bets), five lists at 5 % each let a clean report flag a line nearly one
    # time in five, and the year-to-date and a table's line test the same rounds again.
    tested = sum(1 for row in [*tables, *periods] if row["priced"] and row["staked"])
    tested += sum(1 for row in bets if row["priced"] and row["wagered"])
    z = NormalDist().inv_cdf(1 - HOLD_ALPHA / (2 * max(1, tested)))
    audit.hold = [_banded(row, z, tested) for row in tables]
    order = {"day": 0, "month": 1, "year": 2}
    periods = [_banded(row, z, tested) for row in periods]
    periods.sort(key=lambda r: (r["table_id"], order[r["period"]], r["day"]))
    audit.hold_periods = periods
    audit.hold_outside = sum(1 for r in periods if r["outside"])
    audit.hold_unpriced = sum(int(r["unpriced"]) for r in audit.hold)
    audit.hold_bets = [_banded_bet(row, z) for row in bets]
    audit.hold_bets_outside = sum(1 for row in audit.hold_bets if row["outside"])


def _bet_lines(con: Any, theory: Theory) -> list[dict[str, Any]]:
    """Each bet of its own (insurance, each side bet, each case of one) per table, on its own line: what
    was wagered on it and kept of it, its house edge (`edge`'s figure of the bet) times what was wagered,
    and the variance of what it kept (`_banded_bet` gives the line its band)."""
    grouped = _rows(
        con,
        """
        SELECT table_id, bet, ruleset, house_file, sum(weight) AS rounds, sum(wagered) AS wagered,
               sum(kept) AS kept, sum(wagered_sq) AS wagered_sq
        FROM own_bets WHERE table_id IS NOT NULL GROUP BY ALL ORDER BY ALL
        """,
    )
    lines: dict[tuple[str, str], dict[str, Any]] = {}
    for row in grouped:
        line = lines.setdefault(
            (row["table_id"], row["bet"]),
            {
                "table": row["table_id"],
                "bet": row["bet"],
                "rounds": 0,
                "wagered": Decimal(0),
                "kept": Decimal(0),
                "edge_win": 0.0,
                "variance": 0.0,
                "priced": True,
            },
        )
        line["rounds"] += row["rounds"]
        line["wagered"] += row["wagered"] or 0
        line["kept"] += row["kept"] or 0
        figures = priced(theory, row["table_id"], row["ruleset"], row["house_file"])
        found = figures.bets.get(row["bet"]) if figures is not None else None
        if found is None:
            line["priced"] = False
            continue
        line["edge_win"] += float(found[0]) * float(row["wagered"] or 0)
        line["variance"] += found[1] * float(row["wagered_sq"] or 0)
    return [lines[key] for key in sorted(lines)]


def _banded_bet(row: dict[str, Any], z: float) -> dict[str, Any]:
    """A bet's line with its hold and band: edge ± z·σ·√(Σ each round's wager on it²) ÷ Σ wagered (a
    round's wagers on one bet counted as one unit: they read the same dealer's cards)."""
    wagered = row["wagered"]
    row["hold"] = row["kept"] / wagered if wagered else None
    row["theoretical"] = row["low"] = row["high"] = None
    row["outside"] = False
    if row["priced"] and wagered:
        theoretical = Decimal(repr(row["edge_win"] / float(wagered))).quantize(Decimal("0.00000001"))
        row["theoretical"] = theoretical
        half = z * math.sqrt(row["variance"]) / float(wagered)
        row["low"], row["high"] = float(theoretical) - half, float(theoretical) + half
        row["outside"] = not row["low"] <= float(row["hold"]) <= row["high"]
    return row


class _Costs:
    """What each kind of logged decision costs per unit of its stake, asked once of its version's
    figures (`validator.audit.theory.Priced.cost`)."""

    def __init__(self, theory: Theory) -> None:
        self.theory = theory
        self.known: dict[tuple[Any, ...], float | None] = {}

    def __call__(self, row: dict[str, Any]) -> float | None:
        key = (row["table_id"], row["ruleset"], row["house_file"], *(row[column] for column in DECISION_KEY))
        if key in self.known:
            return self.known[key]
        figures = priced(self.theory, row["table_id"], row["ruleset"], row["house_file"])
        found = None
        if figures is not None and figures.cost is not None:
            found = figures.cost(
                row["verb"],
                _cards(row["cards"]),
                _cards(row["dealer_cards"]),
                bool(row["split"]),
                bool(row["split_aces"]),
                int(row["hands"] or 1),
            )
        self.known[key] = found
        return found


def _cards(text: str | None) -> tuple[str, ...]:
    text = text or ""
    return tuple(text[i : i + 2] for i in range(0, len(text) - 1, 2))


def _merged(
    grouped: list[dict[str, Any]],
    taken: list[dict[str, Any]],
    theory: Theory,
    costs: _Costs,
    name: str | None,
) -> list[dict[str, Any]]:
    """The rows of each table (and period), its versions' rows summed: the money as the rounds give it,
    and the theoretical win and its variance, each version priced by its own figures."""
    out: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in grouped:
        key = (row["table_id"], row.get("day"))
        held = out.get(key)
        if held is None:
            held = out[key] = {
                "table_id": row["table_id"],
                "rounds": 0,
                "wagered": Decimal(0),
                "kept": Decimal(0),
                "staked": None,
                "kept_main": None,
                "staked_sq": None,
                "rulesets": set(),
                "theoretical_win": 0.0,
                "variance": 0.0,
                "priced": True,
                "unpriced": 0,
                "costs": 0.0,
            }
            if "day" in row:
                held["day"] = row["day"]
            if name is not None:
                held["period"] = name
        held["rounds"] += row["rounds"]
        held["wagered"] += row["wagered"]
        held["kept"] += row["kept"]
        if row["rulesets"]:
            held["rulesets"].add(row["rulesets"])
        for field_name in ("staked", "kept_main", "staked_sq"):
            if row[field_name] is not None:
                held[field_name] = row[field_name] + (held[field_name] or 0)
        figures = priced(theory, row["table_id"], row["ruleset"], row["house_file"])
        if figures is None:
            held["priced"] = False
            continue
        staked = float(row["staked"] or 0)
        square = float(row["staked_sq"] or 0)
        boxes = float(row["staked_box_sq"] or 0)
        held["theoretical_win"] += float(figures.edge) * staked
        if figures.covariance is None:  # the boxes of a round taken as one unit (the wider band)
            held["variance"] += figures.variance * square
        else:  # Var Σ s_b X_b = σ² Σ s_b² + cov Σ_{b≠b'} s_b s_b'
            held["variance"] += figures.variance * boxes + figures.covariance * (square - boxes)
    for row in taken:
        held = out.get((row["table_id"], row.get("day")))
        if held is None:
            continue
        cost = costs(row)
        if cost is None:
            held["unpriced"] += int(row["taken"])
            continue
        held["costs"] += cost * float(row["stake"])
        held["theoretical_win"] += cost * float(row["stake"])
    found = []
    for key in sorted(out, key=lambda k: (k[0], k[1] is None, k[1] or date.min)):
        held = out[key]
        held["rulesets"] = ", ".join(sorted(held["rulesets"]))
        found.append(held)
    return found


def _banded(row: dict[str, Any], z: float, tested: int) -> dict[str, Any]:
    """The row's holds (every stake; the main game's stakes) and, where its versions are priced, its
    theoretical figure (the edge of the best play, plus what the logged decisions cost against it,
    over the main bets placed) and band."""
    wagered: Decimal = row["wagered"]
    row["table"] = row["table_id"]
    row["hold"] = row["kept"] / wagered if wagered else None
    staked = row["staked"]
    row["hold_main"] = row["kept_main"] / staked if staked and row["kept_main"] is not None else None
    row["theoretical"] = row["low"] = row["high"] = row["distance"] = None
    row["outside"] = False
    row["z"], row["tested"] = z, tested
    if row["priced"] and staked:
        theoretical = Decimal(repr(row["theoretical_win"] / float(staked))).quantize(Decimal("0.00000001"))
        row["theoretical"] = theoretical
        if row["hold_main"] is not None:
            row["distance"] = row["hold_main"] - theoretical
            half = z * math.sqrt(max(row["variance"], 0.0)) / float(staked)
            row["low"], row["high"] = float(theoretical) - half, float(theoretical) + half
            row["outside"] = not row["low"] <= float(row["hold_main"]) <= row["high"]
    return row


def _shoes(con: Any, audit: Audit) -> None:
    """Each shoe's order tested (`validator.audit.shoes`): for randomness, flagged below ALPHA ÷ the
    shoes tested (Bonferroni); and for a run of cards an earlier shoe held."""
    rows = con.execute(
        """
        SELECT table_id, shoe, min(at_utc) AS first, count(*) AS rounds,
               string_agg(cards, '' ORDER BY at_utc, file, line) AS cards
        FROM dealt WHERE shoe IS NOT NULL GROUP BY table_id, shoe ORDER BY first, table_id, shoe
        """
    ).fetchall()
    shoes = [((table or "", shoe), cards_of(cards), rounds) for table, shoe, _first, rounds, cards in rows]
    tested = [(key, cards, rounds) for key, cards, rounds in shoes if len(cards) >= MIN_CARDS]
    audit.shoes_tested = len(tested)
    audit.shoe_threshold = threshold = SHOE_ALPHA / max(1, len(tested))
    for (table, shoe), cards, rounds in tested:
        found = order_test(cards)
        if found.p < threshold:
            audit.shoes_flagged.append(
                {
                    "table_id": table,
                    "shoe": shoe,
                    "rounds": rounds,
                    "cards": found.cards,
                    "links": found.links,
                    "expected": found.expected,
                    "p": found.p,
                }
            )
    for reuse in reused((key, cards) for key, cards, _rounds in shoes):
        audit.shoes_reused.append(
            {
                "table_id": reuse.shoe[0],
                "shoe": reuse.shoe[1],
                "earlier_table": reuse.earlier[0],
                "earlier_shoe": reuse.earlier[1],
                "at": reuse.at + 1,
            }
        )


def _findings(con: Any, shown: int, per_item: int = FINDINGS_PER_ITEM) -> list[dict[str, Any]]:
    """The findings of the rounds with the most money at stake first (then errors, then the log's order),
    each round with its step-by-step account; capped at `shown` rounds, and at `per_item` findings of
    one round (`item_findings`: how many it has in all). A round's findings come in the order the replay
    made them, each consequence right after its cause (`caused_by`)."""
    return _rows(
        con,
        f"""
        WITH ranked AS (
            SELECT coalesce(round_key, fingerprint) AS item, max(abs(coalesce(discrepancy, 0))) AS money,
                   sum(discrepancy) AS net,
                   max(CASE WHEN severity = 'error' THEN 1 ELSE 0 END) AS error,
                   min(file) AS file, min(line) AS line
            FROM findings GROUP BY 1
            ORDER BY money DESC, error DESC, file, line LIMIT {int(shown)}
        ),
        chosen AS (
            -- per item, the first findings by line, then in the order written (each named by its file
            -- and row, not copied whole): an aggregate holding per_item of them, not a window over every
            -- finding of the item. A round's findings are written together, each cause before its
            -- consequences, so a consequence listed has its cause listed before it.
            SELECT coalesce(round_key, fingerprint) AS item, count(*) AS item_findings,
                   unnest(min_by({{'src': filename, 'row': file_row_number}},
                                 {{'line': line, 'src': filename, 'row': file_row_number}},
                                 {int(per_item)})) AS first
            FROM findings WHERE coalesce(round_key, fingerprint) IN (SELECT item FROM ranked)
            GROUP BY 1
        ),
        picked AS (
            SELECT f.* EXCLUDE (filename, file_row_number), ranked.money AS round_money,
                   ranked.net AS round_net, ranked.error AS round_error, chosen.item_findings,
                   chosen.first.src AS finding_src, chosen.first.row AS finding_row
            FROM chosen JOIN ranked USING (item)
            JOIN findings f ON f.filename = chosen.first.src AND f.file_row_number = chosen.first.row
        )
        SELECT picked.*, r.trace, r.dealer AS round_dealer, r."at" AS round_at,
               r.ruleset AS round_ruleset
        FROM picked LEFT JOIN (
            SELECT round_key, trace, dealer, "at", ruleset FROM rounds
            WHERE round_key IN (SELECT item FROM ranked)
        ) r USING (round_key)
        ORDER BY round_money DESC, round_error DESC, picked.file, picked.line, picked.finding_src,
                 picked.finding_row
        """,
    )
