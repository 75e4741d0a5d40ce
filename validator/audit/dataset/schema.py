"""The three tables' Arrow schemas, built from the data dictionary (`validator.audit.dataset.columns`):
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
}
STAKE = pa.struct(_fields(columns.STAKE))
_TYPES["list<stake>"] = pa.list_(STAKE)

ROUNDS = pa.schema(_fields(columns.ROUNDS))
FINDINGS = pa.schema(_fields(columns.FINDINGS))
RUNS = pa.schema(_fields(columns.RUNS))
