"""Streaming reader for hand-log/1 files: one `Record` per line, a `format` finding for every line that is
not a valid record, never a traceback.

Memory stays flat whatever the file size: lines are read one at a time, and a line longer than
`MAX_LINE` bytes is skipped in bounded chunks instead of being loaded.
"""

from __future__ import annotations

import functools
import gzip
import io
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, ClassVar, cast

import orjson

from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.games import GAMES
from validator.i18n import N_, _
from validator.logs.decode import REFUSED, LogRecord, decode_or_raise, from_dict
from validator.logs.encoding import as_utf8, peek_utf16
from validator.logs.fastcheck import Check, SchemaCompiler
from validator.logs.inflate import is_gzip, open_gzip
from validator.logs.limits import Limits, current_limits
from validator.logs.remote import expand_url, is_url, open_url
from validator.logs.rules import files as file_rules
from validator.logs.rules import lines as line_rules
from validator.logs.rules import records as record_rules
from validator.logs.rules.files import too_large_message as _too_large
from validator.logs.rules.files import truncated_message as _truncated_message
from validator.logs.values import parse_time, time_shaped

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

FORMAT = "hand-log/1"
# The reference every format finding carries, whether the reader or the replay found it.
FORMAT_REF = "hand-log/1 (docs/hand-log.md)"
STDIN = "-"
STDIN_NAME = "<stdin>"
LOG_SUFFIXES = (".jsonl", ".jsonl.gz")
_SKIP_CHUNK = 1 << 16
_GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"
# Everything a damaged gzip stream (or a failing disk) can raise while being read.
_BROKEN_STREAM = (EOFError, gzip.BadGzipFile, zlib.error, OSError)

RULE_INVALID_JSON = line_rules.INVALID_JSON
RULE_INVALID_UTF8 = line_rules.INVALID_UTF8
RULE_LINE_TOO_LONG = line_rules.LINE_TOO_LONG
RULE_SCHEMA = record_rules.SCHEMA
RULE_UNKNOWN_TYPE = record_rules.UNKNOWN_TYPE
RULE_TRUNCATED = file_rules.TRUNCATED
RULE_TOO_LARGE = file_rules.TOO_LARGE
RULE_BROKEN_SKIPPED = file_rules.BROKEN_SKIPPED
RULE_EMPTY = file_rules.EMPTY


class Record:
    """One line of a log: either the record (`struct`, typed; `data`, the same as a dict) or why it
    cannot be replayed (`problem`, and `data` if the line was a JSON object).

    A valid line is decoded once, by msgspec, into `struct`; `data` is orjson's dict of the same line,
    made only when asked for (the replay reads the struct)."""

    __slots__ = ("_data", "_raw", "file", "line", "problem", "repeat", "struct")

    def __init__(
        self,
        file: str,
        line: int,
        data: dict[str, Any] | None,
        problem: Finding | None,
        repeat: int = 1,
        struct: LogRecord | None = None,
        raw: bytes | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.problem = problem
        # How many identical lines in a row this record stands for: more than 1 only for records past
        # the limit of broken records in a row (`SKIPPED`), which are counted, not reported; 0 for a
        # finding about the file that no line of it carries (a UTF-16 file's notice: `_noted`).
        self.repeat = repeat
        self.struct = struct
        self._data = data
        self._raw = raw

    @property
    def data(self) -> dict[str, Any] | None:
        if self._data is None and self._raw is not None:
            self._data = orjson.loads(self._raw)
            self._raw = None
        return self._data

    def __repr__(self) -> str:
        return f"Record({self.file!r}, {self.line}, {self.data!r}, {self.problem!r}, {self.repeat})"


# --- the schema ---------------------------------------------------------------------------------------


def load_schema() -> dict[str, Any]:
    """The hand-log/1 JSON Schema, freshly parsed (callers may change their copy). A table record's `game`
    is one the registration has (validator.games: the file lists the package's own, a game a distribution
    registers is added here)."""
    text = resources.files("validator.schemas").joinpath("hand-log.schema.json").read_bytes()
    schema: dict[str, Any] = orjson.loads(text)
    schema["$defs"]["table"]["properties"]["game"]["enum"] = list(GAMES)
    return schema


def compile_pattern(pattern: str) -> re.Pattern[str]:
    """A JSON Schema (ECMA-262) pattern as a Python regex with the same meaning for our patterns.

    Two differences matter: Python's `$` also matches before a final newline (so "AS\\n" would pass as
    a card) and its `\\d` matches any Unicode digit. `\\Z` and re.ASCII restore the ECMA meaning.
    """
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return _compile_cached(pattern)


@functools.cache
def _compile_cached(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.ASCII)


def _ecma_pattern(
    validator: Draft202012Validator, pattern: str, instance: Any, schema: dict[str, Any]
) -> Iterator[ValidationError]:
    from jsonschema.exceptions import ValidationError

    if isinstance(instance, str) and not compile_pattern(pattern).search(instance):
        yield ValidationError(
            _("{value} does not match {pattern}").format(value=repr(instance), pattern=repr(pattern))
        )


@functools.cache
def schema_validator() -> Any:
    """jsonschema is the authority on validity and explains what is wrong; only `pattern` is changed.
    Imported the first time a record needs it: `check` of valid logs never does, and the import takes
    longer than the rest of the start-up."""
    from jsonschema import Draft202012Validator, validators

    # jsonschema's `extend` is not annotated: it returns a validator class like the one it extends.
    extended: type[Draft202012Validator] = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, {"pattern": _ecma_pattern}
    )
    return extended


