"""A rule's message and its placeholders: `{hand.total}`, `{param.split.max_hands}`, `{house.surrender}`.

A placeholder names a fact of the vocabulary (`vocabulary.NAMESPACES`), a parameter of the ruleset or
one of its house options, nothing else: `rules check` refuses any other at the message's line, and the
replay resolves a placeholder from the vocabulary only. A message is the ruleset author's text, read by
auditors; it must never reach a Python object's attributes (`{hand.__class__.__init__.__globals__}`).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from validator.dsl.vocabulary import NAMESPACES, SHOWN_AS
from validator.dsl.wording import value as worded
from validator.i18n import _

# What is read as a placeholder: braces around a dotted name. `{` followed by anything else is text.
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)\}")


def placeholder_problems(
    template: str,
    namespaces: Collection[str],
    params: Collection[str],
    options: Collection[str],
) -> list[str]:
    """What is wrong with each placeholder of `template`, given the namespaces the rule's events offer,
    the ruleset's parameters and its house options (and fixed keys)."""
    problems: list[str] = []
    for match in PLACEHOLDER.finditer(template):
        path = match.group(1)
        namespace, _unused, field = path.partition(".")
        if namespace == "param":
            if field not in params:
                problems.append(_("message: {{{path}}} is not a parameter of this ruleset").format(path=path))
        elif namespace == "house":
            if field not in options:
                problems.append(
                    _("message: {{{path}}} is not a house option of this ruleset").format(path=path)
                )
        elif namespace not in NAMESPACES:
            problems.append(
                _("message: {{{path}}}: no namespace '{namespace}' in the vocabulary").format(
                    path=path, namespace=namespace
                )
            )
        elif field not in NAMESPACES[namespace]:
            problems.append(
                _("message: {{{path}}}: '{namespace}' has no fact '{field}'").format(
                    path=path, namespace=namespace, field=field
                )
            )
        elif namespace not in namespaces:
            offered = ", ".join(sorted(namespaces))
            problems.append(
                _(
                    "message: {{{path}}}: the rule's events offer no '{namespace}' (they offer {offered})"
                ).format(path=path, namespace=namespace, offered=offered)
            )
    return problems


_GETTERS: dict[str, Callable[[Any], Any]] = {}


def resolve(path: str, ctx: Mapping[str, Any], params: Mapping[str, Any]) -> Any:
    """The value a placeholder names, looked up through the vocabulary only; KeyError when it names
    nothing the vocabulary has, or nothing at this point of the replay (the placeholder stays as written)."""
    namespace, _unused, field = path.partition(".")
    if namespace == "param":
        return params[field]
    if namespace == "house":
        return ctx["house"].get(field)  # an option the casino left out: its default, or none
    if field not in NAMESPACES.get(namespace, ()):
        raise KeyError(path)
    getter = _GETTERS.get(field)
    if getter is None:
        getter = _GETTERS[field] = operator.attrgetter(field)
    try:
        return getter(ctx[namespace])
    except AttributeError:
        raise KeyError(path) from None


def receiver_words(value: Any) -> str:
    """A receiver of cards as a reader says it: `D` or `dealer` → the dealer, `3` → box 3, `3/2` → box 3,
    hand 2; anything else as it is."""
    text = str(value)
    if text in ("D", "dealer"):
        return _("the dealer")
    box, _unused, hand = text.partition("/")
    if box.isdigit() and (not hand or hand.isdigit()):
        return (
            _("box {box}, hand {hand}").format(box=box, hand=hand) if hand else _("box {box}").format(box=box)
        )
    return text


def side_bet_words(name: Any, titles: Mapping[str, str]) -> str:
    """A side bet by its title in this ruleset (lucky_ladies → « dames de cœur » where that is its
    title), else by its name in words; lower-cased where the title starts a plain word."""
    text = titles.get(str(name)) or str(name).replace("_", " ")
    return text[0].lower() + text[1:] if len(text) > 1 and text[1].islower() else text


def shown(path: str, value: Any, titles: Mapping[str, str]) -> str | None:
    """The words a message shows for `value` of the fact `path`, or None: shown as its value."""
    kind = SHOWN_AS.get(path)
    if kind == "receiver" and value is not None:
        return receiver_words(value)
    if kind == "side_bet" and value is not None:
        return side_bet_words(value, titles)
    if kind == "cards" and value is not None:
        return cards_words(value)
    return None


def cards_words(value: Any) -> str:
    """A card or cards as a reader sees them: `AH` → A♥, `["TS", "8C"]` → 10♠ 8♣."""
    return str(worded(value if isinstance(value, str) else list(value)))
