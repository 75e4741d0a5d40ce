"""Reading a house-rules/1 file: YAML, safe, with the line of every key.

The file is composed into PyYAML's node tree (never constructed by PyYAML as a whole), and turned into
plain values here, node by node, so that:

- every dotted path (`tables.BJ-03.side_bets.lucky_ladies.paytable`) knows its line and column, block
  style or flow style (`{paytable: A, …}`) alike;
- anchors and aliases are refused where they are met, before anything is expanded (an "anchor bomb"
  costs nothing to read);
- a key written twice, a key YAML reads as something other than text (`01:`, `on:`), and a value YAML 1.1
  reads as a number in base 60 (`3:2` unquoted is 182) are refused with their place.

Anything that keeps the file from being read as house-rules/1 (YAML syntax, the above, a list where a
mapping belongs, a number where text belongs: the schema's `type` keyword) is a `HouseFileError`,
`FILE:LINE:COL: message`, exit status 2. What the schema says beyond types (a missing `ruleset`, an
unknown key) is left to the linter, which reports it as findings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from validator.errors import ValidatorError
from validator.house.schema import load_schema
from validator.i18n import N_, _

# A path inside the file: the keys (and list indexes) from the top.
Path_ = tuple[str | int, ...]

_YAML_TYPES = {
    "object": N_("a mapping"),
    "array": N_("a list"),
    "string": N_("text"),
    "number": N_("a number"),
    "integer": N_("a whole number"),
    "boolean": N_("true or false"),
    "null": N_("nothing"),
}


_PLAIN_COLLECTIONS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


class HouseFileError(ValidatorError):
    """A house-rules file that cannot be read as house-rules/1: `FILE:LINE:COL: message`."""

    def __init__(self, file: str, line: int, column: int, message: str) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.detail = message
        super().__init__(f"{file}:{line}:{column}: {message}")


def dotted(path: Path_) -> str:
    """`("tables", "BJ-03", "maximum")` → `tables.BJ-03.maximum`; list items as `[2]`."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


@dataclass
class HouseFile:
    """A house-rules file as read: its values, and where each key was written."""

    file: str
    data: Any
    # path → (line, column), 1-based, of the key (or of the item, in a list).
    places: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    # The schema's errors, found once per file: the linter asks for them table by table, and checking
    # the whole file again for each table made `lint` quadratic in the number of tables.
    _errors: list[ValidationError] | None = field(default=None, repr=False, compare=False)
    _refused: set[Path_] | None = field(default=None, repr=False, compare=False)

    def rekeyed(self) -> None:
        """Keys of the data were renamed (a table's words read as the names they stand for: house/
        aliases.py): what the schema says of it is worked out again when next asked."""
        self._errors = None
        self._refused = None

    def schema_errors(self) -> list[ValidationError]:
        """`schema_errors(self.data)`, computed once (the data changes after reading only where a table's
        words are read as names, which says so: `rekeyed`)."""
        if self._errors is None:
            self._errors = schema_errors(self.data)
        return self._errors

    def refused(self, path: Path_) -> bool:
        """Whether the schema finds an error at `path` (three keys deep: `tables.ID.maximum`) or below."""
        if self._refused is None:
            self._refused = {tuple(e.absolute_path)[:3] for e in self.schema_errors()}
        return path in self._refused

    def line(self, path: Path_) -> int:
        """The line of `path`, or of its nearest parent that has one (a missing key: its mapping's)."""
        while path:
            if path in self.places:
                return self.places[path][0]
            path = path[:-1]
        return self.places.get((), (1, 1))[0]

    def column(self, path: Path_) -> int:
        while path:
            if path in self.places:
                return self.places[path][1]
            path = path[:-1]
        return 1

    @property
    def tables(self) -> dict[str, Any]:
        tables = self.data.get("tables") if isinstance(self.data, dict) else None
        return tables if isinstance(tables, dict) else {}


# How deep lists and mappings may nest: a house-rules file needs 5 levels (tables.BJ-03.side_bets.x.y).
# PyYAML composes, and jsonschema checks, by recursion: `[[[…]]]` 500 deep would exhaust Python's stack.
MAX_DEPTH = 32


if getattr(yaml, "__with_libyaml__", False):
    from yaml.cyaml import CParser  # type: ignore[attr-defined]

    class _Base(yaml.composer.Composer, CParser, yaml.constructor.SafeConstructor, yaml.resolver.Resolver):
        """libyaml's scanner and parser (in C: a file of 10,000 tables is read four times faster),
        under PyYAML's own composer, so that `_Loader.compose_node` sees every node as it is made."""

        # libyaml counts a ReaderError's position in bytes of UTF-8.
        positions_in_bytes = True

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            yaml.composer.Composer.__init__(self)

else:  # pragma: no cover - PyYAML built without libyaml

    class _Base(yaml.SafeLoader):  # type: ignore[no-redef]
        positions_in_bytes = False


