"""The `casino-validator` command: wiring only. Each command's options are parsed here into the one
frozen object the command takes (validator/commands/options.py: its defaults and where each option's
choices come from), handed to its module under `validator/commands/`, whose result is the exit status:
0 nothing found, 1 findings, 2 the run could not be made."""

from __future__ import annotations

import atexit
import functools
import gc
import inspect
import time
from collections.abc import Callable, Iterable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeAlias, cast

import typer

from validator import __version__, formats, i18n
from validator.audit.dialects import CSV_DIALECTS
from validator.cli_help import PlainCommand, PlainGroup
from validator.commands import options as opts
from validator.commands.options import default
from validator.commands.schema import SCHEMAS
from validator.compiled import describe
from validator.errors import ValidatorError, bounded
from validator.findings.config import FAIL_LEVELS
from validator.guard import run
from validator.i18n import LANGUAGES, N_, _
from validator.maths import FORMATS as EDGE_FORMATS
from validator.simulate.options import inject_ids
from validator.simulate.players import KINDS

# Plain help (click's own layout, no boxes): it wraps at word boundaries in any terminal width and reads
# the same in a CI log; `-h` works as `--help` everywhere.
_HELP = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
app = typer.Typer(
    name="casino-validator",
    help=N_("Check casino table games (blackjack, bataille) against the law that governs them."),
    cls=PlainGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings=_HELP,
)
rules_app = typer.Typer(
    help=N_("Read, check, compare and test the rulesets."),
    cls=PlainGroup,
    no_args_is_help=True,
    rich_markup_mode=None,
    context_settings=_HELP,
)
app.add_typer(rules_app, name="rules")


def _choices(name: str, values: Iterable[str]) -> type[StrEnum]:
    """The choices of an option, read from the registry that owns them, as the enumeration the CLI's
    value conversion checks a value against (`--format xml: choose one of …`)."""
    return cast("type[StrEnum]", StrEnum(name, [(value, value) for value in values]))


def _metavar(values: Iterable[StrEnum | str]) -> str:
    return "[" + "|".join(str(value) for value in values) + "]"


if TYPE_CHECKING:  # to the type checker, each is an enumeration of strings; its members are read below
    Format: TypeAlias = StrEnum
    LintFormat: TypeAlias = StrEnum
    FailLevel: TypeAlias = StrEnum
    Lang: TypeAlias = StrEnum
    EdgeFormat: TypeAlias = StrEnum
    Players: TypeAlias = StrEnum
    CsvDialect: TypeAlias = StrEnum
else:
    # `--format`: the formats' registry (validator/formats), in its order; `lint` leaves out the formats
    # that report rounds only (html).
    Format = _choices("Format", formats.names())
    LintFormat = _choices("LintFormat", formats.names(of_house=True))
    FailLevel = _choices("FailLevel", FAIL_LEVELS)  # --fail-level, --bell
    Lang = _choices("Lang", LANGUAGES)
    EdgeFormat = _choices("EdgeFormat", EDGE_FORMATS)
    Players = _choices("Players", KINDS)  # the simulator's kinds of players
    CsvDialect = _choices("CsvDialect", CSV_DIALECTS)  # report --csv-dialect (validator/audit/dialects.py)


def _value(choice: StrEnum | None) -> str | None:
    return choice.value if choice is not None else None


def _listed(values: list[Any] | None) -> tuple[Any, ...]:
    return tuple(values or ())


# Options `check` and `lint` share: what is reported and what fails (validator/catalogue/policy.py decides).
SelectOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--select", metavar="RULE,…", help=N_("Report only these rule ids or prefixes (e.g. house/).")
    ),
]
IgnoreOpt = Annotated[
    list[str] | None,
    typer.Option("--ignore", metavar="RULE,…", help=N_("Leave out these rule ids or prefixes.")),
]
FailLevelOpt = Annotated[
    FailLevel | None,
    typer.Option(
        "--fail-level",
        metavar=_metavar(FAIL_LEVELS),
        help=N_("Lowest severity that fails the run (exit 1); default error."),
    ),
]
BaselineOpt = Annotated[
    Path | None,
    typer.Option("--baseline", metavar="FILE", help=N_("Report only findings not in this baseline.")),
]
WriteBaselineOpt = Annotated[
    Path | None,
    typer.Option(
        "--write-baseline", metavar="FILE", help=N_("Record this run's findings as a baseline; exit 0.")
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="FILE",
        help=N_("Configuration file (default: casino-validator.toml or pyproject.toml)."),
    ),
]
NoConfigOpt = Annotated[bool, typer.Option("--no-config", help=N_("Ignore any configuration file."))]
ReadingOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--reading",
        metavar="ID=ALTERNATIVE",
        help=N_(
            "Read an ambiguous sentence this way (repeatable; `rules show` lists each version's readings)."
        ),
    ),
]
SarifRootOpt = Annotated[
    Path | None,
    typer.Option(
        "--sarif-root",
        metavar="DIR",
        help=N_("SARIF paths and fingerprints relative to DIR (default: the git work tree, else here)."),
    ),
]


