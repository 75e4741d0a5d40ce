"""What the house rules share: the part of a house file each one looks at (a `Node`), the finding they
make of it, and the words their messages use.

The linter (`validator.house.lint`) walks a file in document order and hands every node to the rules
that look at its kind, as yamllint hands tokens to its rules; each rule's `check(node)` yields its
findings. The kinds, in the order the walk visits them:

- `schema-error`: one error of the house-rules/1 schema (type errors stop the reading, and a missing key
  is visited once per mapping);
- `ruleset`: a table's `ruleset`, before any version is chosen;
- `key`: each key of a table entry;
- `game`: a table's `game`;
- `option`: each key under a table's `options`;
- `side-bet`: each side bet under `side_bets`, then `setting`: each key under a side bet the version has;
- `entry`: the table entry as a whole, once its keys were visited;
- `rule-option`: an option keyed as the rules name it (`lucky_ladies.paytable`), as rule fixtures give them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Literal

from validator.casino.money import fmt
from validator.dsl.ast import Ratio
from validator.findings.finding import Finding
from validator.findings.ruledoc import HOUSE_REF
from validator.house.load import dotted
from validator.i18n import _

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

    from validator.dsl.model import OptionDef, Ruleset
    from validator.house.load import HouseFile, Path_
    from validator.rulebook.registry import Registry

SPEC_REF = HOUSE_REF
OPTIONS = "options"
SIDE_BETS = "side_bets"

NodeKind = Literal[
    "schema-error",
    "ruleset",
    "key",
    "game",
    "option",
    "side-bet",
    "setting",
    "entry",
    "rule-option",
    "reading",
]
READINGS = "readings"


@dataclass(frozen=True, slots=True)
class Table:
    """A table entry and the version of its ruleset it is linted against."""

    house: HouseFile
    id: str
    entry: dict[str, Any]
    ruleset: Ruleset
    # The version's options, split as a house file writes them: the table's own under `options`, a side
    # bet's (`<bet>.<setting>`) under `side_bets.<bet>`.
    table_options: dict[str, OptionDef]
    side_bet_options: dict[str, OptionDef]

    @property
    def base(self) -> Path_:
        return ("tables", self.id)


@dataclass(frozen=True, slots=True)
class Node:
    """One part of a house file, as the walk hands it to the rules."""

    kind: NodeKind
    house: HouseFile
    path: Path_
    key: str = ""
    raw: Any = None
    table: Table | None = None
    # For `option`, `setting` and `rule-option`: the option the key names, the name under which the
    # regulation fixes it, and the options a misspelt key is compared with.
    option: OptionDef | None = None
    fixed: str | None = None
    candidates: Mapping[str, OptionDef] = field(default_factory=dict)
    bet: str = ""
    # For `schema-error`: the schema's error. For `ruleset`: the registry and the day linted.
    error: ValidationError | None = None
    registry: Registry | None = None
    day: date | None = None


def finding(
    house: HouseFile,
    path: Path_,
    rule: str,
    ref: str,
    message: str,
    *,
    severity: str = "error",
    expected: dict[str, Any] | None = None,
    actual: dict[str, Any] | None = None,
) -> Finding:
    """A `house` finding at `path`: its dotted path, also at the head of the message, and its YAML line."""
    where = dotted(path)
    return Finding(
        kind="house",
        rule=rule,
        ref=ref,
        severity=severity,  # type: ignore[arg-type]
        file=house.file,
        line=house.line(path),
        path=where,
        message=_("{where}: {message}").format(where=where, message=message) if where else message,
        expected=expected,
        actual=actual,
    )


SHOWN_CHARS = 60  # of a value a message quotes: a ratio of 5,000 digits is not written out whole


def shown(value: Any) -> str:
    """A YAML value as a message writes it (a long one cut, saying how long it was)."""
    text = _shown(value)
    if len(text) > SHOWN_CHARS:
        text = f"{text[:SHOWN_CHARS]}… ({len(text):,} characters)"
    return text


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, Decimal):
        return fmt(value) or "0"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def as_json(value: Any) -> Any:
    """A value as a finding's `expected`/`actual` holds it."""
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, Ratio):
        return str(value)
    return value


def closest(word: str, candidates: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str], otherwise: str = "") -> str:
    """A message's hint: "; did you mean X?", X the candidate closest to `word`; `otherwise` when none
    is close."""
    near = closest(word, candidates)
    return _("; did you mean {near}?").format(near=near) if near else otherwise


def one_of(words: Iterable[str]) -> str:
    words = list(words)
    if not words:
        return _("none")
    if len(words) == 1:
        return words[0]
    return _("{these} or {last}").format(these=", ".join(words[:-1]), last=words[-1])
