"""The boundary the project keeps: the law is in the rulesets, not in Python."""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import validator
from validator.extras import EXTRAS

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


# The packages, lowest first: a package imports only those before it in this order, never one after it
# nor one beside it (`docs/architecture.md`'s table reads the same order). A package is a folder of
# `validator/` (all its modules) or a module at its top; `validator` itself is its `__init__`. The games are
# plugins, in two parts: `validator.games` is the registration and each game's declaration (the games'
# `__init__` modules, which import nothing of their game's parts: `validator.games.game.Game` names them),
# which the rules language already reads; `validator.games.*` is each game's parts (its replay engine, its
# simulator, its mathematics), built on the generic replay, simulator and mathematics, each game a package
# of its own (one game imports nothing of another). The pipeline reads upwards: the language messages
# speak, errors, which build runs, exact money and the nouns every game shares, what a finding is; the
# rules language knows the nouns and the games' declarations, not the replay; the logs read; the rulesets
# loaded; the generic replay; what runs on it (the house linter; the mathematics, which asks the rules;
# the simulator, which plays the mathematics' strategy); each game's parts; every rule together (the
# catalogue: docs, views, the policy); the audit; the report formats (HTML ends in the audit); running
# checks; watching logs; the commands, and the CLI on top.
ROOT = "validator"  # the package itself: its `__init__` only, not every module under it
GAME_PARTS = "validator.games.*"
PACKAGES: tuple[str, ...] = (
    "validator.i18n",
    "validator.errors",
    "validator.compiled",
    ROOT,
    "validator.outputs",
    "validator.extras",
    "validator.stops",
    "validator.schemas",
    "validator.casino",
    "validator.numbers",
    "validator.findings",
    "validator.games",
    "validator.dsl",
    "validator.logs",
    "validator.rulebook",
    "validator.replay",
    "validator.house",
    "validator.maths",
    "validator.simulate",
    GAME_PARTS,
    "validator.catalogue",
    "validator.audit",
    "validator.formats",
    "validator.checking",
    "validator.live",
    "validator.lsp",
    "validator.commands",
    "validator.guard",
    "validator.cli_help",
    "validator.cli",
    "validator.__main__",
)


def _package_of(module: str) -> str:
    """The package `module` belongs to: a game's part to its game (`validator.games.blackjack`), any other
    module to the folder or top-level module of `validator/` it is in (declared or not)."""
    parts = module.split(".")
    if parts[:2] == ["validator", "games"] and len(parts) > 3:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _rank(package: str) -> int | None:
    """The package's place in PACKAGES (a game's parts: GAME_PARTS's); None: not declared."""
    parts = package.split(".")
    entry = GAME_PARTS if parts[:2] == ["validator", "games"] and len(parts) == 3 else package
    return PACKAGES.index(entry) if entry in PACKAGES else None


def _packages(graph: dict[str, set[str]]) -> dict[str, dict[str, list[str]]]:
    """Package → the packages it imports → the module imports that make each edge (`a -> b`)."""
    edges: dict[str, dict[str, list[str]]] = {}
    for module, targets in graph.items():
        own = edges.setdefault(_package_of(module), {})
        for target in sorted(targets):
            theirs = _package_of(target)
            if theirs != _package_of(module):
                own.setdefault(theirs, []).append(f"{module} -> {target}")
    return edges


def _upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a package not below the importer's (above it, or beside it: a game's parts another
    game's), with the module imports that make it."""
    found = []
    for package, targets in sorted(_packages(graph).items()):
        own = _rank(package)
        for target, imports in sorted(targets.items()):
            theirs = _rank(target)
            if own is not None and theirs is not None and theirs >= own:
                found.append(f"{package} -> {target} ({', '.join(imports)})")
    return found


def _package_cycles(graph: dict[str, set[str]]) -> list[str]:
    """The cycles of the packages' import graph, whatever the declared order (Tarjan's strongly connected
    components: each of more than one package is a cycle), each with the imports that close it."""
    edges = _packages(graph)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(package: str) -> None:
        index[package] = low[package] = len(index)
        stack.append(package)
        on_stack.add(package)
        for target in sorted(edges.get(package, {})):
            if target not in index:
                visit(target)
                low[package] = min(low[package], low[target])
            elif target in on_stack:
                low[package] = min(low[package], index[target])
        if low[package] == index[package]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == package:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for package in sorted(edges):
        if package not in index:
            visit(package)
    return [
        " <-> ".join(component)
        + ": "
        + "; ".join(i for a in component for b in component if b in edges[a] for i in edges[a][b])
        for component in sorted(components)
    ]


