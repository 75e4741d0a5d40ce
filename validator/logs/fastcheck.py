"""The hand-log/1 schema written out as plain Python functions that only answer "valid or not".

jsonschema takes milliseconds per round (every action tries 16 if/then branches, each building error
objects), and even a tree of small closures costs a call per value. Almost every record is valid, so
each record type's subschema is turned once into the source of one function, with the checks of every
nested value inlined, and jsonschema runs only when that function says no, to say what is wrong.

The generator knows exactly the keywords the schema uses and refuses any other, so a schema change
cannot silently make the fast path more lenient; tests check that it agrees with jsonschema on
thousands of broken records.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset(
    {"$schema", "$defs", "$comment", "title", "description", "then", "else", "x-read-fast"}
)
# A Python test for "x is of this JSON type"; `{x}` is the value's name. JSON Schema counts 7.0 as an
# integer, and a bool is neither a number nor an integer (Python says True is an int).
_TYPE_TESTS = {
    "object": "isinstance({x}, dict)",
    "array": "isinstance({x}, list)",
    "string": "isinstance({x}, str)",
    "boolean": "isinstance({x}, bool)",
    "null": "{x} is None",
    "number": "(isinstance({x}, (int, float)) and not isinstance({x}, bool))",
    "integer": (
        "(isinstance({x}, int) and not isinstance({x}, bool) or isinstance({x}, float) and {x}.is_integer())"
    ),
}
_CONTAINER = {"properties": "object", "prefixItems": "array"}
# For keywords that apply to one type only: the test that the value is of that type.
_APPLIES = {
    "string": _TYPE_TESTS["string"],
    "number": _TYPE_TESTS["number"],
    "array": _TYPE_TESTS["array"],
    "object": _TYPE_TESTS["object"],
}


class SchemaCompiler:
    """Writes one function per `$defs` entry asked for; `pattern` is how the schema's regexes compile."""

    def __init__(self, defs: dict[str, Any], pattern: Callable[[str], re.Pattern[str]]) -> None:
        self.defs = defs
        self.pattern = pattern
        self.values: dict[str, Any] = {}
        self.sources: list[str] = []
        self._names = 0
        self.scope: dict[str, Any] = {}

    # ---- public ----
    def checks(self, names: list[str]) -> dict[str, Check]:
        """The check of each `#/$defs/<name>`, compiled together."""
        functions = {name: self._function_for(self.defs[name], f"valid_{name}") for name in names}
        scope = self._build()
        return {name: scope[function] for name, function in functions.items()}

    def schema(self, schema: dict[str, Any]) -> Check:
        """The check of an inline schema (tests use it to show what is refused)."""
        function = self._function_for(schema, self._fresh("valid_schema"))
        check: Check = self._build()[function]
        return check

    # ---- writing source ----
    def _fresh(self, stem: str) -> str:
        self._names += 1
        return f"{stem}_{self._names}"

    def _constant(self, value: Any) -> str:
        name = self._fresh("_c")
        self.values[name] = value
        return name

    def _function_for(self, schema: dict[str, Any], name: str) -> str:
        lines: list[str] = []
        self._statements(schema, "x", lines, "    ")
        self.sources.append(f"def {name}(x):\n{''.join(lines)}    return True\n")
        return name

    def _build(self) -> dict[str, Any]:
        self.scope = dict(self.values)
        exec(compile("\n".join(self.sources), "<hand-log schema>", "exec"), self.scope)
        return self.scope

    def _statements(self, schema: dict[str, Any], x: str, out: list[str], pad: str) -> None:
        """Lines that `return False` when the value named `x` breaks `schema`."""
        known_type = None
        kind = schema.get("type")
        if isinstance(kind, str):
            # Checked first, so the keywords below need not ask again what the value is.
            out.append(f"{pad}if not {_TYPE_TESTS[kind].format(x=x)}:\n{pad}    return False\n")
            known_type = kind
        for key, value in schema.items():
            if key in _ANNOTATIONS or (key == "type" and known_type is not None):
                continue
            self._keyword(key, value, schema, x, out, pad, known_type)

    def _guard(self, applies_to: str, x: str, known_type: str | None) -> str:
        """`<test> and ` when the keyword only applies to values of another type than the known one."""
        if known_type == applies_to or (applies_to == "number" and known_type == "integer"):
            return ""
        return f"{_APPLIES[applies_to].format(x=x)} and "

    def _keyword(
        self,
        key: str,
        value: Any,
        schema: dict[str, Any],
        x: str,
        out: list[str],
        pad: str,
        known: str | None,
    ) -> None:
        fail = f"{pad}    return False\n"
        match key:
            case "$ref":
                prefix = "#/$defs/"
                if not value.startswith(prefix):
                    raise ValueError(f"fast check: unsupported $ref {value!r}")
                # Inlined: the schema's definitions are small and none refers to itself.
                self._statements(self.defs[value[len(prefix) :]], x, out, pad)
            case "type":
                tests = " or ".join(_TYPE_TESTS[t].format(x=x) for t in value)
                out.append(f"{pad}if not ({tests}):\n{fail}")
            case "enum" | "const":
                out.append(f"{pad}if not ({self._one_of(key, value, x)}):\n{fail}")
            case "pattern" | "minLength" | "minimum" | "maximum" | "minItems" | "maxItems" | "required":
                out.append(f"{pad}if {self._out_of_bounds(key, value, x, known)}:\n{fail}")
            case "properties" | "prefixItems":
                self._members(key, value, x, out, pad, known)
            case "items":
                self._items(value, len(schema.get("prefixItems", ())), x, out, pad, known)
            case "anyOf":
                out.append(f"{pad}if not ({self._any_of(value, x)}):\n{fail}")
            case "allOf":
                dispatch = self._verb_dispatch(value)
                if dispatch is not None:
                    out.append(f"{pad}if not {dispatch}.check({x}):\n{fail}")
                else:
                    for sub in value:
                        self._statements(sub, x, out, pad)
            case "if":
                self._if_then_else(value, schema, x, out, pad)
            case _:
                raise ValueError(f"fast check: schema keyword {key!r} is not supported")

    def _one_of(self, key: str, value: Any, x: str) -> str:
        """The test that `x` is the `const` or one of the `enum`'s strings."""
        allowed = frozenset(value if key == "enum" else [value])
        # Only strings: Python would also find True in {1} and 1.0 in {1}, JSON Schema would not.
        if not all(isinstance(v, str) for v in allowed):
            raise ValueError(f"fast check: only string {key} values are supported")
        if len(allowed) == 1:
            return f"{_TYPE_TESTS['string'].format(x=x)} and {x} == {next(iter(allowed))!r}"
        return f"{_TYPE_TESTS['string'].format(x=x)} and {x} in {self._constant(allowed)}"

    def _out_of_bounds(self, key: str, value: Any, x: str, known: str | None) -> str:
        """The test that `x` breaks one keyword of a single bound: a pattern, a length, a value's or an
        array's bounds, the properties an object requires (each only for values of its type)."""
        if key == "pattern":
            search = self._constant(self.pattern(value).search)
            return f"{self._guard('string', x, known)}{search}({x}) is None"
        if key == "minLength":
            return f"{self._guard('string', x, known)}len({x}) < {int(value)}"
        if key in ("minimum", "maximum"):
            op = "<" if key == "minimum" else ">"
            return f"{self._guard('number', x, known)}{x} {op} {self._constant(value)}"
        if key in ("minItems", "maxItems"):
            op = "<" if key == "minItems" else ">"
            return f"{self._guard('array', x, known)}len({x}) {op} {int(value)}"
        test = " and ".join(f"{name!r} in {x}" for name in value)  # required
        return f"{self._guard('object', x, known)}not ({test})"

    def _members(self, key: str, value: Any, x: str, out: list[str], pad: str, known: str | None) -> None:
        """`properties` (by name) or `prefixItems` (by place): each member present checked by its schema."""
        block: list[str] = []
        inner = pad if known == _CONTAINER[key] else pad + "    "
        pairs = value.items() if key == "properties" else enumerate(value)
        for member, sub in pairs:
            item = self._fresh("v")
            checks: list[str] = []
            self._statements(sub, item, checks, inner + "    ")
            if checks:
                present = f"{member!r} in {x}" if key == "properties" else f"len({x}) > {member}"
                block.append(f"{inner}if {present}:\n{inner}    {item} = {x}[{member!r}]\n")
                block.extend(checks)
        if block and known != _CONTAINER[key]:
            out.append(f"{pad}if {_TYPE_TESTS[_CONTAINER[key]].format(x=x)}:\n")
        out.extend(block)

    def _items(
        self, value: dict[str, Any], skip: int, x: str, out: list[str], pad: str, known: str | None
    ) -> None:
        """`items`: every item after the first `skip` (those `prefixItems` checks) checked by its schema."""
        item = self._fresh("v")
        block: list[str] = []
        inner = pad if known == "array" else pad + "    "
        self._statements(value, item, block, inner + "    ")
        if block:
            if known != "array":
                out.append(f"{pad}if {_TYPE_TESTS['array'].format(x=x)}:\n")
            source = f"{x}[{skip}:]" if skip else x
            out.append(f"{inner}for {item} in {source}:\n")
            out.extend(block)

    def _any_of(self, value: list[dict[str, Any]], x: str) -> str:
        """The test that `x` is valid under one of the schemas."""
        inline = [self._expression(sub, x) for sub in value]
        if all(inline):
            # Scalars (a stake, an amount): one expression, no call per value.
            return " or ".join(f"({one})" for one in inline)
        options = [self._function_for(sub, self._fresh("any_of")) for sub in value]
        return " or ".join(f"{option}({x})" for option in options)

    def _if_then_else(
        self, value: dict[str, Any], schema: dict[str, Any], x: str, out: list[str], pad: str
    ) -> None:
        when = self._function_for(value, self._fresh("if"))
        then: list[str] = []
        otherwise: list[str] = []
        self._statements(schema.get("then", {}), x, then, pad + "    ")
        self._statements(schema.get("else", {}), x, otherwise, pad + "    ")
        out.append(f"{pad}if {when}({x}):\n")
        out.extend(then or [f"{pad}    pass\n"])
        if otherwise:
            out.append(f"{pad}else:\n{''.join(otherwise)}")

    def _expression(self, schema: dict[str, Any], x: str) -> str | None:
        """An expression true when `x` is valid, for a string or number schema with no nested values;
        None for anything else."""
        while set(schema) - _ANNOTATIONS == {"$ref"}:
            schema = self.defs[schema["$ref"].removeprefix("#/$defs/")]
        kind = schema.get("type")
        keys = set(schema) - _ANNOTATIONS - {"type"}
        if kind not in ("string", "number", "integer") or not keys <= {
            "pattern",
            "minLength",
            "minimum",
            "maximum",
        }:
            return None
        parts = [_TYPE_TESTS[kind].format(x=x)]
        if "pattern" in schema:
            parts.append(f"{self._constant(self.pattern(schema['pattern']).search)}({x}) is not None")
        if "minLength" in schema:
            parts.append(f"len({x}) >= {int(schema['minLength'])}")
        if "minimum" in schema:
            parts.append(f"{x} >= {self._constant(schema['minimum'])}")
        if "maximum" in schema:
            parts.append(f"{x} <= {self._constant(schema['maximum'])}")
        return " and ".join(parts)

    def _verb_dispatch(self, branches: list[dict[str, Any]]) -> str | None:
        """allOf [if (a non-empty array whose first item is V) then S_V, ...] as one lookup of the first
        item, through a cache of actions already found valid. Same meaning: the Vs are distinct strings,
        so at most one `if` holds, and none for anything else."""
        guard = {"type": "array", "minItems": 1}
        table: dict[str, str] = {}
        for branch in branches:
            test = branch.get("if", {})
            if set(branch) != {"if", "then"} or set(test) != {*guard, "prefixItems"}:
                return None
            if any(test[k] != v for k, v in guard.items()) or len(test["prefixItems"]) != 1:
                return None
            verb = test["prefixItems"][0]
            if set(verb) != {"const"} or not isinstance(verb["const"], str) or verb["const"] in table:
                return None
            table[verb["const"]] = self._function_for(branch["then"], self._fresh("verb"))
        return self._constant(_CachedDispatch(table, self))


