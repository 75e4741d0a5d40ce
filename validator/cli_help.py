"""Help that reads like the usage a user types: `check [OPTIONS] LOG...`, and each parameter shown by
its metavar (`--house FILE`), never by a Python type (`<list[Path]>`) or in braces (`{logs}...`).

Typer 0.29 (pinned in pyproject.toml; it carries its own copy of click) writes both of those; the
commands use this class instead. Parameters are told apart by `param_type_name`, as typer does.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperCommand


def _argument_name(param: Any) -> str:
    name = param.metavar or (param.name or "").upper()
    if param.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if param.required else f"[{name}]"


class PlainCommand(TyperCommand):
    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        pieces += [_argument_name(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments: list[tuple[str, str]] = []
        options: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                arguments.append((_argument_name(param), getattr(param, "help", None) or ""))
            else:
                options.append(record)
        if arguments:
            with formatter.section("Arguments"):
                formatter.write_dl(arguments)
        if options:
            with formatter.section("Options"):
                formatter.write_dl(options)
