"""The three tables' Arrow schemas. Money is DECIMAL(38, 10): hand-log/1 amounts have at most 15 integer
digits and 6 decimals (`validator.casino.money`), and what the rules give (3:2, 6:5 of such an amount) at
most a few decimals more, so every amount is stored exactly."""

from __future__ import annotations

import pyarrow as pa

MONEY = pa.decimal128(38, 10)
TIME = pa.timestamp("us", tz="UTC")
LOCAL = pa.timestamp("us")

STAKE = pa.struct(
    [
        ("stake", pa.string()),
        ("bet", pa.string()),
        ("player", pa.string()),
        ("wagered", MONEY),
        ("paid", MONEY),
        ("collected", MONEY),
        ("rules_net", MONEY),
    ]
)

ROUNDS = pa.schema(
    [
        ("run_id", pa.string()),
        ("log_digest", pa.string()),
        ("round_key", pa.string()),
        ("file", pa.string()),
        ("line", pa.int64()),
        ("casino", pa.string()),
        ("table", pa.string()),
        ("shoe", pa.string()),
        ("round", pa.string()),
        ("at", pa.string()),  # as the log wrote it, with its UTC offset
        ("at_utc", TIME),
        ("utc_offset_minutes", pa.int16()),
        ("local_time", LOCAL),  # the table's wall clock: days and hours are counted in it
        ("day", pa.date32()),
        ("dealer", pa.string()),
        ("ruleset", pa.string()),
        ("house_file", pa.string()),
        ("house_digest", pa.string()),
        ("boxes", pa.int16()),
        ("players", pa.list_(pa.string())),
        ("wagered_main", MONEY),
        ("wagered_side", MONEY),
        ("wagered", MONEY),
        ("paid", MONEY),
        ("collected", MONEY),
        ("rules_give", MONEY),  # the players' net the rules give, over the stakes they judge
        ("overpaid", MONEY),
        ("underpaid", MONEY),
        ("findings", pa.int32()),
        ("findings_procedure", pa.int32()),
        ("findings_payout", pa.int32()),
        ("findings_format", pa.int32()),
        ("findings_house", pa.int32()),
        ("errors", pa.int32()),
        ("status", pa.string()),
        ("clean", pa.bool_()),
        ("unreadable", pa.bool_()),
        ("stakes", pa.list_(STAKE)),
        ("trace", pa.string()),
    ]
)

FINDINGS = pa.schema(
    [
        ("run_id", pa.string()),
        ("log_digest", pa.string()),
        ("round_key", pa.string()),
        ("fingerprint", pa.string()),
        ("kind", pa.string()),
        ("rule", pa.string()),
        ("ref", pa.string()),
        ("severity", pa.string()),
        ("file", pa.string()),
        ("line", pa.int64()),
        ("round", pa.string()),
        ("stake", pa.string()),
        ("path", pa.string()),
        ("message", pa.string()),
        ("expected", pa.string()),  # JSON
        ("actual", pa.string()),  # JSON
        ("discrepancy", MONEY),
        ("casino", pa.string()),
        ("table", pa.string()),
        ("dealer", pa.string()),
        ("player", pa.string()),
        ("local_time", LOCAL),
        ("day", pa.date32()),
    ]
)

RUNS = pa.schema(
    [
        ("run_id", pa.string()),
        ("started", TIME),
        ("finished", TIME),
        ("tool_version", pa.string()),
        ("options", pa.string()),  # JSON: the options the run was given
        ("logs", pa.list_(pa.struct([("file", pa.string()), ("digest", pa.string())]))),
        ("house_file", pa.string()),
        ("house_digest", pa.string()),
        ("rounds", pa.int64()),
        ("findings", pa.int64()),
        ("summary", pa.string()),  # JSON: the `json` format's summary of the run
    ]
)

# `check --format html`'s rounds without findings, summed (`dataset.rollup`): the `rounds` columns the
# audit report reads of them, and how many rounds each row stands for.
ROLLUP_ROUNDS = pa.schema(
    [
        *(ROUNDS.field(name) for name in ("run_id", "log_digest", "casino", "table", "dealer", "day")),
        *(ROUNDS.field(name) for name in ("local_time", "ruleset", "house_file", "status")),
        *(ROUNDS.field(name) for name in ("wagered", "collected", "paid", "overpaid", "underpaid")),
        ROUNDS.field("findings_procedure"),
        ROUNDS.field("findings_payout"),
        ("weight", pa.int64()),
    ]
)
# Its player–dealer pairs: the rounds each player played with each dealer.
ROLLUP_PLAYED = pa.schema(
    [
        ("dealer", pa.string()),
        ("player", pa.string()),
        ("casino", pa.string()),
        ("table", pa.string()),
        ("day", pa.date32()),
        ("weight", pa.int64()),
    ]
)
