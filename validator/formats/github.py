"""`github`: GitHub Actions workflow commands, which the runner turns into annotations on the log files.

`::error file=F,line=L,title=RULE::message (ref)` per finding (`::warning` for warnings), written as
rounds come, then one `::notice::` with the run in a sentence.
"""

from __future__ import annotations

from collections.abc import Mapping

from validator.findings.finding import Finding, RoundOutcome, RuleInfo, Summary
from validator.formats.base import Reporter, evidence, summary_sentence

_COMMANDS = {"error": "error", "warning": "warning"}


def escape_data(text: str) -> str:
    """The message part: `%` first, so the escapes it introduces are not escaped again."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A `key=value` part: also `:` and `,`, which would otherwise end the value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    finding: Finding,
    table: str | None = None,
    at: str | None = None,
    titles: Mapping[str, str] | None = None,
) -> str:
    properties = [f"file={escape_property(finding.file)}"]
    if finding.line is not None:
        properties.append(f"line={finding.line}")
    properties.append(f"title={escape_property(finding.rule)}")
    said = escape_data(evidence(finding, table, at, titles))
    return f"::{_COMMANDS[finding.severity]} {','.join(properties)}::{said}"


class GithubReporter(Reporter):
    name = "github"

    def round(self, outcome: RoundOutcome) -> None:
        for finding in outcome.findings:
            self.out.write(annotation(finding, outcome.table, outcome.at, outcome.titles) + "\n")

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        self.out.write(f"::notice::{escape_data(summary_sentence(summary))}\n")
