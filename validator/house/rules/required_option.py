"""house/required-option: options the version requires the house to declare are declared."""

from __future__ import annotations

from collections.abc import Iterator

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import OPTIONS, SIDE_BETS, Node, finding
from validator.i18n import N_, _

ID = "house/required-option"
DOC = house_rule(
    ID,
    checks=N_("Options the version requires the house to declare are declared."),
    why=N_(
        "Some texts leave a choice with no default (the usage description's blackjack payout): the "
        "house must state it."
    ),
    fails=N_("An entry under the usage description without its blackjack payout."),
    passes=N_("The same entry declaring it."),
)
NODES = ("entry",)


def check(node: Node) -> Iterator[Finding]:
    table = node.table
    assert table is not None
    ruleset = table.ruleset
    options = table.entry.get(OPTIONS) or {}
    bets = table.entry.get(SIDE_BETS) or {}
    for name, option in ruleset.options.items():
        if not option.required:
            continue
        if name in table.side_bet_options:
            bet, _unused, setting = name.partition(".")
            given = isinstance(bets.get(bet), dict) and setting in bets[bet]
            path = (*table.base, SIDE_BETS, bet, setting)
        else:
            given = name in options
            path = (*table.base, OPTIONS, name)
        if not given:
            yield finding(
                node.house,
                path,
                ID,
                option.ref,
                _(
                    "{name} must be declared: {version} leaves it to the house rules and has no default"
                ).format(name=name, version=ruleset.version),
            )
