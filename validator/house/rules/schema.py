"""house/schema: the file has the structure of house-rules/1 (beyond the type errors, which stop the
reading)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import SPEC_REF, Node, finding, shown
from validator.i18n import _

ID = "house/schema"
DOC = house_rule(
    ID,
    checks="The file has the structure of house-rules/1.",
    why="docs/house-rules.md defines the keys every file and entry carries.",
    fails="An entry without `ruleset`, `format: house-rules/2`, a negative minimum.",
    passes="A file as docs/house-rules.md shows it.",
)
NODES = ("schema-error",)


def check(node: Node) -> Iterator[Finding]:
    error = node.error
    if error is None or error.validator == "additionalProperties":
        return  # an unknown key: house/unknown-key's
    yield finding(node.house, node.path, ID, SPEC_REF, _message(node))


def _message(node: Node) -> str:
    error = node.error
    assert error is not None
    value = error.validator_value
    if error.validator == "required":
        present = error.instance if isinstance(error.instance, Mapping) else {}
        missing = [k for k in (value if isinstance(value, list) else []) if k not in present]
        if len(missing) == 1:
            return _("{missing} is required here").format(missing=missing[0])
        return _("{missing} and {missing2} are required here").format(
            missing=", ".join(missing[:-1]), missing2=missing[-1]
        )
    if error.validator == "const":
        return _("must be {value}, not {instance}").format(value=shown(value), instance=shown(error.instance))
    if error.validator == "minimum":
        return _("{instance} is below {value}").format(instance=shown(error.instance), value=value)
    if error.validator == "maximum":
        return _("{instance} is above {value}").format(instance=shown(error.instance), value=value)
    if error.validator == "pattern":
        if tuple(error.absolute_path) == ("gaming_day_start",):
            return _("{instance} is not a time of day as HH:MM (00:00 to 23:59)").format(
                instance=shown(error.instance)
            )
        if tuple(error.absolute_path) == ("hours",):
            return _("{instance} is not opening hours as HH:MM-HH:MM (such as 20:00-04:00)").format(
                instance=shown(error.instance)
            )
        return _("{instance} is not a decimal number").format(instance=shown(error.instance))
    if error.validator in ("minLength", "minProperties"):
        return "must not be empty"
    return str(error.message)
