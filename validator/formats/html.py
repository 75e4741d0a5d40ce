"""`html`: the audit report of one run, without a dataset folder: the run's rounds are written to a
temporary dataset, which the same report as `casino-validator report` reads, then removed."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from typing import Any

from validator.findings.finding import RoundOutcome, RuleInfo, Summary
from validator.formats.base import Reporter


class HtmlReporter(Reporter):
    name = "html"

    _folder: str | None = None
    _writer: Any = None
    _run: Any = None

    def _start(self) -> None:
        from validator.audit.dataset.writer import DatasetRun

        self._folder = tempfile.mkdtemp(prefix="casino-validator-audit-")
        self._run = DatasetRun.start(self._folder, [], {"format": "html"}, None)
        self._writer = self._run.writer()

    def round(self, outcome: RoundOutcome) -> None:
        if self._writer is None:
            self._start()
        self._writer.add(outcome)

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        from validator.audit import audit_html
        from validator.rulebook.registry import default_registry

        if self._writer is None:
            self._start()
        assert self._folder is not None
        try:
            self._writer.close()
            self._run.commit(summary)
            self.out.write(audit_html([self._folder], default_registry(), title="Audit report of one run"))
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)
