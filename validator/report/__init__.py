"""Report formats: one module per format, found by name in `REPORTERS`.

reporter = make_reporter("sarif", sys.stdout)
for outcome in outcomes:
    reporter.round(outcome)
reporter.finish(summary, rules)
"""

from __future__ import annotations

from typing import TextIO

from validator.errors import ValidatorError
from validator.report.base import Reporter
from validator.report.github import GithubReporter
from validator.report.html import HtmlReporter
from validator.report.jsondoc import JsonReporter
from validator.report.jsonl import JsonLinesReporter
from validator.report.junit import JunitReporter
from validator.report.sarif import SarifReporter
from validator.report.text import TextReporter

# The order is the one `--format` help and the error message list.
REPORTERS: dict[str, type[Reporter]] = {
    cls.name: cls
    for cls in (
        TextReporter,
        JsonLinesReporter,
        JsonReporter,
        SarifReporter,
        JunitReporter,
        GithubReporter,
        HtmlReporter,
    )
}


def make_reporter(name: str, out: TextIO, *, color: bool = False, root: str | None = None) -> Reporter:
    """The reporter for `--format NAME`; an unknown name stops the run (exit 2) listing the choices.
    `root`: the folder SARIF's URIs and fingerprints are relative to (default: `project_root.find_root`)."""
    try:
        cls = REPORTERS[name]
    except KeyError:
        raise ValidatorError(f"unknown format {name!r}: choose one of {', '.join(REPORTERS)}") from None
    if cls is SarifReporter:
        return SarifReporter(out, color=color, root=root)
    return cls(out, color=color)


__all__ = ["REPORTERS", "Reporter", "make_reporter"]
