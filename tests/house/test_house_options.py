"""Every house option of every ruleset version, linted with values its declaration allows and refuses.

The cases come from the rulesets themselves (`Ruleset.options`: type, allowed values, range), so an
option added to a ruleset is covered here without a line of this file changing. Each version gives two
house files, one table per case: one with every allowed value (no finding), one with a refused value
per option (one finding, at the option's path, citing the option's ref). Fixed keys are refused too.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from house_helpers import lint, spec_of, write_house, yaml_value

from validator.dsl.ast import Ratio
from validator.dsl.model import OptionDef, Ruleset
from validator.rulebook.registry import default_registry

REGISTRY = default_registry()


def allowed_values(option: OptionDef) -> list[Any]:
    """Values the declaration allows: each listed value, or both ends of the range, else one of the type."""
    if option.allowed is not None:
        return list(option.allowed)
    if option.range is not None:
        return list(dict.fromkeys(option.range))
    return [
        {"bool": True, "int": Decimal(1), "decimal": Decimal("2.5"), "ratio": Ratio(3, 2), "choice": "A"}[
            option.type
        ]
    ]


def refused_values(option: OptionDef) -> list[Any]:
    """Values the declaration refuses: past the range's ends, a value of the type not listed, and a value
    of another type (text where a number or true/false belongs, a number where a ratio belongs)."""
    refused: list[Any] = []
    if option.range is not None:
        low, high = option.range
        refused.append(high + 1)
        if option.type in ("int", "decimal") and low - 1 >= 0:
            refused.append(low - 1)
        if option.type == "int" and high > low:
            refused.append(low + Decimal("0.5"))  # not a whole number
    elif option.allowed is not None:
        if option.type == "choice":
            refused.append("Z" + "".join(sorted(str(v) for v in option.allowed)))
        elif option.type in ("int", "decimal"):
            refused.append(max(option.allowed) + 1)
        elif option.type == "ratio":
            refused.append(Ratio(max(v.numerator for v in option.allowed) + 1, 1))
    wrong_type = {"bool": "sometimes", "int": "many", "decimal": "a lot", "ratio": 1.5, "choice": True}
    refused.append(wrong_type[option.type])
    return refused


def side_bet_of(ruleset: Ruleset, name: str) -> str | None:
    bet = name.partition(".")[0]
    return bet if "." in name and bet in ruleset.side_bets else None


def place(entry: dict[str, Any], ruleset: Ruleset, name: str, value: Any) -> tuple[str, ...]:
    """Write option `name` where docs/house-rules.md puts it; returns its path below the table."""
    bet = side_bet_of(ruleset, name)
    if bet is not None:
        setting = name.partition(".")[2]
        entry.setdefault("side_bets", {}).setdefault(bet, {})[setting] = yaml_value(value)
        return ("side_bets", bet, setting)
    entry.setdefault("options", {})[name] = yaml_value(value)
    return ("options", name)


def base_entry(ruleset: Ruleset, leave_out: str | None = None) -> dict[str, Any]:
    """A table under exactly this version, with its required options given allowed values."""
    entry: dict[str, Any] = {"game": ruleset.game, "ruleset": spec_of(ruleset)}
    for name, option in ruleset.options.items():
        if option.required and name != leave_out:
            place(entry, ruleset, name, allowed_values(option)[0])
    return entry


OPTION_CASES = [
    pytest.param(ruleset.version, name, id=f"{ruleset.version}:{name}")
    for ruleset in REGISTRY.all()
    for name in ruleset.options
]
FIXED_CASES = [
    pytest.param(ruleset.version, name, id=f"{ruleset.version}:{name}")
    for ruleset in REGISTRY.all()
    for name in ruleset.fixed
]


def version(spec: str) -> Ruleset:
    return next(r for r in REGISTRY.all() if r.version == spec)


@pytest.fixture(scope="session")
def linted(tmp_path_factory):
    """One lint run per (version, allowed|refused|fixed): table id → (path, name, value), and findings."""
    runs: dict[tuple[str, str], tuple[dict[str, tuple[str, str, Any]], list[dict[str, Any]], int]] = {}

    def run(spec: str, kind: str):
        if (spec, kind) in runs:
            return runs[(spec, kind)]
        ruleset = version(spec)
        tables: dict[str, dict[str, Any]] = {}
        cases: dict[str, tuple[str, str, Any]] = {}
        if kind == "fixed":
            for name, fixed in ruleset.fixed.items():
                for label, value in (("other", other_than(fixed.value)), ("same", fixed.value)):
                    table = f"T{len(tables) + 1}"
                    entry = base_entry(ruleset)
                    entry.setdefault("options", {})[name] = yaml_value(value)
                    tables[table] = entry
                    cases[table] = (f"tables.{table}.options.{name}", name, label)
        else:
            for name, option in ruleset.options.items():
                values = allowed_values(option) if kind == "allowed" else refused_values(option)
                for value in values:
                    table = f"T{len(tables) + 1}"
                    entry = base_entry(ruleset, leave_out=name)
                    path = place(entry, ruleset, name, value)
                    tables[table] = entry
                    cases[table] = (".".join(("tables", table, *path)), name, value)
        folder = tmp_path_factory.mktemp("options")
        house = write_house(folder, tables, f"{kind}.yaml")
        status, findings, stderr = lint(house)
        assert stderr == "", stderr
        runs[(spec, kind)] = (cases, findings, status)
        return runs[(spec, kind)]

    return run


def other_than(value: Any) -> Any:
    if isinstance(value, Ratio):
        return Ratio(value.numerator * 2 + 1, value.denominator * 2)
    if isinstance(value, bool):
        return not value
    if isinstance(value, Decimal):
        return value + 1
    return f"not {value}"


@pytest.mark.parametrize(("spec", "name"), OPTION_CASES)
def test_allowed_values_give_no_finding(linted, spec, name):
    cases, findings, _ = linted(spec, "allowed")
    tables = [t for t, case in cases.items() if case[1] == name]
    assert tables, f"no allowed value derived for {name}"
    for table in tables:
        mine = [
            f for f in findings if f["path"].startswith(f"tables.{table}.") or f["path"] == f"tables.{table}"
        ]
        assert mine == [], (cases[table], mine)


@pytest.mark.parametrize(("spec", "name"), OPTION_CASES)
def test_refused_values_give_one_finding_citing_the_option(linted, spec, name):
    option = version(spec).options[name]
    cases, findings, status = linted(spec, "refused")
    tables = [t for t, case in cases.items() if case[1] == name]
    assert tables
    assert status == 1
    for table in tables:
        path, _, value = cases[table]
        mine = [
            f for f in findings if f["path"].startswith(f"tables.{table}.") or f["path"] == f"tables.{table}"
        ]
        assert len(mine) == 1, (path, value, mine)
        finding = mine[0]
        assert finding["kind"] == "house"
        assert finding["rule"] == "house/option-not-allowed"
        assert finding["severity"] == "error"
        assert finding["path"] == path
        assert finding["ref"] == option.ref
        assert finding["message"].startswith(path + ": ")
        assert isinstance(finding["line"], int) and finding["line"] > 1


@pytest.mark.parametrize(("spec", "name"), FIXED_CASES)
def test_a_key_the_regulation_fixes_is_refused(linted, spec, name):
    fixed = version(spec).fixed[name]
    cases, findings, _ = linted(spec, "fixed")
    for table, (path, case_name, label) in cases.items():
        if case_name != name:
            continue
        mine = [f for f in findings if f["path"].startswith(f"tables.{table}.")]
        assert len(mine) == 1, mine
        finding = mine[0]
        assert (finding["rule"], finding["path"], finding["ref"]) == (
            "house/fixed-by-regulation",
            path,
            fixed.ref,
        )
        assert "the regulation fixes" in finding["message"]
        # Another value is an error; the text's own value only a warning (a key with no effect).
        assert finding["severity"] == ("error" if label == "other" else "warning")


def test_every_version_with_options_is_covered():
    versions_with_options = {r.version for r in REGISTRY.all() if r.options}
    assert versions_with_options == {p.values[0] for p in OPTION_CASES}
    assert len(OPTION_CASES) == sum(len(r.options) for r in REGISTRY.all())
