"""The boundary the project keeps: the law is in the rulesets, not in Python."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable, Iterable
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import validator

PACKAGE = Path(validator.__file__).resolve().parent
FAMILY_WORDS = ("fr/", "on/", "blackjack@", "bataille@", "usage-blackjack", "fair-blackjack")


# Each test below reads every module of the package: a file's text is parsed once per test process, and
# its code strings listed once (the trees are only read, never changed).
@functools.cache
def _parsed(text: str) -> ast.Module:
    return ast.parse(text)


def _tree(path: Path) -> ast.Module:
    return _parsed(path.read_text(encoding="utf-8"))


def _code_strings(path: Path) -> tuple[ast.Constant, ...]:
    """String constants that are code, not docstrings or help texts of the CLI."""
    return _code_strings_of(path.read_text(encoding="utf-8"))


@functools.cache
def _code_strings_of(text: str) -> tuple[ast.Constant, ...]:
    tree = _parsed(text)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return tuple(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    )


def _any_of(names: Iterable[str]) -> Callable[[str], bool]:
    """Whether a text contains one of `names`: one regular expression of them all, which matches where
    `any(name in text for name in names)` is true, without a scan of the text per name."""
    listed = sorted(names, key=len, reverse=True)
    if not listed:  # an empty pattern would match every text
        return lambda _text: False
    pattern = re.compile("|".join(re.escape(name) for name in listed))
    return lambda text: pattern.search(text) is not None


def test_no_python_branches_on_ruleset_ids():
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in _code_strings(path):
            if any(word in node.value for word in FAMILY_WORDS) and "such as" not in node.value:
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}")
    assert offenders == []


def _imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules `path` imports, at the top or inside a function (either makes a cycle)."""
    found: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in modules)
    return found


@functools.cache
def _package_graph() -> dict[str, frozenset[str]]:
    paths = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        paths[name] = path
    modules = set(paths)
    return {name: frozenset(_imports_of(path, modules) - {name}) for name, path in paths.items()}


def _module_graph() -> dict[str, set[str]]:
    """The package's import graph (read once per test process: the package does not change in a run)."""
    return {name: set(targets) for name, targets in _package_graph().items()}


def test_no_import_cycles():
    graph = _module_graph()
    cycles = []
    state: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []


def test_the_import_graph_is_read_from_the_package():
    # A test of the test: the graph has the modules and edges it must have, so an empty graph cannot pass.
    graph = _module_graph()
    assert "validator.replay.round_base" in graph
    assert "validator.casino.stakes" in graph["validator.replay.side_bets"]
    assert "validator.replay.side_bets" in graph["validator.replay.round_base"]


def _ruleset_names(of_bet: Callable[[Any], Iterable[str]]) -> set[str]:
    """Every option, what the text fixes, side bet (and what `of_bet` gives of each), rule id and rule
    name of the shipped rulesets, but words that are also the game's mechanics (an event, a kind of
    stake): those name the mechanics, not the law."""
    from validator.dsl.vocabulary import EVENTS, SETTLE_STAKES
    from validator.rulebook.registry import default_registry

    names: set[str] = set()
    for ruleset in default_registry().all():
        names.update(ruleset.options)
        names.update(ruleset.fixed)
        for bet in ruleset.side_bets.values():
            names.add(bet.name)
            names.update(of_bet(bet))
        for rule in ruleset.rules:
            names.update((rule.id, rule.name))
    return names - set(EVENTS) - set(SETTLE_STAKES)


def _law_names() -> set[str]:
    """Every option, side bet, paytable, paytable line and rule of the shipped rulesets."""

    def paytables(bet: Any) -> list[str]:
        return [*bet.paytables, *(line.label for lines in bet.paytables.values() for line in lines)]

    # A number ("20", a hyper black jack line) names nothing.
    return {n for n in _ruleset_names(paytables) if not n.isdigit()}


def test_maths_names_no_option_side_bet_or_rule():
    """The mathematics (validator/maths) reads options, side bets and rules from the rulesets: none of
    their names is written in its code, whole or inside a longer string."""
    names = _law_names()
    contains_compound = _any_of({n for n in names if any(mark in n for mark in "._-/ ")})
    offenders = []
    for path in (PACKAGE / "maths").rglob("*.py"):
        for node in _code_strings(path):
            value = node.value
            if value in names or contains_compound(value):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {value!r}")
    assert offenders == []


def test_maths_names_are_found_when_written(tmp_path):
    """The check above catches a name when one is written (so it cannot pass vacuously)."""
    names = _law_names()
    assert {"double_after_split", "lucky_ladies", "fr/blackjack/settlement-order"} <= names
    sample = tmp_path / "sample.py"
    sample.write_text('OPTION = "lucky_ladies.paytable"\n', encoding="utf-8")
    contains_compound = _any_of({n for n in names if any(mark in n for mark in "._-/ ")})
    found = [n.value for n in _code_strings(sample) if contains_compound(n.value)]
    assert found == ["lucky_ladies.paytable"]