_SCHEMA = load_schema()
_DEFS: dict[str, Any] = _SCHEMA["$defs"]
RECORD_TYPES: tuple[str, ...] = tuple(_SCHEMA["properties"]["type"]["enum"])


def _type_validator(record_type: str) -> Draft202012Validator:
    # Validating against the type's own subschema, rather than the whole if/then dispatch, keeps the
    # errors about that record type only, which is what makes the messages specific.
    schema = {"$schema": _SCHEMA["$schema"], "$defs": _DEFS, "$ref": f"#/$defs/{record_type}"}
    return cast("Draft202012Validator", schema_validator()(schema, format_checker=None))


class _Validators(dict[str, "Draft202012Validator"]):
    """The validator of each record type, made the first time one is asked for."""

    def __missing__(self, record_type: str) -> Draft202012Validator:
        if record_type not in RECORD_TYPES:
            raise KeyError(record_type)
        validator = self[record_type] = _type_validator(record_type)
        return validator


_VALIDATORS = _Validators()


# --- the fast path ---------------------------------------------------------------------------------------
# jsonschema runs only on records that the generated checks of `fastcheck` find invalid, to say why. With
# msgspec reading valid records (validator/logs/decode.py), only a line it refuses needs those checks: they
# are generated the first time one does.
@functools.cache
def _fast_checks() -> dict[str, Check]:
    return SchemaCompiler(_DEFS, compile_pattern).checks(list(RECORD_TYPES))


# --- finding the logs ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FoundLogs:
    """The logs the command line names, found once (`find_logs`): every layer of a run takes this
    instead of the arguments, so that a folder, or a store's prefix (`s3://bucket/logs/`), is listed
    once per run, however many layers read the logs (the replay, the plan of `--jobs`, the progress
    line, the dataset's record). Iterating it gives the logs' paths."""

    paths: tuple[str, ...]
    not_read: tuple[str, ...] = ()  # the files of the local folders named that are not logs by name

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)


def find_logs(args: Iterable[str]) -> FoundLogs:
    """The logs named (`iter_log_paths`), and the files of the local folders named that are not read
    (not `*.jsonl`, `*.jsonl.gz`; hidden files such as `.DS_Store` left out): each folder walked once."""
    if isinstance(args, FoundLogs):
        return args
    not_read: list[str] = []
    paths = _found(args, not_read)
    return FoundLogs(tuple(paths), tuple(not_read))


def iter_log_paths(args: Iterable[str]) -> list[str]:
    """The logs named on the command line: files as given, folders expanded to every `*.jsonl` and
    `*.jsonl.gz` inside (recursively, sorted), `-` for standard input. A file named twice is read once.
    Logs already found (`FoundLogs`) are taken as they are, nothing listed again."""
    if isinstance(args, FoundLogs):
        return list(args.paths)
    return _found(args, None)


def _found(args: Iterable[str], not_read: list[str] | None) -> list[str]:
    paths: list[str] = []
    seen: set[str] = set()
    for arg in args:
        for path in _expand(arg, not_read):
            key = path if path == STDIN else os.path.realpath(path)
            if key not in seen:
                seen.add(key)
                paths.append(path)
    return paths


def check_openable(paths: Iterable[str]) -> None:
    """Every local file among the logs opened once (and closed) before anything is reported: a file that
    cannot be read stops the run before a report has begun, not half way through a JSON document.
    Pipes and devices are left alone (opening a pipe would wait for its writer, and use it up)."""
    for path in paths:
        if path == STDIN or is_url(path):
            continue
        try:
            plain = stat.S_ISREG(os.stat(path).st_mode)
        except OSError:
            plain = True  # open_plain says what is wrong with it
        if plain:
            open_plain(path).close()


def _expand(arg: str, not_read: list[str] | None = None) -> list[str]:
    """The logs `arg` names; the files of a local folder that are not logs by name added to `not_read`."""
    if arg == STDIN:
        return [STDIN]
    if is_url(arg):
        return expand_url(arg, LOG_SUFFIXES)
    if os.path.isdir(arg):
        # Upper or lower case alike (`BJ-03.JSONL` from a Windows export is a log like any other).
        found: list[Path] = []
        others: list[Path] = []
        for path in Path(arg).rglob("*"):
            if path.name.lower().endswith(LOG_SUFFIXES):
                if path.is_file():
                    found.append(path.relative_to(arg))
            elif not_read is not None and path.is_file():
                relative = path.relative_to(arg)
                if not any(part.startswith(".") for part in relative.parts):
                    others.append(relative)
        if not found:
            raise ValidatorError(
                _("{arg}: no hand-log file (*.jsonl or *.jsonl.gz) in this folder").format(arg=arg)
            )
        if not_read is not None:
            not_read.extend(os.path.join(arg, relative) for relative in sorted(others))
        return [os.path.join(arg, rel) for rel in sorted(found)]
    # Not only regular files: a named pipe or /dev/fd/N from a shell's <(zcat ...) is a fine log.
    if os.path.exists(arg):
        return [arg]
    raise ValidatorError(_("{arg}: no such file or directory").format(arg=arg))


