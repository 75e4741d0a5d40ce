"""`casino-validator rules diff A B --witness`: for each change the amending texts make between two versions,
and for each alternative of each reading of the two, a one-round log the two judge differently, with
both verdicts; `-o DIR` writes each as a pair of fixture cases.

A witness is looked for among the rounds of the rule fixtures (`tests/fixtures/rules`, or the folder
given): each round is cut out of its log as a log of its own (the table, shoe and other records before
it, the round, and the records after it until the next round), judged by both sides, and kept at the
first difference that concerns the change:

- a change of the amendments (`add`/`replace`/`repeal` of a rule, parameter, named condition, side bet,
  option or fixed value): a finding given by one side and not the other, of a rule the change concerns
  (the rule itself; the rules reading the parameter, the named condition, the option or fixed value; the
  rules settling the side bet);
- an alternative of a reading: any difference between the version under its default and under the
  alternative (the others as written).

A change no rule can show (a reading added, a parameter no rule reads) is said so; a change no fixture
round tells apart is listed without a witness: a fixture to write.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from validator.checking.fixtures import FixtureRun, find_fixtures, findings_of, load_expectation
from validator.dsl import ast
from validator.dsl.format import without_positions
from validator.dsl.model import Rule, Ruleset
from validator.errors import ValidatorError
from validator.i18n import _
from validator.rulebook.registry import Registry


@dataclass(frozen=True, slots=True)
class Side:
    """One of the two judges: a version, under some readings."""

    version: str
    readings: tuple[tuple[str, str], ...] = ()
    # Judged by the log's own dates (each record by the version then in force) rather than pinned to
    # `version`: what a reading about a version coming into force while a table is open needs (a pinned
    # version never comes into force during the log).
    dated: bool = False

    @property
    def label(self) -> str:
        chosen = "".join(f" [{name}={alternative}]" for name, alternative in self.readings)
        return self.version + chosen + (_(" (by the log's dates)") if self.dated else "")


@dataclass(frozen=True, slots=True)
class Target:
    """What a witness is wanted for: a change of an amendment, or an alternative of a reading."""

    title: str  # how the report names it
    slug: str  # how the fixture files are named
    first: Side
    second: Side
    concerns: frozenset[str] | None  # rule ids whose findings show the change; None: any finding
    unshowable: str = ""  # why no round can show it ("" when one may)


@dataclass(frozen=True, slots=True)
class Round:
    """A round cut out of a fixture log as a one-round log, with the case's house options."""

    source: str  # FILE, round ID
    lines: tuple[str, ...]
    house: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Witness:
    target: Target
    round: Round | None
    first: tuple[dict[str, Any], ...] = ()
    second: tuple[dict[str, Any], ...] = ()


def targets(registry: Registry, old: Ruleset, new: Ruleset) -> list[Target]:
    """Every change of the amendments that make `new` from `old` (through the versions between, in a
    family), then every alternative of the readings of `old` and of `new`."""
    found: list[Target] = []
    first, second = Side(old.version), Side(new.version)
    for version in _chain(registry, old, new):
        for amendment in version.amendments:
            for verb, kind, name in amendment.changes:
                concerns, unshowable = _concerned(old, new, kind, name)
                found.append(
                    Target(
                        f'amendment "{amendment.citation}": {verb} {kind} {name}',
                        _slug(f"{version.version}-{verb}-{kind}-{name}"),
                        first,
                        second,
                        concerns,
                        unshowable,
                    )
                )
    for ruleset in [old] if old.version == new.version else [old, new]:
        for name, reading in ruleset.readings.items():
            for alternative in reading.names:
                if alternative == reading.default:
                    continue
                found.append(
                    Target(
                        f"reading {name} of {ruleset.version}: {reading.default} (default) / {alternative}",
                        _slug(f"{ruleset.version}-{name}-{alternative}"),
                        Side(ruleset.version),
                        Side(ruleset.version, ((name, alternative),)),
                        None,
                    )
                )
    return found


