"""Help that reads like the usage a user types: `check [OPTIONS] LOG...`, and each parameter shown by
its metavar (`--house FILE`), never by a Python type (`<list[Path]>`) or in braces (`{logs}...`).

Typer 0.29 (pinned in pyproject.toml; it carries its own copy of click) writes both of those; the
commands use this class instead. Parameters are told apart by `param_type_name`, as typer does.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer
from typer._click.exceptions import (
    BadParameter,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
from typer.core import TyperCommand, TyperGroup

from validator.i18n import LANGUAGES, N_, _


def _argument_name(param: Any) -> str:
    name = param.metavar or (param.name or "").upper()
    if param.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if param.required else f"[{name}]"


def _plain_values(params: list[Any]) -> None:
    """Give the parameters of plain types the plain conversion below, before typer builds its own."""
    for param in params:
        if getattr(param, "_runtime_param", False) is None:
            param._runtime_param = _plain_runtime_param(param.type_descriptor)


# The help is written in English (the help= texts, marked with N_) and translated when it is shown, in
# the language the run chose (validator/i18n.py): the words of the layout with it.
HELP_WORDS = (
    N_("Usage: "),
    N_("Arguments"),
    N_("Options"),
    N_("Commands"),
    # A section's heading and its colon: French puts a space before it (« Options : »).
    N_("{heading}:"),
    N_("Show this message and exit."),
    N_("[default: "),
    N_("[required]"),
)


@contextmanager
def _section(formatter: Any, heading: str) -> Iterator[None]:
    """click's `formatter.section`, with the heading's colon written by the language: click writes
    `{heading}:` itself, which in French wants a space before the colon."""
    formatter.write_paragraph()
    titled = _("{heading}:").format(heading=heading)
    formatter.write(f"{'':>{formatter.current_indent}}{titled}\n")
    formatter.indent()
    try:
        yield
    finally:
        formatter.dedent()


def _help_text(text: str | None) -> str:
    """A command's help as shown: its text up to a form feed, translated."""
    return _(inspect.cleandoc(text).partition("\f")[0]) if text else ""


def _option_record(param: Any, ctx: Any) -> tuple[str, str] | None:
    """An option's line of help, its text translated and the extras click adds ([default: …]) too. A
    help that names its default as `{default}` is given the option's own (the options object's field,
    validator/commands/options.py), so that the default is written in one place."""
    record = param.get_help_record(ctx)
    if record is None:
        return None
    names, text = record
    own = getattr(param, "help", None) or ""
    if own and text.startswith(own):
        shown = _(own)
        if "{default" in own:
            shown = shown.format(default=param.default)
        text = shown + text[len(own) :]
    return names, text.replace("[default: ", _("[default: ")).replace("[required]", _("[required]"))


def _lang_given(args: list[str]) -> str | None:
    """The value of --lang among the arguments, before the command's name or after it (every command
    takes it; the last one given counts, as the option's own value does), if a valid one (an invalid
    one is refused when the option is read). Nothing after `--` is an option."""
    found = None
    for index, arg in enumerate(args):
        if arg == "--":
            break
        value = None
        if arg == "--lang" and index + 1 < len(args):
            value = args[index + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        if value is not None:
            found = value if value in LANGUAGES else None
    return found


class _Translated:
    """What the command groups and the commands share: the usage line and the help text, translated."""

    def format_usage(self, ctx: Any, formatter: Any) -> None:
        pieces = self.collect_usage_pieces(ctx)  # type: ignore[attr-defined]
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=_("Usage: "))

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        text = _help_text(self.help)  # type: ignore[attr-defined]
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)


