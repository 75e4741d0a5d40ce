"""How big a ruleset may be: bounds checked before the work a ruleset asks for can explode.

A ruleset from outside the package is read by every command that loads it, so a few lines must not be
able to stop them all: a named condition cited twice by the next one, forty times over, expands to 2^40
nodes; a chain of conditions, or a sum of many terms, nests deeper than the interpreter's parser (200
parentheses) or stack; a reading with hundreds of alternatives makes `--all-readings` judge the logs
hundreds of times; thousands of versions each amending the one before never finish consolidating. Each
bound is far above what the shipped rulesets use (`tests/dsl/test_limits.py` holds both), and a ruleset
past one is refused at FILE:LINE:COL (exit 2) before anything is expanded. docs/rules-language.md lists
them.

The sizes are those of the expressions *once the named conditions they cite are put in place* (and an
`any NAME in param.LIST` unrolled over the list), computed without expanding anything: each named
condition's size is worked out once, from those of the conditions it cites.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from validator.dsl import ast
from validator.errors import RulesetError
from validator.i18n import _

# The bytes of one ruleset file (the largest shipped is 138 KiB).
MAX_FILE_BYTES = 1 << 20
# The nodes of one condition or amount, named conditions put in place (the shipped: 42 at most, the
# order of the final settlement as its named conditions write it).
MAX_NODES = 4_000
# The nodes of every condition and amount of one version, named conditions put in place (the shipped:
# 1,105 at most).
MAX_VERSION_NODES = 100_000
# How deep one condition nests, named conditions put in place, each citation a level (the shipped: 8 at
# most, the bataille's order of settlement). The generated Python nests two parentheses a level at most: 60
# levels stay far from its 200.
MAX_DEPTH = 60
# The alternatives of all the readings of one version, defaults left out (the shipped: at most 22, the
# French text of 2024-11-01).
MAX_ALTERNATIVES = 32
# The versions one amendment chain may consolidate: a version, the one it amends, and so on (the
# shipped: 4).
MAX_CHAIN = 32


@dataclass(frozen=True, slots=True)
class Size:
    nodes: int
    depth: int


def size_problems(tree: ast.RulesetFile) -> list[RulesetError]:
    """Every place of the version where an expression, or the version as a whole, is bigger than the
    bounds allow, with its named conditions put in place; and a version with too many alternatives."""
    sizes = _DefineSizes(tree)
    problems: list[RulesetError] = []
    total = 0
    too_big: set[str] = set()  # the named conditions past a bound: what cites them is not said again
    for file, where, expr, name in _placed(tree):
        size = sizes.of(expr)
        problem = _too_big(size)
        if problem is not None:
            if name is not None:
                too_big.add(name)
            if not too_big.intersection(sizes.cites(expr)):
                problems.append(RulesetError(file, where.line, where.column, problem))
            continue
        total += size.nodes
        if total > MAX_VERSION_NODES:
            said = _(
                "the version's conditions and amounts come to more than {count} nodes once the named "
                "conditions they cite are put in place: cite fewer, or write smaller ones"
            ).format(count=f"{MAX_VERSION_NODES:,}")
            problems.append(RulesetError(file, where.line, where.column, said))
            break
    alternatives = [
        (tree.file_of("reading", r.name), alt.pos)
        for r in tree.readings
        for alt in r.alternatives
        if alt.name not in {name for _pos, name, _because in r.defaults}
    ]
    if len(alternatives) > MAX_ALTERNATIVES:
        file, pos = alternatives[MAX_ALTERNATIVES]
        problems.append(
            RulesetError(
                file,
                pos.line,
                pos.column,
                _(
                    "the version's readings have more than {count} alternatives besides their defaults "
                    "(each is judged on its own by check --all-readings): keep the questions the text "
                    "really leaves open"
                ).format(count=MAX_ALTERNATIVES),
            )
        )
    return problems


def _too_big(size: Size) -> str | None:
    if size.depth > MAX_DEPTH:
        return _(
            "the expression nests more than {count} levels deep once the named conditions it cites are put "
            "in place (each citation, 'and', 'or', 'not', '+' or '*' counts one level): split it into "
            "several rules or conditions"
        ).format(count=MAX_DEPTH)
    if size.nodes > MAX_NODES:
        return _(
            "the expression has more than {count} nodes once the named conditions it cites are put in "
            "place (a condition that cites another twice doubles it): split it, or cite each condition once"
        ).format(count=f"{MAX_NODES:,}")
    return None


def _placed(tree: ast.RulesetFile) -> Iterator[tuple[str, ast.Pos, ast.Expr, str | None]]:
    """Every condition and amount of the version, with the file that wrote it, where, and the named
    condition it is the body of (None for a rule's or a paytable's), named conditions first."""
    for d in tree.defines:
        yield tree.file_of("define", d.name), d.pos, d.body, d.name
    for rule in tree.rules:
        file = tree.file_of("rule", rule.name)
        for check in rule.checks:
            for expr in (check.guard, check.require):
                if expr is not None:
                    yield file, _pos(expr, check.pos), expr, None
        for settle in rule.settles:
            for expr in (settle.guard, settle.outcome.amount):
                if expr is not None:
                    yield file, _pos(expr, settle.pos), expr, None
    for bet in tree.side_bets:
        file = tree.file_of("side_bet", bet.name)
        for table in bet.paytables:
            for line in table.lines:
                yield file, _pos(line.when, line.pos), line.when, None
                if not isinstance(line.pays, ast.Ratio | str):
                    yield file, _pos(line.pays, line.pos), line.pays, None


def _pos(expr: ast.Expr, otherwise: ast.Pos) -> ast.Pos:
    pos = getattr(expr, "pos", None)
    return pos if isinstance(pos, ast.Pos) else otherwise


def _children(node: ast.Expr) -> tuple[ast.Expr, ...]:
    if isinstance(node, ast.BoolOp | ast.ListExpr):
        return node.items
    if isinstance(node, ast.Arith | ast.Compare):
        return (node.left, node.right)
    if isinstance(node, ast.Not):
        return (node.item,)
    if isinstance(node, ast.Call):
        return node.args
    if isinstance(node, ast.AnyOf):
        return (node.body,)
    return ()


class _DefineSizes:
    """The size of an expression with the named conditions it cites put in place: each condition's own
    size worked out once (a condition in a circle, which the compiler reports, counts as one node)."""

    def __init__(self, tree: ast.RulesetFile) -> None:
        self.bodies: Mapping[str, ast.Expr] = {d.name: d.body for d in tree.defines}
        self.lists: dict[str, int] = {}
        for p in tree.parameters:
            if isinstance(p.value.value, tuple):
                self.lists[f"param.{p.name}"] = len(p.value.value)
        self.known: dict[str, Size] = {}
        self.on_path: set[str] = set()  # being sized, those it cites first

    def of(self, root: ast.Expr) -> Size:
        """Walked without recursion (an expression as written may already nest a hundred levels)."""
        done: dict[int, Size] = {}
        stack: list[tuple[ast.Expr, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if id(node) in done:
                continue
            if isinstance(node, ast.Name) and node.path in self.bodies:
                done[id(node)] = self.define(node.path)
                continue
            children = _children(node)
            if not expanded and children:
                stack.append((node, True))
                stack.extend((child, False) for child in children)
                continue
            sizes = [done[id(child)] for child in children]
            nodes = 1 + sum(s.nodes for s in sizes)
            depth = 1 + max((s.depth for s in sizes), default=0)
            if isinstance(node, ast.AnyOf):
                copies = max(self.lists.get(node.collection, 1), 1)
                nodes = 1 + copies * sizes[0].nodes
            done[id(node)] = Size(nodes, depth)
        return done[id(root)]

    def define(self, name: str) -> Size:
        """A named condition's size: those it cites are sized first (depth first, without recursion)."""
        known = self.known.get(name)
        if known is not None:
            return known
        if name in self.on_path:
            return Size(1, 1)  # a circle, which the compiler reports: not expanded here
        stack: list[tuple[str, bool]] = [(name, False)]
        while stack:
            current, ready = stack.pop()
            if current in self.known:
                continue
            if ready:
                self.known[current] = self.of(self.bodies[current])
                self.on_path.discard(current)
                continue
            if current in self.on_path:
                continue
            self.on_path.add(current)
            stack.append((current, True))
            stack.extend(
                (cited, False)
                for cited in self._cites(self.bodies[current])
                if cited not in self.known and cited not in self.on_path
            )
        return self.known[name]

    def cites(self, root: ast.Expr) -> set[str]:
        """The named conditions `root` cites itself."""
        return set(self._cites(root))

    def _cites(self, root: ast.Expr) -> list[str]:
        found: list[str] = []
        stack = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Name) and node.path in self.bodies:
                found.append(node.path)
            stack.extend(_children(node))
        return found
