"""What `casino-validator edge` runs: the version, the table's house options, the figures, the output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError
from validator.house.apply import house_lookup
from validator.house.load import load_house
from validator.i18n import _
from validator.maths import FORMATS
from validator.maths.edge import figures, options_cost, reading_figures, report, sign_changes
from validator.maths.game import maths_of
from validator.maths.text import text
from validator.rulebook.registry import Registry


def run(
    registry: Registry,
    *,
    ruleset: str | None,
    house: Path | None,
    table: str | None,
    fmt: str,
    with_options: bool,
    with_strategy: bool = False,
) -> str:
    if fmt not in FORMATS:
        raise ValidatorError(_("--format {value}: edge writes text or json").format(value=fmt))
    if (house is None) != (table is None):
        raise ValidatorError(_("--house and --table go together: the figures of one table's house entry"))
    options: dict[str, Any] | None = None
    spec = ruleset
    if house is not None and table is not None:
        entry = load_house(house).tables.get(table)
        if spec is None and isinstance(entry, dict) and isinstance(entry.get("ruleset"), str):
            spec = entry["ruleset"]
        if spec is None:
            raise ValidatorError(
                _("{house}: table {table} has no entry naming its ruleset; give --ruleset").format(
                    house=house, table=table
                )
            )
        lookup, _unused = house_lookup(house, registry)
        options = lookup(table, registry.pick(spec))
    if spec is None:
        raise ValidatorError(_("give --ruleset ID[@YYYY-MM-DD], or --house FILE --table ID"))
    version = registry.pick(spec)
    found = figures(version, options)
    data = report(found, table)
    if version.readings:
        data["readings"] = reading_figures(version, options)
    costs = options_cost(version, options) if with_options else None
    if costs is not None:
        data["options"] = costs
        data["edge_changes_side"] = sign_changes(costs, found.main)
    strategy = None
    if with_strategy and found.game is not None:
        charted = maths_of(version).chart(found.game)
        if charted is not None:
            data["strategy"], strategy = charted
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return text(data, costs, strategy)
