"""Report formats: one module per format, found by name in `REPORTERS`.

reporter = make_reporter("sarif", sys.stdout)
for outcome in outcomes:
    reporter.round(outcome)
reporter.finish(summary, rules)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, TextIO

from validator.errors import ValidatorError
from validator.i18n import _

if TYPE_CHECKING:
    from validator.formats.base import Reporter


@dataclass(frozen=True, slots=True)
class Format:
    """A format of the registry: the module and class of its reporter, and what it can report."""

    module: str
    cls: str
    streams: bool = False  # writes each finding as it comes (`watch` takes it)
    rounds_only: bool = False  # a report of the rounds themselves (`check`'s only, not `lint`'s)


# The registry of formats: each format's module and class, imported when the format is used (a run writes
# one format; some pull in rich or xml). The CLI's `--format` choices are read from here (`names`), in this
# order, which the help and the error message list; importing this package imports no reporter.
FORMATS: dict[str, Format] = {
    "text": Format("validator.formats.text", "TextReporter", streams=True),
    "jsonl": Format("validator.formats.jsonl", "JsonLinesReporter", streams=True),
    "json": Format("validator.formats.jsondoc", "JsonReporter"),
    "sarif": Format("validator.formats.sarif", "SarifReporter"),
    "junit": Format("validator.formats.junit", "JunitReporter"),
    "github": Format("validator.formats.github", "GithubReporter", streams=True),
    "gitlab": Format("validator.formats.gitlab", "GitlabReporter"),
    "html": Format("validator.formats.html", "HtmlReporter", rounds_only=True),
}


def names(*, streaming: bool = False, of_house: bool = False) -> tuple[str, ...]:
    """The formats' names, in the registry's order: every one; with `streaming`, those that write each
    finding as it comes (`watch`); with `of_house`, those that report findings on other things than
    rounds (`lint`)."""
    return tuple(
        name
        for name, entry in FORMATS.items()
        if (entry.streams or not streaming) and not (entry.rounds_only and of_house)
    )


def reporter_class(name: str) -> type[Reporter]:
    """The class of the format `name` (one of `FORMATS`)."""
    entry = FORMATS[name]
    found: type[Reporter] = getattr(import_module(entry.module), entry.cls)
    return found


def __getattr__(name: str) -> Any:
    # `REPORTERS`: every format's class by name, in their order (importing them all); `Reporter`, the
    # base class (imported when asked for: the CLI reads the names at start-up).
    if name == "REPORTERS":
        return {format_name: reporter_class(format_name) for format_name in FORMATS}
    if name == "Reporter":
        from validator.formats.base import Reporter  # start-up: as said above

        return Reporter
    raise AttributeError(name)


def make_reporter(name: str, out: TextIO, *, color: bool = False, root: str | None = None) -> Reporter:
    """The reporter for `--format NAME`; an unknown name stops the run (exit 2) listing the choices.
    `root`: the folder SARIF's URIs and fingerprints are relative to (default: `project_root.find_root`)."""
    if name not in FORMATS:
        raise ValidatorError(
            _("unknown format {name!r}: choose one of {items}").format(name=name, items=", ".join(FORMATS))
        )
    if name == "sarif":
        from validator.formats.sarif import SarifReporter  # start-up: a run loads its format's module only

        return SarifReporter(out, color=color, root=root)
    if name == "gitlab":
        from validator.formats.gitlab import GitlabReporter  # start-up: as above

        return GitlabReporter(out, color=color, root=root)
    return reporter_class(name)(out, color=color)


__all__ = ["FORMATS", "Format", "Reporter", "make_reporter", "names", "reporter_class"]
