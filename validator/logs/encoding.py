"""A log saved as UTF-16 (Windows tools, PowerShell's `>` before version 7, spreadsheets' "Unicode text"),
told from its first bytes and read as the UTF-8 the rest of the reader expects.

hand-log/1 is UTF-8 (a UTF-8 byte order mark, which carries no data, is dropped where the first line is
read). A UTF-16 file read as UTF-8 is one broken line after another: one `hand-log/invalid-utf8` finding
for the whole file, naming its encoding and the command that re-encodes it, then its records replayed as
if it had been written in UTF-8, so nothing in it is lost. Not compiled: a reader class built on
`io.RawIOBase`, which mypyc does not subclass.
"""

from __future__ import annotations

import codecs
import io
from typing import IO

# The byte order marks, and the encoding each announces.
_MARKS = ((codecs.BOM_UTF16_LE, "UTF-16LE"), (codecs.BOM_UTF16_BE, "UTF-16BE"))
# A record starts with `{` (or white space before it): in UTF-16 without a mark, one of these bytes next
# to a zero byte; and the character after it (`"`, `}` or white space: ASCII) has its zero byte too.
_STARTS = frozenset(b"{ \t\r\n")
HEAD = 6  # the bytes `utf16` looks at: a mark and two characters
_CHUNK = 1 << 16


def utf16(head: bytes) -> str | None:
    """`UTF-16LE` or `UTF-16BE` when a file's first bytes (`HEAD` of them) are UTF-16 (with its byte order
    mark, or a record's first character next to a zero byte and the next character's zero byte where
    it should be), else None. A UTF-8 log with a stray zero byte before its first `{` is not UTF-16
    (`00 7B 22 74`: `{"t`, the second character without its zero byte; the fuzz run met this log)."""
    for mark, encoding in _MARKS:
        if head.startswith(mark):
            # The mark, then a record's first character in that order (or nothing: an empty file). Bytes
            # FF FE before UTF-8 text are a damaged UTF-8 file, not UTF-16: read as UTF-8, they are the
            # first line's invalid bytes, and the lines after it are read as written.
            rest = head[len(mark) :]
            return encoding if len(rest) < 2 or utf16(rest) == encoding else None
    if len(head) >= 2:
        second = len(head) < 4  # a file of one character: nothing more to look at
        if head[1] == 0 and head[0] in _STARTS and (second or head[3] == 0):
            return "UTF-16LE"
        if head[0] == 0 and head[1] in _STARTS and (second or head[2] == 0):
            return "UTF-16BE"
    return None


def peek_utf16(stream: IO[bytes]) -> str | None:
    """`utf16` of a stream's first bytes, read without consuming them (a stream with `peek`)."""
    peek = getattr(stream, "peek", None)
    if peek is None:
        return None
    try:
        return utf16(peek(HEAD)[:HEAD])
    except OSError:
        return None  # the read that follows reports it, at its line


class _AsUtf8(io.RawIOBase):
    """The bytes of a UTF-16 stream, given as UTF-8 (its byte order mark dropped); a character that is
    not UTF-16 (a lone surrogate) becomes U+FFFD, which leaves its line's JSON readable or not as it was."""

    def __init__(self, stream: IO[bytes], encoding: str) -> None:
        super().__init__()
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder(encoding.replace("UTF-16", "utf-16-").lower())(
            errors="replace"
        )
        self._pending = b""
        self._first = True
        self._ended = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._pending and not self._ended:
            chunk = self._stream.read(_CHUNK)
            self._ended = not chunk
            text = self._decoder.decode(chunk, final=self._ended)
            if self._first and text:
                text = text.removeprefix("\ufeff")
                self._first = False
            self._pending = text.encode("utf-8")
        size = min(len(buffer), len(self._pending))
        buffer[:size] = self._pending[:size]
        self._pending = self._pending[size:]
        return size


def as_utf8(stream: IO[bytes], encoding: str) -> IO[bytes]:
    """A buffered reader (with `readline` and `peek`, as the reader needs) of `stream`'s text in UTF-8."""
    return io.BufferedReader(_AsUtf8(stream, encoding), buffer_size=_CHUNK)