class PlainGroup(_Translated, TyperGroup):
    """The command groups (`casino-validator`, `rules`): typer's, with the plain conversion of values."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if ctx.parent is None:
            # The language is chosen before anything is read or shown (a help asked for before --lang).
            from validator import i18n
            from validator.findings.config import config_lang

            given = _lang_given(args)
            i18n.start(given, None if given else config_lang())
        _plain_values(self.get_params(ctx))
        return super().parse_args(ctx, args)

    # Every usage error of a command line is raised while the group makes its context or invokes the
    # command (whose own context is made there): raised again in the language of the run.
    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except UsageError as error:
            raise _translated(error) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except UsageError as error:
            raise _translated(error) from None

    def format_options(self, ctx: Any, formatter: Any) -> None:
        options = [r for r in (_option_record(p, ctx) for p in self.get_params(ctx)) if r is not None]
        if options:
            with _section(formatter, _("Options")):
                formatter.write_dl(options)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is None or command.hidden:
                continue
            short = command.short_help or _help_text(command.help).split("\n\n")[0]
            rows.append((name, _(short) if command.short_help else short))
        if rows:
            with _section(formatter, _("Commands")):
                formatter.write_dl(rows)


class PlainCommand(_Translated, TyperCommand):
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _plain_values(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        pieces += [_argument_name(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = _option_record(param, ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                own = getattr(param, "help", None) or ""
                arguments.append((_argument_name(param), _(own)))
            else:
                options.append(record)
        if arguments:
            with _section(formatter, _("Arguments")):
                formatter.write_dl(arguments)
        if options:
            with _section(formatter, _("Options")):
                formatter.write_dl(options)


# ---------------------------------------------------------------- values

# Typer 0.29 turns every value given on the command line into its Python type through a pydantic
# TypeAdapter built for each parameter: importing pydantic and building the adapters took longer than the
# rest of `check`'s start-up. The options here are of a few plain types (text, whole numbers, decimals,
# paths, choices, flags, lists of those); a value in its plain written form is turned into its type directly,
# the same value typer would give. Anything else (a value typer refuses, whose message must stay typer's)
# goes to typer's own adapter, built then.
_WHOLE = re.compile(r"(0|[1-9][0-9]*)")  # i18n: not shown (the library's English, read back)
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")  # i18n: not shown (the library's English, read back)


class UnknownChoice(typer.BadParameter):
    """A value that is none of an option's choices (`--format xml`): one line naming them, exit 2,
    rather than the CLI library's usage block and its validation phrase."""

    def format_message(self) -> str:
        return self.message

    def show(self, file: Any = None) -> None:
        typer.echo(f"casino-validator: {self.message}", err=True)


def _is_list(annotation: Any) -> bool:
    """Whether a parameter is annotated `list[...]` (an option given several times)."""
    origin: object = get_origin(annotation)
    return origin is list


class _Refer(Exception):
    """A value left to typer's own conversion."""


@dataclass(frozen=True)
class _PlainRuntimeParam(RuntimeParam):
    descriptor: TypeDescriptor | None = None

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            if _is_list(self.annotation):
                (item,) = get_args(self.annotation)
                if not isinstance(value, list | tuple):
                    raise _Refer
                return [self._plain(item, each, param) for each in value]
            return self._plain(self.annotation, value, param)
        except _Refer:
            assert self.descriptor is not None
            return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def _plain(self, annotation: Any, value: Any, param: Any = None) -> Any:
        info = self.parameter_info
        if annotation is bool and isinstance(value, bool):
            return value
        if annotation is str and isinstance(value, str):
            return value
        if annotation in (int, float) and not isinstance(value, bool):
            number = _number(annotation, value)
            if number is not None and _in_range(number, info):
                return number
        if annotation is Path and isinstance(value, str | Path) and "\x00" not in str(value):
            path = Path(value)
            if not (info.readable and os.path.exists(path) and not os.access(path, os.R_OK)):
                return path
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return _choice(annotation, value, param)
        raise _Refer


def _number(kind: type[int] | type[float], value: Any) -> float | None:
    """`value` as a whole number (`kind` int) or a decimal one (float): itself, or the string that
    spells it; else None."""
    if isinstance(value, kind):
        return value
    pattern = _WHOLE if kind is int else _DECIMAL
    if isinstance(value, str) and pattern.fullmatch(value):
        return kind(value)
    return None


def _choice(choices: type[Enum], value: Any, param: Any) -> Enum:
    """`value` as one of `choices` (the member, or a member's value); a string that is none of them is
    refused with the choices named."""
    if isinstance(value, choices):
        return value
    for member in choices:
        if member.value == value:
            return member
    if isinstance(value, str):
        name = param.opts[0] if param is not None and param.opts else _("the option")
        listed = ", ".join(str(member.value) for member in choices)
        raise UnknownChoice(
            _("{name} {value}: choose one of {choices}").format(name=name, value=value, choices=listed)
        )
    raise _Refer


def _in_range(number: float, info: Any) -> bool:
    return (info.min is None or number >= info.min) and (info.max is None or number <= info.max)


def _plain_runtime_param(descriptor: TypeDescriptor) -> RuntimeParam | None:
    """The plain conversion for a parameter of one of the types above, with none of typer's extras (a
    parser, clamping, a path that must exist or be resolved, files); else None: typer's own."""
    info = descriptor.parameter_info
    annotation = descriptor.annotation
    leaf = get_args(annotation)[0] if _is_list(annotation) else annotation
    plain_leaf = leaf in (bool, str, int, float, Path) or (isinstance(leaf, type) and issubclass(leaf, Enum))
    extras = (
        descriptor.file_annotation is not None
        or info.parser is not None
        or info.clamp
        or info.exists
        or info.resolve_path
        or not info.file_okay
        or not info.dir_okay
        or info.writable
        or info.allow_dash
        or info.path_type is not None
        or not info.case_sensitive
    )
    if not plain_leaf or extras:
        return None
    return _PlainRuntimeParam(parameter_info=info, annotation=annotation, descriptor=descriptor)


# ---------------------------------------------------------------- usage errors

