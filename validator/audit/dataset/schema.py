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
        ("weight", pa.int64()),
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
