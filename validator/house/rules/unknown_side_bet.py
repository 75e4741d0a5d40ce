"""house/unknown-side-bet: each side bet listed exists in the version of the ruleset."""

from __future__ import annotations

from collections.abc import Iterator

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import Node, did_you_mean, finding, one_of
from validator.i18n import N_, _

ID = "house/unknown-side-bet"
DOC = house_rule(
    ID,
    checks=N_("Each side bet listed exists in the version of the ruleset."),
    why=N_("A casino can only offer the side bets the text in force describes."),
    fails=N_("`hyper_blackjack` at a French blackjack table in 2016, before the wording that added it."),
    passes=N_("`lucky_ladies` at a French blackjack table in 2016."),
)
NODES = ("side-bet",)


def check(node: Node) -> Iterator[Finding]:
    assert node.table is not None
    ruleset, bet = node.table.ruleset, node.key
    if bet in ruleset.side_bets:
        return
    offered = one_of(ruleset.side_bets) if ruleset.side_bets else "none"
    hint = did_you_mean(bet, ruleset.side_bets)
    yield finding(
        node.house,
        node.path,
        ID,
        ruleset.title,
        _("{version} has no side bet {bet} (its side bets: {offered}){hint}").format(
            version=ruleset.version, bet=bet, offered=offered, hint=hint
        ),
    )
