"""house/fixed-by-regulation: a house file does not set what the regulation fixes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from typing import Any

from validator.dsl.ast import Ratio
from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import Node, as_json, finding, shown
from validator.i18n import N_, _

ID = "house/fixed-by-regulation"
DOC = house_rule(
    ID,
    checks=N_("A house file does not set what the regulation fixes."),
    why=N_(
        "What the text fixes is not the casino's to choose; writing the text's own value is only a "
        "warning (nothing wrong was chosen), another value is an error citing the article."
    ),
    fails=N_('`blackjack_pays: "6:5"` at a French blackjack table (art. 55-4 fixes 3 for 2).'),
    passes=N_("Leaving `blackjack_pays` out."),
)
NODES = ("option", "setting", "rule-option")

_RATIO = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")


def check(node: Node) -> Iterator[Finding]:
    if node.option is not None or node.fixed is None:
        return
    assert node.table is not None
    name, raw = node.fixed, node.raw
    fixed = node.table.ruleset.fixed[name]
    if _same(fixed.value, _fixed_value(fixed.value, raw)):
        yield finding(
            node.house,
            node.path,
            ID,
            fixed.ref,
            _(
                "the regulation fixes {name} at {value}: the house cannot choose it "
                "(the value is the same here; remove the key)"
            ).format(name=name, value=shown(fixed.value)),
            severity="warning",
        )
        return
    yield finding(
        node.house,
        node.path,
        ID,
        fixed.ref,
        _("the regulation fixes {name} at {value}; the house cannot choose {raw}").format(
            name=name, value=shown(fixed.value), raw=shown(raw)
        ),
        expected={name: as_json(fixed.value)},
        actual={name: as_json(raw)},
    )


def _fixed_value(fixed: Any, raw: Any) -> Any:
    """The YAML value in the type of what the text fixes, to compare them."""
    if isinstance(fixed, Ratio) and isinstance(raw, str) and (m := _RATIO.match(raw)) and int(m.group(2)):
        return Ratio(int(m.group(1)), int(m.group(2)))
    if isinstance(fixed, Decimal) and not isinstance(raw, bool):
        try:
            return Decimal(str(raw))
        except InvalidOperation:
            return raw
    return raw


def _same(fixed: Any, value: Any) -> bool:
    if isinstance(fixed, Ratio) and isinstance(value, Ratio):
        return fixed.factor == value.factor
    return type(fixed) is type(value) and fixed == value
