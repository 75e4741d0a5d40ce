"""Evaluating a ruleset's rules on the replay state and turning broken ones into findings.

The engines call `check(event, …)` at each point of the game the vocabulary names, and `settlement`
for each stake; the judge runs the compiled conditions and writes findings in the words of the rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from typing import Any

from validator.dsl import ast
from validator.dsl.codegen import AllHeld, Settle
from validator.dsl.expr import explain_failure, names_in
from validator.dsl.functions import EvaluationError
from validator.dsl.messages import PLACEHOLDER, resolve, shown
from validator.dsl.model import CheckDef, HouseChecks, Rule, Ruleset, SettleDef, folded_checks
from validator.dsl.wording import in_words
from validator.findings.finding import Finding
from validator.findings.fingerprint import fingerprint
from validator.findings.project_root import find_root, fingerprint_file
from validator.i18n import _, current
from validator.numbers import amount


def _run_them(ctx: Mapping[str, Any]) -> bool:
    return False


class Judge:
    """One ruleset version, one table's house options, one file: evaluates and records findings."""

    def __init__(self, ruleset: Ruleset, house: dict[str, Any], file: str) -> None:
        self.ruleset = ruleset
        self.house = house
        self.file = file
        self.params = {name: p.value for name, p in ruleset.parameters.items()}
        # How messages name side bets: by their titles (this version's first, then other games' that a
        # log may show at the wrong table: the replay adds them).
        self.side_titles = {name: bet.title for name, bet in ruleset.side_bets.items()}
        # hand-log/1 stake names ("hyper" of "4:hyper:17") → the side bets that declare them.
        self.stake_sides = {bet.stake_name: name for name, bet in ruleset.side_bets.items()}
        # hand-log/1 stake names → the titles of their side bets in this version (then other versions'),
        # for reports to name a finding's stake in the text's words (« Dames de cœur », not lucky_ladies).
        self.stake_titles = {bet.stake_name: bet.title for bet in ruleset.side_bets.values()}
        self.findings: list[Finding] = []
        self.unjudged: set[str] = set()
        # Findings' expected/actual in an auditor's words (dsl/wording.py), or in the rule's terms.
        self.in_words = True
        # Every decision the replay made, for `explain`: (event, rule id, held?).
        self.trace: list[tuple[str, str, bool]] | None = None
        # The facts of the frequent events, made once and changed in place by each round's replay
        # (replay.round_base.InPlace).
        self.in_place: Any = None
        # A finding of this round whose consequences the round's later findings at these events are
        # (docs/findings.md, "One finding per cause"); set and cleared by the round's replay.
        self.cause: Finding | None = None
        self.cause_events: frozenset[str] = frozenset()
        # Of those events, the findings that are consequences are those whose rule reads a fact the cause
        # changed: a fact of one of these namespaces (`dealer.`), not one of `cause_kept` (the dealer's
        # first card, `dealer.up_ace`). Events in `cause_whole` (a peek, which looks at the card the cause
        # gave) make every finding a consequence. Set with the cause by the round's replay.
        self.cause_reads: tuple[str, ...] = ()
        self.cause_kept: frozenset[str] = frozenset()
        self.cause_whole: frozenset[str] = frozenset()
        self._reads: dict[int, frozenset[str]] = {}  # id(check) → the facts its guard and requirement read
        self._rules: dict[str, Rule] | None = None  # the rules by id, made when first asked
        self._root: str | None = None
        # False for a caller that asks only which rules a step would break (the simulator weighing a
        # move, edge's probe asking what the rules allow): a finding then names its rule and kind, and
        # its expected, actual and message are left empty rather than worded for no reader.
        self.explained = True
        # The generated functions with this table's house options written in (Ruleset.under_house):
        # made at the first event, used where the context's house options are the judge's own.
        self._under_house: HouseChecks | None = None

    def under_house(self) -> HouseChecks:
        made = self._under_house
        if made is None:
            made = self._under_house = self.ruleset.under_house(self.house)
        return made

    def folded(self, first: str, then: str) -> AllHeld | None:
        """The generated function that answers "every rule held" for the rules of `first` then those of
        `then`, house options written in (`dsl.model.folded_checks`), for an engine that checks the two
        one right after the other: one call where there were two. None while `explain` traces every
        rule or the version is probed (`HouseChecks.fold`: the engine then asks each event's own), or
        where no rule listens to either."""
        if self.trace is not None:
            return None
        checks = self.under_house()
        if not checks.fold:
            return None
        key = (first, then)
        if key in checks.folded:
            return checks.folded[key]
        made = checks.folded[key] = folded_checks(self.ruleset.checks_by_event, key, self.params, self.house)
        return made

    def context(self, **namespaces: Any) -> dict[str, Any]:
        return {"house": self.house, **namespaces}

    def all_held(self) -> dict[str, AllHeld]:
        """Per event, the generated function that answers "every rule held" (dsl.codegen), so that the
        rules themselves run only when there is something to report. While `explain` traces every rule,
        each answer is "run them"."""
        if self.trace is None:
            return self.under_house().all_held
        return dict.fromkeys(self.ruleset.checks_by_event, _run_them)

    def check(
        self,
        event: str,
        ctx: dict[str, Any],
        *,
        line: int | None,
        round_id: str | None,
        stake: str | None = None,
    ) -> bool:
        """Run every rule listening to `event`; True when none was broken."""
        checks = self.ruleset.checks_by_event.get(event)
        if not checks:
            return True
        if ctx.get("house") is self.house:
            held = self.all_held()[event]
        else:  # another table's options (the simulator's): the functions that read them from ctx
            held = self.ruleset.all_held_by_event[event] if self.trace is None else _run_them
        if held(ctx):
            return True
        return self.run(checks, event, ctx, line, round_id, stake)

    def run(
        self,
        checks: tuple[tuple[Rule, CheckDef], ...],
        event: str,
        ctx: dict[str, Any],
        line: int | None,
        round_id: str | None,
        stake: str | None,
    ) -> bool:
        ok = True
        trace = self.trace
        for rule, check in checks:
            try:
                guard = check.guard
                if guard is not None and not guard(ctx):
                    continue
                held = check.require(ctx)
            except EvaluationError as exc:
                self.unjudged.add(f"{rule.id}: {exc}")
                continue
            except TypeError as exc:
                # Facts of kinds the condition cannot compare (a house value of the wrong type, say):
                # the rule cannot be judged here, which the summary says, rather than a traceback.
                self.unjudged.add(_("{rule}: cannot be evaluated ({error})").format(rule=rule.id, error=exc))
                continue
            if trace is not None:
                trace.append((event, rule.id, bool(held)))
            if not held:
                ok = False
                self.broken(rule, check, ctx, line, round_id, stake)
                if self.cause is not None and event in self.cause_events and self.reads_cause(event, check):
                    self.mark_consequence(len(self.findings) - 1)
        return ok

    def broken(
        self,
        rule: Rule,
        check: CheckDef,
        ctx: dict[str, Any],
        line: int | None,
        round_id: str | None,
        stake: str | None,
    ) -> None:
        if not self.explained:
            self.record(rule, rule.kind, ctx, line, round_id, stake, {}, {}, None)
            return
        expected, actual = explain_failure(check.applied_require, ctx, self.params)
        if self.in_words:  # the house linter rewords them itself, once it has read which fact was blamed
            expected, actual = in_words(expected, actual, rule.text("checks", current()))
        self.record(rule, rule.kind, ctx, line, round_id, stake, expected, actual, None)

    def reads(self, check: CheckDef) -> frozenset[str]:
        """The facts a check reads (its guard and its requirement, as this version applies them)."""
        found = self._reads.get(id(check))
        if found is None:
            nodes = [check.applied_require]
            if check.applied_guard is not None:
                nodes.append(check.applied_guard)
            found = frozenset(
                name.path for node in nodes for name in names_in(node) if isinstance(name, ast.Name)
            )
            self._reads[id(check)] = found
        return found

    def reads_cause(self, event: str, check: CheckDef) -> bool:
        """Whether a finding of `check` at `event` is judged from what the round's cause changed: only then
        is it that cause's consequence (docs/findings.md); a rule that reads none of it (the amount of an
        insurance, the dealer's first card) judges an independent mistake."""
        if event in self.cause_whole:
            return True
        kept = self.cause_kept
        return any(path.startswith(self.cause_reads) and path not in kept for path in self.reads(check))

    def rule_reads(self, rule_id: str, event: str) -> frozenset[str]:
        """The facts the rule's checks at `event` read (none for a rule of no check there)."""
        rules = self._rules
        if rules is None:
            rules = self._rules = {rule.id: rule for rule in self.ruleset.rules}
        rule = rules.get(rule_id)
        if rule is None:
            return frozenset()
        return frozenset().union(*(self.reads(check) for check in rule.checks if check.event == event))

    def mark_consequences_since(self, start: int, end: int, event: str) -> None:
        """The findings made at `event` from `start` to `end` (before the cause was known, at the same
        step) that read what the cause changed: consequences of it, as `run` marks the later ones."""
        self.rule_reads("", event)  # the rules by id, made once
        assert self._rules is not None
        index = start
        for _unused in range(end - start):
            rule = self._rules.get(self.findings[index].rule)
            if rule is not None and any(
                check.event == event and self.reads_cause(event, check) for check in rule.checks
            ):
                self.mark_consequence(index)  # the next finding moves to `index`
            else:
                index += 1

    def mark_consequence(self, index: int) -> None:
        """The finding at `index` is a consequence of `self.cause`: it names the cause's fingerprint and
        moves right after the last finding of the same cause, so every format reads them together."""
        cause = self.cause
        assert cause is not None
        if self._root is None:  # fingerprints relative to the project root, as baselines make them
            self._root = find_root()
        key = fingerprint(cause, fingerprint_file(cause.file, self._root))
        finding = replace(self.findings.pop(index), caused_by=key)
        at = next((i for i, f in enumerate(self.findings) if f is cause), len(self.findings) - 1) + 1
        while at < len(self.findings) and self.findings[at].caused_by == key:
            at += 1
        self.findings.insert(at, finding)

    def expected_settlement(
        self, stake_kind: str, ctx: dict[str, Any]
    ) -> tuple[Rule, SettleDef, Decimal | None] | None:
        """The first settle clause, in the ruleset's order, whose condition holds; with its amount."""
        if ctx.get("house") is self.house:
            decide: Settle | None = self.under_house().settlement.get(stake_kind)
        else:  # another table's options (the simulator's): the function that reads them from ctx
            decide = self.ruleset.settlement_by_stake.get(stake_kind)
        if decide is not None:
            decided = decide(ctx)
            if decided is not False:
                # The generated function chose and worked out the amount without trouble (dsl.codegen):
                # the closures would give the same (tests compare them); else they say why.
                chosen: tuple[Rule, SettleDef, Decimal | None] | None = decided  # no `cast`: a call
                return chosen
        for rule, settle in self.ruleset.settles_by_stake.get(stake_kind, ()):
            try:
                if settle.guard is not None and not settle.guard(ctx):
                    continue
                amount = settle.amount(ctx) if settle.amount is not None else None
            except EvaluationError as exc:
                self.unjudged.add(f"{rule.id}: {exc}")
                return None
            except TypeError:
                # An amount the text leaves to the house and the house did not declare.
                self.unjudged.add(
                    _("{rule}: the amount depends on a house option that is not declared").format(
                        rule=rule.id
                    )
                )
                return None
            return rule, settle, amount
        return None

    def payout(
        self,
        rule: Rule,
        ctx: dict[str, Any],
        *,
        line: int | None,
        round_id: str,
        stake: str,
        expected: dict[str, Any],
        actual: dict[str, Any],
        discrepancy: Decimal,
    ) -> None:
        self.record(rule, "payout", ctx, line, round_id, stake, expected, actual, discrepancy)

    def record(
        self,
        rule: Rule,
        kind: str,
        ctx: dict[str, Any],
        line: int | None,
        round_id: str | None,
        stake: str | None,
        expected: dict[str, Any],
        actual: dict[str, Any],
        discrepancy: Decimal | None,
    ) -> None:
        """A finding in the words of the rule, its message filled from the facts as they stand now."""
        self.findings.append(
            Finding(
                kind=kind,  # type: ignore[arg-type]
                rule=rule.id,
                ref=rule.ref,
                severity=rule.severity,  # type: ignore[arg-type]
                file=self.file,
                line=line,
                round=round_id,
                stake=stake,
                message=self.message(rule, ctx) if self.explained else "",
                expected=expected,
                actual=actual,
                discrepancy=discrepancy,
            )
        )

    def message(self, rule: Rule, ctx: dict[str, Any]) -> str:
        return _formatter(rule.text("message", current()))(ctx, self.params, self.side_titles)


Render = Callable[..., str]  # (ctx, params, side bets' titles = none) → the message
_FORMATTERS: dict[str, Render] = {}


def _formatter(template: str) -> Render:
    """Messages name facts in braces, `{hand.total}`; a fact missing at that point stays as written.
    A receiver of cards or a side bet is shown in words (vocabulary.SHOWN_AS)."""
    cached = _FORMATTERS.get(template)
    if cached is not None:
        return cached

    def render(ctx: dict[str, Any], params: dict[str, Any], titles: dict[str, str] | None = None) -> str:
        def one(match: re.Match[str]) -> str:
            # From the vocabulary only (dsl.messages): never an attribute the vocabulary does not name.
            try:
                value = resolve(match.group(1), ctx, params)
            except KeyError:
                return match.group(0)
            words = shown(match.group(1), value, titles or {})
            return words if words is not None else _show(value)

        return PLACEHOLDER.sub(one, template)

    _FORMATTERS[template] = render
    return render


def _show(value: Any) -> str:
    if isinstance(value, Decimal):  # an amount in a message: `10 003,2` in French (validator/numbers.py)
        return amount(value, sep="")
    if value is None:
        return "none"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)
