"""The tables' Arrow schemas, built from the data dictionary (`validator.audit.dataset.columns`):
each field carries its description in the Parquet metadata. Money is DECIMAL(38, 10): hand-log/1 amounts
have at most 15 integer digits and 6 decimals (`validator.casino.money`), and what the rules give (3:2,
6:5 of such an amount) at most a few decimals more, so every amount is stored exactly."""

from __future__ import annotations

import pyarrow as pa

from validator.audit.dataset import columns
from validator.audit.dataset.columns import Column

MONEY = pa.decimal128(38, 10)
TIME = pa.timestamp("us", tz="UTC")
LOCAL = pa.timestamp("us")


def _fields(cols: tuple[Column, ...]) -> list[pa.Field]:
    return [pa.field(c.name, _TYPES[c.type], metadata={"description": c.description}) for c in cols]


_TYPES: dict[str, pa.DataType] = {
    "string": pa.string(),
    "int16": pa.int16(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "float64": pa.float64(),
    "bool": pa.bool_(),
    "date": pa.date32(),
    "money": MONEY,
    "utc_time": TIME,
    "local_time": LOCAL,
    "list<string>": pa.list_(pa.string()),
    "list<log>": pa.list_(pa.struct([("file", pa.string()), ("digest", pa.string())])),
    "list<ruleset_file>": pa.list_(
        pa.struct([("file", pa.string()), ("version", pa.string()), ("sha256", pa.string())])
    ),
    # the manifest's entries (validator.audit.dataset.manifest): a file, its table, its log, its rows
    "list<file>": pa.list_(
        pa.struct([("path", pa.string()), ("table", pa.string()), ("log", pa.string()), ("rows", pa.int64())])
    ),
}
STAKE = pa.struct(_fields(columns.STAKE))
_TYPES["list<stake>"] = pa.list_(STAKE)
DECISION = pa.struct(_fields(columns.DECISION))
_TYPES["list<decision>"] = pa.list_(DECISION)

ROUNDS = pa.schema(_fields(columns.ROUNDS))
FINDINGS = pa.schema(_fields(columns.FINDINGS))
SEANCES = pa.schema(_fields(columns.SEANCES))
RUNS = pa.schema(_fields(columns.RUNS))

# `check --format html`'s rounds without findings, summed (`dataset.rollup`): the `rounds` columns the
# audit report reads of them, and how many rounds each row stands for; `staked_sq`: the sum of each
# round's `staked_main` squared (the hold band's Σ staked², `audit.query`).
ROLLUP_ROUNDS = pa.schema(
    [
        *(ROUNDS.field(name) for name in ("run_id", "log_digest", "casino", "table_id", "dealer")),
        *(ROUNDS.field(name) for name in ("gaming_day", "local_time", "ruleset", "house_file", "status")),
        *(ROUNDS.field(name) for name in ("wagered", "collected", "paid", "overpaid", "underpaid")),
        *(ROUNDS.field(name) for name in ("staked_main", "kept_main")),
        ROUNDS.field("findings_procedure"),
        ROUNDS.field("findings_payout"),
        ("staked_sq", pa.float64()),
        ROUNDS.field("staked_box_sq"),
        ("weight", pa.int64()),
    ]
)
# Their decisions: per group of `ROLLUP_ROUNDS` and decision (its verb and the cards it was taken on),
# the stakes it was taken on, summed (what it costs against the best play is in proportion to its stake),
# and how many times it was taken.
ROLLUP_DECISIONS = pa.schema(
    [
        *(ROUNDS.field(name) for name in ("log_digest", "casino", "table_id", "dealer", "gaming_day")),
        *(ROUNDS.field(name) for name in ("local_time", "ruleset", "house_file")),
        *(pa.field(c.name, _TYPES[c.type]) for c in columns.DECISION if c.name != "hand"),
        ("weight", pa.int64()),
    ]
)
# Their bets of their own (insurance, each side bet): per group of `ROLLUP_ROUNDS` and bet, what was
# wagered on it and kept of it, the sum over the rounds of each round's wager on it squared, and the
# rounds that had it (`weight`).
ROLLUP_BETS = pa.schema(
    [
        *(ROUNDS.field(name) for name in ("log_digest", "casino", "table_id", "dealer", "gaming_day")),
        *(ROUNDS.field(name) for name in ("local_time", "ruleset", "house_file")),
        ("bet", pa.string()),
        ROUNDS.field("wagered"),
        ("kept", MONEY),
        ("wagered_sq", pa.float64()),
        ("weight", pa.int64()),
    ]
)
# Their cards out of the shoe, a row per round (the shoe tests read them in order).
ROLLUP_DEALT = pa.schema(
    [
        ROUNDS.field(name)
        for name in ("casino", "table_id", "shoe", "gaming_day", "at_utc", "file", "line", "cards")
    ]
)
# Its player–dealer pairs: the rounds each player played with each dealer.
ROLLUP_PLAYED = pa.schema(
    [
        ROUNDS.field("dealer"),
        ("player", pa.string()),
        *(ROUNDS.field(name) for name in ("casino", "table_id", "gaming_day")),
        ("weight", pa.int64()),
    ]
)