def _chain(registry: Registry, old: Ruleset, new: Ruleset) -> list[Ruleset]:
    """The versions after `old` up to `new` that are written as amendments, each of the one before it."""
    if old.family != new.family or old.valid_from is None or new.valid_from is None:
        return [new] if new.amends else []
    return [
        v
        for v in registry.family(new.family)
        if v.valid_from is not None and old.valid_from < v.valid_from <= new.valid_from and v.amends
    ]


def _concerned(old: Ruleset, new: Ruleset, kind: str, name: str) -> tuple[frozenset[str] | None, str]:
    """The rules whose findings show a change of `kind` `name`, and why none can (when none can)."""
    if kind == "reading":
        return frozenset(), _(
            "a reading judges nothing as written: its alternatives have witnesses of their own"
        )
    family = new.family
    if kind == "rule":
        rule_id = f"{family}/{name}"
        before = next((r for r in old.rules if r.id == rule_id), None)
        after = next((r for r in new.rules if r.id == rule_id), None)
        if before is not None and after is not None and _judged_alike(before, after):
            return frozenset(), _(
                "the rule's clauses, kind and severity are as before (its words, reference or docs change): "
                "no round is judged differently"
            )
        return frozenset({rule_id}), ""
    if kind == "option" and name in old.options and name in new.options:
        was, now = old.options[name], new.options[name]
        values = ("type", "allowed", "range", "default", "required")
        if all(getattr(was, v) == getattr(now, v) for v in values):
            return frozenset(), _(
                "the option's type, values and default are as before (its words, reference or aliases "
                "change): no round is judged differently"
            )
    word = {"parameter": f"param.{name}", "option": f"house.{name}", "fixed": f"house.{name}"}.get(kind, name)
    rules: set[str] = set()
    for ruleset in (old, new):
        defines = {d.name: d.body for d in ruleset.tree.defines} if ruleset.tree is not None else {}
        for rule in ruleset.rules:
            settles_it = any(settle.stake == name for settle in rule.settles)
            if settles_it if kind == "side_bet" else word in _reads(rule, defines):
                rules.add(rule.id)
        if kind in ("parameter", "define"):
            for bet in ruleset.side_bets.values():
                lines = [line for lines in bet.paytables.values() for line in lines]
                if any(word in _names_in((line.when_node, line.amount_node), defines) for line in lines):
                    rules |= {r.id for r in ruleset.rules if any(s.stake == bet.name for s in r.settles)}
    if not rules:
        return frozenset(), _("no rule reads it (the game mechanics may: `rules test --mutate` tells)")
    return frozenset(rules), ""


def _judged_alike(one: Rule, other: Rule) -> bool:
    """Whether two wordings of a rule judge alike: the same kind, severity and clauses as applied, wherever
    each is written."""
    from validator.rulebook.meaning import meaning_of_rule  # start-up: loaded when this part runs

    def judged(rule: Rule) -> Any:
        return without_positions((rule.kind, rule.severity, meaning_of_rule(rule)))

    return bool(judged(one) == judged(other))


def _reads(rule: Rule, defines: dict[str, ast.Expr]) -> set[str]:
    nodes: list[ast.Expr | None] = []
    for check in rule.checks:
        nodes += [check.guard_node, check.require_node]
    for settle in rule.settles:
        nodes += [settle.guard_node, settle.amount_node]
    found = _names_in(nodes, defines)
    found |= set(re.findall(r"\{(param\.[a-z0-9_.]+)\}", rule.message))
    return found


def _names_in(nodes: Any, defines: dict[str, ast.Expr]) -> set[str]:
    """The names the expressions read (`param.…`, `house.…`, facts, named conditions), through the named
    conditions they cite."""
    found: set[str] = set()
    todo = [node for node in nodes if node is not None]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name):
            if node.path not in found and node.path in defines:
                todo.append(defines[node.path])
            found.add(node.path)
        elif isinstance(node, ast.AnyOf):
            found.add(node.collection)
        todo.extend(ast.children(node))
    return found


