"""What `check` and `watch` (and `check --follow`) were told: one frozen object per command, built once
by the CLI (validator/cli.py) from the command line and taken as it is by `validator/commands/check.py`,
`validator/commands/watch.py` and the layers below them. Each default is written here, once: the CLI's
options show these defaults, and no layer below has one of its own (tests/test_options.py holds it).

This module imports nothing but the standard library: the CLI reads it at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, slots=True)
class PolicyOptions:
    """What is reported and what fails (`--select`, `--ignore`, `--fail-level`, baselines, the
    configuration file), and the readings applied (`--reading ID=ALTERNATIVE`, as given): what `check`,
    `watch` and `lint` share (validator/catalogue/policy.py decides)."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    fail_level: str | None = None  # None: the configuration's, else "error" (catalogue/policy.py)
    baseline: Path | None = None
    write_baseline: Path | None = None
    config: Path | None = None
    no_config: bool = False
    readings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class LogLimits:
    """The reader's limits as given (`--max-log-bytes`, `--max-line-bytes`, `--max-broken-records`;
    None: validator/logs/limits.py's own)."""

    max_log_bytes: str | None = None
    max_line_bytes: str | None = None
    max_broken_records: int | None = None


# `watch`'s own: where each log was judged up to, how often it looks, how long a --on-finding command may run.
WATCH_STATE = Path(".casino-validator-watch.json")


@dataclass(frozen=True, slots=True)
class WatchOptions:
    """`casino-validator watch LOG|DIR...` (and `check --follow`, with these defaults)."""

    logs: tuple[str, ...]
    ruleset: str | None = None
    house: Path | None = None
    format: str = "text"
    output: Path | None = None
    state: Path = WATCH_STATE
    interval: float = 0.25
    on_finding: str | None = None
    on_finding_timeout: float = 30.0
    bell: str | None = None
    policy: PolicyOptions = field(default_factory=PolicyOptions)
    limits: LogLimits = field(default_factory=LogLimits)
    rules: tuple[Path, ...] = ()


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """`casino-validator check LOG...`."""

    logs: tuple[str, ...]
    ruleset: str | None = None
    house: Path | None = None
    format: str = "text"
    output: Path | None = None
    quiet: bool = False
    jobs: int = 1
    scheduler: str | None = None
    scheduler_timeout: int = 30
    dataset: Path | None = None
    sarif_root: Path | None = None
    policy: PolicyOptions = field(default_factory=PolicyOptions)
    all_readings: bool = False
    limits: LogLimits = field(default_factory=LogLimits)
    follow: bool = False
    rules: tuple[Path, ...] = ()

    def refused_by_follow(self) -> list[str]:
        """The options of a run over closed files that `--follow` cannot go with, as written."""
        return [
            name
            for name, given in (
                ("--jobs", self.jobs > 1),
                ("--scheduler", self.scheduler is not None),
                ("--dataset", self.dataset is not None),
                ("--max-log-bytes", self.limits.max_log_bytes is not None),
                ("--write-baseline", self.policy.write_baseline is not None),
            )
            if given
        ]

    def followed(self) -> WatchOptions:
        """`check --follow`: `watch` of the same logs with what they share, and `watch`'s own defaults
        (its state file, interval, no alerts)."""
        return WatchOptions(
            logs=self.logs,
            ruleset=self.ruleset,
            house=self.house,
            format=self.format,
            output=self.output,
            policy=self.policy,
            limits=self.limits,
            rules=self.rules,
        )
