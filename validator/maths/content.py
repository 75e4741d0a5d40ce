"""A side bet's figures found again by what they depend on, not by the version that asked: `edge` asks
for a bet's figure under each alternative of each reading and each paytable the house may choose, and
most of them settle every deal as a figure already computed does.

A bet's enumeration is fixed by its *shape*: the game and the version's parameters, the house options
its expressions read, the facts its lines read (which cards are dealt), its cases, the renamings of the
suits it cannot tell apart (`maths.suits`, so the same deals in the same order), its settle clauses,
and the conditions of the lines of the paytables those clauses read, in order, each read as the
enumeration evaluates it: the facts it holds fixed in place (`sidebets.HELD_FACTS`, `SAME_FACTS`:
no other player at the table, one hand holding the first three cards), folded. Two versions of one shape
settle every deal by the lines at the same places; only what those lines pay may differ. So a figure
of the same shape is re-read from the tally kept with it (`sidebets.Tally`): each set of paying lines
mapped to the lines at the same places in this version, its net worked out again where a line's
winnings (a ratio of the stake) differ, in the same order: the figure the enumeration would give, to
the bit. Where that cannot be vouched for (a line's label read twice, a changed line whose winnings are
not a ratio), the bet is enumerated.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from validator.dsl import ast
from validator.dsl.expr import unparse
from validator.dsl.fold import fold
from validator.dsl.model import CompiledPayLine, SideBetDef
from validator.maths.probe import Probe
from validator.maths.sidebets import (
    HELD_FACTS,
    SAME_FACTS,
    SideBetReturn,
    Tally,
    bet_cases,
    bet_group,
    settled,
)

Place = tuple[int, int]  # (the read table's place among those read, the line's place in it)


@dataclass(frozen=True, slots=True)
class Shape:
    """A bet's shape in one version (see the module's text): `key` compares shapes; `lines` are the read
    tables' lines by place, `places` each label's place (None where a label is read twice)."""

    key: Hashable
    lines: Mapping[Place, CompiledPayLine]
    places: Mapping[str, Place] | None


@dataclass(frozen=True, slots=True)
class Kept:
    """A bet's figures computed under one shape: each case's tally, and the shape's lines."""

    shape: Shape
    tallies: tuple[tuple[str | None, Tally], ...]


def _held(node: ast.Expr) -> ast.Expr:
    """The expression with the facts the enumeration holds fixed in place."""
    if isinstance(node, ast.Name):
        if node.path in HELD_FACTS:
            return ast.Literal(node.pos, HELD_FACTS[node.path])
        return replace(node, path=SAME_FACTS[node.path]) if node.path in SAME_FACTS else node
    if isinstance(node, ast.Call):
        return replace(node, args=tuple(_held(a) for a in node.args))
    if isinstance(node, ast.ListExpr):
        return replace(node, items=tuple(_held(i) for i in node.items))
    if isinstance(node, ast.Arith | ast.Compare):
        return replace(node, left=_held(node.left), right=_held(node.right))
    if isinstance(node, ast.BoolOp):
        return replace(node, items=tuple(_held(i) for i in node.items))
    if isinstance(node, ast.Not):
        return replace(node, item=_held(node.item))
    if isinstance(node, ast.AnyOf):
        return replace(node, body=_held(node.body))
    return node


def _read(node: ast.Expr | None, params: Mapping[str, Any]) -> str | None:
    """An expression as the enumeration evaluates it, as text (None: none)."""
    return None if node is None else unparse(fold(_held(node), params))


def _line_shape(line: CompiledPayLine, params: Mapping[str, Any]) -> tuple[object, ...]:
    """A line's condition (and its amount where its winnings are not a ratio of the stake), as read."""
    when = _read(line.when_node, params) if line.when_node is not None else ("source", line.source)
    if isinstance(line.pays, ast.Ratio):
        return (when, "ratio", line.prize)
    return (when, line.pays, _read(line.amount_node, params), line.prize)


def shape(probe: Probe, name: str, bet: SideBetDef, cases: Sequence[str | None]) -> Shape | None:
    """The bet's shape in the probe's version and house options (None: a table its clauses read that the
    bet does not have, or an expression this cannot read: the enumeration says what is wrong)."""
    try:
        return _shape(probe, name, bet, cases)
    except (KeyError, TypeError):  # a `param.` list no version has, say: no shape, the bet is enumerated
        return None