# --- reading -----------------------------------------------------------------------------------------


def display_name(path: str) -> str:
    """How findings and messages name a log: standard input as `<stdin>`, a file by its path."""
    return STDIN_NAME if path == STDIN else path


def read_records(path: str, name: str | None = None, limits: Limits | None = None) -> Iterator[Record]:
    """Every non-blank line of one log, in order. Gzip is recognised by the name or the magic bytes.
    A file that cannot be opened raises `ValidatorError` when iteration starts. `name` is how findings
    and messages name the file, when not as `path` (a worker opens it by its absolute path)."""
    limits = limits or current_limits()
    name = name if name is not None else display_name(path)
    with _open_log(path, name) as stream:
        # A gzip is not looked into before it is read: its own errors are the reading's to report.
        encoding = None if is_gzip(stream) else peek_utf16(stream)
        if encoding is None:
            yield from _records(stream, name, limits, whole=True)
            return
        # Saved as UTF-16: one finding for the file, then its records read as UTF-8 (logs/encoding.py).
        said = format_finding(name, 1, line_rules.utf16_message(name, encoding), RULE_INVALID_UTF8)
        yield from _noted(_records(as_utf8(stream, encoding), name, limits, whole=True), said)


def _noted(records: Iterator[Record], said: Finding) -> Iterator[Record]:
    """`records`, the first carrying `said` as a line read as Latin-1 carries its finding (the record
    is still replayed); where the first is itself a problem, `said` comes first as a record of its own
    standing for no line (`repeat` 0: a finding about the file, not counted as a record or a round)."""
    for record in records:
        if record.problem is None and record.struct is not None:
            record.problem = said
        else:
            yield Record(said.file, 1, None, said, repeat=0)
        yield record
        break
    yield from records


def read_record_range(
    path: str,
    start: int,
    end: int,
    first_line: int,
    name: str | None = None,
    limits: Limits | None = None,
) -> Iterator[Record]:
    """The records of bytes [start, end) of a plain (not gzip) log whose first line there is
    `first_line`: how `--jobs` reads one table's share of a file."""
    limits = limits or current_limits()
    name = name if name is not None else path
    with open_plain(path, name) as raw:
        raw.seek(start)
        yield from _records(raw, name, limits, first_line, span=end - start)


def _records(
    stream: IO[bytes],
    name: str,
    limits: Limits,
    first_line: int = 1,
    span: int | None = None,
    whole: bool = False,
) -> Iterator[Record]:
    """The records of `stream` from line `first_line`: a whole log, or the `span` bytes of a share.
    `whole`: the stream is a whole log, and one with no record at all is a `hand-log/empty` finding."""
    lines = _read_lines(stream, limits, span)
    return RecordFeed(name, limits, first_line).records(lines, last=True, whole=whole)


class RecordFeed:
    """The records of a log, by one loop (`records`) whether the log is read whole (`check`: `_records`)
    or handed over in pieces, each piece whole lines (`feed`: `watch`, a log that grows).

    The same records, line numbers and findings either way: the line count, the byte budget and the run
    of broken records carry over from one piece to the next. A line longer than the line limit, which the
    follower drops as it comes, is handed over as its length."""

    def __init__(self, name: str, limits: Limits, first_line: int = 1) -> None:
        self.name = name
        self.limits = limits
        self.line = first_line - 1  # the last line read, once the records given so far are all taken
        self.consumed = 0
        self.stopped = False  # past the byte budget, or the stream broken: nothing more is read
        self._run = _BrokenRun(name, limits)

    def feed(self, data: bytes) -> Iterator[Record]:
        """The records of `data`, whole lines each ending in a newline."""
        if self.stopped or not data:
            return iter(())
        budget = self.limits.max_bytes - self.consumed
        self.consumed += len(data)
        piece = Limits(max(budget, 0), self.limits.max_line, self.limits.max_broken)
        return self.records(_read_lines(io.BufferedReader(io.BytesIO(data)), piece))

    def records(
        self,
        lines: Iterator[tuple[bytes, int, int, LogRecord | None]],
        last: bool = False,
        whole: bool = False,
    ) -> Iterator[Record]:
        """The records of `lines` (`_read_lines`); `last`: they end the log, so the count of broken
        records not reported is owed at their end (else it waits for `end`); `whole`: they are the whole
        log, which is a `hand-log/empty` finding when it holds no record at all."""
        name = self.name
        run = self._run
        max_broken = self.limits.max_broken
        number = self.line
        found = False  # a line with something on it (a record, or a line that is not one)
        while True:
            try:
                item = next(lines, None)
            except _TooLarge as error:
                self.line, self.stopped = number, True
                yield from run.end()
                yield _problem_record(name, number + 1, RULE_TOO_LARGE, error.message)
                return
            except _BROKEN_STREAM as broken:  # a name of its own: mypyc types a name by its first use
                self.line, self.stopped = number, True
                yield from run.end()
                yield _problem_record(name, number + 1, RULE_TRUNCATED, _truncated_message(number, broken))
                return
            if item is None:
                self.line = number
                if last:
                    yield from run.end()
                if whole and not found:
                    said = format_finding(name, None, file_rules.empty_message(), RULE_EMPTY)
                    yield Record(name, 1, None, said)
                return
            content, too_long, count, struct = item
            first = number + 1
            number += count
            if struct is not None:
                found = True
                if run.in_a_row < max_broken:
                    # A valid line, nearly every one: `run.one`'s record of it, without the call.
                    run.in_a_row = 0
                    yield Record(name, first, None, None, 1, struct, content)
                    continue
                content = content[:-1]  # past the limit of broken lines: read again, as any line is there
            if not too_long and first == 1 and content.startswith(BOM):
                # Some Windows tools start UTF-8 files with a byte order mark; it carries no data. Only the
                # file's first line has it: the same bytes repeated on the lines after it (read together,
                # as identical lines are) keep theirs, and are read as what they are.
                marked = content[len(BOM) :]
                if marked and not marked.isspace():
                    yield from run.record(1, marked, 0, 1)
                first, count = 2, count - 1
                if not count:
                    continue
            if too_long or (content and not content.isspace()):
                found = True
                if count == 1 and run.in_a_row < max_broken:
                    yield run.one(first, content, too_long)  # `run.record` of one line, without its generator
                else:
                    yield from run.record(first, content, too_long, count)

    def too_long(self, length: int) -> Iterator[Record]:
        """A line of `length` bytes (newline excluded), over the line limit, dropped as it came."""
        if self.stopped:
            return
        self.consumed += length + 1
        self.line += 1
        yield from self._run.record(self.line, b"", length)

    def end(self) -> Iterator[Record]:
        """What is still owed at the end of the reading: the count of broken records not reported."""
        yield from self._run.end()