def rounds(root: Path) -> Iterator[Round]:
    """Every round of the fixture logs under `root`, each as a one-round log (the records before it, the
    round, the records after it until the next round; a log without a round whole), shortest logs first."""
    cases = []
    for expect in find_fixtures(root):
        log = expect.with_name(expect.name.removesuffix(".expect.json") + ".jsonl")
        try:
            house = load_expectation(expect).get("house") or {}
            text = log.read_text(encoding="utf-8")
        except (ValidatorError, OSError):
            continue
        cases.append((len(text), str(log), text, house))
    for _size, name, text, house in sorted(cases):
        records: list[tuple[str, bool]] = []  # (line, is a round)
        for line in text.splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                break
            if not isinstance(record, dict):
                break
            records.append((line, record.get("type") == "round"))
        rounds_at = [i for i, (_line, is_round) in enumerate(records) if is_round]
        if not rounds_at and records:  # a log of records before any round (a table, a shoe): whole
            yield Round(name, tuple(line for line, _is_round in records), house)
        for at in rounds_at:
            # The records before the round (not rounds), the round, and those after it until the next
            # round (a jackpot record reads the round before it).
            before = [line for line, is_round in records[:at] if not is_round]
            after = []
            for line, is_round in records[at + 1 :]:
                if is_round:
                    break
                after.append(line)
            round_id = json.loads(records[at][0]).get("round")
            yield Round(f"{name}, round {round_id}", (*before, records[at][0], *after), house)


# What a round is judged (its source, lines and house options, and the side), and the registry of each
# set of readings, kept for the last registry this process searched: `rules diff --witness` run for each
# two versions of a family in turn (tests/rulebook) judges the rounds of the version between, and of its
# readings' alternatives, in both runs. A registry is not changed once built (`registry_with`).
_Verdicts = dict[tuple[str, tuple[str, ...], str, Side], tuple[dict[str, Any], ...]]
_KEPT: dict[int, tuple[Registry, _Verdicts, dict[tuple[tuple[str, str], ...], Registry]]] = {}


def _kept(registry: Registry) -> tuple[_Verdicts, dict[tuple[tuple[str, str], ...], Registry]]:
    found = _KEPT.get(id(registry))
    if found is None or found[0] is not registry:
        _KEPT.clear()
        found = _KEPT[id(registry)] = (registry, {}, {})
    return found[1], found[2]


