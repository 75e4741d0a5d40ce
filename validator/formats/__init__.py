"""Report formats: one module per format, found by name in `REPORTERS`.

reporter = make_reporter("sarif", sys.stdout)
for outcome in outcomes:
    reporter.round(outcome)
reporter.finish(summary, rules)
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, TextIO

from validator.errors import ValidatorError
from validator.formats.base import Reporter
from validator.i18n import _

# Each format's module and class, imported when the format is used (a run writes one format; some pull in
# rich or xml). The order is the one `--format` help and the error message list.
_FORMATS: dict[str, tuple[str, str]] = {
    "text": ("validator.formats.text", "TextReporter"),
    "jsonl": ("validator.formats.jsonl", "JsonLinesReporter"),
    "json": ("validator.formats.jsondoc", "JsonReporter"),
    "sarif": ("validator.formats.sarif", "SarifReporter"),
    "junit": ("validator.formats.junit", "JunitReporter"),
    "github": ("validator.formats.github", "GithubReporter"),
    "gitlab": ("validator.formats.gitlab", "GitlabReporter"),
    "html": ("validator.formats.html", "HtmlReporter"),
}


def reporter_class(name: str) -> type[Reporter]:
    """The class of the format `name` (one of `_FORMATS`)."""
    module, cls = _FORMATS[name]
    found: type[Reporter] = getattr(import_module(module), cls)
    return found


def __getattr__(name: str) -> Any:
    # `REPORTERS`: every format's class by name, in their order (importing them all).
    if name == "REPORTERS":
        return {format_name: reporter_class(format_name) for format_name in _FORMATS}
    raise AttributeError(name)


def make_reporter(name: str, out: TextIO, *, color: bool = False, root: str | None = None) -> Reporter:
    """The reporter for `--format NAME`; an unknown name stops the run (exit 2) listing the choices.
    `root`: the folder SARIF's URIs and fingerprints are relative to (default: `project_root.find_root`)."""
    if name not in _FORMATS:
        raise ValidatorError(
            _("unknown format {name!r}: choose one of {items}").format(name=name, items=", ".join(_FORMATS))
        )
    if name == "sarif":
        from validator.formats.sarif import SarifReporter  # start-up: a run loads its format's module only

        return SarifReporter(out, color=color, root=root)
    if name == "gitlab":
        from validator.formats.gitlab import GitlabReporter  # start-up: as above

        return GitlabReporter(out, color=color, root=root)
    return reporter_class(name)(out, color=color)


__all__ = ["Reporter", "make_reporter", "reporter_class"]
