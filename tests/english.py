"""English words in a French run's output: the words the program writes in English (its catalog's English
texts, the rules' English messages and docs) that no French text of it uses (the catalog's French, the
rules' French, the law's own words in /shared seeds quoted by the rulesets).

What is not prose is left out before the words are read: ids and paths (a token with `/`, `_`, `.`, `@`,
`:`, `-` or a digit), text in quotes (log values, JSON, `code`, « the law's words »), `name = value`
pairs (an option or a reading and its alternative, as typed on a command line), and in JSON documents
the keys and the values of one word (ids: `"kind": "procedure"`)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from typing import Any

from conftest import ROOT

WORD = re.compile(r"[^\W\d_]{3,}")
# Tokens that are not prose: an id, a path, a number, an option, a card.
_NOT_PROSE = re.compile(
    r"\S+ = \S+|'[^']*'|\"[^\"]*\"|`[^`]*`|«[^»]*»|“[^”]*”|\{[^}]*\}|\S*[/_.@:\-\d=]\S*|--[\w-]+|<[^>]*>"
)
# The rules language, shown as written (`on hit require …`, `settle main => pay …`, a paytable line's
# `when …`), after « règle : » in an account: code, not prose.
_CODE = re.compile(
    r"(?:règle ?: |rule: ).*$|^\s*(?:on|settle) \w+ .*$|\s(?:when|=>) .*$"
    r"|^\s*\w+ = .*$|^\s*(?:add|replace|repeal) (?:parameter|option|fixed|side_bet|rule|define|reading)\b.*$"
)
# A step of a round's account quotes the log's action as the log writes it (`12. pay 5:lucky_ladies 190`),
# and its settlement as the log's verbs (`les règles donnent pay 40`): the log's ids.
_LOG_VERBS = (
    "deal|deal_down|reveal|hit|stand|double|split|surrender|insurance|even_money|war|burn|discard|"
    "mistake|cut_card|peek|approve|pay|lose|push|bets"
)
_LOGGED = re.compile(rf"^(\s*\d+\.\s+)(?:{_LOG_VERBS})\b|\b(donnent|montre) (?:pay|lose|push)\b")


NEVER_FRENCH = frozenset(
    (
        "procedure",
        "payout",
        "error",
        "errors",
        "warning",
        "warnings",
        "insurance",
        "egalite",
        "dealer",
        "player",
    )
)


def _words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(text)}


@functools.cache
def english_only() -> frozenset[str]:
    """The words of the program's English that none of its French uses."""
    from babel.messages.pofile import read_po

    from validator.rulebook.registry import default_registry

    english: set[str] = set()
    french: set[str] = set()
    with (ROOT / "validator" / "locale" / "fr" / "LC_MESSAGES" / "casino-validator.po").open("rb") as handle:
        for message in read_po(handle):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            english |= {w for text in ids for w in _words(_NOT_PROSE.sub(" ", text))}
            french |= {w for text in strings if text for w in _words(_NOT_PROSE.sub(" ", text))}
    ids: set[str] = set()
    for ruleset in default_registry().all():
        for rule in ruleset.rules:
            for key in ("message", "checks", "why", "fails", "passes"):
                english |= _words(_NOT_PROSE.sub(" ", rule.text(key, "en")))
                french |= _words(_NOT_PROSE.sub(" ", rule.text(key, "fr")))
            french |= _words(rule.ref)  # the law's citations
        for bet in ruleset.side_bets.values():
            french |= _words(bet.title) | _words(bet.ref)
            french |= {w for line in bet.paytables.values() for p in line for w in _words(p.label)}
        # Names a French text may show as they are written (an option, a reading, an alternative, a
        # side bet): the ids a user types.
        for option in ruleset.options.values():
            ids |= _words(option.name) | {w for a in option.aliases for w in _words(a)} | _words(option.ref)
        for reading in ruleset.readings.values():
            ids |= _words(reading.name) | {w for a in reading.alternatives for w in _words(a.name)}
            # A French run shows an alternative's French meaning (its first words) beside its name.
            french |= {
                w for a in reading.alternatives for w in _words(_NOT_PROSE.sub(" ", a.meaning_in("fr")))
            }
        ids |= {w for name in ruleset.side_bets for w in _words(name)}
    for seed in (ROOT.parent / "shared" / "seeds").glob("*.txt"):
        french |= _words(seed.read_text(encoding="utf-8"))
    # The English words the issue found in French reports, which the catalog's French also quotes as ids
    # (`procedure ou payout`, a help's `error ou warning`): never prose in a French run.
    return frozenset(((english - french) - (ids - NEVER_FRENCH)) | NEVER_FRENCH)


def prose_of(text: str) -> Iterator[str]:
    """The lines of a text output, what is not prose taken out."""
    for line in text.splitlines():
        line = _LOGGED.sub(lambda m: m.group(1) or m.group(2) or "", line)
        yield _NOT_PROSE.sub(" ", _CODE.sub(" ", line))


def prose_of_json(document: Any) -> Iterator[str]:
    """The string values of a JSON document that are prose (more than one word), what is not prose in
    them taken out; keys and one-word values (ids) left out."""
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and " " in node.strip():
            yield from prose_of(node)


def english_in(lines: Iterator[str]) -> list[tuple[str, list[str]]]:
    """Each line with English words, and those words."""
    found = []
    vocabulary = english_only()
    for line in lines:
        words = sorted(w for w in _words(line) if w in vocabulary)
        if words:
            found.append((line.strip()[:200], words))
    return found


def json_documents(text: str) -> Iterator[Any]:
    """A JSON document, or JSON Lines."""
    try:
        yield json.loads(text)
    except json.JSONDecodeError:
        for line in text.splitlines():
            if line.strip():
                yield json.loads(line)
