"""house/option-not-allowed: each option has a value the regulation lets the casino choose."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from decimal import Decimal, getcontext
from typing import TYPE_CHECKING, Any

from validator.dsl.ast import Ratio
from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import Node, as_json, finding, one_of, shown
from validator.house.values import house_value
from validator.i18n import N_, _

if TYPE_CHECKING:
    from validator.dsl.model import OptionDef

ID = "house/option-not-allowed"
DOC = house_rule(
    ID,
    checks=N_("Each option has a value the regulation lets the casino choose."),
    why=N_(
        "The ruleset declares each option's type, allowed values or range, from the article that "
        "gives the choice."
    ),
    fails=N_("`max_split_hands: 9` where the text allows at most four hands."),
    passes=N_("`max_split_hands: 3`."),
)
NODES = ("option", "setting", "rule-option")

_DECIMAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def check(node: Node) -> Iterator[Finding]:
    option = node.option
    if option is None:
        return  # not an option the version declares: house/fixed-by-regulation's or house/unknown-key's
    _value, problem = option_value(option, node.raw)
    if problem is not None:
        yield finding(
            node.house,
            node.path,
            ID,
            option.ref,
            problem,
            expected={option.name: _expected(option)},
            actual={option.name: as_json(node.raw)},
        )


def option_value(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    """The YAML value as the rules compute with it, and what is wrong with it (None: nothing)."""
    if raw is None:
        return None, _("has no value: give one, or leave the key out for the regulation's default")
    # A type the rules language may add later: compared as written.
    value, problem = _READ.get(option.type, _as_written)(option, raw)
    if problem is not None:
        return None, problem
    if not option.allows(value):
        return value, _("{raw} is not allowed: the regulation allows {option}").format(
            raw=shown(raw), option=allowed_text(option)
        )
    return value, None


def _bool(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    if not isinstance(raw, bool):
        return None, _("{raw} is not true or false").format(raw=shown(raw))
    return raw, None


def _number(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    """An `int` or `decimal` option's value: a number (not true or false), or a string of digits; a
    whole one for an int; within the digits Decimal computes with."""
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        value = house_value(raw)
    elif isinstance(raw, str) and _DECIMAL.match(raw):
        value = Decimal(raw)
    else:
        return None, _("{raw} is not a number").format(raw=shown(raw))
    if option.type == "int" and value != value.to_integral_value():
        return None, _("{raw} is not a whole number").format(raw=shown(raw))
    if value.adjusted() >= getcontext().prec:
        # More digits than Decimal computes with (28): no rule could use it, and quantize would raise.
        if option.allowed is None and option.range is None:
            return None, _("{raw} is not a valid value: over {prec} digits").format(
                raw=shown(raw), prec=getcontext().prec
            )
        return None, _("{raw} is not allowed: the regulation allows {option}").format(
            raw=shown(raw), option=allowed_text(option)
        )
    return (value.quantize(Decimal(1)) if option.type == "int" else value), None


def _ratio(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    value = house_value(raw.strip()) if isinstance(raw, str) else None
    if not isinstance(value, Ratio):
        return None, _('{value} is not a ratio: write it as text, such as "3:2"').format(value=shown(raw))
    return value, None


def _choice(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    if not isinstance(raw, str):
        return None, _("{raw} is not one of the choices ({option}); quote it if it is one").format(
            raw=shown(raw), option=allowed_text(option)
        )
    return raw, None


def _as_written(option: OptionDef, raw: Any) -> tuple[Any, str | None]:
    return raw, None


# How a value of each type of option is read from the YAML.
_READ: dict[str, Callable[[OptionDef, Any], tuple[Any, str | None]]] = {
    "bool": _bool,
    "int": _number,
    "decimal": _number,
    "ratio": _ratio,
    "choice": _choice,
}


def allowed_text(option: OptionDef) -> str:
    if option.allowed is not None:
        return one_of(shown(v) for v in option.allowed)
    if option.range is not None:
        return _("{range} to {range2}").format(range=shown(option.range[0]), range2=shown(option.range[1]))
    return _("any {type}").format(type=option.type)


def _expected(option: OptionDef) -> Any:
    """What the regulation allows, for a finding's `expected`: the list of values, or the range."""
    if option.allowed is not None:
        return [as_json(v) for v in option.allowed]
    if option.range is not None:
        return _("{range} to {range2}").format(range=shown(option.range[0]), range2=shown(option.range[1]))
    return _("a {type}").format(type=option.type)
