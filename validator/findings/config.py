"""The configuration file: `[tool.casino-validator]` in `pyproject.toml`, or `casino-validator.toml`,
found from the current folder upwards (the first folder holding either), or named by `--config FILE`.

Keys: `select`, `ignore` (lists of rule ids or prefixes), `fail-level` (`error` or `warning`),
`baseline` (a path, relative to the file's folder), `lang` (`en` or `fr`: the language of messages and
reports, under `--lang` and over the locale), `readings` (a table: reading id → the alternative a
run applies, as `--reading ID=ALTERNATIVE`, which overrides it), `rules` (rulesets from outside the
package: `.rules` files or folders of them, relative to the file's folder). Anything else, or a value of
the wrong type, stops the run (exit 2) naming the file. A configuration file is small: one over
`MAX_BYTES`, or nested deeper than Python's parser can follow, is refused the same way (a device such as
/dev/zero is never read whole).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from validator.errors import ValidatorError
from validator.i18n import LANGUAGES, _

OWN_FILE = "casino-validator.toml"
PYPROJECT = "pyproject.toml"
TABLE = "casino-validator"
FAIL_LEVELS = ("error", "warning")
_KEYS = ("select", "ignore", "fail-level", "baseline", "lang", "readings", "rules")
MAX_BYTES = 1 << 20  # a configuration is a few lines; a mebibyte is far more than any needs


@dataclass(frozen=True, slots=True)
class Config:
    file: Path | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_level: str | None = None
    baseline: Path | None = None
    lang: str | None = None
    readings: tuple[tuple[str, str], ...] = ()
    rules: tuple[Path, ...] = ()


def find_config(start: Path | None = None) -> Path | None:
    """The first `casino-validator.toml`, or `pyproject.toml` with a `[tool.casino-validator]` table,
    from `start` (default: the current folder) upwards."""
    folder = (start or Path.cwd()).resolve()
    for candidate in (folder, *folder.parents):
        own = candidate / OWN_FILE
        if own.is_file():
            return own
        pyproject = candidate / PYPROJECT
        if pyproject.is_file() and isinstance(_tool(pyproject, _read(pyproject)).get(TABLE), dict):
            return pyproject
    return None


def load_config(explicit: Path | None = None, *, disabled: bool = False) -> Config:
    if disabled:
        return Config()
    path = explicit if explicit is not None else find_config()
    if path is None:
        return Config()
    if not path.is_file():
        raise ValidatorError(_("--config {path}: no such file").format(path=path))
    data = _read(path)
    if path.name == PYPROJECT or TABLE in _tool(path, data):
        table = _tool(path, data).get(TABLE)
        if not isinstance(table, dict):
            raise ValidatorError(_("{path}: no [tool.{table}] table").format(path=path, table=TABLE))
        data = table
    for key in data:
        if key not in _KEYS:
            raise ValidatorError(
                _("{path}: unknown key {key!r}: the keys are {keys}").format(
                    path=path, key=key, keys=", ".join(_KEYS)
                )
            )
    fail_level = data.get("fail-level")
    if fail_level is not None and fail_level not in FAIL_LEVELS:
        raise ValidatorError(
            _("{path}: fail-level must be one of {choices}, not {value!r}").format(
                path=path, choices=", ".join(FAIL_LEVELS), value=fail_level
            )
        )
    baseline = data.get("baseline")
    if baseline is not None and not isinstance(baseline, str):
        raise ValidatorError(_("{path}: baseline must be a path (text)").format(path=path))
    lang = data.get("lang")
    if lang is not None and lang not in LANGUAGES:
        raise ValidatorError(
            _("{path}: lang must be one of {choices}, not {value!r}").format(
                path=path, choices=", ".join(LANGUAGES), value=lang
            )
        )
    return Config(
        file=path,
        select=_rule_list(path, data, "select"),
        ignore=_rule_list(path, data, "ignore"),
        fail_level=fail_level,
        baseline=(path.parent / baseline) if baseline else None,
        lang=lang,
        readings=_readings(path, data),
        rules=tuple(path.parent / entry for entry in _path_list(path, data, "rules")),
    )


def config_lang() -> str | None:
    """The `lang` key of the configuration file found from the current folder, if it has a valid one;
    a file that cannot be read says nothing here (the command that reads it says why)."""
    try:
        path = find_config()
        if path is None:
            return None
        data = _read(path)
    except ValidatorError:
        return None
    tool = data.get("tool", {})
    tool = tool if isinstance(tool, dict) else {}
    if path.name == PYPROJECT or TABLE in tool:
        table = tool.get(TABLE)
        data = table if isinstance(table, dict) else {}
    lang = data.get("lang")
    return lang if lang in LANGUAGES else None


def _tool(path: Path, data: dict[str, Any]) -> dict[str, Any]:
    """The file's `tool` table; `tool = 1` (a value, not a table) is the file's mistake, said as such."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ValidatorError(
            _("{path}: tool must be a table ([tool.{table}]), not {kind}").format(
                path=path, table=TABLE, kind=type(tool).__name__
            )
        )
    return tool


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ValidatorError(_("{path}: {reason}").format(path=path, reason=exc.strerror or exc)) from None
    if len(raw) > MAX_BYTES:
        raise ValidatorError(
            _("{path}: too large for a configuration file (over {max:,} bytes)").format(
                path=path, max=MAX_BYTES
            )
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidatorError(
            _("{path}: not UTF-8 text (byte {byte}), as TOML must be").format(path=path, byte=exc.start + 1)
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValidatorError(_("{path}: not valid TOML: {error}").format(path=path, error=exc)) from None
    except RecursionError:
        raise ValidatorError(
            _("{path}: not a configuration: its values are nested too deep").format(path=path)
        ) from None
    except ValueError as exc:  # a number Python refuses to convert (over 4,300 digits)
        raise ValidatorError(_("{path}: not valid TOML: {error}").format(path=path, error=exc)) from None


def _readings(path: Path, data: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    value = data.get("readings", {})
    if not isinstance(value, dict) or not all(isinstance(v, str) and v for v in value.values()):
        raise ValidatorError(
            _('{path}: readings must be a table of reading = "alternative"').format(path=path)
        )
    return tuple(value.items())


def _path_list(path: Path, data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValidatorError(_("{path}: {key} must be a list of paths (text)").format(path=path, key=key))
    return tuple(value)


def _rule_list(path: Path, data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValidatorError(
            _("{path}: {key} must be a list of rule ids or prefixes").format(path=path, key=key)
        )
    return tuple(value)
