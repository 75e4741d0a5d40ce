"""`--scheduler ADDRESS` answered in bounded time: before Dask's client is given the address, this module
connects to it and reads the first message a Dask scheduler sends to whoever connects (its handshake),
all within the timeout. Anything else (an HTTP server, which waits for a request; a peer that accepts and
says nothing; one that answers `HTTP/1.1 400`, whose bytes Dask would read as a message length of
exabytes) is exit 2 with one line, within the timeout.

Dask's TCP messages start with an 8-byte little-endian length, then, inside those bytes, the number of
frames and each frame's length (distributed.comm.tcp, distributed.protocol.utils.pack_frames_prelude).
A handshake is a few hundred bytes: one that says more than HANDSHAKE_MAX is not one.
"""

from __future__ import annotations

import socket
import struct
import time

from validator.errors import ValidatorError
from validator.i18n import _

DEFAULT_PORT = 8786  # Dask's scheduler port
HANDSHAKE_MAX = 1 << 20
FRAMES_MAX = 64
SCHEMES = ("tcp",)  # what this command connects to: no certificates to give for tls://, no UCX


def _unsupported(address: str, scheme: str) -> str:
    return _(
        "--scheduler {address}: {scheme}:// is not supported; give the scheduler's tcp:// address "
        "(tcp://HOST:PORT, or HOST:PORT)"
    ).format(address=address, scheme=scheme)


def _not_dask(address: str, why: str) -> str:
    return _("--scheduler {address}: not a Dask scheduler ({why})").format(address=address, why=why)


def _unreachable(address: str, why: str) -> str:
    return _("--scheduler {address}: cannot reach the scheduler ({why})").format(address=address, why=why)


def host_port(address: str) -> tuple[str, int]:
    """The host and port of `tcp://HOST:PORT`, `HOST:PORT` or `HOST` (port 8786), `[IPv6]:PORT`."""
    scheme, found, rest = address.partition("://")
    if not found:
        scheme, rest = "tcp", address
    if scheme.lower() not in SCHEMES:
        raise ValidatorError(_unsupported(address, scheme))
    rest = rest.rstrip("/")
    if rest.startswith("["):
        host, _sep, tail = rest[1:].partition("]")
        port_text = tail[1:] if tail.startswith(":") else ""
    else:
        host, _sep, port_text = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not host:
        raise ValidatorError(_unreachable(address, _("no host in the address")))
    try:
        port = int(port_text) if port_text else DEFAULT_PORT
    except ValueError:
        raise ValidatorError(
            _unreachable(address, _("{port} is not a port").format(port=repr(port_text)))
        ) from None
    if not 0 < port < 65536:
        raise ValidatorError(_unreachable(address, _("{port} is not a port").format(port=port)))
    return host, port


def probe(address: str, timeout: float) -> None:
    """Return once the address has answered as a Dask scheduler does, within `timeout` seconds in all;
    else a `ValidatorError` saying what it did instead."""
    host, port = host_port(address)
    deadline = time.monotonic() + timeout
    try:
        connection = socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        raise ValidatorError(
            _unreachable(address, _("no connection within {seconds} s").format(seconds=f"{timeout:g}"))
        ) from None
    except OSError as error:
        raise ValidatorError(_unreachable(address, error.strerror or str(error))) from None
    with connection:
        try:
            (size,) = struct.unpack("<Q", _read(connection, 8, deadline))
            if not 8 <= size <= HANDSHAKE_MAX:
                raise ValidatorError(_not_dask(address, _("its first bytes are not a Dask message")))
            message = _read(connection, size, deadline)
            (frames,) = struct.unpack("<Q", message[:8])
            if not 1 <= frames <= FRAMES_MAX:
                raise ValidatorError(_not_dask(address, _("its first bytes are not a Dask message")))
        except TimeoutError:
            raise ValidatorError(
                _not_dask(address, _("no handshake within {seconds} s").format(seconds=f"{timeout:g}"))
            ) from None
        except _Closed:
            raise ValidatorError(
                _not_dask(address, _("it closed the connection without a handshake"))
            ) from None
        except OSError as error:
            raise ValidatorError(_unreachable(address, error.strerror or str(error))) from None


class _Closed(Exception):
    pass


def _read(connection: socket.socket, size: int, deadline: float) -> bytes:
    data = bytearray()
    while len(data) < size:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        connection.settimeout(left)
        chunk = connection.recv(min(size - len(data), 1 << 16))
        if not chunk:
            raise _Closed
        data += chunk
    return bytes(data)