class _BrokenRun:
    """Records that cannot be read, reported one by one up to `limits.max_broken` in a row; past it, each
    further one is only counted (a `SKIPPED` record, cheap to make) until a valid record or the end of the
    file, where one finding says how many were not reported and why."""

    def __init__(self, file: str, limits: Limits) -> None:
        self.file = file
        self.limits = limits
        self.in_a_row = 0
        self.skipped = 0
        self.first_skipped = 0
        self.last_skipped = 0
        # A line read as Latin-1 has been reported in this file: the next ones are replayed silently.
        self.latin1_said = False

    def record(self, first: int, content: bytes, too_long: int, count: int = 1) -> Iterator[Record]:
        """The records of `count` identical lines, the first at line `first`."""
        for number in range(first, first + count):
            if self.in_a_row >= self.limits.max_broken:
                data = _skimmed(content) if not too_long else None
                if data is None or not record_is_valid(data):
                    # This line and the identical ones after it are counted together.
                    left = first + count - number
                    if not self.skipped:
                        self.first_skipped = number
                    self.skipped += left
                    self.last_skipped = first + count - 1
                    yield Record(self.file, number, data, SKIPPED, left)
                    return
                yield from self.end()
            yield self.one(number, content, too_long)

    def one(self, number: int, content: bytes, too_long: int) -> Record:
        """The record of line `number`, while broken records are still reported (`record`'s usual case,
        which `_records` calls directly for a line that is not repeated)."""
        if too_long:
            message = line_rules.too_long_message(too_long, self.limits.max_line)
            record = _problem_record(self.file, number, RULE_LINE_TOO_LONG, message)
        else:
            record = _parse_line(self.file, number, content)
            if record.problem is not None and record.struct is not None:
                if self.latin1_said:
                    record.problem = None
                self.latin1_said = True
        self.in_a_row = self.in_a_row + 1 if record.problem is not None and record.struct is None else 0
        return record

    def end(self) -> Iterator[Record]:
        if self.skipped:
            message = file_rules.skipped_message(
                self.skipped, self.first_skipped, self.last_skipped, self.limits.max_broken
            )
            yield Record(
                self.file,
                self.first_skipped,
                None,
                format_finding(self.file, self.first_skipped, message, RULE_BROKEN_SKIPPED),
            )
        self.in_a_row = 0
        self.skipped = 0


def _skimmed(content: bytes) -> dict[str, Any] | None:
    """The record a line holds, if it is a JSON object, without explaining what is wrong with it."""
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def record_is_valid(data: dict[str, Any]) -> bool:
    """`check_record(data) is None`, without putting into words what is wrong (the costly part)."""
    record_type = data.get("type")
    if not isinstance(record_type, str) or record_type not in RECORD_TYPES:
        return False
    if not _fast_checks()[record_type](data) and (
        _too_deep(data) is not None or not _VALIDATORS[record_type].is_valid(data)
    ):
        return False
    try:
        parse_time(data["at"])
    except ValueError:
        return False
    return True


# The buffer a local log is read through: the default (the file system's block, 4 KiB here) costs a system
# call every few lines of a log; 64 KiB takes 0.2 µs a line off the reading (measured).
_READ_BUFFER = 1 << 16


def open_plain(path: str, name: str | None = None) -> IO[bytes]:
    """A local file opened for reading bytes; a file that cannot be opened is a `ValidatorError`, worded
    the same wherever it happens (one process, the planner, a worker), naming the file as `name`."""
    name = name if name is not None else path
    try:
        return open(path, "rb", buffering=_READ_BUFFER)
    except FileNotFoundError:
        raise ValidatorError(_("{name}: no such file or directory").format(name=name)) from None
    except OSError as error:
        raise ValidatorError(
            _("{name}: {lower}").format(name=name, lower=(error.strerror or str(error)).lower())
        ) from None