def test_no_package_cycle():
    assert _package_cycles(_module_graph()) == []


def test_the_packages_import_only_downwards():
    assert _upward_imports(_module_graph()) == []


def test_every_package_is_declared():
    graph = _module_graph()
    assert len(graph) > 150
    packages = {_package_of(module) for module in graph}
    assert sorted(p for p in packages if _rank(p) is None) == []
    # and every declared package exists (a stale entry would let a package of that name in unseen)
    declared = {_rank(p) for p in packages}
    assert [p for i, p in enumerate(PACKAGES) if i not in declared] == []


def test_an_undeclared_package_is_found():
    """The check above finds a folder or module no entry declares; a game's parts are its own package."""
    assert _rank(_package_of("validator.newcomer.thing")) is None
    assert _package_of("validator") == ROOT and _rank(ROOT) == PACKAGES.index(ROOT)
    assert _package_of("validator.games.blackjack") == "validator.games"  # its declaration
    assert _package_of("validator.games.blackjack.replay") == "validator.games.blackjack"
    assert _rank("validator.games.blackjack") == PACKAGES.index(GAME_PARTS)
    assert _package_of("validator.catalogue.policy") == "validator.catalogue"


def test_a_planted_upward_import_and_cycle_are_found():
    """Tests of the tests: one import planted in the real graph, from a low package to a higher one (what
    the per-module test once let through: findings' policy reading the house linter's rules), is found as
    an upward import and as the cycle it closes; one game's parts importing another's is found too."""
    planted = _module_graph()
    planted["validator.findings.finding"] = planted["validator.findings.finding"] | {
        "validator.house.rules.unused_suppression"
    }
    assert _upward_imports(planted) == [
        "validator.findings -> validator.house "
        "(validator.findings.finding -> validator.house.rules.unused_suppression)"
    ]
    # The cycle closes through every package between them (house -> replay -> logs -> findings, …).
    [cycle] = _package_cycles(planted)
    packages, imports = cycle.split(": ", 1)
    assert {"validator.findings", "validator.house"} <= set(packages.split(" <-> "))
    assert "validator.findings.finding -> validator.house.rules.unused_suppression" in imports.split("; ")
    games = {"validator.games.bataille.replay": {"validator.games.blackjack.replay"}}
    assert _upward_imports(games) == [
        "validator.games.bataille -> validator.games.blackjack "
        "(validator.games.bataille.replay -> validator.games.blackjack.replay)"
    ]