# Names of the law that are also names of hand-log/1 itself, which the reader and the replay must
# spell: `decks`, a field of the shoe record (and the key a house file may restate for the text's six
# decks). Nothing else.
HAND_LOG_NAMES = frozenset({"decks"})


def _forbidden_names() -> set[str]:
    """Side bets (and the names hand-log/1 gives their stakes), house options, what the text fixes, rule
    ids and rule names, of every shipped ruleset: what Python must not name."""
    return _ruleset_names(lambda bet: (bet.stake_name,)) - HAND_LOG_NAMES


def _identifier_offenders(paths, names: set[str]) -> list[str]:
    """String constants spelled like identifiers (no whitespace: prose, messages and docs may name a bet
    in words) that are, or contain, one of `names` (`"2:lucky_ladies"`, `f"{name}.stake"` aside)."""
    contains_compound = _any_of({n for n in names if any(mark in n for mark in "._-/")})
    offenders = []
    for path in paths:
        tree = _tree(path)
        raw = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, bytes)
        ]
        for node in [*_code_strings(path), *raw]:
            value = node.value.decode("latin-1") if isinstance(node.value, bytes) else node.value
            if any(c.isspace() for c in value):
                continue
            parts = set(re.split(r"\W+", value))
            if parts & names or contains_compound(value):
                where = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path.name
                offenders.append(f"{where}:{node.lineno}: {value!r}")
    return offenders


def test_python_names_no_side_bet_option_or_rule():
    """validator/ holds game mechanics: which side bets exist, what the house may choose and which rule
    says what come from the rulesets, never from a name written in Python."""
    paths = sorted(PACKAGE.rglob("*.py"))
    assert _identifier_offenders(paths, _forbidden_names()) == []


def test_python_names_are_found_when_written(tmp_path):
    """The check above catches each kind of name (so it cannot pass vacuously): a side bet, its stake
    name in hand-log/1, an option, a rule id; and lets prose and the shoe's `decks` through."""
    names = _forbidden_names()
    sample = tmp_path / "sample.py"
    sample.write_text(
        'A = "jp1"\nB = f"{box}:hyper"\nC = "lucky_ladies.no_split_after_win"\n'
        'D = "fr/blackjack/settlement-order"\nE = "max_split_hands"\nH = rb"x|jp1"\n'
        'F = "a lucky_ladies bet, in words"\nG = "decks"\n',
        encoding="utf-8",
    )
    found = sorted(line.split(": ", 1)[1] for line in _identifier_offenders([sample], names))
    assert found == sorted(
        [
            "'fr/blackjack/settlement-order'",
            "'jp1'",
            "'lucky_ladies.no_split_after_win'",
            "'max_split_hands'",
            "':hyper'",
            "'x|jp1'",
        ]
    )


# The layers, lowest first: a module may import its own layer and those below, never one above. Every
# module of the package is in one (a test holds it): an entry names a module or a package (all its modules),
# `*` stands for any one name (each game's package), and the most specific entry a module matches is its
# layer. The pipeline reads upwards: the nouns every game shares (`casino`) and what a finding is; the rules
# language (`dsl`) knows the nouns, not the replay; the rulesets loaded and the logs read; the generic replay
# and each game's replay engine; what runs on the mechanics (the house linter runs a version's table rules on
# the replay's table state; the simulator, the mathematics); the audit; the report formats (HTML ends in the
# audit); running checks; the commands and the CLI on top.
ROOT = "validator.__init__"  # the package itself: `validator` would name every module
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        ROOT,
        "validator.casino",
        "validator.compiled",
        "validator.errors",
        "validator.i18n",
        "validator.extras",
        "validator.outputs",
        "validator.stops",
        "validator.schemas",
        "validator.findings",
        "validator.games",
        "validator.games.*",
    ),
    ("validator.dsl",),
    ("validator.rulebook", "validator.rulebook.registry", "validator.logs"),
    ("validator.replay", "validator.games.*.replay"),
    (
        "validator.house",
        "validator.simulate",
        "validator.maths",
        "validator.games.*.simulator",
        "validator.games.*.maths",
        "validator.games.*.edge",
        "validator.games.blackjack.dealer",
        "validator.games.blackjack.strategy",
        "validator.games.blackjack.spread",
        "validator.games.blackjack.chart",
        "validator.games.blackjack.late_insurance",
        "validator.rulebook.builtin_docs",
        "validator.rulebook.view",
        "validator.findings.policy",
    ),
    ("validator.audit",),
    ("validator.formats",),
    ("validator.checking", "validator.live", "validator.rulebook.fixtures"),
    ("validator.commands", "validator.guard", "validator.cli_help", "validator.cli", "validator.__main__"),
)


