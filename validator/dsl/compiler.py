"""Syntax tree → `Ruleset`, with every error of meaning reported at FILE:LINE:COL.

The checks: the header is complete and said once; dates make a range; every parameter is one the
game knows, with a value of its type; every option has a reference and a default it allows; rule ids
are unique; every name in a condition is a fact the event offers, a parameter this ruleset sets, or
an option it declares.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from validator.dsl import ast
from validator.dsl.codegen import all_held, first_holding
from validator.dsl.expr import compile_expr, format_value, names_in
from validator.dsl.messages import placeholder_problems
from validator.dsl.model import (
    AmendmentInfo,
    CheckDef,
    FixedDef,
    OptionDef,
    ParamValue,
    PayLine,
    PaytableOutcome,
    Rule,
    Ruleset,
    SettleDef,
    SideBetDef,
)
from validator.dsl.vocabulary import (
    EVENTS,
    FUNCTIONS,
    NAMESPACES,
    PARAMETERS,
    PAYTABLE_NAMESPACES,
    SETTLE_STAKES,
    SIDE_SETTLE_NAMESPACES,
    namespaces_for,
)
from validator.errors import RulesetError, RulesetErrors

GAMES = ("blackjack", "bataille")
# Amounts a paytable line may pay out whole, shared between the hands it pays (JP1's meters).
PRIZES = ("jackpot.main", "jackpot.secondary")
_HEADERS_REQUIRED = ("title", "source", "game", "in_force")


def _closest(word: str, choices: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {match[0]!r}?" if match else ""


class _Compiler:
    def __init__(self, tree: ast.RulesetFile) -> None:
        self.tree = tree
        self.errors: list[RulesetError] = []
        # The file of the item being compiled: a consolidated version inherits items written elsewhere.
        self.file = tree.file

    def error(self, pos: ast.Pos, message: str) -> None:
        self.errors.append(RulesetError(self.file, pos.line, pos.column, message))

    def at(self, kind: str, name: str) -> None:
        self.file = self.tree.file_of(kind, name)

    # ---- header ----
    def headers(self) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        notes: list[str] = []
        for header in self.tree.headers:
            if header.key == "note":
                notes.append(header.value)
                continue
            if header.key in seen:
                self.error(header.pos, f"'{header.key}' is given twice")
                continue
            seen[header.key] = header.value
            if header.key == "game" and header.value not in GAMES:
                self.error(header.pos, f"unknown game {header.value!r}: choose one of {', '.join(GAMES)}")
            if header.key == "in_force":
                start, end = header.value
                if start is not None and end is not None and end < start:
                    self.error(
                        header.pos,
                        f"bad date range: in force until {end.isoformat()} before it starts on "
                        f"{start.isoformat()}",
                    )
        for key in _HEADERS_REQUIRED:
            if key not in seen:
                shown = "in force from" if key == "in_force" else key
                self.error(self.tree.family_pos, f"the ruleset does not say its '{shown}'")
        seen["notes"] = tuple(notes)
        return seen

    # ---- parameters ----
    def parameters(self) -> dict[str, ParamValue]:
        params: dict[str, ParamValue] = {}
        for p in self.tree.parameters:
            self.at("parameter", p.name)
            spec = PARAMETERS.get(p.name)
            if spec is None:
                self.error(p.pos, f"unknown parameter {p.name!r}{_closest(p.name, PARAMETERS)}")
                continue
            if p.name in params:
                self.error(p.pos, f"parameter {p.name!r} is set twice (first on line {params[p.name].line})")
                continue
            problem = _type_problem(spec.type, p.value, spec.symbols)
            if problem:
                self.error(p.value.pos, f"parameter {p.name!r} {problem}")
                continue
            params[p.name] = ParamValue(p.name, p.value.value, p.ref.text, p.pos.line, p.note)
        return params

    # ---- options and fixed ----
    def options(self) -> dict[str, OptionDef]:
        options: dict[str, OptionDef] = {}
        for o in self.tree.options:
            self.at("option", o.name)
            if o.name in options:
                self.error(
                    o.pos, f"option {o.name!r} is declared twice (first on line {options[o.name].line})"
                )
                continue
            if o.ref is None:
                self.error(o.pos, f'option {o.name!r} has no legal reference: add ref "…"')
                continue
            allowed: tuple[Any, ...] | None = None
            bounds: tuple[Decimal, Decimal] | None = None
            if o.allowed is not None and o.allowed_is_range:
                low, high = o.allowed  # a range's two ends are numbers (the grammar's `range`)
                assert isinstance(low, Decimal) and isinstance(high, Decimal)
                bounds = (low, high)
                if low > high:
                    self.error(o.pos, f"option {o.name!r}: empty range {low}..{high}")
            elif o.allowed is not None:
                allowed = tuple(o.allowed)
            elif o.type == "bool":
                allowed = (False, True)
            default = o.default.value if o.default is not None else None
            opt = OptionDef(
                name=o.name,
                type=o.type,
                allowed=allowed,
                range=bounds,
                default=default,
                required=o.required,
                ref=o.ref.text,
                doc=dict(o.doc),
                line=o.pos.line,
            )
            if o.default is not None:
                problem = _option_type_problem(o.type, o.default)
                if problem:
                    self.error(o.default.pos, f"option {o.name!r}: default {problem}")
                elif default is not None and not opt.allows(default):
                    self.error(
                        o.default.pos, f"option {o.name!r}: default {_show(default)} is not an allowed value"
                    )
            for value in allowed or ():
                problem = _option_type_problem(o.type, ast.Value(o.pos, value, _kind_of(value)))
                if problem:
                    self.error(o.pos, f"option {o.name!r}: allowed value {problem}")
            options[o.name] = opt
        return options

    def fixed(self, options: dict[str, OptionDef]) -> dict[str, FixedDef]:
        fixed: dict[str, FixedDef] = {}
        for f in self.tree.fixed:
            self.at("fixed", f.name)
            if f.name in options or f.name in fixed:
                self.error(f.pos, f"{f.name!r} is both fixed and declared elsewhere in this ruleset")
                continue
            fixed[f.name] = FixedDef(f.name, f.value.value, f.ref.text, f.pos.line)
        return fixed

    # ---- expressions ----
    def check_names(
        self,
        expr: ast.Expr,
        namespaces: tuple[str, ...],
        params: dict[str, ParamValue],
        options: dict[str, OptionDef],
        fixed: dict[str, FixedDef],
        where: str,
    ) -> bool:
        ok = True
        for node in names_in(expr):
            if isinstance(node, ast.Call):
                spec = FUNCTIONS.get(node.function)
                if spec is None:
                    self.error(
                        node.pos, f"unknown function {node.function!r}{_closest(node.function, FUNCTIONS)}"
                    )
                    ok = False
                elif len(node.args) != spec[0]:
                    self.error(
                        node.pos, f"{node.function}() takes {spec[0]} argument(s), not {len(node.args)}"
                    )
                    ok = False
                continue
            namespace, _, field = node.path.partition(".")
            if namespace == "param":
                if field not in params:
                    hint = "not a parameter" if field not in PARAMETERS else "not set in this ruleset"
                    self.error(node.pos, f"{node.path}: {hint}{_closest(field, params)}")
                    ok = False
            elif namespace == "house":
                if field not in options and field not in fixed:
                    self.error(
                        node.pos,
                        f"{node.path}: no such house option in this ruleset{_closest(field, options)}",
                    )
                    ok = False
            elif namespace not in namespaces:
                offered = ", ".join(n for n in namespaces)
                self.error(node.pos, f"{node.path}: {where} offers no '{namespace}' (it offers {offered})")
                ok = False
            elif field not in NAMESPACES[namespace]:
                self.error(
                    node.pos,
                    f"{node.path}: '{namespace}' has no fact '{field}'"
                    + _closest(field, NAMESPACES[namespace]),
                )
                ok = False
        return ok

    # ---- side bets ----
    def side_bets(self, params, options, fixed) -> dict[str, SideBetDef]:
        from validator.dsl.expr import unparse

        bets: dict[str, SideBetDef] = {}
        for sb in self.tree.side_bets:
            self.at("side_bet", sb.name)
            if sb.name in bets:
                self.error(sb.pos, f"side bet {sb.name!r} is declared twice")
                continue
            if sb.ref is None:
                self.error(sb.pos, f'side bet {sb.name!r} has no legal reference: add ref "…"')
                continue
            stake = sb.stake or sb.name
            if any(b.stake_name == stake for b in bets.values()):
                self.error(
                    sb.pos, f"side bet {sb.name!r}: another side bet's stakes are already named {stake!r}"
                )
                continue
            tables: dict[str, tuple[PayLine, ...]] = {}
            for table in sb.paytables:
                if table.name in tables:
                    self.error(table.pos, f"paytable {table.name!r} of {sb.name!r} is declared twice")
                    continue
                lines = []
                for line in table.lines:
                    ns = (*PAYTABLE_NAMESPACES, "table", "param", "house")
                    ok = self.check_names(line.when, ns, params, options, fixed, "a paytable line")
                    pays: ast.Ratio | str
                    winnings, prize = None, None
                    if isinstance(line.pays, ast.Ratio):
                        pays = line.pays
                        winnings = _ratio_winnings(pays)
                    else:
                        amount = ast.Name(line.pos, line.pays) if isinstance(line.pays, str) else line.pays
                        pays = unparse(amount)
                        if self.check_names(amount, ns, params, options, fixed, "a paytable line's amount"):
                            winnings = compile_expr(amount, _values(params))
                            prize = next(
                                (
                                    n.path
                                    for n in names_in(amount)
                                    if isinstance(n, ast.Name) and n.path in PRIZES
                                ),
                                None,
                            )
                        else:
                            ok = False
                    if ok:
                        lines.append(
                            PayLine(
                                line.label,
                                pays,
                                compile_expr(line.when, _values(params)),
                                unparse(line.when),
                                line.pos.line,
                                winnings,
                                prize,
                                frozenset(
                                    n.path.split(".")[0]
                                    for n in names_in(line.when)
                                    if isinstance(n, ast.Name)
                                ),
                            )
                        )
                tables[table.name] = tuple(lines)
            bets[sb.name] = SideBetDef(
                sb.name,
                sb.title or sb.name,
                sb.ref.text,
                sb.notes,
                tables,
                sb.pos.line,
                sb.stake or "",
                sb.cases,
            )
        return bets

    # ---- rules ----
    def rules(self, family, params, options, fixed, side_bets=None) -> tuple[Rule, ...]:
        side_bets = side_bets or {}
        rules: list[Rule] = []
        seen: dict[str, int] = {}
        values = _values(params)
        for r in self.tree.rules:
            self.at("rule", r.name)
            rule_id = f"{family}/{r.name}"
            if r.name in seen:
                self.error(r.pos, f"duplicate rule id {rule_id!r} (first on line {seen[r.name]})")
                continue
            seen[r.name] = r.pos.line
            single = {}
            for label, items in (
                ("ref", r.refs),
                ("severity", r.severities),
                ("message", r.messages),
                ("kind", r.kinds),
            ):
                if not items and label != "kind":
                    self.error(r.pos, f"rule {rule_id!r} has no {label}")
                elif len(items) > 1:
                    second = items[1]
                    pos = second.pos if isinstance(second, ast.Ref) else second[0]
                    self.error(pos, f"rule {rule_id!r} gives its {label} twice")
                if label == "ref":
                    single[label] = r.refs[0].text if r.refs else ""
                else:
                    single[label] = items[0][1] if items else ""  # type: ignore[index]
            if not r.checks and not r.settles:
                self.error(r.pos, f"rule {rule_id!r} checks nothing: give it an 'on … require' or a 'settle'")
            checks = []
            offered: set[str] = set()  # the namespaces the rule's events offer, for its message
            for c in r.checks:
                if c.event not in EVENTS:
                    self.error(c.pos, f"unknown event {c.event!r}{_closest(c.event, EVENTS)}")
                    continue
                ns = namespaces_for(c.event)
                offered.update(ns)
                where = f"event '{c.event}'"
                ok = c.guard is None or self.check_names(c.guard, ns, params, options, fixed, where)
                ok = self.check_names(c.require, ns, params, options, fixed, where) and ok
                if ok:
                    checks.append(
                        CheckDef(
                            event=c.event,
                            guard=compile_expr(c.guard, values) if c.guard else None,
                            require=compile_expr(c.require, values),
                            guard_node=c.guard,
                            require_node=c.require,
                            line=c.pos.line,
                        )
                    )
            settles = []
            for s in r.settles:
                if s.stake in SETTLE_STAKES:
                    ns = ("table", "param", "house", *SETTLE_STAKES[s.stake])
                elif s.stake in side_bets:
                    ns = ("table", "param", "house", *SIDE_SETTLE_NAMESPACES)
                else:
                    known = [*SETTLE_STAKES, *side_bets]
                    self.error(s.pos, f"unknown stake {s.stake!r} to settle{_closest(s.stake, known)}")
                    continue
                offered.update(ns)
                where = f"settling '{s.stake}'"
                ok = s.guard is None or self.check_names(s.guard, ns, params, options, fixed, where)
                if s.outcome.amount is not None:
                    ok = self.check_names(s.outcome.amount, ns, params, options, fixed, where) and ok
                amount = compile_expr(s.outcome.amount, values) if s.outcome.amount and ok else None
                if s.outcome.verb == "paytable":
                    if s.stake not in side_bets:
                        why = "only a side bet is settled by its paytables"
                        self.error(s.outcome.pos, f"'{s.stake}' is not a side bet: {why}")
                        continue
                    readers = self.table_readers(s.outcome.tables, side_bets[s.stake], options)
                    if readers is None:
                        continue
                    amount = _paytable_amount(side_bets[s.stake], readers)
                if ok:
                    settles.append(
                        SettleDef(
                            stake=s.stake,
                            guard=compile_expr(s.guard, values) if s.guard else None,
                            verb=s.outcome.verb,
                            amount=amount,
                            guard_node=s.guard,
                            amount_node=s.outcome.amount,
                            line=s.pos.line,
                            tables=tuple(t.name for t in s.outcome.tables),
                        )
                    )
            if r.messages and offered:
                message_pos = r.messages[0][0]
                for problem in placeholder_problems(r.messages[0][1], offered, params, [*options, *fixed]):
                    self.error(message_pos, problem)
            severity = single.get("severity") or "error"
            kind = single.get("kind") or ("payout" if settles and not checks else "procedure")
            rules.append(
                Rule(
                    id=rule_id,
                    name=r.name,
                    ref=single.get("ref", ""),
                    severity=severity,
                    kind=kind,
                    message=single.get("message", ""),
                    checks=tuple(checks),
                    settles=tuple(settles),
                    doc=dict(r.doc),
                    file=self.file,
                    line=r.pos.line,
                )
            )
        return tuple(rules)

    def table_readers(self, refs, bet: SideBetDef, options: dict[str, OptionDef]):
        """Each table a `=> paytable …` names, as a function of the context giving the table's name."""
        readers = []
        for ref in refs:
            if not ref.by_option:
                if ref.name not in bet.paytables:
                    hint = _closest(ref.name, bet.paytables)
                    self.error(ref.pos, f"side bet {bet.name!r} has no paytable {ref.name!r}{hint}")
                    return None
                readers.append(lambda ctx, name=ref.name: name)
                continue
            namespace, _, field = ref.name.partition(".")
            option = options.get(field)
            if namespace != "house" or option is None:
                self.error(
                    ref.pos, f"{ref.name}: a paytable is named by a house option of this ruleset (house.…)"
                )
                return None
            missing = [v for v in option.allowed or () if str(v) not in bet.paytables]
            if option.allowed is None or missing:
                self.error(
                    ref.pos,
                    f"option {field!r} may name a table that side bet {bet.name!r} does not have"
                    + (f" ({', '.join(map(str, missing))})" if missing else ": give it an 'in [...]' list"),
                )
                return None
            readers.append(lambda ctx, field=field: ctx["house"].get(field))
        return readers

    def compile(self) -> Ruleset:
        headers = self.headers()
        params = self.parameters()
        options = self.options()
        fixed = self.fixed(options)
        side_bets = self.side_bets(params, options, fixed)
        rules = self.rules(self.tree.family, params, options, fixed, side_bets)
        self.file = self.tree.file
        if self.errors:
            raise RulesetErrors(sorted(self.errors, key=lambda e: (e.line, e.column)))
        start, end = headers["in_force"]
        checks: dict[str, list] = {}
        settles: dict[str, list] = {}
        for rule in rules:
            for check in rule.checks:
                checks.setdefault(check.event, []).append((rule, check))
            for settle in rule.settles:
                settles.setdefault(settle.stake, []).append((rule, settle))
        return Ruleset(
            family=self.tree.family,
            title=headers["title"],
            source=headers["source"],
            game=headers["game"],
            valid_from=start,
            valid_until=end,
            notes=headers["notes"],
            parameters=params,
            options=options,
            fixed=fixed,
            side_bets=side_bets,
            rules=rules,
            file=self.tree.file,
            amends=f"{self.tree.amends.family}@{self.tree.amends.on.isoformat()}"
            if self.tree.amends
            else None,
            amendments=tuple(
                AmendmentInfo(a.citation, tuple((c.verb, c.kind, c.name) for c in a.changes))
                for a in self.tree.amendments
            ),
            checks_by_event={k: tuple(v) for k, v in checks.items()},
            settles_by_stake={k: tuple(v) for k, v in settles.items()},
            all_held_by_event={
                event: all_held(
                    [(c.guard_node, c.require_node) for _, c in pairs], _values(params), f"rules_on_{event}"
                )
                for event, pairs in checks.items()
            },
            first_settle_by_stake={
                stake: first_holding([s.guard_node for _, s in pairs], _values(params), f"settle_{stake}")
                for stake, pairs in settles.items()
            },
        )


