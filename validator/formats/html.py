"""`html`: the audit report of one run, without a dataset folder: the run's rounds are written to a
temporary dataset, which the same report as `casino-validator report` reads, then removed.

Rounds with findings are written one row each, as `check --dataset` writes them (the report lists them,
with their accounts); rounds without findings only count, so they are summed (`audit.dataset.rollup`), here or
on the workers of `check --jobs`, which send back their sums instead of their rounds.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from validator.audit.dataset.rollup import Rollup
from validator.audit.dataset.writer import DatasetRun
from validator.audit.options import ReportOptions
from validator.audit.report import audit_html
from validator.findings.finding import RoundOutcome, RuleInfo, Summary
from validator.formats.base import QuietRounds, Reporter
from validator.i18n import _
from validator.rulebook.registry import default_registry

if TYPE_CHECKING:
    from validator.audit.dataset.rollup import Rollup


class SummedRounds(QuietRounds):
    """A worker's sums of its rounds without findings, sent back at the end of its share."""

    def __init__(self) -> None:
        self.rollup = Rollup()

    def reads(self, name: str, location: str) -> None:
        self.rollup.located[name] = location

    def add(self, outcome: RoundOutcome) -> None:
        self.rollup.add(outcome)

    def total(self) -> Any:
        return self.rollup


class HtmlReporter(Reporter):
    name = "html"

    _folder: str | None = None
    _writer: Any = None
    _run: Any = None
    _rollup: Rollup | None = None

    @classmethod
    def quiet_rounds(cls) -> QuietRounds | None:
        return SummedRounds()

    def _start(self) -> None:
        self._folder = tempfile.mkdtemp(prefix="casino-validator-audit-")
        self._run = DatasetRun.start(self._folder, [], {"format": "html"}, None)
        self._writer = self._run.writer()
        self._rollup = Rollup(gaming_day_start=self._run.spec.gaming_day_start)

    def round(self, outcome: RoundOutcome) -> None:
        if self._writer is None:
            self._start()
        if outcome.status == "clean" and not outcome.findings:
            assert self._rollup is not None
            self._rollup.add(outcome)
        else:
            self._writer.add(outcome)

    def merge(self, total: Any) -> None:
        if self._writer is None:
            self._start()
        assert self._rollup is not None
        self._rollup.merge(total)

    def finish(self, summary: Summary, rules: Mapping[str, RuleInfo]) -> None:
        if self._writer is None:
            self._start()
        assert self._folder is not None and self._rollup is not None
        try:
            self._writer.close()
            spec = self._run.spec
            self._rollup.write(self._folder, spec.run_id, spec.house_file)
            self._run.commit(summary)
            self.out.write(
                audit_html(
                    ReportOptions((Path(self._folder),)),
                    default_registry(),
                    title=_("Audit report of one run"),
                )
            )
        finally:
            shutil.rmtree(self._folder, ignore_errors=True)
