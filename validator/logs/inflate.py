"""A gzip log decoded as far as its bytes allow, then the error that stops it.

`gzip.GzipFile` hands zlib up to 128 KiB of compressed bytes at a time, and when zlib meets damage in them
(a flipped byte: "invalid distance too far back") the whole call raises and everything it had decoded
is dropped: lines that come before the damage, intact, were never read, and the reader then said the
file "cannot be read from its first line". Here every byte zlib decodes before it detects the damage is
given first (the failing chunk is decoded again byte by byte from a copy of the decompressor taken before
it), and the error is raised only on the read after: the reader's `hand-log/truncated` finding then
stands at the line where decoding really stopped, and the rounds before it are checked.

Otherwise as `gzip.GzipFile` reads: members one after another (`cat a.gz b.gz`), zero bytes between or
after members skipped, the same errors for a stream cut short (`EOFError`) and a file that is not gzip
(`gzip.BadGzipFile`); zlib checks each member's header, CRC and length.
"""

from __future__ import annotations

import gzip
import io
import zlib
from typing import IO

_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 16  # compressed bytes read from the file at a time
_GZIP_WBITS = 16 + zlib.MAX_WBITS  # a gzip header and trailer around deflate data
# The errors' own words, in English as zlib's are: quoted in the finding as its detail, in parentheses.
# i18n: not shown (gzip.GzipFile's words for a stream cut short)
_CUT_SHORT = "Compressed file ended before the end-of-stream marker was reached"
# zlib's words for a member's trailer that does not match its data, in gzip.GzipFile's.
_TRAILER = {
    "incorrect data check": "CRC check failed",  # i18n: not shown (zlib's and gzip's words)
    "incorrect length check": "Incorrect length of data produced",  # i18n: not shown (as above)
}


def open_gzip(raw: IO[bytes]) -> IO[bytes]:
    """`raw`'s decompressed bytes, buffered as `gzip.GzipFile` buffers them (readline, peek). Closing it
    leaves `raw` open."""
    return io.BufferedReader(_Inflater(raw))


def is_gzip(stream: IO[bytes]) -> bool:
    """Whether `stream` is one `open_gzip` gave."""
    return isinstance(getattr(stream, "raw", None), _Inflater)


class _Inflater(io.RawIOBase):
    def __init__(self, raw: IO[bytes]) -> None:
        super().__init__()
        self._raw = raw
        self._member: zlib._Decompress | None = None
        self._first = True  # before the first member: zero bytes are not skipped there
        self._input = b""  # compressed bytes read and not yet given to zlib
        self._output = b""  # decoded bytes not yet given to the reader
        self._error: Exception | None = None  # raised once `_output` is given

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self._decoded(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def _decoded(self, size: int) -> bytes:
        while not self._output:
            if self._error is not None:
                raise self._error
            if self._member is None and not self._start_member():
                return b""
            self._inflate(size)
        data, self._output = self._output[:size], self._output[size:]
        return data

    def _more(self) -> bool:
        more = self._raw.read(_CHUNK)
        self._input += more
        return bool(more)

    def _start_member(self) -> bool:
        """A member begins at the next byte (after zero bytes, past the first): False at the file's end."""
        while True:
            if not self._first:
                self._input = self._input.lstrip(b"\0")
            if len(self._input) >= len(_MAGIC) or not self._more():
                break
        if not self._input:
            return False
        if self._input[: len(_MAGIC)] != _MAGIC:
            head = self._input[: len(_MAGIC)]
            raise gzip.BadGzipFile(f"Not a gzipped file ({head!r})")  # i18n: not shown (gzip's words)
        self._first = False
        self._member = zlib.decompressobj(_GZIP_WBITS)
        return True

    def _inflate(self, size: int) -> None:
        """Decode what the input holds (at most `size` bytes at once), reading more when it holds none."""
        member = self._member
        assert member is not None
        if not self._input and not self._more():
            # The file ends inside the member, but zlib may hold bytes it decoded past the last `size`
            # asked for, having read every compressed byte: given first, then the stream is cut short.
            before = member.copy()
            try:
                self._output = member.decompress(b"", size)
            except zlib.error:
                self._output = _salvaged(before, b"")
            if not self._output:
                self._error = EOFError(_CUT_SHORT)
            return
        before = member.copy()
        data = self._input
        try:
            self._output = member.decompress(data, size)
        except zlib.error as error:
            self._output, self._input = _salvaged(before, data), b""
            self._error = _in_gzip_words(error)
            return
        if member.eof:
            self._input, self._member = member.unused_data, None
        else:
            self._input = member.unconsumed_tail


def _salvaged(member: zlib._Decompress, data: bytes) -> bytes:
    """What `member` decodes of `data`, byte by byte, up to the byte where zlib detects the damage."""
    out: list[bytes] = []
    for at in range(len(data)):
        try:
            out.append(member.decompress(data[at : at + 1]))
        except zlib.error:
            break
    return b"".join(out)


def _in_gzip_words(error: zlib.error) -> Exception:
    for words, said in _TRAILER.items():
        if str(error).endswith(words):
            return gzip.BadGzipFile(said)
    return error
