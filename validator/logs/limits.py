"""The limits on what one log may make the reader do (`check --max-…` options): bounded work for
bounded input. A module of its own, in plain Python: the limits travel to Dask workers pickled, and the
reader that applies them is compiled."""

from __future__ import annotations

import re
from dataclasses import dataclass

from validator.errors import ValidatorError
from validator.i18n import _

MAX_LINE = 1 << 20  # bytes, newline excluded
# Defaults of the limits on what one log may make the reader do (`check --max-…` options).
DEFAULT_MAX_BYTES = 16 << 30  # bytes read from one file, after decompression
DEFAULT_MAX_BROKEN = 100  # records that cannot be read, reported one by one in a row


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounded work for bounded input: a small compressed file can unfold into gigabytes."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_line: int = MAX_LINE
    max_broken: int = DEFAULT_MAX_BROKEN


_LIMITS = [Limits()]


def configure(limits: Limits) -> None:
    """The limits every later read in this process uses (the command's options); a Dask worker is
    another process: `cluster` sends them with each share."""
    _LIMITS[0] = limits


def current_limits() -> Limits:
    return _LIMITS[0]


_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_size(option: str, text: str) -> int:
    """`--max-log-bytes 16G`: a whole number of bytes, with an optional K, M, G or T (powers of 1,024)."""
    match = re.fullmatch(r"\s*(\d{1,15})\s*([kKmMgGtT]?)i?[bB]?\s*", text)
    if match is None or int(match.group(1)) == 0:
        example = _("such as 1048576, 64M or 16G")
        raise ValidatorError(
            _("{option} {text!r}: give a number of bytes above 0, {example}").format(
                option=option, text=text, example=example
            )
        )
    return int(match.group(1)) * _UNITS[match.group(2).lower()]


def limits_from_options(
    max_log_bytes: str | None, max_line_bytes: str | None, max_broken: int | None
) -> Limits:
    """The limits the command's options ask for, the defaults for the others; ValidatorError if invalid."""
    default = Limits()
    max_bytes = parse_size("--max-log-bytes", max_log_bytes) if max_log_bytes else default.max_bytes
    max_line = parse_size("--max-line-bytes", max_line_bytes) if max_line_bytes else default.max_line
    if max_broken is not None and max_broken < 1:
        raise ValidatorError(
            _("--max-broken-records {max_broken}: give a number of records above 0").format(
                max_broken=max_broken
            )
        )
    return Limits(max_bytes, max_line, max_broken if max_broken is not None else default.max_broken)