class _CachedDispatch:
    """A séance repeats the same few thousand actions (["deal", "3", "9H"], ["stand", "3"]…): an action
    made only of strings that passed once passes again without a walk. Its key is its strings joined by
    NUL, which `str.join` refuses for anything else: a number, and above all a `true`, whose Python value
    equals 1 and would borrow the verdict of ["pay", "1", 1], is walked every time. Only actions with no
    NUL of their own are remembered, with their length, so a key read back names one action only."""

    LIMIT = 100_000  # memory stays flat however long the log

    def __init__(self, names: dict[str, str], compiler: SchemaCompiler) -> None:
        self.names = names
        self.compiler = compiler
        self.table: dict[str, Check] | None = None
        self.known_good: dict[str, int] = {}

    def check(self, x: Any) -> bool:
        if not isinstance(x, list) or not x:
            return True
        try:
            key: str | None = "\x00".join(x)
        except TypeError:
            key = None
        else:
            if key is not None and self.known_good.get(key) == len(x):
                return True
        first = x[0]
        if not isinstance(first, str):
            return True
        if self.table is None:
            # The branch functions live in the module the compiler generated last, with their callers.
            self.table = {verb: self.compiler.scope[name] for verb, name in self.names.items()}
        branch = self.table.get(first)
        if branch is None:
            return True
        if not branch(x):
            return False
        if key is not None and key.count("\x00") == len(x) - 1:
            if len(self.known_good) > self.LIMIT:
                self.known_good.clear()
            self.known_good[key] = len(x)
        return True
