"""The architecture guide's "Where a new thing goes" (docs/architecture.md) is the real list: the files it
names for a new game are those the test game needed, the modules it names for a new log event those that
dispatch on actions, its format and jurisdiction lists those the code reads."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import validator

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(validator.__file__).resolve().parent
GUIDE = ROOT / "docs" / "architecture.md"
HIGHCARD = ROOT / "tests" / "games" / "highcard"


def _item(title: str) -> str:
    """The text of the guide's bullet `- **{title}**…`, up to the next bullet of the list."""
    text = GUIDE.read_text(encoding="utf-8").split("## Where a new thing goes", 1)[1]
    found = re.search(rf"^- \*\*{re.escape(title)}\*\*(.*?)(?=^- \*\*|\Z)", text, re.M | re.S)
    assert found is not None, title
    return " ".join(found.group(1).split())


def _named(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def test_a_new_game_is_the_files_the_guide_names_and_the_test_game_has():
    files = _item("A new game").split("and nothing else:", 1)[1].split("(above;", 1)[0]
    named = {name for name in _named(files) if name.endswith(".py")}
    assert named == {"__init__.py", "vocabulary.py", "hands.py", "replay.py", "simulator.py", "inject.py"}
    # The test game needed exactly these (and its ruleset, its house file and a séance: no Python).
    assert {path.name for path in HIGHCARD.glob("*.py")} == named
    # And they are the parts a declaration names: each `"module:name"` of validator.games.game.Game.
    from validator.games import GAMES

    for game in GAMES.values():
        parts = {game.vocabulary, game.hands, game.engine, game.simulator, game.inject}
        assert {f"{part.partition(':')[0]}.py" for part in parts} | {"__init__.py"} == named
        folder = PACKAGE / "games" / game.name
        assert named <= {path.name for path in folder.glob("*.py")}


def _action_tags() -> tuple[set[str], set[str]]:
    """The action structs of hand-log/1 (validator/logs/decode.py) and their verbs."""
    from validator.logs import decode

    classes = {
        name
        for name, value in vars(decode).items()
        if isinstance(value, type) and issubclass(value, decode._Action) and value is not decode._Action
    }
    return classes, {getattr(decode, name).__struct_config__.tag for name in classes}


def _dispatches(path: Path, classes: set[str], verbs: set[str]) -> bool:
    """Does the module tell actions apart: by their struct (imported from the decoder) or by their verb
    (`action[0] == "hit"`, `verb in ("split", "double")`)?"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "validator.logs.decode"
            and any(alias.name in classes for alias in node.names)
        ):
            return True
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            said = {
                item.value
                for side in sides
                for item in (side.elts if isinstance(side, ast.Tuple | ast.Set | ast.List) else [side])
                if isinstance(item, ast.Constant) and isinstance(item.value, str)
            }
            read = any(
                (
                    isinstance(side, ast.Subscript)
                    and isinstance(side.slice, ast.Constant)
                    and side.slice.value == 0
                )
                or (isinstance(side, ast.Name) and side.id == "verb")
                for side in sides
            )
            if read and said & verbs:
                return True
    return False


def test_a_new_log_event_names_the_modules_that_dispatch_on_actions():
    classes, verbs = _action_tags()
    assert {"deal", "hit", "war", "pay"} <= verbs
    named = _named(_item("A new log event"))
    # The last sentence is where rules listen to it (the rules language's vocabulary), not a dispatch.
    listened = set(_named(_item("A new log event").split("Where rules listen to it", 1)[1]))
    shared = {name for name in named if name.startswith("validator/") and name.endswith(".py")} - listened
    per_game = {name.removeprefix("games/<game>/") for name in named if name.startswith("games/<game>/")}
    dispatching = {
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*.py")
        if _dispatches(path, classes, verbs)
    }
    games = {name for name in dispatching if name.startswith("validator/games/")}
    # The decoder defines the structs; every other module that tells actions apart is named.
    assert (dispatching - games) | {"validator/logs/decode.py"} == shared | {"validator/logs/decode.py"}
    assert "validator/logs/decode.py" in shared
    assert {Path(name).name for name in games} <= per_game
    test_game = {path.name for path in HIGHCARD.glob("*.py") if _dispatches(path, classes, verbs)}
    assert test_game <= per_game and test_game  # the test game dispatches where a game does


def test_the_dispatch_finder_finds_both_ways_of_telling_actions_apart(tmp_path):
    classes, verbs = _action_tags()
    by_struct = tmp_path / "a.py"
    by_struct.write_text("from validator.logs.decode import Hit\n", encoding="utf-8")
    by_verb = tmp_path / "b.py"
    by_verb.write_text("def f(action):\n    return action[0] in ('hit', 'stand')\n", encoding="utf-8")
    neither = tmp_path / "c.py"
    neither.write_text("def f(record):\n    return record['type'] == 'round'\n", encoding="utf-8")
    assert [_dispatches(p, classes, verbs) for p in (by_struct, by_verb, neither)] == [True, True, False]


def test_a_new_format_is_where_the_guide_says():
    from validator.formats import FORMATS, names

    named = set(_named(_item("A new output format")))
    assert {"formats/", "FORMATS", "formats/__init__.py", "cli.py"} <= named
    for entry in FORMATS.values():
        assert (ROOT / (entry.module.replace(".", "/") + ".py")).is_file(), entry.module
    assert names() == tuple(FORMATS)  # the --format choices of check are the registry's


def test_a_new_jurisdiction_is_where_the_guide_says():
    from test_architecture import FAMILY_WORDS

    from validator.simulate.plan import ZONES

    assert {"ZONES", "validator/simulate/plan.py", "FAMILY_WORDS", "docs/sources.md"} <= set(
        _named(_item("A new jurisdiction"))
    )
    jurisdictions = {path.name for path in (ROOT / "rulesets").iterdir() if path.is_dir()}
    assert jurisdictions == {"fr", "on"}
    for jurisdiction in jurisdictions:
        assert jurisdiction in ZONES
        assert f"{jurisdiction}/" in FAMILY_WORDS
        assert (ROOT / "tests" / "fixtures" / "rules" / jurisdiction).is_dir()
