"""`jsonl`: one finding per line as a JSON object and nothing else, for `jq` and log pipelines."""

from __future__ import annotations

import json
from collections.abc import Mapping

from validator.findings.finding import RoundOutcome, RuleInfo, Summary
from validator.formats.base import Reporter, json_default


class JsonLinesReporter(Reporter):
    name = "jsonl"

    def round(self, outcome: RoundOutcome) -> None:
        for finding in outcome.findings:
            self.out.write(json.dumps(finding.as_dict(), ensure_ascii=False, default=json_default) + "\n")

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        # docs/findings.md: nothing else on standard output, so no summary line here.
        return None