# Options `check` and `watch` share: the version that judges, the house file, the reader's limits.
LogRulesetOpt = Annotated[
    str | None,
    typer.Option(
        "--ruleset", metavar="ID[@DATE]", help=N_("ID or ID@YYYY-MM-DD; overrides the table record.")
    ),
]
HouseOpt = Annotated[
    Path | None, typer.Option("--house", metavar="FILE", help=N_("A house-rules/1 YAML file to apply."))
]
MaxLineBytesOpt = Annotated[
    str | None, typer.Option(metavar="SIZE", help=N_("Longest line read (default 1M)."))
]
MaxBrokenRecordsOpt = Annotated[
    int | None,
    typer.Option(metavar="N", help=N_("Broken records in a row reported one by one (default 100).")),
]
RulesOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--rules",
        metavar="PATH",
        help=N_("Rulesets from outside the package: a .rules file or a folder of them (repeatable)."),
    ),
]


# Options several commands share, each declared once.
RulesetOpt = Annotated[
    str | None, typer.Option("--ruleset", metavar="ID[@DATE]", help=N_("ID or ID@YYYY-MM-DD."))
]
ReportFileOpt = Annotated[
    Path | None, typer.Option("--output", "-o", metavar="FILE", help=N_("Write the report to FILE."))
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help=N_("No progress display."))]
RulesetFilesArg = Annotated[
    list[Path], typer.Argument(metavar="FILE...", help=N_("Ruleset files (.rules) or folders."))
]


def _format_option(choices: Iterable[StrEnum]) -> Any:
    """`--format`/`-f`, one of `choices` (the formats' registry's, or `edge`'s)."""
    return typer.Option("--format", "-f", metavar=_metavar(choices), help=N_("Output format."))


# The place of the policy options in a command's signature: `_with_policy` puts them there.
_POLICY: Any = None

_POLICY_OPTIONS: tuple[tuple[str, Any, Any], ...] = (
    ("select", SelectOpt, None),
    ("ignore", IgnoreOpt, None),
    ("fail_level", FailLevelOpt, None),
    ("baseline", BaselineOpt, None),
    ("write_baseline", WriteBaselineOpt, None),
    ("config", ConfigOpt, None),
    ("no_config", NoConfigOpt, False),
    ("reading", ReadingOpt, None),
)


def _with_policy(*, leave_out: tuple[str, ...] = ()) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """What `check`, `watch` and `lint` share of their options, declared once: what is reported and what
    fails, and the readings applied. The command's parameter `policy` is replaced, at its place in the
    signature (and so in `--help`), by the options of `_POLICY_OPTIONS` less `leave_out`, which the
    command receives as one `PolicyOptions` (what click's shared option decorators do)."""
    shared = [option for option in _POLICY_OPTIONS if option[0] not in leave_out]

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        parameters: list[inspect.Parameter] = []
        for parameter in signature.parameters.values():
            if parameter.name != "policy":
                parameters.append(parameter)
                continue
            parameters.extend(
                inspect.Parameter(name, parameter.kind, default=value, annotation=annotation)
                for name, annotation, value in shared
            )

        @functools.wraps(command)
        def with_policy(**given: Any) -> None:
            chosen = {name: given.pop(name) for name, _annotation, _value in shared}
            select, ignore = chosen["select"], chosen["ignore"]
            policy = opts.PolicyOptions(
                tuple(select) if select is not None else None,
                tuple(ignore) if ignore is not None else None,
                _value(chosen["fail_level"]),
                chosen["baseline"],
                chosen.get("write_baseline"),
                chosen["config"],
                chosen["no_config"],
                _listed(chosen.get("reading")),
            )
            command(**given, policy=policy)

        with_policy.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        with_policy.__annotations__ = {p.name: p.annotation for p in parameters}
        return with_policy

    return decorate


