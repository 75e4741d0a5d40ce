"""What several commands share: the rulesets, the project root, where the report goes and how it is
written, the policy."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

import typer

from validator.catalogue.policy import Options, build_policy, split_rules
from validator.errors import bounded
from validator.findings.config import load_config
from validator.findings.project_root import find_root
from validator.formats import make_reporter
from validator.outputs import replacing
from validator.rulebook import sources
from validator.rulebook.registry import default_registry, parse_choices

if TYPE_CHECKING:
    from validator.catalogue.policy import Policy
    from validator.checking.options import PolicyOptions
    from validator.formats.base import Reporter
    from validator.rulebook.registry import Registry


def use_rules(options: object) -> None:
    """The rulesets from outside the package a command's run (`options`, validator/commands/options.py)
    judges with: `--rules`, the configuration file's `rules` (the one `--config` names, none with
    `--no-config`, for the commands that take them), $CASINO_VALIDATOR_RULES
    (validator/rulebook/sources.py)."""
    rules: tuple[Path, ...] = getattr(options, "rules", ())
    chosen: PolicyOptions | None = getattr(options, "policy", None)
    config = chosen.config if chosen is not None else None
    no_config = chosen.no_config if chosen is not None else False
    configured = load_config(config, disabled=no_config).rules
    sources.use(sources.gather(list(rules), configured))


def registry(readings: Iterable[str] = (), config: Path | None = None, no_config: bool = False) -> Registry:
    """The rulesets, under the readings chosen: the configuration file's `readings`, overridden by
    `--reading ID=ALTERNATIVE` (an unknown reading or alternative stops the run, exit 2)."""
    return default_registry().with_readings(chosen_readings(readings, config, no_config))


def chosen_readings(
    readings: Iterable[str] = (), config: Path | None = None, no_config: bool = False
) -> dict[str, str]:
    """The readings chosen (reading → alternative): the configuration file's `readings`, overridden by
    `--reading ID=ALTERNATIVE` (a malformed choice stops the run, exit 2; `registry` checks them)."""
    chosen = parse_choices(readings)
    if not no_config:
        settings = load_config(config)
        if settings.readings:
            where = f"{settings.file}: readings:"
            chosen = {**parse_choices((f"{n}={a}" for n, a in settings.readings), where), **chosen}
    return chosen


def project_root(sarif_root: Path | None) -> Callable[[], str]:
    """The project root SARIF paths and fingerprints (baselines) are relative to: `--sarif-root`, checked
    now, else the git work tree, found (by running git) the first time a report or a baseline needs it."""
    if sarif_root is not None:
        root = find_root(sarif_root)
        return lambda: root
    return functools.cache(find_root)


def error(message: str) -> None:
    """A message on standard error, as the command's own (`casino-validator: …`)."""
    typer.echo(f"casino-validator: {bounded(message)}", err=True)


@contextmanager
def output(path: Path | None) -> Iterator[TextIO]:
    """Standard output, or FILE, replaced whole only once the report is written."""
    if path is None:
        yield sys.stdout
        return
    with replacing(path) as handle:
        yield cast(TextIO, handle)


def reporter(fmt: str, out: TextIO, output: Path | None, root: Callable[[], str]) -> Reporter:
    """The writer of `--format FMT` on `out`: in colour on a terminal; SARIF's paths relative to the
    project root (found only for SARIF)."""
    color = output is None and out.isatty()
    return make_reporter(fmt, out, color=color, root=root() if fmt == "sarif" else None)


def policy(
    registry: Registry, root: Callable[[], str], choices: PolicyOptions, house: Iterable[Path] = ()
) -> Policy:
    """What is reported and what fails (`--select`, `--ignore`, `--fail-level`, baselines, the config)."""
    options = Options(
        select=split_rules(choices.select),
        ignore=split_rules(choices.ignore),
        fail_level=choices.fail_level,
        baseline=choices.baseline,
        write_baseline=choices.write_baseline,
        config=choices.config,
        no_config=choices.no_config,
    )
    known = {rule.id for ruleset in registry.all() for rule in ruleset.rules}
    return build_policy(options, root=root, known_rules=known, house_files=house)
