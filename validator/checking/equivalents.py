"""The mutants a fixtures folder declares equivalent, each with its reason: `equivalent-mutants.json`.

`rules test --mutate` proves a mutant equivalent only when every version it touches compiles to the same
rules. Some change the rules and still no log can tell them apart: a clause no log reaches with the value
the mutant moves (ties settled by an earlier rule, so `hand.rank > dealer.rank` → `>=` in the rule after
them changes nothing). Those are declared, one by one, beside the fixtures:

    {"equivalent": [{"mutant": "rulesets/…/x.rules:752:22: rule higher-card-wins: `a > b` → `a >= b`",
                     "why": "Every tie is settled by a rule read before this one."}]}

`mutant` is the line `--mutate` prints for it, whole (file, line, column, item, change); `why` says why no
log can show it. A declaration is never a blanket one, and it is checked on every run:
- a declared mutant a fixture kills is listed (the declaration is false), and the run fails;
- a declaration of a file the run mutates that names no mutant of it is listed as stale (the file changed
  under it: the mutant is to be looked at again), and the run fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from validator.checking.declarations import declared_items
from validator.errors import ValidatorError
from validator.i18n import _

EQUIVALENT_FILE = "equivalent-mutants.json"


@dataclass(frozen=True, slots=True)
class Declared:
    mutant: str  # as `rules test --mutate` prints it
    why: str

    @property
    def file(self) -> str:
        return self.mutant.split(":", 1)[0]


@dataclass(slots=True)
class Declarations:
    """What applying a folder's declarations to a run's mutants found."""

    declared: list[tuple[str, str]] = field(default_factory=list)  # (a surviving mutant, why)
    killed: list[tuple[str, str]] = field(default_factory=list)  # declared equivalent, yet a case kills it
    stale: list[Declared] = field(default_factory=list)  # names no mutant of a file the run mutated

    def failed(self) -> bool:
        return bool(self.killed or self.stale)


def read_declarations(root: Path) -> list[Declared]:
    """The declarations of the fixtures folder `root` (none without the file). A file not of that shape is
    a `ValidatorError` naming it (exit 2)."""
    path = root / EQUIVALENT_FILE
    items = declared_items(path, "equivalent")
    found: list[Declared] = []
    for index, item in enumerate(items):
        mutant = item.get("mutant") if isinstance(item, dict) else None
        why = item.get("why") if isinstance(item, dict) else None
        if (
            not isinstance(item, dict)
            or set(item) != {"mutant", "why"}
            or not isinstance(mutant, str)
            or not isinstance(why, str)
            or not mutant.strip()
            or not why.strip()
        ):
            raise ValidatorError(
                _(
                    "{path}: declaration {number}: give 'mutant' (the line --mutate prints) and 'why' "
                    "(why no log can tell it from the ruleset), both not empty, and nothing else"
                ).format(path=path, number=index + 1)
            )
        if any(d.mutant == mutant for d in found):
            raise ValidatorError(
                _("{path}: declaration {number}: {mutant} is declared twice").format(
                    path=path, number=index + 1, mutant=mutant
                )
            )
        found.append(Declared(mutant, why))
    return found


def apply(
    declarations: list[Declared], surviving: list[str], killed: list[str], every: list[str], files: set[str]
) -> Declarations:
    """The declarations against a run: `surviving`, `killed` and `every` mutant of it as printed, `files`
    the files it mutated."""
    out = Declarations()
    reasons = {d.mutant: d.why for d in declarations}
    out.declared = [(m, reasons[m]) for m in surviving if m in reasons]
    out.killed = [(m, reasons[m]) for m in killed if m in reasons]
    made = set(every)
    out.stale = [d for d in declarations if d.file in files and d.mutant not in made]
    return out