def _run(command: Callable[[], int], options: object = None) -> NoReturn:
    """Run a command's module and end with its exit status; a run that cannot be made ends with its
    message on standard error and status 2. `options`: the command's (validator/commands/options.py),
    whose `rules` (`--rules`), with the configuration file's `rules` and $CASINO_VALIDATOR_RULES, are
    the rulesets from outside the package the command judges with."""
    try:
        from validator.commands.common import use_rules  # start-up: as a command's modules

        use_rules(options)
        status = command()
    except ValidatorError as exc:
        typer.echo(f"casino-validator: {bounded(str(exc))}", err=True)
        raise typer.Exit(2) from None
    raise typer.Exit(status)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"casino-validator {__version__} ({describe()})")
        raise typer.Exit()


def _lang(value: Lang | None) -> None:
    """`--lang`, before the command or after it (every command takes it): the language is chosen when
    the command line is first read (cli_help.PlainGroup), before any help or message; the value is
    checked here, and chosen again."""
    if value is not None:
        i18n.start(value.value, None)


LangOpt = Annotated[
    Lang | None,
    typer.Option(
        "--lang",
        callback=_lang,
        is_eager=True,
        metavar=_metavar(LANGUAGES),
        help=N_("Language of messages and reports (default: the configuration's lang, else the locale)."),
    ),
]


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help=N_("Show the version."))
    ] = False,
    lang: LangOpt = None,
) -> None:
    """casino-validator"""


@rules_app.callback()
def rules_options(lang: LangOpt = None) -> None:
    pass


# ---------------------------------------------------------------- check
@app.command(cls=PlainCommand, short_help=N_("Replay game logs and report what went against the rules."))
@_with_policy()
def check(
    logs: Annotated[
        list[str],
        typer.Argument(
            metavar="LOG...", help=N_("Log files, folders (every *.jsonl, *.jsonl.gz), or - for stdin.")
        ),
    ],
    ruleset: LogRulesetOpt = None,
    house: HouseOpt = None,
    fmt: Annotated[Format, _format_option(Format)] = default(opts.CheckOptions, "format"),
    output: ReportFileOpt = None,
    quiet: QuietOpt = default(opts.CheckOptions, "quiet"),
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            metavar="N",
            help=N_("Processes of a local Dask cluster (files, tables, a table's shoes)."),
        ),
    ] = default(opts.CheckOptions, "jobs"),
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help=N_("A running Dask scheduler to check on (default: $DASK_SCHEDULER_ADDRESS)."),
        ),
    ] = None,
    scheduler_timeout: Annotated[
        int,
        typer.Option(
            "--scheduler-timeout",
            min=1,
            metavar="SECONDS",
            help="How long the --scheduler may take to answer, and to have a worker.",
        ),
    ] = default(opts.CheckOptions, "scheduler_timeout"),
    dataset: Annotated[
        Path | None,
        typer.Option(
            "--dataset",
            metavar="DIR",
            help=N_("Also write every round, finding and run as Parquet under DIR (`report`)."),
        ),
    ] = None,
    sarif_root: SarifRootOpt = None,
    policy: opts.PolicyOptions = _POLICY,
    all_readings: Annotated[
        bool,
        typer.Option(
            "--all-readings",
            help=N_(
                "Judge each round under every alternative of the readings its rules have; say which hold."
            ),
        ),
    ] = default(opts.CheckOptions, "all_readings"),
    max_log_bytes: Annotated[
        str | None,
        typer.Option(metavar="SIZE", help=N_("Most bytes read from one log, uncompressed (default 16G).")),
    ] = None,
    max_line_bytes: MaxLineBytesOpt = None,
    max_broken_records: MaxBrokenRecordsOpt = None,
    follow: Annotated[
        bool,
        typer.Option(
            "--follow", help=N_("Judge each round as it is written (what `watch` does), until Ctrl-C.")
        ),
    ] = default(opts.CheckOptions, "follow"),
    rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Replay game logs and report where the dealing or the money went against the rules."""
    started = time.monotonic()
    options = opts.CheckOptions(
        logs=tuple(logs),
        ruleset=ruleset,
        house=house,
        format=fmt.value,
        output=output,
        quiet=quiet,
        jobs=jobs,
        scheduler=scheduler,
        scheduler_timeout=scheduler_timeout,
        dataset=dataset,
        sarif_root=sarif_root,
        policy=policy,
        all_readings=all_readings,
        limits=opts.LogLimits(max_log_bytes, max_line_bytes, max_broken_records),
        follow=follow,
        rules=_listed(rules),
    )
    if options.follow:
        _follow_instead(options)
    from validator.commands import check as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(options, started=started), options)


# ---------------------------------------------------------------- watch
StreamFormatOpt = Annotated[
    Format,
    typer.Option(
        "--format", "-f", metavar="[text|jsonl|github]", help=N_("Output format (those that stream).")
    ),
]


@app.command(cls=PlainCommand, short_help=N_("Judge each round as the table writes it, until Ctrl-C."))
@_with_policy(leave_out=("write_baseline", "reading"))
def watch(
    logs: Annotated[
        list[str],
        typer.Argument(
            metavar="LOG|DIR...",
            help=N_("Logs to follow as they grow; folders whose *.jsonl logs are followed as they appear."),
        ),
    ],
    ruleset: LogRulesetOpt = None,
    house: HouseOpt = None,
    fmt: StreamFormatOpt = default(opts.WatchOptions, "format"),
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", metavar="FILE", help=N_("Append the findings to FILE (kept across restarts).")
        ),
    ] = None,
    state: Annotated[
        Path,
        typer.Option(
            "--state",
            metavar="FILE",
            help=N_("Where each log was judged up to, to resume there (default {default})."),
        ),
    ] = default(opts.WatchOptions, "state"),
    interval: Annotated[
        float,
        typer.Option(
            "--interval", metavar="SECONDS", help=N_("Time between two looks (default {default:g}).")
        ),
    ] = default(opts.WatchOptions, "interval"),
    on_finding: Annotated[
        str | None,
        typer.Option(
            "--on-finding",
            metavar="CMD",
            help=N_("Run CMD for each finding, the finding as JSON on its standard input."),
        ),
    ] = None,
    on_finding_timeout: Annotated[
        float,
        typer.Option(
            "--on-finding-timeout", metavar="SECONDS", help=N_("Kill CMD past this (default {default:g}).")
        ),
    ] = default(opts.WatchOptions, "on_finding_timeout"),
    bell: Annotated[
        FailLevel | None,
        typer.Option(
            "--bell",
            metavar=_metavar(FAIL_LEVELS),
            help=N_("Ring the terminal for findings of this severity or above."),
        ),
    ] = None,
    policy: opts.PolicyOptions = _POLICY,
    max_line_bytes: MaxLineBytesOpt = None,
    max_broken_records: MaxBrokenRecordsOpt = None,
    rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Follow logs as tables write them: each round is judged when its line is whole, each finding
    written at once; a restart resumes where the last watch stopped (--state). Ctrl-C or SIGTERM ends
    with the summary."""
    options = opts.WatchOptions(
        logs=tuple(logs),
        ruleset=ruleset,
        house=house,
        format=fmt.value,
        output=output,
        state=state,
        interval=interval,
        on_finding=on_finding,
        on_finding_timeout=on_finding_timeout,
        bell=_value(bell),
        policy=policy,
        limits=opts.LogLimits(None, max_line_bytes, max_broken_records),
        rules=_listed(rules),
    )
    from validator.commands import watch as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(options), options)