def _ratio_winnings(ratio: ast.Ratio):
    factor = ratio.factor

    def winnings(ctx: Any) -> Decimal:
        return ctx["stake"].amount * factor

    return winnings


def _paytable_amount(bet: SideBetDef, readers):
    """`=> paytable T and U`: in each table, the first line whose condition holds pays; the stake gets
    the sum, or is lost when no line of any table holds."""
    from validator.dsl.expr import EvaluationError

    def outcome(ctx: Any) -> PaytableOutcome:
        total: Decimal | None = None
        labels: list[str] = []
        for read in readers:
            name = read(ctx)
            lines = bet.paytables.get(str(name)) if name is not None else None
            if lines is None:
                raise EvaluationError(f"side bet {bet.name} has no paytable {format_value(name)}")
            for line in lines:
                if line.when(ctx):
                    won = line.winnings(ctx) if line.winnings is not None else None
                    if won is None:
                        raise EvaluationError(f"{bet.name}: the amount of « {line.label} » is not known")
                    total = won if total is None else total + won
                    labels.append(line.label)
                    break
        return PaytableOutcome(total, tuple(labels))

    return outcome


def _show(value: Any) -> str:
    if isinstance(value, Decimal):
        return format(value, "f")
    return format_value(value)


def _values(params: dict[str, ParamValue]) -> dict[str, Any]:
    return {name: p.value for name, p in params.items()}


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, Decimal):
        return "number"
    if isinstance(value, ast.Ratio):
        return "ratio"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return "list"
    return "symbol"


