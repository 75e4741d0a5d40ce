"""The options of every command: one frozen object per command, the contract between the CLI and the
layers below it.

- `validator/cli.py` parses the command line and builds the command's object, once; it writes no default
  of its own: each option's default is the field's default here (`default`), so the help shows what a
  run uses. The choices of an option are read from the registry that owns them: `--format` from
  validator/formats (`names`), `edge --format` from validator/maths (`FORMATS`), `--players` from
  validator/simulate/players (`KINDS`), `--fail-level` and `--bell` from validator/findings/config
  (`FAIL_LEVELS`), `--lang` from validator/i18n (`LANGUAGES`), `schema`'s argument from
  validator/commands/schema (`SCHEMAS`).
- `validator/commands/<command>.py`'s `run(options)` takes it whole, and hands the layers below it the
  object, or the part of it they need (`PolicyOptions`, `LogLimits`), never the options one by one.
- An object a layer below the commands takes is defined in that layer, which cannot import this one:
  `CheckOptions`, `WatchOptions` (and their parts) in validator/checking/options.py (`check --jobs` and
  `--scheduler` hand it to validator/checking/cluster.py), `SimulateOptions` in
  validator/simulate/options.py (validator/simulate/plan.py resolves it into the `Seance` the simulator
  plays, validator/simulate/run.py), `ReportOptions` in validator/audit/options.py (taken by
  `audit_html`). They are named here too, so that this module lists every command's.

Every object but `schema`'s has `rules`: the rulesets from outside the package named by `--rules` (with the
configuration file's `rules` and $CASINO_VALIDATOR_RULES, validator/rulebook/sources.py).

This module imports nothing heavy: the CLI reads it at start-up.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

from validator.audit.options import ReportOptions
from validator.checking.options import CheckOptions, LogLimits, PolicyOptions, WatchOptions
from validator.simulate.options import SimulateOptions


@dataclass(frozen=True, slots=True)
class LintOptions:
    """`casino-validator lint HOUSE.yaml...`."""

    files: tuple[Path, ...]
    format: str = "text"
    output: Path | None = None
    date: str | None = None  # YYYY-MM-DD; None: today
    sarif_root: Path | None = None
    policy: PolicyOptions = field(default_factory=PolicyOptions)
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class ExplainOptions:
    """`casino-validator explain LOG --round ID`."""

    log: str
    round_id: str
    ruleset: str | None = None
    house: Path | None = None
    readings: tuple[str, ...] = ()
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class EdgeOptions:
    """`casino-validator edge`."""

    ruleset: str | None = None
    house: Path | None = None
    table: str | None = None
    format: str = "text"
    options: bool = False
    strategy: bool = False
    readings: tuple[str, ...] = ()
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class SchemaOptions:
    """`casino-validator schema WHICH`."""

    which: str


@dataclass(frozen=True, slots=True)
class RulesListOptions:
    """`casino-validator rules list`."""

    ids: bool = False
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesShowOptions:
    """`casino-validator rules show ID[@DATE]|RULE[@DATE]`."""

    spec: str
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesCoverageOptions:
    """`casino-validator rules coverage ID[@DATE]`."""

    spec: str
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesDiffOptions:
    """`casino-validator rules diff OLD NEW`."""

    old: str
    new: str
    rules: tuple[Path, ...] = ()
    witness: bool = False  # a one-round log each change and reading alternative is judged differently by
    fixtures: Path | None = None  # whose rounds are tried (None: the project's tests/fixtures/rules)
    output: Path | None = None  # the witnesses written as fixture cases there (implies witness)


@dataclass(frozen=True, slots=True)
class RulesCheckOptions:
    """`casino-validator rules check FILE...`."""

    files: tuple[Path, ...]
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesTestOptions:
    """`casino-validator rules test [DIR]`."""

    directory: Path | None = None  # None: the project's tests/fixtures/rules
    verbose: bool = False
    rules: tuple[Path, ...] = ()
    coverage: bool = False  # what of each version the fixtures exercise
    fail_under: float | None = None  # a version's coverage below it, in per cent: exit 1
    mutate: bool = False  # the mutants no fixture kills
    only: tuple[Path, ...] = ()  # the ruleset files to mutate (none: every one)


@dataclass(frozen=True, slots=True)
class RulesFmtOptions:
    """`casino-validator rules fmt [--check] FILE...`."""

    files: tuple[Path, ...]
    check: bool = False


@dataclass(frozen=True, slots=True)
class RulesLspOptions:
    """`casino-validator rules lsp`."""

    rules: tuple[Path, ...] = ()


def default(options: type[Any], name: str) -> Any:
    """The default of the field `name` of an options class: what the CLI shows and a run uses when the
    option is not given (one place for each default). A name that is no field, or a field without a
    default (a required option), is a bug of the CLI's wiring: KeyError, AssertionError at import."""
    found = {each.name: each for each in fields(options)}[name]
    if found.default is not MISSING:
        return found.default
    assert found.default_factory is not MISSING, name
    return found.default_factory()


__all__ = [
    "CheckOptions",
    "EdgeOptions",
    "ExplainOptions",
    "LintOptions",
    "LogLimits",
    "PolicyOptions",
    "ReportOptions",
    "RulesCheckOptions",
    "RulesDiffOptions",
    "RulesListOptions",
    "RulesShowOptions",
    "RulesTestOptions",
    "SchemaOptions",
    "SimulateOptions",
    "WatchOptions",
    "default",
]