def test_the_packages_read_as_the_guide_says():
    """docs/architecture.md's table lists the folders of `validator/` in the declared order."""
    guide = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z_]+)/` \|", guide, flags=re.MULTILINE)
    names = [package.removeprefix("validator.") for package in PACKAGES]
    folders = [name for name in names if (PACKAGE / name).is_dir()]
    assert listed == folders


# What an import inside a function may load with no reason written beside it: the optional extras (an
# install without them still runs every other command: validator/extras.py, and fsspec, the `remote`
# extra), the required packages whose import costs a command that does not use them a start-up it would
# notice (python -X importtime, this 2-core machine: jsonschema about 125 ms, lark 50 ms, rich 45 ms,
# against 60 ms for `casino-validator --version` whole; babel about 110 ms and 70 ms more for its French
# data, loaded only where a number is written in French: validator/numbers.py), and the package's modules
# that load one of them
# as they are imported (`validator.audit.dataset.schema`: pyarrow). Any other import inside a function
# says why in a comment (on its line, or on the line above its run of imports): an import moved into a
# function to hide a cycle between packages, or for nothing, is refused.
DEFERRABLE = frozenset({*(module for modules in EXTRAS.values() for module in modules), "fsspec"}) | {
    "jsonschema",
    "lark",
    "rich",
    "babel",
}


def _top_level_imports(tree: ast.Module) -> list[str]:
    """The modules a module imports as it is imported (not inside a function, nor for type checking)."""
    found: list[str] = []
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
        elif isinstance(node, ast.If | ast.Try | ast.With):
            stack.extend(node.body)
            stack.extend(getattr(node, "orelse", []))
            stack.extend(getattr(node, "finalbody", []))
            for handler in getattr(node, "handlers", []):
                stack.extend(handler.body)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.extend([node.module, *(f"{node.module}.{alias.name}" for alias in node.names)])
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


@functools.cache
def _loads_deferrable() -> frozenset[str]:
    """The package's modules whose import loads a DEFERRABLE module (through their parents' `__init__`
    and the modules they import in turn)."""
    paths = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    imports = {name: _top_level_imports(_tree(path)) for name, path in paths.items()}
    for name in paths:  # importing a module imports its parent packages first
        imports[name] += [".".join(name.split(".")[:i]) for i in range(2, name.count(".") + 1)]
    heavy = {name for name, found in imports.items() if any(i.split(".")[0] in DEFERRABLE for i in found)}
    while True:
        more = {name for name, found in imports.items() if name not in heavy and heavy.intersection(found)}
        if not more:
            return frozenset(heavy)
        heavy |= more


def _deferrable(name: str) -> bool:
    return name.split(".")[0] in DEFERRABLE or name in _loads_deferrable()


def _comment_lines(text: str) -> tuple[set[int], set[int]]:
    """The lines that hold a comment, and those that hold only a comment."""
    any_comment, only_comment = set(), set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            any_comment.add(token.start[0])
            if not token.line[: token.start[1]].strip():
                only_comment.add(token.start[0])
    return any_comment, only_comment


def _unexplained_imports(path: Path) -> list[str]:
    """The imports inside a function of `path` that load neither a DEFERRABLE module nor carry a reason."""
    text = path.read_text(encoding="utf-8")
    any_comment, only_comment = _comment_lines(text)
    offenders = []
    functions = [n for n in ast.walk(_parsed(text)) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    blocks = {
        id(block): block
        for function in functions
        for node in ast.walk(function)
        for field in ("body", "orelse", "finalbody")
        if isinstance(block := getattr(node, field, None), list)
    }
    for block in blocks.values():
        runs: list[list[ast.Import | ast.ImportFrom]] = []
        for statement in block:
            if not isinstance(statement, ast.Import | ast.ImportFrom):
                runs.append([])
                continue
            if not runs or not runs[-1]:
                runs.append([])
            runs[-1].append(statement)
        for run in filter(None, runs):
            lines = range(run[0].lineno, (run[-1].end_lineno or run[-1].lineno) + 1)
            if run[0].lineno - 1 in only_comment or any(line in any_comment for line in lines):
                continue
            for statement in run:
                if isinstance(statement, ast.ImportFrom):  # a module, or names of a module (or modules)
                    names = [statement.module or ""]
                    deferrable = _deferrable(names[0]) or any(
                        _deferrable(f"{names[0]}.{alias.name}") for alias in statement.names
                    )
                else:
                    names = [alias.name for alias in statement.names]
                    deferrable = all(_deferrable(name) for name in names)
                if not deferrable:
                    where = path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path.name
                    offenders.append(f"{where}:{statement.lineno}: {', '.join(names)}")
    return offenders


def test_an_import_inside_a_function_defers_something_and_says_what():
    offenders = [o for path in sorted(PACKAGE.rglob("*.py")) for o in _unexplained_imports(path)]
    assert offenders == []


def test_an_unexplained_import_inside_a_function_is_found(tmp_path):
    """The check above catches an import inside a function that neither loads an optional or heavy
    module nor says why (so it cannot pass vacuously), and lets the others through."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def hidden():\n"
        "    from validator.catalogue.policy import Policy\n"
        "    return Policy\n\n\n"
        "def heavy():\n"
        "    import pyarrow.parquet as pq\n"
        "    from jsonschema import Draft202012Validator\n"
        "    return pq, Draft202012Validator\n\n\n"
        "def said():\n"
        "    # start-up: the linter's rules load only when a house file is linted\n"
        "    from validator.house import lint\n"
        "    from validator.house import load\n"
        "    import json  # a reason on its line\n"
        "    if lint:\n"
        "        import difflib\n"
        "    return lint, load, json, difflib\n",
        encoding="utf-8",
    )
    assert _unexplained_imports(sample) == [
        "sample.py:2: validator.catalogue.policy",
        "sample.py:18: difflib",
    ]


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
    assert _upward_imports(graph) == [
        "validator.dsl -> validator.replay (validator.dsl.expr -> validator.replay.state)"
    ]


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