class _Loader(_Base):
    """A safe loader that refuses anchors and aliases the moment the parser meets them, and values
    nested more than MAX_DEPTH levels deep."""

    _depth = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        event = self.peek_event()
        if self._depth >= MAX_DEPTH and isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            raise _Refused(
                event.start_mark,
                _(
                    "nested too deeply: over {depth} levels of lists and mappings (a house-rules file has 5 "
                    "at most)"
                ).format(depth=MAX_DEPTH),
            )
        if isinstance(event, yaml.AliasEvent):
            raise _Refused(
                event.start_mark,
                _(
                    "alias *{name}: anchors and aliases are not allowed in a house-rules file (write each "
                    "value out)"
                ).format(name=event.anchor),
            )
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Refused(
                getattr(event, "start_mark", None),
                _(
                    "anchor &{name}: anchors and aliases are not allowed in a house-rules file (write each "
                    "value out)"
                ).format(name=anchor),
            )
        self._depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Refused(Exception):
    def __init__(self, mark: Any, message: str) -> None:  # a yaml Mark (pure or libyaml), or None
        self.mark = mark
        self.message = message


def load_house(path: Path | str, name: str | None = None) -> HouseFile:
    """Read a house-rules file and check its structure; `HouseFileError` (exit 2) when it cannot be read.
    `name` is how messages name the file, when not as `path`."""
    path = Path(path)
    name = name if name is not None else str(path)
    root, loader = _parsed(_text(path, name), name)
    if root is None:
        raise HouseFileError(
            name, 1, 1, _("the file is empty: a house-rules/1 file is a mapping with format and tables")
        )
    house = HouseFile(name, None)
    house.places[()] = (root.start_mark.line + 1, root.start_mark.column + 1)
    house.data = _Builder(house, loader).value(root, ())
    check_types(house)
    return house


