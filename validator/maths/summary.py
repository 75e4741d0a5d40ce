"""What `casino-validator edge` runs: the version, the table's house options, the figures (computed, or
kept from an earlier run: `validator.maths.kept`), the output. The time it prints is the whole command's,
its start-up included."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError
from validator.i18n import _
from validator.maths import FORMATS, kept
from validator.maths.edge import figures, number, options_cost, reading_figures, report, sign_changes
from validator.maths.game import maths_of
from validator.maths.text import text
from validator.rulebook.registry import Registry

CHART = "_chart"  # the chart's text, kept with the figures (edge/1 has the chart's data only)
_LOADED = time.perf_counter()  # where the process's start cannot be read: the time since this import


def command_seconds() -> tuple[float, float]:
    """The whole command's time so far: wall-clock seconds since the process started (Linux's /proc; else
    since this module was imported) and the process's processor seconds."""
    cpu = time.process_time()
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime", encoding="ascii") as uptime:
            up = float(uptime.read().split()[0])
        wall = up - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        wall = time.perf_counter() - _LOADED
    return max(wall, 0.0), cpu


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
        # Imported only here: the house files' reader and linter (and their schema's validator) are
        # a third of `edge --ruleset`'s start-up, and a version alone reads no house file.
        from validator.house.apply import house_lookup
        from validator.house.load import load_house

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
    entry = kept.key(version, options, table, (with_options, with_strategy))
    data = kept.read(entry)
    if data is None:
        found = figures(version, options)
        data = report(found, table)
        if version.readings:
            data["readings"] = reading_figures(version, options)
        if with_options:
            costs = options_cost(version, options)
            data["options"] = costs
            data["edge_changes_side"] = sign_changes(costs, found.main)
        if with_strategy and found.game is not None:
            charted = maths_of(version).chart(found.game)
            if charted is not None:
                data["strategy"], data[CHART] = charted
        data.pop("seconds")
        data.pop("cpu_seconds")
        kept.keep(entry, data)
        data["kept"] = False
    else:
        data["kept"] = True
    strategy = data.pop(CHART, None)
    seconds, cpu = command_seconds()
    data["seconds"], data["cpu_seconds"] = number(seconds, 2), number(cpu, 2)
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return text(data, data.get("options") if with_options else None, strategy)