# The command-line library writes its own usage errors in English, with no catalog of its own (typer 0.29
# carries its copy of click, whose messages are plain f-strings): each is read back from the exception
# that carries it and written again in the language of the run, from this program's catalog. A message
# of a form not listed here is shown as the library wrote it.
# Each form: the library's English (read back, never shown), then the words written in its place.
_INNER: tuple[tuple[re.Pattern[str], str], ...] = (
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Input should be a valid integer.*"), N_("a whole number is expected")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Input should be a valid number.*"), N_("a number is expected")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Input should be greater than or equal to (?P<n>\S+)"), N_("{n} or more is expected")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Input should be less than or equal to (?P<n>\S+)"), N_("{n} or less is expected")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Input should be greater than (?P<n>\S+)"), N_("more than {n} is expected")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Input should be less than (?P<n>\S+)"), N_("less than {n} is expected")),
)
_PLAIN: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        # i18n: not shown (the library's English, read back)
        re.compile(r"No such command '(?P<name>.*)'\.*(?: Did you mean .+\?)?"),
        N_("No such command '{name}'."),
    ),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)"), N_("Unexpected arguments: {args}.")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Missing command\."), N_("Missing command.")),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Option (?P<name>'.*') requires an argument\."), N_("Option {name} needs a value.")),
    (
        # i18n: not shown (the library's English, read back)
        re.compile(r"Option (?P<name>'.*') requires (?P<n>\d+) arguments\."),
        N_("Option {name} needs {n} values."),
    ),
    # i18n: not shown (the library's English, read back)
    (re.compile(r"Option (?P<name>'.*') does not take a value\."), N_("Option {name} takes no value.")),
    (
        # i18n: not shown (the library's English, read back)
        re.compile(r"Argument (?P<name>'.*') takes (?P<n>\d+) values\."),
        N_("Argument {name} takes {n} values."),
    ),
)
_DID_YOU_MEAN = N_("Did you mean {names}?")


def _rewritten(text: str, forms: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    for pattern, template in forms:
        match = pattern.fullmatch(text)
        if match is not None:
            return _(template).format(**{k: v for k, v in match.groupdict().items() if v is not None})
    return None


def usage_message(error: Any) -> str:
    """The message of a usage error of the command-line library, in the language of the run."""
    if isinstance(error, NoSuchOption):
        said = _("No such option: {name}").format(name=error.option_name)
        if error.possibilities:
            said += " " + _("(Possible options: {options})").format(
                options=", ".join(sorted(error.possibilities))
            )
        return said
    if isinstance(error, MissingParameter):
        hint: str = error.param.get_error_hint() if error.param is not None else ""
        kind = error.param_type or (error.param.param_type_name if error.param is not None else "parameter")
        template = {"argument": N_("Missing argument {name}."), "option": N_("Missing option {name}.")}
        return _(template.get(kind, N_("Missing parameter {name}."))).format(name=hint).replace("  ", " ")
    if isinstance(error, BadParameter):
        given: str | None = error.param_hint if isinstance(error.param_hint, str) else None
        if given is None and error.param is not None:
            given = error.param.get_error_hint()
        inner = _rewritten(error.message, _INNER) or error.message
        if given is None:
            return _("Invalid value: {message}").format(message=inner)
        return _("Invalid value for {name}: {message}").format(name=given, message=inner)
    plain = _rewritten(error.message, _PLAIN)
    if plain is None:
        return str(error.format_message())
    like = re.search(
        r"Did you mean (.+)\?$", error.message
    )  # i18n: not shown (the library's English, read back)
    return plain + (" " + _(_DID_YOU_MEAN).format(names=like.group(1)) if like else "")


class TranslatedUsageError(typer.BadParameter):
    """A usage error of the command-line library, shown in the language of the run: its usage line, the
    help to ask for, then the error (exit 2, as the library's own)."""

    def __init__(self, error: Any) -> None:
        super().__init__(usage_message(error), ctx=error.ctx)
        self.original = error

    def format_message(self) -> str:
        return self.message

    def show(self, file: Any = None) -> None:
        ctx = self.ctx
        if ctx is not None:
            typer.echo(ctx.get_usage(), err=True)
            if ctx.command.get_help_option(ctx) is not None:
                command = f"{ctx.command_path} {ctx.help_option_names[0]}"
                typer.echo(_("Try '{command}' for help.").format(command=command) + "\n", err=True)
        typer.echo(_("Error: {message}").format(message=self.message), err=True)


def _translated(error: Any) -> Any:
    """The error to raise in place of `error`: a usage error of the library, translated; one of this
    program's (already in the language of the run), and the help shown for a bare group, as they are."""
    if isinstance(error, UsageError) and not isinstance(
        error, TranslatedUsageError | UnknownChoice | NoArgsIsHelpError
    ):
        return TranslatedUsageError(error)
    return error