def _text(path: Path, name: str) -> str:
    """The file's text: it exists, can be read and is UTF-8 (else the place of the first byte that is not)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ValidatorError(_("{name}: no such file").format(name=name)) from None
    except IsADirectoryError:
        raise ValidatorError(_("{name}: is a folder, not a house-rules file").format(name=name)) from None
    except OSError as exc:
        raise ValidatorError(
            _("{name}: cannot read ({strerror})").format(name=name, strerror=exc.strerror)
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise HouseFileError(name, line, column, f"not UTF-8 text ({exc.reason})") from None
    return text


def _parsed(text: str, name: str) -> tuple[yaml.Node | None, _Loader]:
    """The file's YAML node (None: an empty file) and the loader that read it; a YAML problem (a control
    character, a syntax error, a construct refused) is a `HouseFileError` at its line and column."""
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        # A control character (or a byte YAML does not print) is refused before any parsing starts.
        line, column = _place(text, exc.position, _Loader.positions_in_bytes)
        raise HouseFileError(name, line, column, _unprintable(exc)) from None
    try:
        root = loader.get_single_node()
    except _Refused as exc:
        line, column = (exc.mark.line + 1, exc.mark.column + 1) if exc.mark is not None else (1, 1)
        raise HouseFileError(name, line, column, exc.message) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or exc.context or _("not valid YAML")
        if exc.context and exc.problem and exc.context_mark is not None:
            message += _(" ({context}, started at line {line}, column {column})").format(
                context=exc.context, line=exc.context_mark.line + 1, column=exc.context_mark.column + 1
            )
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise HouseFileError(name, line, column, f"YAML: {message}") from None
    except yaml.reader.ReaderError as exc:
        line, column = _place(text, exc.position, _Loader.positions_in_bytes)
        raise HouseFileError(name, line, column, _unprintable(exc)) from None
    except yaml.YAMLError as exc:
        raise HouseFileError(name, 1, 1, f"YAML: {exc}") from None
    finally:
        loader.dispose()
    return root, loader


def _place(text: str, position: int, in_bytes: bool = False) -> tuple[int, int]:
    """1-based line and column of an offset in `text`, in characters or in bytes of its UTF-8."""
    before = text.encode("utf-8")[:position].decode("utf-8", "ignore") if in_bytes else text[:position]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


# The largest whole number a house file may hold: amounts and counts need a few digits; a number of
# thousands of digits (decimal, hex or YAML 1.1's base 60) is beyond what Python even prints.
MAX_DIGITS = 100

# What PyYAML's own scalar conversions raise on a value its tag cannot hold (`!!int abc`, `!!bool maybe`,
# `!!timestamp nope`, `2025-13-45`, an integer over Python's 4,300-digit conversion limit).
_CONVERSION_ERRORS = (ValueError, KeyError, AttributeError, TypeError, OverflowError, IndexError)


class _Builder:
    def __init__(self, house: HouseFile, loader: yaml.constructor.SafeConstructor) -> None:
        self.house = house
        self.loader = loader

    def fail(self, node: yaml.Node, message: str) -> HouseFileError:
        return HouseFileError(self.house.file, node.start_mark.line + 1, node.start_mark.column + 1, message)

    def value(self, node: yaml.Node, path: Path_) -> Any:
        if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in _PLAIN_COLLECTIONS:
            raise self.fail(
                node, _("the tag {tag} is not allowed in a house-rules file").format(tag=node.tag)
            )
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            items = []
            for index, item in enumerate(node.value):
                self.house.places[(*path, index)] = (item.start_mark.line + 1, item.start_mark.column + 1)
                items.append(self.value(item, (*path, index)))
            return items
        assert isinstance(node, yaml.ScalarNode)
        return self.scalar(node, path)

    def mapping(self, node: yaml.MappingNode, path: Path_) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self.fail(
                    key_node, _("merge keys (<<) are not allowed in a house-rules file (write each key out)")
                )
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, _("a key must be text, not a list or a mapping"))
            key = self.scalar(key_node, path)
            if not isinstance(key, str):
                raise self.fail(
                    key_node,
                    _('the key {key} is read by YAML as {kind}, not as text: quote it ("{value}")').format(
                        key=repr(key_node.value), kind=_yaml_kind(key), value=key_node.value
                    ),
                )
            if key in out:
                first = self.house.places[(*path, key)]
                raise self.fail(
                    key_node,
                    _("{key} is written twice (first on line {line}): keep one").format(
                        key=dotted((*path, key)), line=first[0]
                    ),
                )
            self.house.places[(*path, key)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = self.value(value_node, (*path, key))
        return out

    def scalar(self, node: yaml.ScalarNode, path: Path_) -> Any:
        try:
            value = self.loader.construct_object(node, deep=True)
        except yaml.MarkedYAMLError as exc:
            raise self.fail(node, f"YAML: {exc.problem or exc}") from None
        except _CONVERSION_ERRORS:
            shown = _clipped(node.value)
            raise self.fail(
                node, _("YAML: {value} is not a valid {kind}").format(value=shown, kind=_tag_name(node.tag))
            ) from None
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS:
            raise self.fail(
                node,
                _("{value}: a number over {digits} digits").format(
                    value=_clipped(node.value), digits=MAX_DIGITS
                ),
            )
        if isinstance(value, bool) or value is None or isinstance(value, str):
            return value
        if isinstance(value, int | float):
            if isinstance(value, float) and not math.isfinite(value):
                raise self.fail(node, _("{value} is not a finite number").format(value=_clipped(node.value)))
            if not node.style and ":" in node.value:  # plain (libyaml may say "")
                # YAML 1.1 reads 3:2 as 3 × 60 + 2: the author meant text.
                raise self.fail(
                    node,
                    _(
                        "{text} is read by YAML as the number {value} (base 60), not as text: "
                        """quote it ("{text}")"""
                    ).format(text=node.value, value=value),
                )
            return value
        if isinstance(value, date | datetime):
            # A date is never a house-rules value; keep the text so the linter can say what it saw.
            return node.value
        raise self.fail(
            node, _("{value} is not a value a house-rules file can hold").format(value=_clipped(node.value))
        )


def _unprintable(error: yaml.reader.ReaderError) -> str:
    character = error.character
    code = character if isinstance(character, int) else ord(str(character)[:1] or "\0")
    return _("YAML: the control character U+{code} is not allowed").format(code=f"{code:04X}")


def _tag_name(tag: str) -> str:
    short = tag.rsplit(":", 1)[-1]
    names = {
        "int": _("whole number"),
        "float": _("number"),
        "bool": _("boolean"),
        "timestamp": _("date or time"),
    }
    return names.get(short) or _("{tag} value").format(tag=tag)


def _clipped(text: str, limit: int = 40) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _yaml_kind(value: Any) -> str:
    if isinstance(value, bool):
        return _("the boolean {value}").format(value=str(value).lower())
    if isinstance(value, int | float):
        return _("the number {value}").format(value=value)
    if value is None:
        return _("nothing (null)")
    return type(value).__name__


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return _("true or false")
    if isinstance(value, dict):
        return _("a mapping")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, int | float):
        return _("a number")
    if value is None:
        return _("nothing")
    return _("text")


def check_types(house: HouseFile) -> None:
    """The schema's `type` errors stop the reading: the rest of the file cannot be understood without them.
    Checked again once a table's words are read as the names they stand for (house/aliases.py): a
    `mises_additionnelles:` block is then held to what `side_bets:` must be."""
    errors = [e for e in house.schema_errors() if e.validator == "type"]
    if not errors:
        return
    error = min(errors, key=lambda e: (house.line(tuple(e.absolute_path)), len(e.absolute_path)))
    path = tuple(error.absolute_path)
    value = error.validator_value
    wanted = [str(t) for t in (value if isinstance(value, list) else [value])]
    wanted_text = _(" or ").join(_(_YAML_TYPES.get(t, t)) for t in wanted if t != "null")
    where = dotted(path) or _("the file")
    raise HouseFileError(
        house.file,
        house.line(path),
        house.column(path),
        _("{where}: {found} where {wanted} belongs").format(
            where=where, found=_type_name(error.instance), wanted=wanted_text
        ),
    )


_VALIDATOR: Draft202012Validator | None = None


def schema_errors(data: Any) -> list[ValidationError]:
    """Every way `data` breaks the house-rules/1 schema, in document order of their paths."""
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = Draft202012Validator(load_schema())
    return sorted(_VALIDATOR.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
