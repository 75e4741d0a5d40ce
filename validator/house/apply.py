"""Applying a house-rules file when replaying: table id + ruleset version → the options the judge reads.

`house_lookup` reads the file once (a file that cannot be read, or breaks the schema, stops the run:
exit 2). Each table's entry is then linted against the version the replay applies, the first time that
version is met for that table; an entry the regulation does not allow stops the run too, with its
findings and the `lint` command that reports them in full. The replay never runs on house rules the
linter refuses: a wrong choice would turn into false findings, or hide true ones.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from validator.dsl.model import Ruleset
from validator.errors import ValidatorError
from validator.findings.finding import Finding
from validator.house.lint import house_options, lint_table, schema_findings, table_readings, unknown_ruleset
from validator.house.load import HouseFile, load_house
from validator.i18n import _, ngettext
from validator.rulebook.registry import Registry

_SHOWN = 5  # findings quoted in the refusal; lint lists them all


def house_lookup(
    path: Path, registry: Registry, name: str | None = None
) -> tuple[Callable[[str, Ruleset], dict[str, Any]], str]:
    """The lookup the replay calls for each (table, version), and the label the summary shows. `name`:
    how messages name the file, when not as `path` (a worker reads it by its absolute path)."""
    house = load_house(path, name)
    problems = [f for f in schema_findings(house) if f.severity == "error"]
    for table_id, entry in house.tables.items():
        spec = entry.get("ruleset") if isinstance(entry, dict) else None
        if isinstance(spec, str) and spec:
            unknown = unknown_ruleset(house, table_id, spec, registry)
            if unknown is not None:
                problems.append(unknown)
    if problems:
        raise ValidatorError(_refusal(house, problems, _("the file"), date.today()))
    options: dict[tuple[str, str, tuple[tuple[str, str], ...]], dict[str, Any]] = {}

    def lookup(table_id: str, ruleset: Ruleset) -> dict[str, Any]:
        key = (table_id, ruleset.version, ruleset.applied)
        cached = options.get(key)
        if cached is not None:
            return dict(cached)
        entry = house.tables.get(table_id)
        if not isinstance(entry, dict):
            listed = ", ".join(sorted(house.tables)) or "none"
            raise ValidatorError(
                _(
                    "{file}: table {table_id} has no entry in this house-rules "
                    "file (its tables: {listed}); add one, or check without "
                    "--house to apply the regulation's defaults"
                ).format(file=house.file, table_id=table_id, listed=listed)
            )
        family, _unused = registry.resolve(entry["ruleset"])
        if family != ruleset.family:
            raise ValidatorError(
                _(
                    "{file}:{ruleset}: table {table_id} is declared under "
                    "{ruleset2}, but its log is judged by {version}"
                ).format(
                    file=house.file,
                    ruleset=house.line(("tables", table_id, "ruleset")),
                    table_id=table_id,
                    ruleset2=entry["ruleset"],
                    version=ruleset.version,
                )
            )
        errors = lint_table(house, table_id, ruleset).errors
        if errors:
            day = ruleset.valid_from or date.today()
            raise ValidatorError(_refusal(house, errors, f"table {table_id} under {ruleset.version}", day))
        options[key] = house_options(house, table_id, ruleset)
        return dict(options[key])

    return TableLookup(lookup, lambda table_id: table_readings(house, table_id)), str(house.file)


class TableLookup:
    """What the replay asks of a house file: a table's options under a version (called), and the
    readings its entry declares (`readings`)."""

    def __init__(
        self,
        options: Callable[[str, Ruleset], dict[str, Any]],
        readings: Callable[[str], dict[str, str]],
    ) -> None:
        self._options = options
        self._readings = readings

    def __call__(self, table_id: str, ruleset: Ruleset) -> dict[str, Any]:
        return self._options(table_id, ruleset)

    def readings(self, table_id: str) -> dict[str, str]:
        return self._readings(table_id)


def _refusal(house: HouseFile, errors: list[Finding], what: str, day: date) -> str:
    lines = [
        ngettext(
            "{file}: the house rules cannot be applied: {what} has {count} error",
            "{file}: the house rules cannot be applied: {what} has {count} errors",
            len(errors),
        ).format(file=house.file, what=what, count=len(errors))
    ]
    for finding in sorted(errors, key=lambda f: f.line or 0)[:_SHOWN]:
        ref = f" ({finding.ref})" if finding.ref else ""
        lines.append(f"  {finding.file}:{finding.line}: {finding.rule}: {finding.message}{ref}")
    if len(errors) > _SHOWN:
        lines.append("  " + _("… and {count} more").format(count=len(errors) - _SHOWN))
    lines.append(
        _("run `casino-validator lint {file} --date {day}` to see every finding").format(
            file=house.file, day=day.isoformat()
        )
    )
    return "\n".join(lines)