def _covers(entry: str, module: str) -> bool:
    if entry == ROOT:
        return module == "validator"
    return fnmatchcase(module, entry) or fnmatchcase(module, entry + ".*")


def _layer_of(module: str) -> int | None:
    """The layer of the most specific entry that covers `module` (None: no entry does)."""
    found = [
        (entry.count(".") - entry.count("*") / 2, index)
        for index, entries in enumerate(LAYERS)
        for entry in entries
        if _covers(entry, module)
    ]
    return max(found)[1] if found else None


def _upward_imports(graph: dict[str, set[str]]) -> list[str]:
    upward = []
    for module, targets in graph.items():
        own = _layer_of(module)
        for target in targets:
            theirs = _layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                upward.append(f"{module} -> {target}")
    return sorted(upward)


def test_the_layers_import_only_downwards():
    assert _upward_imports(_module_graph()) == []


def test_every_module_has_a_layer():
    graph = _module_graph()
    assert len(graph) > 150
    assert [module for module in sorted(graph) if _layer_of(module) is None] == []


def test_a_module_without_a_layer_is_found():
    """The check above finds a module no entry covers, and the most specific entry wins."""
    assert _layer_of("validator.newcomer") is None
    assert _layer_of("validator") == 0 and _layer_of("validator.findings.policy") == 4
    assert _layer_of("validator.games.blackjack.replay") == 3 and _layer_of("validator.games.acme") == 0


def test_the_game_nouns_are_a_leaf():
    """The nouns import each other and nothing else of the package but the language their messages
    speak (validator.i18n, itself a leaf of the standard library)."""
    graph = _module_graph()
    game = {module: targets for module, targets in graph.items() if module.startswith("validator.casino")}
    assert set(game) >= {"validator.casino.cards", "validator.casino.stakes", "validator.casino.money"}
    outside = {t for targets in game.values() for t in targets if not t.startswith("validator.casino")}
    assert outside <= {"validator.i18n"}
    assert {t for t in graph["validator.i18n"] if t.startswith("validator")} == set()


def test_an_upward_import_is_found():
    graph = {"validator.dsl.expr": {"validator.replay.state"}, "validator.replay.state": {"validator.casino"}}
    assert _upward_imports(graph) == ["validator.dsl.expr -> validator.replay.state"]


def test_no_test_imports_the_suite_as_a_package():
    """`from tests.conftest import …` works only where the repository root is on the path (an editable
    install); CI installs a wheel and collects the suite as folders: `from conftest import …`."""
    tests = Path(__file__).resolve().parent
    offenders = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(_tree(path)):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            if any(name == "tests" or name.startswith("tests.") for name in names):
                offenders.append(f"{path.relative_to(tests)}:{node.lineno}")
    assert offenders == []


def _game_name_offenders(paths: Iterable[Path], games: Iterable[str]) -> list[str]:
    """String constants (not docstrings) that are a game's name, in `paths`."""
    names = set(games)
    offenders = []
    for path in paths:
        for node in _code_strings(path):
            if node.value in names:
                where = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path.name
                offenders.append(f"{where}:{node.lineno}: {node.value!r}")
    return offenders


def test_no_game_name_outside_the_game_packages():
    """What a game is lives in its package (validator/games/<game>/), which declares itself once; the
    generic layers dispatch through the registration (validator/games/__init__.py), so no code outside
    validator/games/ tests a game's name, and a game not registered is never another game by default."""
    from validator.games import GAMES

    games = PACKAGE / "games"
    paths = [path for path in sorted(PACKAGE.rglob("*.py")) if not path.is_relative_to(games)]
    assert _game_name_offenders(paths, GAMES) == []


def test_a_game_name_is_found_when_written(tmp_path):
    """The check above catches a test of a game's name (so it cannot pass vacuously), not prose."""
    from validator.games import GAMES

    assert list(GAMES) == ["blackjack", "bataille"]
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""A blackjack docstring."""\nif game == "bataille":\n    pass\nKNOWN = {"blackjack": 1}\n'
        'TEXT = "a bataille round"\n',
        encoding="utf-8",
    )
    assert _game_name_offenders([sample], GAMES) == ["sample.py:2: 'bataille'", "sample.py:4: 'blackjack'"]


def test_the_log_format_lists_the_registered_games():
    """hand-log/1's table record names a game the registration has, and only those (the schema that
    words a refused record, and `schema hand-log`, list the same games)."""
    import json

    from validator.games import GAMES

    schema = json.loads((PACKAGE / "schemas" / "hand-log.schema.json").read_text(encoding="utf-8"))
    found = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "game" in node and isinstance(node["game"], dict) and "enum" in node["game"]:
                found.append(node["game"]["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert found == [list(GAMES)]
