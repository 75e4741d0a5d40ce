"""Alerts where people look: a command run for each finding, and the terminal's bell.

`--on-finding CMD` runs CMD (split as a shell splits words, run without a shell) once per finding, the
finding as one JSON object on its standard input. The commands run one at a time on a thread of their
own, so a slow command never holds up the judging: a command that runs past `--on-finding-timeout` is
killed, a command that fails or cannot start is counted, and said on standard error (the first few), and
findings waiting past a bounded queue are counted as dropped. On exit the queue is given the time of one
command to empty. No network code: the command is the user's (a mail, a pager, a chat hook).
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.i18n import _

QUEUE = 10_000  # findings waiting for their command; past it, dropped and counted
SAID = 5  # failures said one by one on standard error; the rest only counted
_SEVERITY = {"warning": 1, "error": 2}


@dataclass(slots=True)
class AlertCounts:
    sent: int = 0
    failed: int = 0
    timed_out: int = 0
    dropped: int = 0
    undelivered: int = 0  # still waiting when the watch ended

    def notes(self, command: str) -> list[str]:
        if not (self.sent or self.failed or self.timed_out or self.dropped or self.undelivered):
            return []
        notes = [
            _("--on-finding {command}: {count} findings delivered").format(command=command, count=self.sent)
        ]
        if self.failed:
            notes.append(
                _("--on-finding: {count} commands failed (exit status or could not start)").format(
                    count=self.failed
                )
            )
        if self.timed_out:
            notes.append(
                _("--on-finding: {count} commands killed past the timeout").format(count=self.timed_out)
            )
        if self.dropped:
            notes.append(
                _("--on-finding: {count} findings dropped (over {limit} waiting)").format(
                    count=self.dropped, limit=f"{QUEUE:,}"
                )
            )
        if self.undelivered:
            notes.append(
                _("--on-finding: {count} findings still waiting when the watch ended").format(
                    count=self.undelivered
                )
            )
        return notes


@dataclass(slots=True)
class Alerts:
    """Where each reported finding is sent besides the report."""

    command: str | None = None
    timeout: float = 30.0
    bell: str | None = None  # the lowest severity that rings the bell
    terminal: TextIO | None = None
    counts: AlertCounts = field(default_factory=AlertCounts)
    _argv: list[str] = field(default_factory=list)
    _queue: queue.Queue[bytes | None] = field(default_factory=lambda: queue.Queue(QUEUE))
    _thread: threading.Thread | None = None
    _said: int = 0

    def start(self) -> None:
        if self.bell is not None and self.bell not in _SEVERITY:
            raise ValidatorError(
                _("--bell {bell}: give one of {known}").format(bell=self.bell, known=", ".join(_SEVERITY))
            )
        if self.command is None:
            return
        try:
            self._argv = shlex.split(self.command)
        except ValueError as error:
            raise ValidatorError(
                _("--on-finding {command}: {error}").format(command=repr(self.command), error=error)
            ) from None
        if not self._argv:
            raise ValidatorError(_("--on-finding: give a command"))
        if self.timeout <= 0:
            raise ValidatorError(
                _("--on-finding-timeout {timeout}: give a number of seconds above 0").format(
                    timeout=self.timeout
                )
            )
        self._thread = threading.Thread(target=self._run, name="on-finding", daemon=True)
        self._thread.start()

    def finding(self, finding: Finding, table: str | None, at: str | None) -> None:
        rings = self.bell is not None and _SEVERITY.get(finding.severity, 0) >= _SEVERITY[self.bell]
        if rings and self.terminal is not None:
            self.terminal.write("\a")
            self.terminal.flush()
        if self._thread is None:
            return
        body: dict[str, Any] = finding.as_dict()
        body["table"] = table
        body["at"] = at
        data = json.dumps(body, ensure_ascii=False, default=str).encode("utf-8") + b"\n"
        try:
            self._queue.put_nowait(data)
        except queue.Full:
            self.counts.dropped += 1

    def stop(self) -> None:
        """Let the waiting findings go out for at most one command's time; those still waiting then are
        counted as undelivered, and the command under way is let finish (or killed at its timeout)."""
        if self._thread is None:
            return
        deadline = time.monotonic() + self.timeout
        while not self._queue.empty() and time.monotonic() < deadline and self._thread.is_alive():
            time.sleep(0.02)
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                break
            self.counts.undelivered += 1
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                return
            self._send(data)

    def _send(self, data: bytes) -> None:
        try:
            completed = subprocess.run(
                self._argv,
                input=data,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=self.timeout,
                check=False,
            )
        except subprocess.TimeoutExpired:
            self.counts.timed_out += 1
            self._say(_("--on-finding: killed after {seconds} s").format(seconds=f"{self.timeout:g}"))
            return
        except OSError as error:
            self.counts.failed += 1
            self._say(
                _("--on-finding: cannot run {command} ({error})").format(
                    command=self._argv[0], error=error.strerror or error
                )
            )
            return
        if completed.returncode != 0:
            self.counts.failed += 1
            self._say(
                _("--on-finding: {command} exited with status {status}").format(
                    command=self._argv[0], status=completed.returncode
                )
            )
            return
        self.counts.sent += 1

    def _say(self, message: str) -> None:
        self._said += 1
        if self._said <= SAID:
            print(f"casino-validator: {message}", file=sys.stderr, flush=True)
        elif self._said == SAID + 1:
            said = _("--on-finding: further failures are only counted")
            print(f"casino-validator: {said}", file=sys.stderr)
