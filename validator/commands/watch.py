"""`casino-validator watch` (and `check --follow`): judge each round as the table writes it."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, TextIO, cast

from validator import stops
from validator.checking.serial import rule_catalogue
from validator.commands import common
from validator.errors import ValidatorError
from validator.findings.finding import Summary
from validator.formats import names
from validator.i18n import _
from validator.live.alerts import Alerts
from validator.live.state import WatchState, lock_output
from validator.live.watch import Watcher
from validator.logs.limits import configure, limits_from_options
from validator.outputs import Checked

if TYPE_CHECKING:
    from validator.checking.options import WatchOptions


def run(options: WatchOptions) -> int:
    """Follow the logs until Ctrl-C or SIGTERM; the exit status of the findings at the fail level."""
    fmt, output, interval = options.format, options.output, options.interval
    on_finding = options.on_finding
    # The formats that can be written a finding at a time (the others are one document, written at the end).
    streaming = names(streaming=True)
    if fmt not in streaming:
        raise ValidatorError(
            _(
                "watch writes each finding as it comes: --format {formats} ({format} is one document written "
                "at the end: use check)"
            ).format(formats=" | ".join(streaming), format=fmt)
        )
    if interval <= 0:
        raise ValidatorError(
            _("--interval {interval}: give a number of seconds above 0").format(interval=interval)
        )
    limits = limits_from_options(None, options.limits.max_line_bytes, options.limits.max_broken_records)
    configure(limits)
    registry = common.registry()
    root = common.project_root(None)
    policy = common.policy(registry, root, options.policy)
    lookup = None
    house_label = None
    if options.house is not None:
        from validator.house.apply import house_lookup

        lookup, house_label = house_lookup(options.house, registry)
    state = WatchState.open(options.state)
    # A signal from here on ends the watch at its next look; the summary and the state are written
    # whatever signals come meanwhile (`validator.stops`).
    try:
        with stops.installed(), stops.gently(), _append(output, state) as out:
            summary = Summary(house=house_label)
            if options.house is None:
                summary.notes.append(_("no house rules given: the regulation's defaults apply"))
            reporter = common.reporter(fmt, out, output, root)
            terminal = sys.stderr if sys.stderr.isatty() else None
            alerts = Alerts(on_finding, options.on_finding_timeout, options.bell, terminal)
            alerts.start()

            def commit() -> None:
                out.flush()
                if output is not None:
                    state.output_size = out.tell()
                state.save()

            watcher = Watcher(
                registry,
                options,
                summary,
                state,
                limits=limits,
                house=lookup,
                commit=commit,
                flush=out.flush,
                say=common.error,
            )
            for outcome in policy.apply(watcher.outcomes(), summary):
                reporter.round(outcome)
                for finding in outcome.findings:
                    alerts.finding(finding, outcome.table, outcome.at)
            alerts.stop()
            if on_finding is not None:
                summary.notes.extend(alerts.counts.notes(on_finding))
            policy.finish(summary)
            reporter.finish(summary, rule_catalogue(registry, summary.rulesets))
            commit()
    finally:
        state.close()
    return policy.exit_status(summary)


@contextlib.contextmanager
def _append(output: Path | None, state: WatchState) -> Iterator[TextIO]:
    """Standard output, or FILE opened for appending: a watch adds to its report as it goes. What a
    killed watch wrote after its last saved state is cut off first (it is judged and written again)."""
    if output is None:
        yield sys.stdout
        return
    name = str(output)
    key = os.path.abspath(name)
    try:
        handle: IO[str] = open(output, "a+", encoding="utf-8", newline="\n")  # noqa: SIM115
    except OSError as error:
        raise ValidatorError(
            _("{path}: cannot write ({error})").format(path=name, error=error.strerror)
        ) from None
    with handle:
        lock_output(handle, name)
        size = handle.seek(0, os.SEEK_END)
        if state.output == key and state.output_size is not None and state.output_size < size:
            handle.truncate(state.output_size)
            handle.seek(state.output_size)
        state.output = key
        state.output_size = handle.tell()
        yield cast(TextIO, Checked(handle, name))
