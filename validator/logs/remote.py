"""Logs named by a URL that fsspec opens: `s3://`, `gs://`, `http(s)://`, `file://`, `memory://`.

fsspec is the optional extra `remote` (`pip install 'casino-validator[remote]'`), and each kind of store
needs its own package beside it (s3fs, gcsfs, aiohttp for http). It is imported only when a URL is named,
and whatever goes wrong in it (no such package, no such object, a refused connection) becomes the
`ValidatorError` of the URL, never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from typing import IO, Any, TypeVar

from validator.errors import ValidatorError
from validator.extras import require
from validator.i18n import _

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# File systems that live inside one process: another process (a worker) cannot see their files.
_PROCESS_LOCAL = ("memory",)

T = TypeVar("T")


def is_url(path: str) -> bool:
    return _URL.match(path) is not None


def protocol(url: str) -> str:
    return url.split("://", 1)[0].lower()


def is_local_only(url: str) -> bool:
    return protocol(url) in _PROCESS_LOCAL


def _filesystem(url: str) -> tuple[Any, str]:
    require("remote", url)  # i18n: not shown (the URL, as given)
    import fsspec  # type: ignore[import-untyped]

    found: tuple[Any, str] = _guarded(url, lambda: fsspec.core.url_to_fs(url))
    return found


def _guarded(url: str, call: Callable[[], T]) -> T:
    try:
        return call()
    except FileNotFoundError:
        raise ValidatorError(_("{url}: no such file or directory").format(url=url)) from None
    except ImportError as error:  # fsspec knows the protocol; its package is not installed
        raise ValidatorError(_("{url}: {error}").format(url=url, error=error)) from None
    except ValidatorError:
        raise
    except Exception as error:  # each store's client has its own errors (botocore, aiohttp...)
        detail = str(error) or type(error).__name__
        raise ValidatorError(_("{url}: {detail}").format(url=url, detail=detail)) from None


class _Opened(io.RawIOBase):
    """A file a store opened, read through its file system kept alive: a chained URL's file system
    (`zip://…::file://…`, `tar://…`) closes the archive it reads when it is collected, and the file
    would then fail at its next read. Whatever a read raises becomes the URL's `ValidatorError`."""

    def __init__(self, url: str, fs: Any, handle: Any) -> None:
        super().__init__()
        self._url = url
        self._fs = fs
        self._handle = handle

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = _guarded(self._url, lambda: self._handle.read(len(buffer)))
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        if not self.closed:
            with contextlib.suppress(Exception):
                self._handle.close()
            self._fs = None
        super().close()


def open_url(url: str) -> IO[bytes]:
    fs, path = _filesystem(url)
    if _guarded(url, lambda: fs.isdir(path)):
        raise ValidatorError(_("{url}: is a directory").format(url=url))
    handle = _guarded(url, lambda: fs.open(path, "rb"))
    return io.BufferedReader(_Opened(url, fs, handle), buffer_size=1 << 16)


def expand_url(url: str, suffixes: tuple[str, ...]) -> list[str]:
    """The URL of a file as given; of a folder, the URLs of the logs inside (recursively, sorted)."""
    fs, path = _filesystem(url)
    if _guarded(url, lambda: fs.isdir(path)):
        base = path.rstrip("/")
        found = sorted(
            str(name)[len(base) :].lstrip("/")
            for name in _guarded(url, lambda: fs.find(base))
            if str(name).endswith(suffixes)
        )
        if not found:
            raise ValidatorError(
                _("{url}: no hand-log file (*.jsonl or *.jsonl.gz) in this folder").format(url=url)
            )
        return [f"{url.rstrip('/')}/{name}" for name in found]
    if _guarded(url, lambda: fs.exists(path)):
        return [url]
    raise ValidatorError(_("{url}: no such file or directory").format(url=url))


def url_size(url: str) -> int:
    """The size in bytes, or 0 when the store does not say (progress only)."""
    try:
        fs, path = _filesystem(url)
        return int(_guarded(url, lambda: fs.size(path)) or 0)
    except (ValidatorError, TypeError, ValueError):
        return 0
