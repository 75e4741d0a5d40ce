"""The outcomes of clauses a fixtures folder declares no log can give, each with its reason:
`unreachable-outcomes.json`.

`rules test --coverage` asks of a `require` clause that it both hold and fail in the passing cases, of a
`settle` clause that it be chosen where the log settles as it says and where it does not, of a paytable
line that it pay. Some of those outcomes no log can give: a condition on a fact the replay fixes for its
event (`late_bet`'s `bet.before_deal` is always false), a relation the log format fixes (a hand-log/1.2
`request` is logged only when not honoured), a settle clause whose guard reads the payment it disagrees
with. They are declared one by one beside the fixtures, as `equivalent-mutants.json` declares mutants
(and as coverage.py's `# pragma: no cover` excludes a line):

    {"unreachable": [
        {"item": "rulesets/fr/blackjack/2013-12-15.rules:1649: rule bets-before-deal, on late_bet",
         "never": "holds",
         "why": "The replay fixes bet.before_deal false on every late_bet: …"}]}

`item` is the item as `--coverage` prints it (its place, a colon, what it is); `never` the outcome no
log can give (`NEVER`); `why` why. A declaration is never a blanket one, and it is checked on every run:
- an item whose declared outcome a passing case gives is listed with the case (the declaration is false),
  and the run fails;
- a declaration of a file the run measures that names no item of it, or an outcome the item does not
  have (`holds` of a settle clause, of a condition with one outcome), is listed as stale (the file
  changed under it: look again), and the run fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from validator.checking.declarations import declared_items
from validator.errors import ValidatorError
from validator.i18n import _

UNREACHABLE_FILE = "unreachable-outcomes.json"

# The outcomes a declaration may name, by the kind of item that has them. `evaluated`, `chosen` and
# `pays` are the item's whole: no log reaches it at all.
NEVER = {
    "evaluated": "require",  # the clause's condition is never evaluated (its guard never holds)
    "holds": "require",
    "fails": "require",
    "chosen": "settle",  # the clause is never the one chosen for a stake
    "agrees": "settle",  # chosen where the log settles the stake as the clause says
    "disagrees": "settle",  # chosen where the log settles it otherwise (a payout finding)
    "pays": "line",
}


@dataclass(frozen=True, slots=True)
class Unreachable:
    item: str  # as `rules test --coverage` prints it: FILE:LINE: what
    never: str  # a key of NEVER
    why: str

    @property
    def file(self) -> str:
        return self.item.split(":", 1)[0]


def read_unreachable(root: Path) -> list[Unreachable]:
    """The declarations of the fixtures folder `root` (none without the file). A file not of that shape is
    a `ValidatorError` naming it (exit 2)."""
    path = root / UNREACHABLE_FILE
    items = declared_items(path, "unreachable")
    found: list[Unreachable] = []
    for index, item in enumerate(items):
        declared = _declaration(item)
        if declared is None:
            raise ValidatorError(
                _(
                    "{path}: declaration {number}: give 'item' (the item as --coverage prints it), 'never' "
                    "(one of {outcomes}) and 'why' (why no log can give it), none empty, and nothing else"
                ).format(path=path, number=index + 1, outcomes=", ".join(NEVER))
            )
        if any(d.item == declared.item and d.never == declared.never for d in found):
            raise ValidatorError(
                _("{path}: declaration {number}: {item} (never {outcome}) is declared twice").format(
                    path=path, number=index + 1, item=declared.item, outcome=declared.never
                )
            )
        found.append(declared)
    return found


def _declaration(item: object) -> Unreachable | None:
    if not isinstance(item, dict) or set(item) != {"item", "never", "why"}:
        return None
    name, never, why = item["item"], item["never"], item["why"]
    if not isinstance(name, str) or not isinstance(never, str) or not isinstance(why, str):
        return None
    if not name.strip() or never not in NEVER or not why.strip():
        return None
    return Unreachable(name, never, why)