def _follow_instead(options: opts.CheckOptions) -> NoReturn:
    """`check --follow`: `watch` with its defaults; the options of a run over closed files are refused."""
    from validator.commands import watch as command  # start-up: a command's modules load when it runs

    refused = options.refused_by_follow()
    if refused:
        typer.echo(
            "casino-validator: "
            + _("--follow judges rounds as they come: {options} cannot go with it").format(
                options=", ".join(refused)
            ),
            err=True,
        )
        raise typer.Exit(2)
    followed = options.followed()
    _run(lambda: command.run(followed), followed)


# ---------------------------------------------------------------- report
@app.command(cls=PlainCommand, short_help=N_("The audit report of datasets, one offline HTML file."))
def report(
    datasets: Annotated[
        list[Path],
        typer.Argument(metavar="DATASET...", help=N_("Dataset folders written by `check --dataset`.")),
    ],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", metavar="FILE", help=N_("Write the HTML to FILE."))
    ] = None,
    start: Annotated[
        str | None, typer.Option("--from", metavar="YYYY-MM-DD", help=N_("First gaming day."))
    ] = None,
    end: Annotated[
        str | None, typer.Option("--to", metavar="YYYY-MM-DD", help=N_("Last gaming day."))
    ] = None,
    casino: Annotated[
        str | None,
        typer.Option("--casino", metavar="NAME", help=N_("Only this casino (its name in the logs).")),
    ] = None,
    table: Annotated[
        str | None, typer.Option("--table", metavar="ID", help=N_("Only this table id."))
    ] = None,
    csv: Annotated[
        Path | None,
        typer.Option("--csv", metavar="DIR", help=N_("Also write each table of the page as DIR/NAME.csv.")),
    ] = None,
    csv_dialect: Annotated[
        CsvDialect | None,
        typer.Option(
            "--csv-dialect",
            metavar=_metavar(CsvDialect),
            help=N_(
                "The CSV's separators: comma (',' between cells, '.' before decimals) or semicolon (';' and "
                "',', as French spreadsheets read them). Default: the language's (semicolon in French)."
            ),
        ),
    ] = None,
    rules: RulesOpt = None,
    lang: LangOpt = None,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="YYYY-MM-DD",
            help=N_("The day the report is read (default today): which findings' video is soon erased."),
        ),
    ] = None,
) -> None:
    """The audit report, one self-contained HTML file, from datasets queried with DuckDB."""
    options = opts.ReportOptions(
        tuple(datasets), output, start, end, casino, table, csv, _listed(rules), _value(csv_dialect), as_of
    )
    from validator.commands import report as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(options), options)


