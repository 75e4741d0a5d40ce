"""`--scheduler` at something that is not a Dask scheduler: exit 2, one line, no traceback, within the
timeout (`--scheduler-timeout 3` here; the timeout covers the whole handshake). Each peer is a tiny
server on 127.0.0.1 in a thread of the test: a plain HTTP server, one that accepts and never answers,
one that answers `HTTP/1.1 400` at once, one that closes at once."""

from __future__ import annotations

import http.server
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from conftest import ROOT, SAMPLES

LOG = str(SAMPLES / "logs" / "clean" / "BA-01-2025-01-31.jsonl")
SCHEDULER = ("--scheduler",)
TIMEOUT = ("--scheduler-timeout", "3")
LIMIT = 60  # seconds a bad address may take in all (the command's own timeout is 3 s)


@contextmanager
def _peer(behave: Callable[[socket.socket], None]) -> Iterator[str]:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(connection)
            behave(connection)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for connection in held:
            connection.close()
        server.close()


@contextmanager
def _http_server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def _silent(connection: socket.socket) -> None:
    pass  # accepts, never answers


def _bad_request(connection: socket.socket) -> None:
    connection.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")


def _closes(connection: socket.socket) -> None:
    connection.close()


def _check(address: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "validator", "check", LOG, "-q", *SCHEDULER, address, *TIMEOUT],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        check=False,
        cwd=ROOT,
    )


def _refused(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert words in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("behave", "words"),
    [
        (_silent, "not a Dask scheduler (no handshake within 3 s)"),
        (_bad_request, "not a Dask scheduler (its first bytes are not a Dask message)"),
        (_closes, "not a Dask scheduler (it closed the connection without a handshake)"),
    ],
)
def test_a_peer_that_is_not_a_scheduler(behave, words: str) -> None:
    with _peer(behave) as address:
        _refused(_check(address), words)


def test_an_http_server() -> None:
    with _http_server() as address:
        _refused(_check(address), "not a Dask scheduler (no handshake within 3 s)")


@pytest.mark.parametrize(
    ("address", "words"),
    [
        ("tls://127.0.0.1:8786", "tls:// is not supported"),
        ("ucx://127.0.0.1:8786", "ucx:// is not supported"),
        ("inproc://127.0.0.1/1/2", "inproc:// is not supported"),
        ("ws://127.0.0.1:8786", "ws:// is not supported"),
        ("127.0.0.1:1", "cannot reach the scheduler"),  # nothing listens on port 1
        ("127.0.0.1:99999", "99999 is not a port"),
        ("127.0.0.1:x", "'x' is not a port"),
        ("tcp://:8786", "no host in the address"),
        ("no-such-host.invalid:8786", "cannot reach the scheduler"),
    ],
)
def test_addresses_that_lead_nowhere(address: str, words: str) -> None:
    from typer.testing import CliRunner

    from validator.cli import app  # in this process: these fail before any Dask import

    done = CliRunner().invoke(
        app, ["check", LOG, "-q", "--scheduler", address, "--scheduler-timeout", "3"], catch_exceptions=False
    )
    assert done.exit_code == 2, done.stderr
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_real_scheduler_still_answers(dask_scheduler: str) -> None:
    from conftest import run_cli

    done = run_cli("check", LOG, "-q", "--scheduler", dask_scheduler, "--scheduler-timeout", "20")
    assert done.returncode == 0, done.stderr