def _shape(probe: Probe, name: str, bet: SideBetDef, cases: Sequence[str | None]) -> Shape | None:
    ruleset = probe.ruleset
    params = {n: p.value for n, p in ruleset.parameters.items()}
    clauses: list[tuple[object, ...]] = []
    read: list[str] = []
    for _rule, settle in ruleset.settles_by_stake.get(name, ()):
        tables = []
        for table in settle.tables:
            option = table.removeprefix("house.")
            chosen = str(probe.house.get(option)) if option != table else table
            if chosen not in bet.paytables:
                return None
            if chosen not in read:
                read.append(chosen)
            tables.append(read.index(chosen))
        amount = None if settle.tables else _read(settle.applied_amount, params)
        clauses.append((settle.verb, tuple(tables), _read(settle.applied_guard, params), amount))
    lines = {(t, i): line for t, table in enumerate(read) for i, line in enumerate(bet.paytables[table])}
    # The house options the bet's expressions read (an option that only names the table read is left out:
    # the table's lines stand for it).
    texts = [line.source for lines_ in bet.paytables.values() for line in lines_]
    texts += [str(c) for c in clauses]
    house = tuple(
        sorted(
            (option, type(value).__name__, repr(value))
            for option, value in probe.house.items()
            if any(f"house.{option}" in text for text in texts)
        )
    )
    every = tuple(
        (table, tuple(_line_shape(line, params) for line in table_lines))
        for table, table_lines in sorted(bet.paytables.items())
    )
    labels = [line.label for line in lines.values()]
    places = {line.label: place for place, line in lines.items()} if len(set(labels)) == len(labels) else None
    key = (
        ruleset.game,
        tuple(sorted((n, repr(v)) for n, v in params.items())),
        house,
        tuple(cases),
        tuple(bet_group(probe, name, bet, case) for case in cases),
        every,
        tuple(clauses),
        tuple((place, _line_shape(line, params)) for place, line in lines.items()),
    )
    return Shape(key, lines, places)


def _net(lines: Sequence[CompiledPayLine]) -> float | None:
    """What a stake paid by these lines nets, where each pays a ratio of it (None: one does not)."""
    total: Decimal | None = None
    for line in lines:
        if not isinstance(line.pays, ast.Ratio):
            return None
        won = Decimal(1) * line.pays.factor
        total = won if total is None else total + won
    return float(total) if total is not None else None


def _retally(kept: Kept, now: Shape, tally: Tally) -> Tally | None:
    """The kept tally re-read with this version's lines (None: it cannot be vouched for)."""
    before = kept.shape
    if before.places is None or now.places is None:
        return None
    found: Tally = {}
    for labels, (p, net) in tally.items():
        places = [before.places[label] for label in labels]
        old = [before.lines[place] for place in places]
        new = [now.lines[place] for place in places]
        moved = net
        if any((a.label, str(a.pays)) != (b.label, str(b.pays)) for a, b in zip(old, new, strict=True)):
            recomputed = _net(new)
            if recomputed is None or _net(old) != net:
                return None
            moved = recomputed
        key = tuple(line.label for line in new)
        if key in found:
            return None
        found[key] = [p, moved]
    return found


# Figures by shape, in this process (the latest last).
_KEPT: dict[Hashable, Kept] = {}
_SIZE = 64


def known(probe: Probe, name: str, bet: SideBetDef) -> tuple[list[SideBetReturn] | None, Shape | None]:
    """The bet's figures (one a case), re-read from figures of the same shape (None: none are), and its
    shape (None: it has none, `shape`)."""
    now = shape(probe, name, bet, bet_cases(bet))
    kept = _KEPT.get(now.key) if now is not None else None
    if now is None or kept is None:
        return None, now
    results = []
    for case, tally in kept.tallies:
        again = _retally(kept, now, tally)
        if again is None:
            return None, now
        results.append(settled(name, bet, case, again))
    return results, now


def keep(now: Shape | None, tallies: Sequence[tuple[str | None, Tally]]) -> None:
    """Keep a bet's tallies by its shape (`known`'s)."""
    if now is None:
        return
    if len(_KEPT) >= _SIZE:
        del _KEPT[next(iter(_KEPT))]
    _KEPT[now.key] = Kept(now, tuple(tallies))
