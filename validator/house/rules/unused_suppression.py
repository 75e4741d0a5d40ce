"""house/unused-suppression: each `# casino-validator: ignore[RULE-ID]` comment suppresses a finding.

Which suppressions were used is known only once every finding of the run went through the policy
(`validator.catalogue.policy`), which hands each unused one to `check` at the end of the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.i18n import N_, _

if TYPE_CHECKING:
    from validator.findings.suppressions import Suppression

ID = "house/unused-suppression"
DOC = house_rule(
    ID,
    checks=N_("Each `# casino-validator: ignore[RULE-ID]` comment suppresses a finding."),
    why=N_("A suppression left behind after the mistake was fixed would hide the next one unnoticed."),
    fails=N_("`# casino-validator: ignore[house/unknown-key]` above a key that is known."),
    passes=N_("The same comment above the misspelt key it was written for."),
    severity="warning",
)
NODES = ()


def check(suppression: Suppression) -> Iterator[Finding]:
    """The finding for a suppression that suppressed nothing."""
    yield Finding(
        DOC.kind,
        DOC.id,
        DOC.ref,
        DOC.severity,
        suppression.file,
        suppression.line,
        _(
            "this suppression of {rule} suppresses nothing: remove it, or name the "
            "rule the line's finding has"
        ).format(rule=", ".join(suppression.rules) or _("no rule")),
    )