class _Meter:
    """Bytes of log files read so far in this process (compressed bytes for gzip), for the progress
    display's ETA: files closed count their last position, files open their current one."""

    closed: ClassVar[int] = 0
    open: ClassVar[dict[int, IO[bytes]]] = {}


def bytes_read() -> int:
    position = _Meter.closed
    for raw in list(_Meter.open.values()):
        with suppress(OSError, ValueError):
            position += raw.tell()
    return position


@contextmanager
def _open_log(path: str, name: str) -> Iterator[IO[bytes]]:
    if path == STDIN:
        if sys.stdin is None:
            raise ValidatorError(_("{STDIN}: there is no standard input to read").format(STDIN=STDIN))
        raw, owned = _peekable(sys.stdin.buffer), False
    elif is_url(path):
        raw, owned = _peekable(open_url(path)), True
    else:
        raw, owned = open_plain(path, name), True
    if owned:
        _Meter.open[id(raw)] = raw
    try:
        if path.endswith(".gz") or _starts_with_gzip_magic(raw):
            # Decoded as far as its bytes allow (logs/inflate.py); `raw` is closed in the finally.
            yield open_gzip(raw)
        else:
            yield raw
    finally:
        if owned:
            _Meter.open.pop(id(raw), None)
            with suppress(OSError, ValueError):
                _Meter.closed += raw.tell()
            raw.close()


def _peekable(stream: IO[bytes]) -> IO[bytes]:
    # Standard input is normally a BufferedReader already; a replaced stdin (tests, embedding) may not be.
    return stream if hasattr(stream, "peek") else io.BufferedReader(stream)  # type: ignore[type-var]


def _starts_with_gzip_magic(stream: IO[bytes]) -> bool:
    try:
        head: bytes = stream.peek(len(_GZIP_MAGIC))  # type: ignore[attr-defined]
        return head[: len(_GZIP_MAGIC)] == _GZIP_MAGIC
    except OSError:
        return False  # the read that follows reports the problem where it has a line number


# Identical lines in a row are looked for only among lines this short (a peek per line, in C).
_REPEAT_MAX = 4096