# ---------------------------------------------------------------- explain
@app.command(
    cls=PlainCommand, short_help=N_("Replay one round step by step and say why each finding was made.")
)
def explain(
    log: Annotated[str, typer.Argument(metavar="LOG", help=N_("The log file holding the round."))],
    round_id: Annotated[
        str, typer.Option("--round", metavar="ID", help=N_("The round id to replay step by step."))
    ],
    ruleset: RulesetOpt = None,
    house: HouseOpt = None,
    reading: ReadingOpt = None,
    rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Replay one round step by step and say why each finding was made.

    Exit status 1 when the round has a finding, 0 when it is clean, 2 when it cannot be explained."""
    options = opts.ExplainOptions(log, round_id, ruleset, house, _listed(reading), _listed(rules))
    from validator.commands import explain as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(options), options)


# ---------------------------------------------------------------- simulate
@app.command(cls=PlainCommand, short_help=N_("Play séances by a ruleset version, written as hand-log/1."))
def simulate(
    ruleset: Annotated[
        str,
        typer.Option(
            "--ruleset",
            metavar="ID[@DATE]",
            help=N_("ID@YYYY-MM-DD: the version to play by; the séance starts on DATE."),
        ),
    ],
    rounds: Annotated[
        int, typer.Option("--rounds", min=1, metavar="N", help=N_("How many rounds."))
    ] = default(opts.SimulateOptions, "rounds"),
    seed: Annotated[int, typer.Option("--seed", metavar="N", help=N_("Same seed, same file."))] = default(
        opts.SimulateOptions, "seed"
    ),
    table: Annotated[
        str, typer.Option("--table", metavar="ID", help=N_("The table id written in the log."))
    ] = default(opts.SimulateOptions, "table"),
    house: Annotated[
        Path | None,
        typer.Option("--house", metavar="FILE", help=N_("House-rules file; its entry for --table applies.")),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option(
            "--start", metavar="TIME", help=N_("Opening time, ISO 8601 (default: the version's date).")
        ),
    ] = None,
    minimum: Annotated[
        str | None,
        typer.Option(
            "--minimum",
            metavar="AMOUNT",
            help=N_("Table minimum (default: the house entry's, else the version's own, else 10)."),
        ),
    ] = None,
    maximum: Annotated[
        str | None,
        typer.Option(
            "--maximum",
            metavar="AMOUNT",
            help=N_("Table maximum (default: the house entry's, else the version's own, else 1000)."),
        ),
    ] = None,
    seats: Annotated[
        int | None,
        typer.Option(
            "--seats",
            metavar="N",
            help=N_(
                "Boxes on the layout, 1 to 7 (default: the house entry's, else 7); bets on boxes 1 to N."
            ),
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", metavar="FILE", help=N_("Write to FILE (.gz: compressed).")),
    ] = None,
    inject: Annotated[
        str | None,
        typer.Option(
            "--inject",
            metavar="RULE,…",
            help=N_("RULE[,RULE…]: break these rules (ids as `rules show` lists them) at random rounds."),
        ),
    ] = None,
    rate: Annotated[
        float,
        typer.Option("--rate", metavar="R", help=N_("With --inject: the share of rounds given a violation.")),
    ] = default(opts.SimulateOptions, "rate"),
    players: Annotated[
        Players,
        typer.Option(
            "--players",
            metavar="|".join(KINDS),
            help="best: the strategy `edge` assumes; random: any legal decision; mix: each player his own "
            "level, 60 % best, 30 % with casual errors, 10 % random.",
        ),
    ] = default(opts.SimulateOptions, "players"),
    timezone: Annotated[
        str | None,
        typer.Option(
            "--timezone",
            metavar="ZONE",
            help="The table's time zone (Europe/Paris, America/Toronto; default: the house file's, else "
            "the jurisdiction's): each record at its UTC offset on its date.",
        ),
    ] = None,
    dealers: Annotated[
        int,
        typer.Option(
            "--dealers",
            metavar="N",
            help=N_(
                "A team of N dealers dealing in turn, each relieved after 20 to 40 minutes (a `dealer` "
                "record) and on break while the others deal (0: one dealer all séance)."
            ),
        ),
    ] = default(opts.SimulateOptions, "dealers"),
    pool: Annotated[
        int,
        typer.Option(
            "--players-pool",
            metavar="N",
            help=N_(
                "Players P1 to PN who sit down, stay 15 to 150 minutes and leave (0: each round's "
                "players drawn afresh, P1 to P4)."
            ),
        ),
    ] = default(opts.SimulateOptions, "pool"),
    hours: Annotated[
        str | None,
        typer.Option(
            "--hours",
            metavar="HH:MM-HH:MM",
            help=N_(
                "The casino's opening hours (default: the house file's `hours`, else the jurisdiction's "
                "usual; 00:00-00:00: around the clock): rounds only while open, a new séance at each "
                "opening, shoes named by the gaming day."
            ),
        ),
    ] = None,
    quiet: QuietOpt = default(opts.SimulateOptions, "quiet"),
    hand_log: Annotated[
        str | None,
        typer.Option(
            "--hand-log",
            metavar="VERSION",
            help=N_(
                "Write this version of hand-log: 1.2 adds each stake's charge where it is placed "
                "(default: hand-log/1, or 1.1 where the dealer keeps a hole card)."
            ),
        ),
    ] = default(opts.SimulateOptions, "hand_log"),
    reading: ReadingOpt = None,
    rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Play séances by a ruleset version and write them as hand-log/1.

    With --inject, the planted violations are written beside the log as LOG.planted.json: for each, the
    rule, round, line and stake of the finding `check` must give.

    Every option is checked before anything is written: the limits are judged by the version's own
    rules on the table, and the séance must stay within the dates the version is in force.
    """
    options = opts.SimulateOptions(
        ruleset=ruleset,
        rounds=rounds,
        seed=seed,
        table=table,
        house=house,
        start=start,
        minimum=minimum,
        maximum=maximum,
        seats=seats,
        output=output,
        inject=inject_ids(inject),
        rate=rate,
        players=players.value,
        timezone=timezone,
        dealers=dealers,
        pool=pool,
        hours=hours,
        quiet=quiet,
        readings=_listed(reading),
        rules=_listed(rules),
        hand_log=hand_log,
    )
    from validator.commands import simulate as command  # start-up: a command's modules load when it runs

    started = time.monotonic()
    _run(lambda: command.run(options, started=started), options)


# ---------------------------------------------------------------- edge
@app.command(
    cls=PlainCommand, short_help=N_("House edge and side-bet returns of a version and a house entry.")
)
def edge(
    ruleset: RulesetOpt = None,
    house: Annotated[
        Path | None, typer.Option("--house", metavar="FILE", help=N_("A house-rules/1 file (with --table)."))
    ] = None,
    table: Annotated[
        str | None, typer.Option("--table", metavar="ID", help=N_("The table whose house entry applies."))
    ] = None,
    fmt: Annotated[EdgeFormat, _format_option(EdgeFormat)] = default(opts.EdgeOptions, "format"),
    options: Annotated[
        bool, typer.Option("--options", help=N_("What each house option would change."))
    ] = default(opts.EdgeOptions, "options"),
    strategy: Annotated[
        bool, typer.Option("--strategy", help="Print the strategy the figures assume (S/H/D/P/R charts).")
    ] = default(opts.EdgeOptions, "strategy"),
    reading: ReadingOpt = None,
    rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Expected return, variance and distribution of the main stake and every side bet, each outcome with
    its probability, computed composition-dependent (what is not exact is listed with its size)."""
    given = opts.EdgeOptions(
        ruleset, house, table, fmt.value, options, strategy, _listed(reading), _listed(rules)
    )
    from validator.commands import edge as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(given), given)


# ---------------------------------------------------------------- lint
@app.command(cls=PlainCommand, short_help=N_("Check house-rules files against what the regulation allows."))
@_with_policy()
def lint(
    files: Annotated[
        list[Path],
        typer.Argument(metavar="HOUSE.yaml...", help=N_("House-rules/1 YAML files (règlement intérieur).")),
    ],
    fmt: Annotated[LintFormat, _format_option(LintFormat)] = default(opts.LintOptions, "format"),
    output: ReportFileOpt = None,
    when: Annotated[
        str | None,
        typer.Option(
            "--date",
            metavar="YYYY-MM-DD",
            help=N_("YYYY-MM-DD: the rulesets' versions in force that day (default: today)."),
        ),
    ] = None,
    sarif_root: SarifRootOpt = None,
    policy: opts.PolicyOptions = _POLICY,
    rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Check house rules against what the regulation lets a casino choose, table by table."""
    options = opts.LintOptions(
        files=tuple(files),
        format=fmt.value,
        output=output,
        date=when,
        sarif_root=sarif_root,
        policy=policy,
        rules=_listed(rules),
    )
    from validator.commands import lint as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(options), options)


# ---------------------------------------------------------------- schema
@app.command(cls=PlainCommand, short_help=N_("Print a JSON Schema (hand-log, house-rules, findings)."))
def schema(
    which: Annotated[str, typer.Argument(metavar="|".join(SCHEMAS), help=N_("Which schema."))],
    lang: LangOpt = None,
) -> None:
    """Print a JSON Schema: of hand-log/1, house-rules/1, or the json output (a jsonl line: $defs/finding)."""
    options = opts.SchemaOptions(which)
    from validator.commands import schema as command  # start-up: a command's modules load when it runs

    _run(lambda: command.run(options), options)


# ---------------------------------------------------------------- rules
@rules_app.command("list", cls=PlainCommand, short_help=N_("Families, their versions and their dates."))
def rules_list(
    ids: Annotated[
        bool, typer.Option("--ids", help=N_("Every rule id instead, one a line (for --select, --ignore)."))
    ] = default(opts.RulesListOptions, "ids"),
    extra_rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Families, their versions and the dates each is in force."""
    options = opts.RulesListOptions(ids, _listed(extra_rules))
    from validator.commands import rules  # start-up: a command's modules load when it runs

    _run(lambda: rules.list_(options), options)


@rules_app.command(
    "show", cls=PlainCommand, short_help=N_("One ruleset version resolved, or one rule with its docs.")
)
def rules_show(
    spec: Annotated[
        str,
        typer.Argument(
            metavar="ID[@DATE]|RULE[@DATE]", help=N_("A ruleset version, or one rule (its wording on DATE).")
        ),
    ],
    extra_rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """A ruleset version resolved (parameters, options, side bets, rules), or one rule: its reference,
    docs and the versions that have it."""
    options = opts.RulesShowOptions(spec, _listed(extra_rules))
    from validator.commands import rules  # start-up: a command's modules load when it runs

    _run(lambda: rules.show(options), options)


@rules_app.command(
    "coverage",
    cls=PlainCommand,
    short_help=N_("Each provision of a version's text and what encodes it (exit 1: one is neither)."),
)
def rules_coverage(
    spec: Annotated[
        str,
        typer.Argument(
            metavar="ID[@DATE]", help=N_("A ruleset version (the family's latest without a date).")
        ),
    ],
    extra_rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Each numbered provision (article, alinéa, section) of the version's source text, with the rules,
    parameters, options, side bets, conditions and readings that encode it, or the reason it is out of
    scope; exit 1 when a provision is neither."""
    options = opts.RulesCoverageOptions(spec, _listed(extra_rules))
    from validator.commands import rules  # start-up: a command's modules load when it runs

    _run(lambda: rules.coverage(options), options)


@rules_app.command("diff", cls=PlainCommand, short_help=N_("What changed between two versions."))
def rules_diff(
    old: Annotated[str, typer.Argument(metavar="ID@DATE", help=N_("The older version."))],
    new: Annotated[str, typer.Argument(metavar="ID@DATE", help=N_("The newer version."))],
    witness: Annotated[
        bool,
        typer.Option(
            "--witness",
            help=N_(
                "For each change of the amendments and each alternative of a reading, a one-round log the "
                "two judge differently, with both verdicts."
            ),
        ),
    ] = default(opts.RulesDiffOptions, "witness"),
    fixtures: Annotated[
        Path | None,
        typer.Option(
            "--fixtures",
            metavar="DIR",
            help=N_(
                "With --witness: the fixture folder whose rounds are tried (default: tests/fixtures/rules)."
            ),
        ),
    ] = default(opts.RulesDiffOptions, "fixtures"),
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="DIR",
            help=N_("Write each witness as two fixture cases in DIR (implies --witness)."),
        ),
    ] = default(opts.RulesDiffOptions, "output"),
    extra_rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """What changed between two versions, parameter by parameter and rule by rule."""
    options = opts.RulesDiffOptions(old, new, _listed(extra_rules), witness, fixtures, output)
    from validator.commands import rules  # start-up: a command's modules load when it runs

    _run(lambda: rules.diff(options), options)


@rules_app.command(
    "check", cls=PlainCommand, short_help=N_("Check ruleset files; errors as FILE:LINE:COL: message.")
)
def rules_check(
    files: RulesetFilesArg,
    extra_rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Check rulesets for syntax and meaning; each error as FILE:LINE:COL: message (exit 2)."""
    options = opts.RulesCheckOptions(tuple(files), _listed(extra_rules))
    from validator.commands import rules  # start-up: a command's modules load when it runs

    _run(lambda: rules.check(options), options)


@rules_app.command(
    "test", cls=PlainCommand, short_help=N_("Run rule fixtures (a log and the findings it must give).")
)
def rules_test(
    directory: Annotated[
        Path | None,
        typer.Argument(
            metavar="DIR", help=N_("Fixture folder (default: the project's tests/fixtures/rules).")
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=N_("List every case."))] = default(
        opts.RulesTestOptions, "verbose"
    ),
    coverage: Annotated[
        bool,
        typer.Option(
            "--coverage",
            help=N_(
                "Say which clauses, paytable lines, parameters and reading alternatives of each version the "
                "fixtures exercise."
            ),
        ),
    ] = default(opts.RulesTestOptions, "coverage"),
    fail_under: Annotated[
        float | None,
        typer.Option(
            "--fail-under",
            metavar="PERCENT",
            help=N_("With --coverage: exit 1 when a version's coverage is below PERCENT (0 to 100)."),
        ),
    ] = default(opts.RulesTestOptions, "fail_under"),
    mutate: Annotated[
        bool,
        typer.Option(
            "--mutate",
            help=N_(
                "Change each mutable token of the rulesets in turn; list the changes no fixture notices."
            ),
        ),
    ] = default(opts.RulesTestOptions, "mutate"),
    only: Annotated[
        list[Path] | None,
        typer.Option(
            "--only", metavar="FILE", help=N_("With --mutate: mutate only this ruleset file (repeatable).")
        ),
    ] = None,
    extra_rules: RulesOpt = None,
    lang: LangOpt = None,
) -> None:
    """Run rule fixtures: each log must give exactly the findings its .expect.json lists."""
    options = opts.RulesTestOptions(
        directory, verbose, _listed(extra_rules), coverage, fail_under, mutate, tuple(only or ())
    )
    from validator.commands import rules  # start-up: a command's modules load when it runs

    _run(lambda: rules.test(options), options)


@rules_app.command(
    "lsp",
    cls=PlainCommand,
    short_help=N_("A language server for ruleset files (LSP over standard input/output)."),
)
def rules_lsp(extra_rules: RulesOpt = None, lang: LangOpt = None) -> None:
    """A language server for ruleset files: problems as you type, hover, go to definition, completion."""
    options = opts.RulesLspOptions(_listed(extra_rules))
    from validator.commands import rules  # start-up: loaded when this part runs

    _run(lambda: rules.lsp(options), options)


@rules_app.command("fmt", cls=PlainCommand, short_help=N_("Lay ruleset files out in the one layout."))
def rules_fmt(
    files: RulesetFilesArg,
    check: Annotated[
        bool,
        typer.Option(
            "--check", help=N_("Change nothing; exit 1 when a file is not laid out (for CI and pre-commit).")
        ),
    ] = default(opts.RulesFmtOptions, "check"),
    lang: LangOpt = None,
) -> None:
    """Lay ruleset files out in the one layout of the rules language (comments and line breaks kept)."""
    options = opts.RulesFmtOptions(tuple(files), check)
    from validator.commands import rules  # start-up: loaded when this part runs

    _run(lambda: rules.fmt(options), options)


def main() -> None:
    # At exit the interpreter's last collection walks every object still alive (the rulesets, compiled
    # and parsed: some 0.1 s of a check's CPU); frozen, they are left to the end of the process.
    atexit.register(gc.freeze)
    run(app)