def find_witnesses(registry: Registry, wanted: list[Target], root: Path, scratch: Path) -> list[Witness]:
    """A witness for each target (None where no fixture round tells the two sides apart)."""
    judged, registries = _kept(registry)
    scratch.mkdir(parents=True, exist_ok=True)
    logs: dict[str, Path] = {}  # each candidate round written once, judged under every side that needs it
    out: list[Witness] = []
    candidates = list(rounds(root))

    def nearest(target: Target) -> list[Round]:
        """The rounds of the fixtures of the rules the target concerns first, then those of its family."""
        names = {rule.rpartition("/")[2] for rule in target.concerns or ()}
        family = target.first.version.partition("@")[0]
        return sorted(
            candidates,
            key=lambda c: (
                not any(f"/{name}/" in c.source.replace("\\", "/") for name in names),
                f"/{family}/" not in c.source.replace("\\", "/"),
            ),
        )

    def verdict(candidate: Round, side: Side) -> tuple[dict[str, Any], ...]:
        house = json.dumps(candidate.house, sort_keys=True, default=str)
        key = (candidate.source, candidate.lines, house, side)
        if key not in judged:
            if side.readings not in registries:
                registries[side.readings] = registry.with_readings(dict(side.readings))
            log = logs.get(candidate.source)
            if log is None:
                log = logs[candidate.source] = scratch / f"round-{len(logs)}.jsonl"
                log.write_text("\n".join(candidate.lines) + "\n", encoding="utf-8")
            pinned = None if side.dated else side.version
            run = FixtureRun(
                log, log, log.name, pinned, side.readings, {"house": candidate.house, "findings": []}
            )
            try:
                found = findings_of(registries[side.readings], run)
            except ValidatorError:
                found = [{"rule": _("(cannot be judged)")}]
            judged[key] = tuple(_shown(f) for f in found)
        return judged[key]

    def witness(target: Target) -> Witness | None:
        for candidate in nearest(target):
            first, second = verdict(candidate, target.first), verdict(candidate, target.second)
            if first == second:
                continue
            differing = (Counter(map(_key, first)) - Counter(map(_key, second))) + (
                Counter(map(_key, second)) - Counter(map(_key, first))
            )
            if target.concerns is None or any(rule in target.concerns for rule, *_rest in differing):
                return Witness(target, candidate, first, second)
        return None

    for target in wanted:
        if target.unshowable:
            out.append(Witness(target, None))
            continue
        found = witness(target)
        if found is None and target.concerns is None:
            # A reading's alternative no pinned round tells apart: judged by the logs' own dates (a reading
            # of what happens when the version comes into force while a table is open).
            found = witness(
                replace(
                    target,
                    first=replace(target.first, dated=True),
                    second=replace(target.second, dated=True),
                )
            )
        out.append(found or Witness(target, None))
    return out


_SHOWN = ("kind", "rule", "severity", "line", "round", "stake", "expected", "actual")


def _shown(finding: dict[str, Any]) -> dict[str, Any]:
    return {key: finding[key] for key in _SHOWN if key in finding}


def _key(finding: dict[str, Any]) -> tuple[str, ...]:
    """A finding as a comparable key, its rule id first."""
    rest = tuple(json.dumps(finding.get(key), sort_keys=True, default=str) for key in _SHOWN if key != "rule")
    return (str(finding.get("rule")), *rest)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def report_lines(witnesses: list[Witness]) -> Iterator[str]:
    for witness in witnesses:
        target = witness.target
        yield target.title
        if witness.round is None:
            yield "  " + (target.unshowable or _("no witness: no round of the fixtures tells the two apart"))
            continue
        yield "  " + _("witness: {source}").format(source=witness.round.source)
        if witness.round.house:
            yield "  " + _("house options: {house}").format(
                house=json.dumps(witness.round.house, ensure_ascii=False)
            )
        for line in witness.round.lines:
            yield f"    {line}"
        for side, found in ((target.first, witness.first), (target.second, witness.second)):
            yield "  " + _("{side}: {count} finding(s)").format(side=side.label, count=len(found))
            for finding in found:
                yield "    " + json.dumps(finding, ensure_ascii=False)


def write_fixtures(witnesses: list[Witness], folder: Path) -> list[Path]:
    """Each witness as two fixture cases in `folder`: the log pinned to each side, with its verdict."""
    written: list[Path] = []
    folder.mkdir(parents=True, exist_ok=True)
    for witness in witnesses:
        if witness.round is None:
            continue
        target = witness.target
        for which, side, found in (
            ("first", target.first, witness.first),
            ("second", target.second, witness.second),
        ):
            name = f"{target.slug}-{which}"
            (folder / f"{name}.jsonl").write_text("\n".join(witness.round.lines) + "\n", encoding="utf-8")
            expectation: dict[str, Any] = {} if side.dated else {"rulesets": [side.version]}
            if witness.round.house:
                expectation["house"] = witness.round.house
            if side.readings:
                expectation["readings"] = dict(side.readings)
            expectation["findings"] = list(found)
            path = folder / f"{name}.expect.json"
            path.write_text(json.dumps(expectation, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            written.append(path)
    return written