class _TooLarge(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _read_lines(
    stream: IO[bytes], limits: Limits, span: int | None = None
) -> Iterator[tuple[bytes, int, int, LogRecord | None]]:
    """Each line as (content without its newline, 0, 1, None), or (b"", its length, 1, None) for a line
    over the line limit; a run of empty lines as (b"", 0, how many, None), read in bulk rather than line
    by line (a megabyte of gzip can hold a billion newlines). A line that is a valid record (`_valid`),
    nearly every line, comes as (content *with* its newline, 0, 1, its struct): decoded here, before the
    look for identical lines in a row (which only broken lines need, and which copies the stream's
    buffer for every line). `_TooLarge` past `limits.max_bytes` bytes read.
    `span`: the bytes this reader owns (a share's range); a run read in bulk stops at its end, where
    the next share's lines begin."""
    max_line = limits.max_line
    budget = limits.max_bytes
    # Where a run read in bulk must stop: the share's end (the whole budget when reading a whole log).
    bound = budget if span is None else min(span, budget)
    peek = getattr(stream, "peek", None)
    read = 0
    failed: BaseException | None = None
    while True:
        if span is not None and read >= span:
            return  # the next share's lines begin here
        chunk = stream.readline(max_line + 1)
        if not chunk:
            return
        read += len(chunk)
        if chunk == b"\n" and peek is not None:
            count, read, failed = _empty_run(stream, peek, read, span, bound, budget)
            yield b"", 0, count, None
            if failed is not None:
                raise failed
            if read > budget:
                raise _TooLarge(_too_large(budget))
            continue
        if chunk.endswith(b"\n"):
            struct = _valid(chunk)  # msgspec reads past the newline, as it does any JSON whitespace
            if struct is not None:
                # Identical valid lines in a row are read one by one: each is its own record anyway.
                yield chunk, 0, 1, struct
                if read > budget:
                    raise _TooLarge(_too_large(budget))
                continue
            # Identical lines in a row (a damaged export repeating one record) are read in bulk too.
            count = 1
            if peek is not None and len(chunk) <= _REPEAT_MAX:
                count, read, failed = _repeated_run(stream, peek, chunk, read, span, bound, budget)
            line: tuple[bytes, int, int, LogRecord | None] = (chunk[:-1], 0, count, None)
        elif len(chunk) <= max_line:
            line = (chunk, 0, 1, None)  # the last line, without a newline
        else:
            rest, consumed = _skip_rest_of_line(stream, budget - read)
            read += consumed  # its newline too: a share's reader must stop where the next share begins
            line = (b"", len(chunk) + rest, 1, None)
        yield line  # the line that crosses the limit is still read; nothing after it
        if failed is not None:
            raise failed
        if read > budget:
            raise _TooLarge(_too_large(budget))


def _empty_run(
    stream: IO[bytes], peek: Callable[[int], bytes], read: int, span: int | None, bound: int, budget: int
) -> tuple[int, int, BaseException | None]:
    """The empty lines that follow an empty line, read in bulk: (how many, the first included; the bytes
    read so far; the stream's error that stopped the run, raised once the lines before it are given)."""
    count = 1
    while True:
        try:
            ahead = peek(1 << 16)
        except _BROKEN_STREAM as error:
            return count, read, error
        newlines = len(ahead) - len(ahead.lstrip(b"\n"))
        if span is not None:
            newlines = min(newlines, max(bound - read, 0))
        if not newlines:
            return count, read, None
        stream.read(newlines)
        count += newlines
        read += newlines
        if read > budget:
            return count, read, None


def _repeated_run(
    stream: IO[bytes],
    peek: Callable[[int], bytes],
    chunk: bytes,
    read: int,
    span: int | None,
    bound: int,
    budget: int,
) -> tuple[int, int, BaseException | None]:
    """The copies of a broken line `chunk` that follow it (a damaged export repeating one record), read
    in bulk: (how many, itself included; the bytes read so far; the stream's error that stopped them)."""
    count = 1
    size = len(chunk)
    while read <= budget and (span is None or read + size <= bound):
        try:
            ahead = peek(1 << 16)
        except _BROKEN_STREAM as error:
            return count, read, error
        # The next line first, without copying the buffer: nearly always it differs. Then as many copies
        # as the buffer holds (and the span), compared at once; else one by one.
        if not ahead.startswith(chunk):
            break
        copies = len(ahead) // size
        if span is not None:
            copies = min(copies, (bound - read) // size)
        taken = copies if copies > 1 and ahead[: copies * size] == chunk * copies else 1
        stream.read(taken * size)
        count += taken
        read += taken * size
    return count, read, None


def _skip_rest_of_line(stream: IO[bytes], budget: int) -> tuple[int, int]:
    """Read and drop the rest of an overlong line in bounded chunks; return how many bytes it had (at
    most a chunk past `budget`: the caller stops there) and how many were read (its newline too)."""
    skipped = 0
    while skipped <= budget:
        part = stream.readline(_SKIP_CHUNK)
        if not part:
            return skipped, skipped
        if part.endswith(b"\n"):
            return skipped + len(part) - 1, skipped + len(part)
        skipped += len(part)
    return skipped, skipped


# --- parsing and checking one line --------------------------------------------------------------------


def _valid(content: bytes) -> LogRecord | None:
    """The struct of a line msgspec reads as a valid record whose time is a real one, else None (the
    slow path then says why, or finds it valid after all)."""
    try:
        struct: LogRecord = decode_or_raise(content)  # `decode`, written out
    except REFUSED:
        return None
    if not time_shaped(struct.at):
        return None
    try:
        parse_time(struct.at)
    except ValueError:
        return None  # the pattern passes 2025-02-30; the slow path words the finding
    return struct


def _parse_line(file: str, line: int, content: bytes) -> Record:
    struct = _valid(content)
    if struct is not None:
        return Record(file, line, None, None, struct=struct, raw=content)
    # msgspec refused the line: orjson and the schema say why (or find it valid after all).
    try:
        data = orjson.loads(content)
    except orjson.JSONDecodeError as error:
        rule, message = _undecodable(content, error)
        if rule == RULE_INVALID_UTF8:
            return _latin1_record(file, line, content, message)
        return _problem_record(file, line, rule, message)
    if not isinstance(data, dict):
        message = _("a record must be a JSON object {{...}}, not {kind}").format(kind=_json_kind(data))
        return _problem_record(file, line, RULE_INVALID_JSON, message)
    problem = check_record(data, file, line)
    # A record with a problem keeps what was parsed: its type tells whether a round was lost.
    return Record(file, line, data, problem, struct=from_dict(data) if problem is None else None)


def _latin1_record(file: str, line: int, content: bytes, message: str) -> Record:
    """A line that is not UTF-8: nearly always a Latin-1 export (an accented casino name). Read as
    Latin-1 it is a record: it is replayed, so the rounds after it keep their table, and it carries one
    finding saying how to re-encode the file (the reader reports it for the file's first such line only).
    A line that is not a record in Latin-1 either keeps the plain finding, with the same hint."""
    hint = _(
        "if the file was written in Latin-1, re-encode it: iconv -f latin1 -t utf-8 {file} > {file}.utf8"
    )
    hint = hint.format(file=file)
    reread = _parse_line(file, line, content.decode("latin-1").encode("utf-8"))
    if reread.problem is not None or reread.struct is None:
        return _problem_record(file, line, RULE_INVALID_UTF8, f"{message}; {hint}")
    said = _("{message}; read as Latin-1, like any later such line, and replayed; {hint}").format(
        message=message, hint=hint
    )
    return Record(
        file,
        line,
        None,
        format_finding(file, line, said, RULE_INVALID_UTF8),
        struct=reread.struct,
        raw=reread._raw,
    )


def _undecodable(content: bytes, error: orjson.JSONDecodeError) -> tuple[str, str]:
    # orjson reports bad UTF-8 as a JSON error; telling the two apart points at the real fault
    # (usually a Latin-1 export) rather than at the JSON.
    try:
        content.decode("utf-8")
    except UnicodeDecodeError as bad:
        byte = content[bad.start]
        said = _("the line is not valid UTF-8: byte 0x{byte} at byte {at}")
        return RULE_INVALID_UTF8, said.format(byte=f"{byte:02x}", at=bad.start + 1)
    said = _("the line is not valid JSON: {error} at column {column}")
    return RULE_INVALID_JSON, said.format(error=error.msg, column=error.colno)


# How deep a field's value may nest (a list in a list...) before the record is refused unread: a valid
# record's deepest value, an action, is 2 levels deep; jsonschema's recursion needs the rest bounded.
MAX_DEPTH = 32
# The longest schema message a finding carries; values are shortened before, this only bounds the rest.
_MAX_MESSAGE = 400


def check_record(data: dict[str, Any], file: str, line: int) -> Finding | None:
    """The format finding for a parsed record that is not valid hand-log/1, or None if it is valid."""
    round_id = data.get("round")
    round_id = round_id if isinstance(round_id, str) else None
    if "type" not in data:
        return format_finding(file, line, _("record: missing field 'type'"), RULE_SCHEMA, round_id)
    record_type = data["type"]
    if not isinstance(record_type, str) or record_type not in RECORD_TYPES:
        known = ", ".join(RECORD_TYPES)
        message = _("unknown record type {type}; hand-log/1 records are {known}").format(
            type=_show(record_type), known=known
        )
        return format_finding(file, line, message, RULE_UNKNOWN_TYPE, round_id)
    if not _fast_checks()[record_type](data):
        validator = _VALIDATORS[record_type]
        # jsonschema recurses into every level of a value: a list nested 1,000 deep (valid JSON, well
        # under MAX_LINE) would exhaust Python's stack. No valid record comes near MAX_DEPTH.
        deep = _too_deep(data)
        if deep is not None:
            message = _("{type} record: {field}: nested too deeply (over {depth} levels)").format(
                type=record_type, field=deep, depth=MAX_DEPTH
            )
            return format_finding(file, line, message, RULE_SCHEMA, round_id)
        if not validator.is_valid(data):
            error = _first_error(validator, data)
            try:
                detail = _describe(error)
            except Exception:  # a record that defeats the wording still gets its finding, not a traceback
                detail = _at(error.absolute_path, _shortened(error))
            message = _("{type} record: {detail}").format(type=record_type, detail=_clip(detail))
            return format_finding(file, line, message, RULE_SCHEMA, round_id)
    # The schema's pattern accepts 2025-02-30; the replay needs a real date to pick the rules in force.
    try:
        parse_time(data["at"])
    except ValueError as error:
        message = _("{type} record: at: {error}").format(type=record_type, error=error)
        return format_finding(file, line, message, RULE_SCHEMA, round_id)
    return None


def _too_deep(data: dict[str, Any]) -> str | None:
    """The first field of the record whose value nests more than MAX_DEPTH levels, or None."""
    for key, value in data.items():
        # Iterative: the point is not to recurse on a value this deep.
        stack: list[tuple[Any, int]] = [(value, 0)]
        while stack:
            node, depth = stack.pop()
            if isinstance(node, dict | list):
                if depth >= MAX_DEPTH:
                    return key
                children = node.values() if isinstance(node, dict) else node
                stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return None


def _problem_record(file: str, line: int, rule: str, message: str) -> Record:
    return Record(file, line, None, format_finding(file, line, message, rule, None))


# What a record past the limit of broken records in a row carries instead of its own finding: the
# replay counts it (a round or not, by the usual rule) and reports nothing for it.
SKIPPED = Finding(
    kind="format",
    rule=RULE_BROKEN_SKIPPED,
    ref=FORMAT_REF,
    severity="error",
    file="",
    line=None,
    round=None,
    stake=None,
    # i18n: not shown (a sentinel: the record is counted, this message never reported)
    message="not reported one by one: over the limit of broken records in a row",
    expected=None,
    actual=None,
)


def format_finding(
    file: str, line: int | None, message: str, rule: str, round_id: str | None = None
) -> Finding:
    """A record that is not valid hand-log/1 and cannot be replayed."""
    return Finding(
        kind="format",
        rule=rule,
        ref=FORMAT_REF,
        severity="error",
        file=file,
        line=line,
        round=round_id,
        stake=None,
        message=message,
        expected=None,
        actual=None,
    )


# --- schema errors in plain words ---------------------------------------------------------------------

# What a value of each kind looks like, for "X is not <hint>"; keyed by the schema's `title`.
_VALUE_HINTS = {
    "card": N_('a card (rank A, 2-9, T or 10, J, Q, K, then suit S, H, D or C, e.g. "AS", "TD")'),
    "cards": N_('a list of cards such as ["9H", "2C"]'),
    "amount": N_('an amount (a number >= 0, or a decimal in a string such as "7.50")'),
    "time": N_('a time in ISO 8601 with a UTC offset, e.g. "2025-03-14T21:05:09+01:00"'),
    "id": N_("an identifier (a non-empty string)"),
    "who": N_("a name (a non-empty string)"),
    "box": N_('a box ("1" to "7")'),
    "hand": N_('a hand ("1" to "7", or "3/2" for a hand made by a split)'),
    "hand_or_dealer": N_('a hand ("1" to "7", "3/2" after a split) or "D" for the dealer'),
    "box_or_dealer": N_('a box ("1" to "7") or "D" for the dealer'),
    "stake": N_('a stake (a hand such as "3" or "3/2", or "<box>:<side bet>" such as "1:lucky_ladies")'),
    "cut_by": N_('a box ("1" to "7") or "dealer"'),
    "bet": N_('a bet such as {"stake": "1", "amount": 20}'),
    "verb": N_("a known action"),
}
_TYPE_WORDS = {
    "object": N_("an object"),
    "array": N_("a list"),
    "string": N_("a string"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "null": "null",
}


def _first_error(validator: Draft202012Validator, data: dict[str, Any]) -> ValidationError:
    """The error a person fixing the log wants first: the earliest place in the record (a missing field
    counts as the record itself), and among the errors about that place, jsonschema's best match."""
    from jsonschema.exceptions import best_match

    errors = list(validator.iter_errors(data))
    positions = [_position(data, error.absolute_path) for error in errors]
    first = min(positions)
    error: ValidationError | None = best_match(
        e for e, at in zip(errors, positions, strict=True) if at == first
    )
    assert error is not None  # is_valid said there is one
    return error


def _position(data: Any, path: Iterable[str | int]) -> tuple[int, ...]:
    """Where a path points in the record's own order: an object key counts by its place in the line."""
    position: list[int] = []
    node = data
    for part in path:
        if isinstance(part, str) and isinstance(node, dict):
            position.append(list(node).index(part) if part in node else len(node))
        elif isinstance(part, int):
            position.append(part)
        node = node[part]
    return tuple(position)


def _describe(error: ValidationError) -> str:
    """One error as `where: what is wrong`, in the words of the log format rather than of JSON Schema."""
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, dict) else {}
        missing = next(name for name in _listed(error.validator_value) if name not in present)
        return _at(error.absolute_path, _("missing field {name}").format(name=repr(missing)))
    named = _value_error(error)
    if named is not None:
        title, node = named
        path = list(node.absolute_path)
        if title == "verb":
            # Name the action, not its first item: `actions[3]: 'hitt' is not a known action`.
            path = path[:-1]
        said = _("{value} is not {what}").format(value=_show(node.instance), what=_(_VALUE_HINTS[title]))
        return _at(path, said)
    title = _title(error)
    if title.startswith("[") and error.validator in ("minItems", "maxItems"):
        said = _("expected {what}, got {value}").format(what=title, value=_show(error.instance))
        return _at(error.absolute_path, said)
    if title == "action":
        said = _('expected an action such as ["stand", "1"], got {value}').format(value=_show(error.instance))
        return _at(error.absolute_path, said)
    return _at(error.absolute_path, _keyword_message(error))


def _listed(value: Any) -> list[Any]:
    """A schema keyword's value that is a list (`required`, `enum`, a `type` list), as one."""
    return list(value) if isinstance(value, list | tuple) else []


def _value_error(error: ValidationError) -> tuple[str, ValidationError] | None:
    """The outermost error about the same value that comes from a named kind of value (card, stake...).

    best_match goes down into anyOf branches: a bad stake comes out as "does not match the hand
    pattern". Going back up to the stake itself gives the message the reader of the log needs.
    """
    found: tuple[str, ValidationError] | None = None
    node: ValidationError | None = error
    while node is not None and node.absolute_path == error.absolute_path:
        title = _title(node)
        if title in _VALUE_HINTS:
            found = (title, node)
        node = cast("ValidationError | None", node.parent)
    return found


def _title(error: ValidationError) -> str:
    schema = error.schema
    return schema.get("title", "") if isinstance(schema, dict) else ""


def _keyword_message(error: ValidationError) -> str:
    shown = _show(error.instance)
    expected = error.validator_value
    match error.validator:
        case "type":
            kinds = [expected] if isinstance(expected, str) else _listed(expected)
            wanted = _(" or ").join(_(_TYPE_WORDS.get(kind, kind)) for kind in kinds)
            said = _("expected {what}, got {kind} {value}")
            return said.format(what=wanted, kind=_json_kind(error.instance), value=shown)
        case "enum":
            listed = ", ".join(_show(v) for v in _listed(expected))
            return _("{value} is not one of {listed}").format(value=shown, listed=listed)
        case "const":
            return _("{value} should be {expected}").format(value=shown, expected=_show(expected))
        case "minimum":
            return _("{value} is less than {minimum}").format(value=shown, minimum=expected)
        case "maximum":
            return _("{value} is more than {maximum}").format(value=shown, maximum=expected)
        case "minLength":
            return _("must not be empty")
        case _:
            return _shortened(error)


def _shortened(error: ValidationError) -> str:
    """jsonschema's own message, with the value it quotes in full (a deep or long value runs to kilobytes)
    shortened as `_show` shortens values."""
    quoted = repr(error.instance)
    if quoted in error.message:
        return error.message.replace(quoted, _show(error.instance), 1)
    return error.message


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


def _at(path: Iterable[str | int], text: str) -> str:
    where = ""
    for part in path:
        if isinstance(part, int):
            where += f"[{part}]"
        else:
            where += f".{part}" if where else part
    return f"{where}: {text}" if where else text


def _show(value: object, limit: int = 60) -> str:
    """A value as it appears in a message: strings quoted, other values as JSON, long ones shortened."""
    try:
        text = repr(value) if isinstance(value, str) else orjson.dumps(value).decode()
    except orjson.JSONEncodeError:  # nested deeper than orjson writes (255 levels)
        return "[[[..." if isinstance(value, list) else "{...}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _json_kind(value: object) -> str:
    match value:
        case dict():
            return _("an object")
        case list():
            return _("a list")
        case str():
            return _("a string")
        case bool():
            return _("a boolean")
        case int() | float():
            return _("a number")
        case None:
            return "null"
        case _:
            return type(value).__name__
