"""Expected and actual values in an auditor's words, not the rule's expression.

A failed requirement is explained by `expr.explain_failure` as facts and conditions
(`{"dealer.total": "<= 16"}`); a report shows the same thing as `{"the dealer's total": "16 or less"}`
against `{"the dealer's total": 17}`: each fact by its description in the vocabulary, a comparison in
words, yes/no for a truth, cards as A♥ 6♣. A condition with no single side to blame (a disjunction)
is shown as what the rule checks, against the facts it read.
"""

from __future__ import annotations

import re
from typing import Any

from validator.dsl.vocabulary import NAMESPACES, PARAMETERS
from validator.i18n import N_, _

_PATH = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")
_CARD = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")
_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_WORDS = {
    "<=": N_("{} or less"),
    ">=": N_("{} or more"),
    "<": N_("less than {}"),
    ">": N_("more than {}"),
    "!=": N_("not {}"),
}
_COMPARISON = re.compile(r"^(<=|>=|!=|<|>|==) (.*)$")
# `"lucky_ladies" in box.won_side_bets`: a name among the values of a fact.
_MEMBER = re.compile(r'^"([^"]+)" in ([a-z_]+(?:\.[a-z0-9_]+)+)$')


def label(path: str) -> str:
    """The words for a fact, a parameter or a house option: `dealer.total` → its vocabulary description."""
    namespace, _unused, rest = path.partition(".")
    # The vocabulary's descriptions are translated where they are shown (scripts/i18n.py reads them
    # from the vocabulary itself for the catalog, like the CLI's help).
    if namespace == "param" and rest in PARAMETERS:
        return _(PARAMETERS[rest].doc)
    if namespace == "house":
        return _("the house rules' {option}").format(option=rest.replace(".", " ").replace("_", " "))
    described = NAMESPACES.get(namespace, {}).get(rest)
    if described:
        word = namespace.replace("_", " ")
        if word in described.lower():
            return _(described)
        return _("{namespace}: {fact}").format(namespace=_(word), fact=_(described))
    return path.replace(".", " ").replace("_", " ")


def value(shown: Any) -> Any:
    """A value as an auditor reads it: yes/no, cards with their suit symbols, a comparison in words."""
    if isinstance(shown, bool):
        return _("yes") if shown else _("no")
    if isinstance(shown, list) and shown and all(isinstance(c, str) and _CARD.match(c) for c in shown):
        return " ".join(card(c) for c in shown)
    if isinstance(shown, str):
        if _CARD.match(shown):
            return card(shown)
        match = _COMPARISON.match(shown)
        if match:
            op, right = match.groups()
            right = right[1:-1] if len(right) > 1 and right[0] == right[-1] == '"' else right
            return right if op == "==" else _(_WORDS[op]).format(right)
    return shown


def card(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    return ("10" if rank == "T" else rank) + _SUITS[suit]


def in_words(
    expected: dict[str, Any], actual: dict[str, Any], checks: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """`explain_failure`'s expected/actual, reworded; `checks` (the rule's own doc) stands for a
    condition that is not one fact against one value. Words already (a payout's `pay`, or values
    reworded before) are left as they are, so rewording twice changes nothing."""
    if any(_is_expression(key) for key in expected):
        return {_("requirement"): checks}, {label(k): value(v) for k, v in actual.items() if _PATH.match(k)}
    return _reword(expected), _reword(actual)


def _is_expression(key: str) -> bool:
    return key == "condition" or (
        not _PATH.match(key) and bool(re.search(r"[()=<>!+*/]| - |\b(and|or|not)\b", key))
    )


def _reword(values: dict[str, Any]) -> dict[str, Any]:
    return {_key(k): (value(v) if _PATH.match(k) or _MEMBER.match(k) else v) for k, v in values.items()}


def _key(key: str) -> str:
    if _PATH.match(key):
        return label(key)
    member = _MEMBER.match(key)
    if member:
        name, path = member.groups()
        return _("{name} among {facts}").format(name=name.replace("_", " "), facts=label(path))
    return key