def _type_problem(type_: str, value: ast.Value, symbols: tuple[str, ...]) -> str | None:
    kind = value.kind
    if type_ == "int":
        ok = kind == "number" and value.value == value.value.to_integral_value()
    elif type_ == "int_or_none":
        ok = kind == "none" or (kind == "number" and value.value == value.value.to_integral_value())
    elif type_ == "bool":
        ok = kind == "bool"
    elif type_ == "ratio":
        ok = kind in ("ratio", "none")
    elif type_ == "decimal":
        ok = kind in ("number", "none")
    elif type_ == "list":
        ok = kind == "list"
    elif type_ == "symbol":
        if kind != "symbol" or value.value not in symbols:
            return f"must be one of {', '.join(symbols)}, not {_show(value.value)}"
        ok = True
    else:  # pragma: no cover - vocabulary types are closed
        ok = False
    return None if ok else f"must be {_TYPE_WORDS[type_]}, not {_show(value.value)}"


def _option_type_problem(type_: str, value: ast.Value) -> str | None:
    if value.kind == "none":
        return None
    expected = {
        "bool": ("bool",),
        "int": ("number",),
        "decimal": ("number",),
        "ratio": ("ratio",),
        "choice": ("symbol", "string"),
    }[type_]
    if value.kind not in expected:
        return f"{_show(value.value)} is not a {type_}"
    if type_ == "int" and value.value != value.value.to_integral_value():
        return f"{value.value} is not a whole number"
    return None


_TYPE_WORDS = {
    "int": "a whole number",
    "int_or_none": "a whole number or none",
    "bool": "true or false",
    "ratio": "a ratio such as 3:2 (or none)",
    "decimal": "a number (or none)",
    "list": "a list such as [3, 3]",
}


def _amended_version(amends: ast.Amends | None) -> str | None:
    return f"{amends.family}@{amends.on.isoformat()}" if amends else None


def compile_ruleset(tree: ast.RulesetFile) -> Ruleset:
    return _Compiler(tree).compile()
