"""Reading hand-log/1 game logs: finding the files, streaming their records, checking them."""

from validator.logs.reader import (
    FORMAT,
    RECORD_TYPES,
    STDIN,
    STDIN_NAME,
    Record,
    check_record,
    iter_log_paths,
    load_schema,
    read_records,
)

__all__ = [
    "FORMAT",
    "RECORD_TYPES",
    "STDIN",
    "STDIN_NAME",
    "Record",
    "check_record",
    "iter_log_paths",
    "load_schema",
    "read_records",
]
