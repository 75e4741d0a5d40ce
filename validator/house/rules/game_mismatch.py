"""house/game-mismatch: an entry's `game` is its ruleset's game."""

from __future__ import annotations

from collections.abc import Iterator

from validator.findings.finding import Finding
from validator.findings.ruledoc import house_rule
from validator.house.rules.base import SPEC_REF, Node, finding
from validator.i18n import N_, _

ID = "house/game-mismatch"
DOC = house_rule(
    ID,
    checks=N_("An entry's `game` is its ruleset's game."),
    why=N_("An entry describing a bataille table under a blackjack ruleset is a mistake of the file."),
    fails=N_("`game: bataille` with a blackjack ruleset."),
    passes=N_("`game: blackjack` with a blackjack ruleset, or no `game`."),
)
NODES = ("game",)


def check(node: Node) -> Iterator[Finding]:
    game, table = node.raw, node.table
    assert table is not None
    ruleset = table.ruleset
    if isinstance(game, str) and game and game != ruleset.game:
        yield finding(
            node.house,
            node.path,
            ID,
            SPEC_REF,
            _("the table plays {game}, but {version} is a {game2} ruleset").format(
                game=game, version=ruleset.version, game2=ruleset.game
            ),
            expected={"game": ruleset.game},
            actual={"game": game},
        )
