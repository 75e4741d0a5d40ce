"""house/unknown-key: every key of a house file is one house-rules/1 or the version of the ruleset declares.

It looks at the keys the schema does not know (at the top of the file and below, but for a table entry's,
which only the version can judge), a table entry's keys, its options and its side bets' settings; each
message names the closest known key, or where the key belongs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.load import dotted
from validator.house.rules.base import OPTIONS, SIDE_BETS, SPEC_REF, Node, did_you_mean, finding, one_of
from validator.house.schema import load_schema
from validator.i18n import N_, _

ID = "house/unknown-key"
DOC = house_rule(
    ID,
    checks=N_("Every key of a table entry is one the ruleset declares."),
    why=N_(
        "A misspelt option would silently leave the regulation's default in force; the message names "
        "the closest known key."
    ),
    fails=N_("`surender: true`."),
    passes=N_("`surrender: true`."),
)
NODES = ("schema-error", "key", "option", "setting", "rule-option")


def check(node: Node) -> Iterator[Finding]:
    if node.kind == "schema-error":
        yield from _schema_keys(node)
    elif node.kind == "key":
        yield from _entry_key(node)
    elif node.option is None and node.fixed is None:
        if node.kind == "setting":
            yield _setting(node)
        elif node.kind == "option":
            yield _option(node)
        else:
            yield _unknown_option(node)


def _schema_keys(node: Node) -> Iterator[Finding]:
    error = node.error
    if error is None or error.validator != "additionalProperties":
        return
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    instance = error.instance if isinstance(error.instance, Mapping) else {}
    known = list(schema.get("properties", {}))
    for key in sorted(set(instance) - set(known)):
        hint = did_you_mean(key, known, _("; the keys here are {known}").format(known=one_of(known)))
        yield finding(
            node.house,
            (*node.path, key),
            ID,
            SPEC_REF,
            _("no such key in house-rules/1{hint}").format(hint=hint),
        )


def _entry_key(node: Node) -> Iterator[Finding]:
    """A key of a table entry the schema does not know: perhaps an option written one level too high."""
    table, key = node.table, node.key
    assert table is not None
    known = table_keys()
    if key in known:
        return
    if key in table.table_options:
        hint = _("; a house option goes under options: {key}").format(key=dotted((*table.base, OPTIONS, key)))
    elif key in table.ruleset.side_bets:
        hint = _("; a side bet goes under side_bets: {key}").format(key=dotted((*table.base, SIDE_BETS, key)))
    else:
        hint = did_you_mean(key, known, _("; the keys of a table are {known}").format(known=one_of(known)))
    yield finding(
        node.house, node.path, ID, SPEC_REF, _("no such key in a table entry{hint}").format(hint=hint)
    )


def _option(node: Node) -> Finding:
    """A key under `options` the version declares neither as an option nor as fixed."""
    table, key = node.table, node.key
    assert table is not None
    ruleset = table.ruleset
    if key in table.side_bet_options:
        bet, _dot, setting = key.partition(".")
        return finding(
            node.house,
            node.path,
            ID,
            ruleset.title,
            _("{key} is a setting of the side bet {bet}: write it as {setting}").format(
                key=key, bet=bet, setting=dotted((*table.base, SIDE_BETS, bet, setting))
            ),
        )
    if key in ruleset.side_bets:
        return finding(
            node.house,
            node.path,
            ID,
            ruleset.title,
            _("{key} is a side bet: list it under {key2}").format(
                key=key, key2=dotted((*table.base, SIDE_BETS, key))
            ),
        )
    return _unknown_option(node)


def _unknown_option(node: Node) -> Finding:
    assert node.table is not None
    ruleset = node.table.ruleset
    hint = did_you_mean(
        node.key,
        node.candidates,
        _("; its options are {candidates}").format(candidates=one_of(sorted(node.candidates)))
        if node.candidates
        else _("; it leaves no option to the house"),
    )
    return finding(
        node.house,
        node.path,
        ID,
        ruleset.title,
        _("{version} declares no house option {key}{hint}").format(
            version=ruleset.version, key=node.key, hint=hint
        ),
    )


def _setting(node: Node) -> Finding:
    """A key under `side_bets.<bet>` the version declares no setting of the bet for."""
    assert node.table is not None
    ruleset, key, declared = node.table.ruleset, node.key, node.candidates
    hint = did_you_mean(
        key,
        declared,
        _("; its settings are {declared}").format(declared=one_of(sorted(declared)))
        if declared
        else _("; the regulation leaves nothing of it to the house"),
    )
    return finding(
        node.house,
        node.path,
        ID,
        ruleset.title,
        _("{version} declares no setting {key} for the side bet {bet}{hint}").format(
            version=ruleset.version, key=key, bet=node.bet, hint=hint
        ),
    )


@cache
def table_keys() -> list[str]:
    """The keys the schema gives a table entry."""
    return list(load_schema()["$defs"]["table"]["properties"])
