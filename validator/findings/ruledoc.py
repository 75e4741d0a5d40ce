"""What every Python-side rule carries (the reader's `hand-log/*`, the linter's `house/*`): its id, kind,
severity, reference and the four texts a ruleset rule writes in its `doc` block. A leaf: the rule modules
import it, `validator.catalogue.builtin_docs` gathers them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from validator.findings.finding import Kind, Severity
from validator.i18n import _

LOG_REF = "hand-log/1 (docs/hand-log.md)"
HOUSE_REF = "house-rules/1 (docs/house-rules.md)"


@dataclass(frozen=True, slots=True)
class RuleDoc:
    id: str
    kind: Kind
    severity: Severity
    ref: str
    checks: str
    why: str
    fails: str
    passes: str

    def shown(self) -> RuleDoc:
        """The docs in the language in use: written in English (marked `N_`), translated where shown."""
        return replace(
            self, checks=_(self.checks), why=_(self.why), fails=_(self.fails), passes=_(self.passes)
        )


def log_rule(rule: str, *, checks: str, why: str, fails: str, passes: str) -> RuleDoc:
    """A rule of the hand-log/1 format (kind `format`, an error)."""
    return RuleDoc(rule, "format", "error", LOG_REF, checks, why, fails, passes)


def house_rule(
    rule: str, *, checks: str, why: str, fails: str, passes: str, severity: Severity = "error"
) -> RuleDoc:
    """A rule of the house-rules/1 format (kind `house`)."""
    return RuleDoc(rule, "house", severity, HOUSE_REF, checks, why, fails, passes)
