"""Syntax tree → `Ruleset`, with every error of meaning reported at FILE:LINE:COL.

The checks: the header is complete and said once; dates make a range; every parameter is one the
game knows, with a value of its type; every option has a reference and a default it allows; rule ids
are unique; every name in a condition is a fact the event offers, a parameter this ruleset sets, or
an option it declares.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from validator.dsl import ast
from validator.dsl.aliases import clashes
from validator.dsl.expr import compile_expr, format_value, names_in, plain_value, unparse
from validator.dsl.fold import Defines, fold, specialize
from validator.dsl.functions import FUNCTIONS, EvaluationError
from validator.dsl.limits import size_problems
from validator.dsl.messages import PLACEHOLDER, placeholder_problems
from validator.dsl.model import (
    AddressDef,
    AmendmentInfo,
    CheckDef,
    CheckSource,
    CompiledPayLine,
    ConditionDef,
    FixedDef,
    HouseChecks,
    NoteDef,
    OptionDef,
    ParamValue,
    PaytableOutcome,
    ProvisionDef,
    Rule,
    Ruleset,
    SettleDef,
    SideBetDef,
    generated_checks,
)
from validator.dsl.provisions import CitationError, Key, key_of
from validator.dsl.reach import PAYTABLE, SETTLE, SIDE_SETTLE, unreachable
from validator.dsl.readings import info as readings_info
from validator.dsl.readings import problems as reading_problems
from validator.dsl.vocabulary import (
    EVENTS,
    NAMESPACES,
    OWN_EVENTS,
    OWN_FACTS,
    OWN_PARAMETERS,
    OWN_STAKES,
    PARAMETERS,
    PAYTABLE_NAMESPACES,
    SETTLE_STAKES,
    SIDE_SETTLE_NAMESPACES,
    ParamSpec,
    namespaces_for,
)
from validator.errors import RulesetError, RulesetErrors
from validator.games import GAMES as REGISTERED
from validator.i18n import N_, _

# The games a ruleset may name, as their packages declare themselves (validator/games/).
GAMES = tuple(REGISTERED)
# A word of the rules language that only other games' rounds give: the games it belongs to, joined.
FOREIGN_EVENT = N_("event {event!r} is a {owners} event: a {game} round never gives it")
FOREIGN_FACT = N_("{fact} is a {owners} fact: a {game} round never sets it")
FOREIGN_PARAMETER = N_("parameter {name!r} is a {owners} parameter: a {game} round never plays by it")
UNKNOWN_EVENT = N_("unknown event {event!r}{hint}")
UNKNOWN_PARAMETER = N_("unknown parameter {name!r}{hint}")
FOREIGN_STAKE = N_("stake {stake!r} is a {owners} stake: a {game} round never has one")
# Amounts a paytable line may pay out whole, shared between the hands it pays (JP1's meters).
PRIZES = ("jackpot.main", "jackpot.secondary")
_HEADERS_REQUIRED = ("title", "source", "game", "in_force")


def _closest(word: str, choices: Iterable[str]) -> str:
    match = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return _("; did you mean {name!r}?").format(name=match[0]) if match else ""


def _foreign_owners(game: str | None, owned: dict[str, tuple[str, ...]], word: str) -> str | None:
    """The games (joined with "or") whose own word this is (`owned`: vocabulary.OWN_EVENTS, …), when
    `game` is not one of them; None when the word is the game's own or every game's (or the ruleset
    names no known game)."""
    if game is None:
        return None
    owners = owned.get(word, ())
    return " or ".join(owners) if owners and game not in owners else None


@dataclass(frozen=True, slots=True)
class _Scope:
    """What a version's conditions may name, as the passes before the rules found it: its parameters
    (and their values, folded into each condition), its house options and fixed names, its side bets."""

    params: dict[str, ParamValue]
    options: dict[str, OptionDef]
    fixed: dict[str, FixedDef]
    values: dict[str, Any]
    side_bets: dict[str, SideBetDef]


class _Compiler:
    def __init__(self, tree: ast.RulesetFile) -> None:
        self.tree = tree
        self.errors: list[RulesetError] = []
        # The file of the item being compiled: a consolidated version inherits items written elsewhere.
        self.file = tree.file
        # Named conditions (`define`), and those being checked where they are cited (to catch a cycle).
        self.defines: dict[str, ast.Define] = {}
        self.citing: list[str] = []
        # The game the ruleset names (None until the header is read, or when it names none known): the
        # events and facts other games own are not its vocabulary.
        self.game: str | None = None
        self.address_line = 0  # the line of `address` (the header's, where it is written)

    def bodies(self) -> dict[str, ast.Expr]:
        return {name: d.body for name, d in self.defines.items()}

    def error(self, pos: ast.Pos, message: str) -> None:
        self.errors.append(RulesetError(self.file, pos.line, pos.column, message))

    def at(self, kind: str, name: str) -> None:
        self.file = self.tree.file_of(kind, name)

    # ---- header ----
    def headers(self) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        notes: list[NoteDef] = []
        for header in self.tree.headers:
            if header.key == "note":
                notes.append(NoteDef(header.value, header.pos.line, {}))
                continue
            if header.key == "note_lang":
                lang, text = header.value
                if lang not in TRANSLATED:
                    self.error(
                        header.pos,
                        _("note {lang}: {lang!r} is not a language a note is translated into (fr)").format(
                            lang=lang
                        ),
                    )
                elif not notes or notes[-1].line > header.pos.line:
                    self.error(
                        header.pos,
                        _('note {lang} translates the note just before it: write note "…" first').format(
                            lang=lang
                        ),
                    )
                elif lang in notes[-1].translations:
                    self.error(
                        header.pos,
                        _("the note of line {line} is given in {lang!r} twice").format(
                            line=notes[-1].line, lang=lang
                        ),
                    )
                else:
                    notes[-1].translations[lang] = text
                continue
            if header.key in seen:
                self.error(header.pos, _("'{key}' is given twice").format(key=header.key))
                continue
            seen[header.key] = header.value
            if header.key == "game" and header.value not in GAMES:
                self.error(
                    header.pos,
                    _("unknown game {game!r}: choose one of {games}").format(
                        game=header.value, games=", ".join(GAMES)
                    ),
                )
            elif header.key == "game":
                self.game = header.value
            if header.key == "address":
                self.address(header)
            if header.key == "in_force":
                start, end = header.value
                if start is not None and end is not None and end < start:
                    self.error(
                        header.pos,
                        _("bad date range: in force until {end} before it starts on {start}").format(
                            end=end.isoformat(), start=start.isoformat()
                        ),
                    )
        for key in _HEADERS_REQUIRED:
            if key not in seen:
                shown = "in force from" if key == "in_force" else key  # i18n: not shown (a keyword)
                self.error(self.tree.family_pos, _("the ruleset does not say its '{key}'").format(key=shown))
        seen["notes"] = tuple(notes)
        return seen

    def address(self, header: ast.Header) -> None:
        """An address is a web address (http or https); `address none` translates its reason into the
        languages a ruleset is translated into."""
        address: ast.Address = header.value
        self.address_line = header.pos.line
        if address.url is not None and not address.url.startswith(("https://", "http://")):
            self.error(
                header.pos,
                _(
                    'address {url!r} is not a web address (https://…): write address none "why" for a text '
                    "that has none"
                ).format(url=address.url),
            )
        for lang, _text in address.translations:
            if lang not in TRANSLATED:
                self.error(
                    header.pos,
                    _(
                        "address none {lang}: {lang!r} is not a language a reason is translated into (fr)"
                    ).format(lang=lang),
                )

    def known_word(
        self,
        pos: ast.Pos,
        word: str,
        known: Collection[str],
        owned: dict[str, tuple[str, ...]],
        unknown: str,
        foreign: str,
        key: str,
    ) -> bool:
        """A parameter or an event a ruleset names: one the vocabulary knows (else the message `unknown`,
        with the closest word), and its game's own or every game's (else `foreign`, naming the games whose
        word it is). `key` is the placeholder the messages name the word by."""
        if word not in known:
            self.error(pos, _(unknown).format(**{key: word}, hint=_closest(word, known)))
            return False
        if (owners := _foreign_owners(self.game, owned, word)) is not None:
            self.error(pos, _(foreign).format(**{key: word}, owners=owners, game=self.game))
            return False
        return True

    # ---- parameters ----
    def parameters(self) -> dict[str, ParamValue]:
        params: dict[str, ParamValue] = {}
        for p in self.tree.parameters:
            self.at("parameter", p.name)
            known = self.known_word(
                p.pos, p.name, PARAMETERS, OWN_PARAMETERS, UNKNOWN_PARAMETER, FOREIGN_PARAMETER, "name"
            )
            if not known:
                continue
            spec = PARAMETERS[p.name]
            if p.name in params:
                self.error(
                    p.pos,
                    _("parameter {name!r} is set twice (first on line {line})").format(
                        name=p.name, line=params[p.name].line
                    ),
                )
                continue
            problem = _type_problem(spec.type, p.value, spec.symbols)
            if problem:
                self.error(
                    p.value.pos, _("parameter {name!r} {problem}").format(name=p.name, problem=problem)
                )
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
                    o.pos,
                    _("option {name!r} is declared twice (first on line {line})").format(
                        name=o.name, line=options[o.name].line
                    ),
                )
                continue
            if o.ref is None:
                self.error(
                    o.pos, _('option {name!r} has no legal reference: add ref "…"').format(name=o.name)
                )
                continue
            allowed: tuple[Any, ...] | None = None
            bounds: tuple[Decimal, Decimal] | None = None
            if o.allowed is not None and o.allowed_is_range:
                low, high = o.allowed  # a range's two ends are numbers (the grammar's `range`)
                assert isinstance(low, Decimal) and isinstance(high, Decimal)
                bounds = (low, high)
                if low > high:
                    self.error(
                        o.pos,
                        _("option {name!r}: empty range {low}..{high}").format(
                            name=o.name, low=low, high=high
                        ),
                    )
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
                aliases=o.aliases,
            )
            if o.default is not None:
                problem = _option_type_problem(o.type, o.default)
                if problem:
                    self.error(
                        o.default.pos,
                        _("option {name!r}: default {problem}").format(name=o.name, problem=problem),
                    )
                elif default is not None and not opt.allows(default):
                    self.error(
                        o.default.pos,
                        _("option {name!r}: default {value} is not an allowed value").format(
                            name=o.name, value=_show(default)
                        ),
                    )
            for value in allowed or ():
                problem = _option_type_problem(o.type, ast.Value(o.pos, value, _kind_of(value)))
                if problem:
                    self.error(
                        o.pos,
                        _("option {name!r}: allowed value {problem}").format(name=o.name, problem=problem),
                    )
            options[o.name] = opt
        return options

    def fixed(self, options: dict[str, OptionDef]) -> dict[str, FixedDef]:
        fixed: dict[str, FixedDef] = {}
        for f in self.tree.fixed:
            self.at("fixed", f.name)
            if f.name in options or f.name in fixed:
                self.error(
                    f.pos,
                    _("{name!r} is both fixed and declared elsewhere in this ruleset").format(name=f.name),
                )
                continue
            fixed[f.name] = FixedDef(f.name, f.value.value, f.ref.text, f.pos.line, f.aliases)
        return fixed

    def alias_clashes(
        self, options: dict[str, OptionDef], fixed: dict[str, FixedDef], side_bets: dict[str, SideBetDef]
    ) -> None:
        """A word a house file could read two ways (`alias` on two names of one block, or an alias that
        is another name there) is an error at the line of the second name."""
        for clash in clashes(options, fixed, side_bets):
            full = (
                clash.name if clash.place in ("options", "side_bets") else f"{clash.place[10:]}.{clash.name}"
            )
            self.at(clash.kind, full)
            self.error(
                ast.Pos(clash.line, 1),
                _(
                    'alias "{word}" of {name} is also {other} under {place} in a house file: '
                    "give each word to one name"
                ).format(word=clash.word, name=clash.name, other=clash.other, place=clash.place),
            )

    # ---- expressions ----
    def check_names(
        self, expr: ast.Expr, namespaces: tuple[str, ...], scope: _Scope, where: str, place: str | None
    ) -> bool:
        """Every name in `expr` is one it may read at `place` (`where`, in words): a fact its namespaces
        offer, a parameter this version sets, a house option it declares, a named condition, a variable
        an `any` binds, a function with its number of arguments. Each problem is reported at its name."""
        ok = True
        for pos in _zero_divisors(expr, scope.values):
            self.error(pos, _("division by zero: the divisor is 0 whatever the round"))
            ok = False
        bound = {n.var: n for n in _any_of_in(expr)}
        ok = self.any_of_lists(bound.values()) and ok
        for node in names_in(expr):
            if isinstance(node, ast.Call):
                ok = self.known_call(node) and ok
            elif "." not in node.path:
                ok = self.bare_name(node, bound, namespaces, scope, where, place) and ok
            else:
                ok = self.known_path(node, namespaces, scope, where, place) and ok
        return ok

    def any_of_lists(self, any_ofs: Iterable[ast.AnyOf]) -> bool:
        """`any x in param.…`: the values an `any` runs over are a list parameter."""
        ok = True
        for any_of in any_ofs:
            field = any_of.collection.removeprefix("param.")
            if not any_of.collection.startswith("param.") or PARAMETERS.get(field, _NO_SPEC).type != "list":
                self.error(
                    any_of.pos,
                    _("any {var} in {collection}: the values must be a list parameter (param.…)").format(
                        var=any_of.var, collection=any_of.collection
                    ),
                )
                ok = False
        return ok

    def known_call(self, node: ast.Call) -> bool:
        """A call names a function of the rules language, with as many arguments as it takes."""
        function = FUNCTIONS.get(node.function)
        if function is None:
            self.error(
                node.pos,
                _("unknown function {name!r}{hint}").format(
                    name=node.function, hint=_closest(node.function, FUNCTIONS)
                ),
            )
            return False
        if len(node.args) != function.arity:
            self.error(
                node.pos,
                _("{name}() takes {arity} argument(s), not {count}").format(
                    name=node.function, arity=function.arity, count=len(node.args)
                ),
            )
            return False
        return True

    def bare_name(
        self,
        node: ast.Name,
        bound: dict[str, ast.AnyOf],
        namespaces: tuple[str, ...],
        scope: _Scope,
        where: str,
        place: str | None,
    ) -> bool:
        """A name without a namespace: a variable an `any` binds, or a named condition (checked where it
        is cited)."""
        if node.path in bound:
            return True
        if node.path in self.defines:
            return self.cite(node, namespaces, scope, where, place)
        known = [*bound, *self.defines]
        self.error(
            node.pos, _("unknown name {name!r}{hint}").format(name=node.path, hint=_closest(node.path, known))
        )
        return False

    def known_path(
        self, node: ast.Name, namespaces: tuple[str, ...], scope: _Scope, where: str, place: str | None
    ) -> bool:
        """`namespace.field`: a fact set by the time `place` reads it, or a parameter or house option."""
        problem = unreachable(node.path, place) if place is not None else None
        if not problem:
            problem = self.path_problem(node.path, namespaces, scope, where)
        if problem:
            self.error(node.pos, problem)
            return False
        return True

    def path_problem(self, path: str, namespaces: tuple[str, ...], scope: _Scope, where: str) -> str | None:
        """What is wrong with `namespace.field` where `namespaces` are offered, if anything."""
        namespace, _unused, field = path.partition(".")
        if namespace == "param":
            if field in scope.params:
                return None
            hint = _("not a parameter") if field not in PARAMETERS else _("not set in this ruleset")
            return _("{path}: {problem}{hint}").format(
                path=path, problem=hint, hint=_closest(field, scope.params)
            )
        if namespace == "house":
            if field in scope.options or field in scope.fixed:
                return None
            return _("{path}: no such house option in this ruleset{hint}").format(
                path=path, hint=_closest(field, scope.options)
            )
        if namespace not in namespaces:
            offered = ", ".join(n for n in namespaces)
            return _("{path}: {where} offers no '{namespace}' (it offers {offered})").format(
                path=path, where=where, namespace=namespace, offered=offered
            )
        if field not in NAMESPACES[namespace]:
            return _("{path}: '{namespace}' has no fact '{field}'{hint}").format(
                path=path, namespace=namespace, field=field, hint=_closest(field, NAMESPACES[namespace])
            )
        if (owners := _foreign_owners(self.game, OWN_FACTS, path)) is not None:
            return _(FOREIGN_FACT).format(fact=path, owners=owners, game=self.game)
        return None

    def cite(
        self, node: ast.Name, namespaces: tuple[str, ...], scope: _Scope, where: str, place: str | None
    ) -> bool:
        """A named condition cited at `node`: its condition checked with the facts of the place that
        cites it; a problem is reported at the citation."""
        name = node.path
        if name in self.citing:
            self.error(node.pos, _("condition {name!r} is defined in terms of itself").format(name=name))
            return False
        before = len(self.errors)
        self.citing.append(name)
        try:
            ok = self.check_names(self.defines[name].body, namespaces, scope, where, place)
        finally:
            self.citing.pop()
        problems = self.errors[before:]
        del self.errors[before:]
        for problem in problems[:1]:
            line = self.defines[name].pos.line
            self.error(
                node.pos,
                _("condition {name!r} (line {line}): {problem}").format(
                    name=name, line=line, problem=problem.detail
                ),
            )
        return ok and not problems

    def named_conditions(self, scope: _Scope) -> None:
        """`define NAME = condition`: said once, its names known facts, parameters or options."""
        for d in self.tree.defines:
            self.at("define", d.name)
            if d.name in self.defines:
                first = self.defines[d.name].pos.line
                self.error(
                    d.pos,
                    _("condition {name!r} is defined twice (first on line {line})").format(
                        name=d.name, line=first
                    ),
                )
                continue
            self.defines[d.name] = d
        every = tuple(NAMESPACES)
        for d in self.defines.values():
            self.at("define", d.name)
            self.citing.append(d.name)
            self.check_names(d.body, every, scope, _("a named condition"), None)
            self.citing.pop()

    def uncited_conditions(self) -> None:
        cited = {
            n.path
            for expr in _expressions(self.tree)
            for n in names_in(expr)
            if isinstance(n, ast.Name) and "." not in n.path
        }
        for d in self.defines.values():
            if d.name not in cited:
                self.at("define", d.name)
                self.error(
                    d.pos,
                    _("condition {name!r} is cited by no rule or paytable line: cite it or remove it").format(
                        name=d.name
                    ),
                )

    # ---- side bets ----
    def side_bets(self, scope: _Scope) -> dict[str, SideBetDef]:
        bets: dict[str, SideBetDef] = {}
        for sb in self.tree.side_bets:
            self.at("side_bet", sb.name)
            if not self.new_side_bet(sb, bets):
                continue
            assert sb.ref is not None  # new_side_bet refuses a side bet without one
            tables: dict[str, tuple[CompiledPayLine, ...]] = {}
            for table in sb.paytables:
                if table.name in tables:
                    self.error(
                        table.pos,
                        _("paytable {table!r} of {bet!r} is declared twice").format(
                            table=table.name, bet=sb.name
                        ),
                    )
                    continue
                compiled = (self.pay_line(line, scope) for line in table.lines)
                tables[table.name] = tuple(line for line in compiled if line is not None)
            bets[sb.name] = SideBetDef(
                sb.name,
                sb.title or sb.name,
                sb.ref.text,
                sb.notes,
                tables,
                sb.pos.line,
                sb.stake or "",
                sb.cases,
                sb.aliases,
            )
        return bets

    def new_side_bet(self, sb: ast.SideBet, bets: dict[str, SideBetDef]) -> bool:
        """A side bet is declared once, with a legal reference, and its stakes have a name of their own."""
        if sb.name in bets:
            self.error(sb.pos, _("side bet {name!r} is declared twice").format(name=sb.name))
            return False
        if sb.ref is None:
            self.error(
                sb.pos, _('side bet {name!r} has no legal reference: add ref "…"').format(name=sb.name)
            )
            return False
        stake = sb.stake or sb.name
        if any(b.stake_name == stake for b in bets.values()):
            self.error(
                sb.pos,
                _("side bet {name!r}: another side bet's stakes are already named {stake!r}").format(
                    name=sb.name, stake=stake
                ),
            )
            return False
        return True

    def pay_line(self, line: ast.PayLine, scope: _Scope) -> CompiledPayLine | None:
        """A paytable line: its condition and its amount (a ratio of the stake, or an expression such as
        a share of the jackpot), checked and compiled; None when either has a problem."""
        ns = (*PAYTABLE_NAMESPACES, "table", "param", "house")
        ok = self.check_names(line.when, ns, scope, _("a paytable line"), PAYTABLE)
        pays: ast.Ratio | str
        winnings, prize = None, None
        pays_node: ast.Expr | None = None
        if isinstance(line.pays, ast.Ratio):
            pays = line.pays
            winnings = _ratio_winnings(pays)
        else:
            amount = ast.Name(line.pos, line.pays) if isinstance(line.pays, str) else line.pays
            pays = unparse(amount)
            if self.check_names(amount, ns, scope, _("a paytable line's amount"), PAYTABLE):
                # Named conditions in their place (a share of the jackpot written once).
                pays_node = specialize(amount, scope.values, self.bodies())
                winnings = compile_expr(pays_node, scope.values)
                prize = next(
                    (n.path for n in names_in(pays_node) if isinstance(n, ast.Name) and n.path in PRIZES),
                    None,
                )
            else:
                ok = False
        if not ok:
            return None
        when = specialize(line.when, scope.values, self.bodies())
        return CompiledPayLine(
            line.label,
            pays,
            compile_expr(when, scope.values),
            unparse(when),
            line.pos.line,
            winnings,
            prize,
            written=unparse(line.when),
            reads=frozenset(
                n.path.split(".")[0]
                for n in names_in(when)  # named conditions in their place
                if isinstance(n, ast.Name)
            ),
            when_node=when,
            amount_node=pays_node,
        )

    # ---- rules ----
    def rules(self, family: str, scope: _Scope) -> tuple[Rule, ...]:
        """Each rule, its id said once, compiled clause by clause (`rule`)."""
        rules: list[Rule] = []
        seen: dict[str, int] = {}
        for r in self.tree.rules:
            self.at("rule", r.name)
            rule_id = f"{family}/{r.name}"
            if r.name in seen:
                self.error(
                    r.pos,
                    _("duplicate rule id {rule!r} (first on line {line})").format(
                        rule=rule_id, line=seen[r.name]
                    ),
                )
                continue
            seen[r.name] = r.pos.line
            rule = self.rule(r, rule_id, scope)
            if rule is not None:
                rules.append(rule)
        return tuple(rules)

    def rule(self, r: ast.RuleDecl, rule_id: str, scope: _Scope) -> Rule | None:
        """One rule: its fields said once, its checks and settle clauses compiled, its message's
        placeholders facts its clauses offer; None when it takes a check that was not looked up."""
        single = self.rule_fields(r, rule_id)
        same = r.same_checks[0] if r.same_checks else None
        if same is not None and not same.version:
            # `dsl.cite` fills in the citation when the registry loads the version; a tree compiled
            # without it cannot know the cited rule's clauses.
            self.error(
                same.pos,
                _("rule {rule!r}: the check of {cited} was not looked up").format(
                    rule=rule_id, cited=same.cited
                ),
            )
            return None
        if not r.checks and not r.settles:
            self.error(
                r.pos,
                _("rule {rule!r} checks nothing: give it an 'on … require' or a 'settle'").format(
                    rule=rule_id
                ),
            )
        taken_from = len(self.errors)
        offered: set[str] = set()  # the namespaces the rule's events offer, for its message
        checks = [check for c in r.checks if (check := self.check(c, scope, offered)) is not None]
        settles = [settle for s in r.settles if (settle := self.settle(s, scope, offered)) is not None]
        if same is not None:
            self.taken(taken_from, same, rule_id)
        names = [*scope.options, *scope.fixed]
        if r.messages and offered:
            message_pos = r.messages[0][0]
            for problem in placeholder_problems(r.messages[0][1], offered, scope.params, names):
                self.error(message_pos, problem)
        return Rule(
            id=rule_id,
            name=r.name,
            ref=single.get("ref", ""),
            severity=single.get("severity") or "error",
            kind=single.get("kind") or ("payout" if settles and not checks else "procedure"),
            message=single.get("message", ""),
            checks=tuple(checks),
            settles=tuple(settles),
            doc=dict(r.doc),
            file=self.file,
            line=r.pos.line,
            translations=self.translations(r, rule_id, offered, scope.params, names),
            same_check=CheckSource(
                same.cited, same.version, f"{same.family}/{same.rule}", same.file, same.line
            )
            if same is not None
            else None,
        )

    def rule_fields(self, r: ast.RuleDecl, rule_id: str) -> dict[str, str]:
        """A rule's ref, severity, message and kind: each said once, all but the kind said."""
        single = {}
        for label, items in (
            ("ref", r.refs),
            ("severity", r.severities),
            ("message", r.messages),
            ("kind", r.kinds),
        ):
            if not items and label != "kind":
                self.error(r.pos, _("rule {rule!r} has no {label}").format(rule=rule_id, label=label))
            elif len(items) > 1:
                second = items[1]
                pos = second.pos if isinstance(second, ast.Ref) else second[0]
                self.error(pos, _("rule {rule!r} gives its {label} twice").format(rule=rule_id, label=label))
            if label == "ref":
                single[label] = r.refs[0].text if r.refs else ""
            else:
                single[label] = items[0][1] if items else ""  # type: ignore[index]
        return single

    def check(self, c: ast.Check, scope: _Scope, offered: set[str]) -> CheckDef | None:
        """`on EVENT [when GUARD] require CONDITION`: an event of the game, its names ones the event
        offers, compiled with the version's parameters and named conditions in their place."""
        if not self.known_word(c.pos, c.event, EVENTS, OWN_EVENTS, UNKNOWN_EVENT, FOREIGN_EVENT, "event"):
            return None
        ns = namespaces_for(c.event)
        offered.update(ns)
        where = _("event '{event}'").format(event=c.event)
        ok = c.guard is None or self.check_names(c.guard, ns, scope, where, c.event)
        ok = self.check_names(c.require, ns, scope, where, c.event) and ok
        if not ok:
            return None
        guard = _guard(c.guard, scope.values, self.bodies())
        require = specialize(c.require, scope.values, self.bodies())
        return CheckDef(
            event=c.event,
            guard=compile_expr(guard, scope.values) if guard is not None else None,
            require=compile_expr(require, scope.values),
            guard_node=c.guard,
            require_node=c.require,
            line=c.pos.line,
            applied_guard=guard,
            applied_require=require,
        )

    def settle_namespaces(self, s: ast.Settle, side_bets: dict[str, SideBetDef]) -> tuple[str, ...] | None:
        """What a settle clause of `s.stake` may read: the table, the version, and the stake's own facts
        (a main stake's, or a side bet's); None when the stake is not one of the game's."""
        if (owners := _foreign_owners(self.game, OWN_STAKES, s.stake)) is not None:
            self.error(s.pos, _(FOREIGN_STAKE).format(stake=s.stake, owners=owners, game=self.game))
            return None
        if s.stake in SETTLE_STAKES:
            return ("table", "param", "house", *SETTLE_STAKES[s.stake])
        if s.stake in side_bets:
            return ("table", "param", "house", *SIDE_SETTLE_NAMESPACES)
        known = [*SETTLE_STAKES, *side_bets]
        self.error(
            s.pos,
            _("unknown stake {stake!r} to settle{hint}").format(stake=s.stake, hint=_closest(s.stake, known)),
        )
        return None

    def settle(self, s: ast.Settle, scope: _Scope, offered: set[str]) -> SettleDef | None:
        """`settle STAKE [when GUARD] => outcome [amount | paytable …]`: a stake of the game, its names
        ones the stake's settlement offers, a paytable only for a side bet."""
        ns = self.settle_namespaces(s, scope.side_bets)
        if ns is None:
            return None
        offered.update(ns)
        where = _("settling '{stake}'").format(stake=s.stake)
        place = SETTLE if s.stake in SETTLE_STAKES else SIDE_SETTLE
        ok = s.guard is None or self.check_names(s.guard, ns, scope, where, place)
        if s.outcome.amount is not None:
            ok = self.check_names(s.outcome.amount, ns, scope, where, place) and ok
        values = scope.values
        amount_node = specialize(s.outcome.amount, values, self.bodies()) if s.outcome.amount and ok else None
        amount = compile_expr(amount_node, values) if amount_node is not None else None
        if s.outcome.verb == "paytable":
            if s.stake not in scope.side_bets:
                self.error(
                    s.outcome.pos,
                    _("'{stake}' is not a side bet: only a side bet is settled by its paytables").format(
                        stake=s.stake
                    ),
                )
                return None
            readers = self.table_readers(s.outcome.tables, scope.side_bets[s.stake], scope.options)
            if readers is None:
                return None
            amount = _paytable_amount(scope.side_bets[s.stake], readers)
        if not ok:
            return None
        settle_guard = _guard(s.guard, values, self.bodies())
        return SettleDef(
            stake=s.stake,
            guard=compile_expr(settle_guard, values) if settle_guard is not None else None,
            verb=s.outcome.verb,
            amount=amount,
            guard_node=s.guard,
            amount_node=s.outcome.amount,
            applied_guard=settle_guard,
            line=s.pos.line,
            tables=tuple(t.name for t in s.outcome.tables),
            applied_amount=amount_node,
        )

    def taken(self, before: int, same: ast.SameCheck, rule_id: str) -> None:
        """The problems found in a cited rule's clauses (written in another file, read here with this
        ruleset's parameters, options, conditions and game), each reported at the citation, saying where
        in the cited file it lies."""
        problems = self.errors[before:]
        del self.errors[before:]
        for problem in problems:
            self.error(
                same.pos,
                _(
                    "rule {rule!r} takes the check of {cited} ({file}:{line}), which does not fit "
                    "here: {problem}"
                ).format(
                    rule=rule_id, cited=same.cited, file=same.file, line=problem.line, problem=problem.detail
                ),
            )

    def translations(
        self,
        r: ast.RuleDecl,
        rule_id: str,
        offered: set[str],
        params: Collection[str],
        options: Collection[str],
    ) -> dict[str, dict[str, str]]:
        """A rule's French message and docs, each beside its English. A French field without its English
        is an error, and so is a French message whose placeholders are not the English one's. An English
        field without its French is refused by `rules check` (`untranslated`), and shown in English
        meanwhile: a ruleset being written still loads."""
        english: dict[str, tuple[ast.Pos, str]] = {}
        for pos, text in r.messages[:1]:
            english["message"] = (pos, text)
        for key, text in r.doc:
            english.setdefault(key, (r.pos, text))
        given: dict[str, dict[str, tuple[ast.Pos, str]]] = {}
        for lang, key, text, pos in r.translations:
            fields = given.setdefault(lang, {})
            if key in fields:
                self.error(
                    pos,
                    _("rule {rule!r} gives its {key} in {lang!r} twice").format(
                        rule=rule_id, key=key, lang=lang
                    ),
                )
            fields[key] = (pos, text)
        out: dict[str, dict[str, str]] = {}
        for lang in TRANSLATED:
            fields = given.get(lang, {})
            for key, (pos, text) in fields.items():
                if key not in english:
                    self.error(
                        pos,
                        _("rule {rule!r} has its {key} in {lang!r} only: write it in English too").format(
                            rule=rule_id, key=key, lang=lang
                        ),
                    )
                elif key == "message":
                    if sorted(PLACEHOLDER.findall(text)) != sorted(PLACEHOLDER.findall(english[key][1])):
                        self.error(
                            pos,
                            _(
                                "rule {rule!r}: the {lang!r} message's placeholders must be the English "
                                "message's, each as many times"
                            ).format(rule=rule_id, lang=lang),
                        )
                    elif offered:
                        for problem in placeholder_problems(text, offered, params, options):
                            self.error(pos, problem)
            out[lang] = {key: text for key, (_unused, text) in fields.items()}
        for lang in given.keys() - set(TRANSLATED):
            pos = next(iter(given[lang].values()))[0]
            self.error(
                pos,
                _("rule {rule!r}: {lang!r} is not a language of the rulesets (en, fr)").format(
                    rule=rule_id, lang=lang
                ),
            )
        return out

    def unread_parameters(self, params: dict[str, ParamValue]) -> None:
        """A parameter is the law only if something applies it: a rule's condition, settle clause or
        message, a paytable line, or the game mechanics (a parameter the vocabulary declares Python
        reads, through `Ruleset.param`). Anything else is refused where it is set."""
        read = _parameters_read(self.tree)
        for p in self.tree.parameters:
            if p.name not in params or p.name in read or PARAMETERS[p.name].mechanics:
                continue
            self.at("parameter", p.name)
            self.error(
                p.pos,
                _(
                    "parameter {name!r} is read by no rule of this version and by no game mechanics: "
                    "a rule must apply it (param.{name}), or it goes (what the text says lives in the "
                    "rule that states it)"
                ).format(name=p.name),
            )

    def table_readers(
        self, refs: Iterable[ast.TableRef], bet: SideBetDef, options: dict[str, OptionDef]
    ) -> list[_TableReader] | None:
        """Each table a `=> paytable …` names, as a function of the context giving the table's name."""
        readers: list[_TableReader] = []
        for ref in refs:
            if not ref.by_option:
                if ref.name not in bet.paytables:
                    hint = _closest(ref.name, bet.paytables)
                    self.error(
                        ref.pos,
                        _("side bet {bet!r} has no paytable {table!r}{hint}").format(
                            bet=bet.name, table=ref.name, hint=hint
                        ),
                    )
                    return None
                readers.append(_named_table(ref.name))
                continue
            namespace, _unused, field = ref.name.partition(".")
            option = options.get(field)
            if namespace != "house" or option is None:
                self.error(
                    ref.pos,
                    _("{name}: a paytable is named by a house option of this ruleset (house.…)").format(
                        name=ref.name
                    ),
                )
                return None
            missing = [v for v in option.allowed or () if str(v) not in bet.paytables]
            if option.allowed is None or missing:
                self.error(
                    ref.pos,
                    (
                        _("option {name!r} may name a table that side bet {bet!r} does not have ({missing})")
                        if missing
                        else _(
                            "option {name!r} may name a table that side bet {bet!r} does not have: "
                            "give it an 'in [...]' list"
                        )
                    ).format(name=field, bet=bet.name, missing=", ".join(map(str, missing))),
                )
                return None
            readers.append(_house_table(field))
        return readers

    def compile(self, generate: bool = True) -> Ruleset:
        # Bounds first: a condition that expands to millions of nodes is refused before it is expanded.
        too_big = size_problems(self.tree)
        if too_big:
            raise RulesetErrors(too_big)
        headers = self.headers()
        params = self.parameters()
        options = self.options()
        fixed = self.fixed(options)
        scope = _Scope(params, options, fixed, _values(params), {})
        self.named_conditions(scope)
        side_bets = self.side_bets(scope)
        self.alias_clashes(options, fixed, side_bets)
        rules = self.rules(self.tree.family, replace(scope, side_bets=side_bets))
        self.unread_parameters(params)
        self.uncited_conditions()
        provisions = self.provisions()
        self.file = self.tree.file
        if not self.tree.chosen:
            self.errors.extend(reading_problems(self.tree))
        if self.errors:
            raise RulesetErrors(sorted(self.errors, key=lambda e: (e.line, e.column)))
        start, end = headers["in_force"]
        checks: dict[str, list[tuple[Rule, CheckDef]]] = {}
        settles: dict[str, list[tuple[Rule, SettleDef]]] = {}
        for rule in rules:
            for check in rule.checks:
                checks.setdefault(check.event, []).append((rule, check))
            for settle in rule.settles:
                settles.setdefault(settle.stake, []).append((rule, settle))
        generated = generated_checks(checks, settles, _values(params)) if generate else HouseChecks({}, {})
        return Ruleset(
            family=self.tree.family,
            title=headers["title"],
            source=headers["source"],
            game=headers["game"],
            valid_from=start,
            valid_until=end,
            notes=tuple(n.text for n in headers["notes"]),
            note_defs=headers["notes"],
            address=_address(headers.get("address"), self.tree.file, self.address_line),
            side_bets_aliases=headers.get("side_bets_alias", ()),
            parameters=params,
            options=options,
            fixed=fixed,
            side_bets=side_bets,
            rules=rules,
            file=self.tree.file,
            conditions={
                d.name: ConditionDef(
                    d.name, unparse(d.body), d.ref.text, d.pos.line, self.tree.file_of("define", d.name)
                )
                for d in self.defines.values()
            },
            amends=self.tree.amends.named if self.tree.amends else None,
            amendments=tuple(
                AmendmentInfo(a.citation, tuple((c.verb, c.kind, c.name) for c in a.changes))
                for a in self.tree.amendments
            ),
            readings=readings_info(self.tree),
            applied=self.tree.chosen,
            tree=self.tree,
            checks_by_event={k: tuple(v) for k, v in checks.items()},
            settles_by_stake={k: tuple(v) for k, v in settles.items()},
            all_held_by_event=generated.all_held,
            settlement_by_stake=generated.settlement,
            provisions=provisions,
        )

    def provisions(self) -> dict[str, ProvisionDef]:
        """The text's provisions: each named as one provision a reference can cite, once."""
        found: dict[str, ProvisionDef] = {}
        keys: dict[Key, str] = {}
        for p in self.tree.provisions:
            try:
                key = key_of(p.name)
            except CitationError:
                self.error(
                    p.pos,
                    _(
                        "provision {name!r} names no one provision of a text: write it as a reference "
                        "cites it (art. 55-4, 1°, al. 2; bataille, al. 21; section 6; al. 3)"
                    ).format(name=p.name),
                )
                continue
            if key in keys:
                self.error(
                    p.pos,
                    _("provision {name!r} is declared twice (as {first!r} too)").format(
                        name=p.name, first=keys[key]
                    ),
                )
                continue
            keys[key] = p.name
            found[p.name] = ProvisionDef(
                p.name,
                p.quote,
                p.reason,
                dict(p.translations),
                p.pos.line,
                self.tree.file_of("provision", p.name),
            )
        return found


def _zero_divisors(expr: ast.Expr, values: dict[str, Any]) -> list[ast.Pos]:
    """Where `expr` divides by something its version's parameters make 0 (`x / 0`, `x / (param.a -
    param.a)`): an error of the ruleset, not of a log."""
    found: list[ast.Pos] = []
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Arith) and node.op == "/":
            try:
                divisor = fold(node.right, values)
            except (KeyError, TypeError):
                divisor = node.right  # a parameter not set: said where it is named
            value = plain_value(divisor.value) if isinstance(divisor, ast.Literal) else None
            if isinstance(value, int | Decimal) and not isinstance(value, bool) and value == 0:
                found.append(node.pos)
        stack.extend(ast.children(node))
    return found


_NO_SPEC = ParamSpec("none", "")
_PARAM_PLACEHOLDER = re.compile(r"\{param\.([a-z0-9_.]+)\}")


def _expressions(tree: ast.RulesetFile) -> list[ast.Expr]:
    """Every condition and amount of a version's rules, paytables and named conditions, as written."""
    exprs: list[ast.Expr] = [d.body for d in tree.defines]
    for rule in tree.rules:
        for check in rule.checks:
            exprs.extend(e for e in (check.guard, check.require) if e is not None)
        for settle in rule.settles:
            exprs.extend(e for e in (settle.guard, settle.outcome.amount) if e is not None)
    for bet in tree.side_bets:
        for table in bet.paytables:
            for line in table.lines:
                exprs.append(line.when)
                if not isinstance(line.pays, ast.Ratio | str):
                    exprs.append(line.pays)
    return exprs


# The languages a rule's message and docs are written in besides English (unmarked).
TRANSLATED = ("fr",)


def untranslated(rule: Rule) -> list[str]:
    """What `rules check` refuses in a rule: each field (message, checks, why, fails, passes) written in
    English without its French beside it. A `why` that is only a quotation of the text (« … ») is the
    law's own words, the same in both languages: it needs no French."""
    english = {"message": rule.message, **rule.doc}
    problems = []
    for lang in TRANSLATED:
        given = rule.translations.get(lang, {})
        keys = [
            key
            for key, text in english.items()
            if text and key not in given and not (key == "why" and _only_quoted(text))
        ]
        if keys:
            problems.append(
                _(
                    "{file}:{line}:1: rule {rule!r} has its {keys} in English only: "
                    'write each in French beside it ({key} {lang} "…")'
                ).format(
                    file=rule.file, line=rule.line, rule=rule.id, keys=", ".join(keys), key=keys[0], lang=lang
                )
            )
    return problems


def untranslated_provisions(ruleset: Ruleset) -> list[str]:
    """What `rules check` refuses of a version's provisions: a reason it is out of scope in English only
    (each reported where it is written)."""
    return [
        _(
            "{file}:{line}:1: provision {name!r}: the reason it is out of scope is in English only: write "
            'it in French just after it (out of scope "…" {lang} "…")'
        ).format(file=p.file, line=p.line, name=p.name, lang=lang)
        for p in ruleset.provisions.values()
        if p.reason is not None
        for lang in TRANSLATED
        if lang not in p.translations
    ]


def untranslated_notes(ruleset: Ruleset) -> list[str]:
    """What `rules check` refuses in a ruleset's header: each note written in English without its French
    (`note fr "…"` just after it)."""
    return [
        _(
            '{file}:{line}:1: the note is in English only: write it in French just after it (note {lang} "…")'
        ).format(file=ruleset.file, line=note.line, lang=lang)
        for note in ruleset.note_defs
        for lang in TRANSLATED
        if lang not in note.translations
    ]


# English words a `why` may join its quotations with ("the croupier « … »", "again « … »"): one outside
# the quotations makes it a sentence in English, which needs its French (issue 38: ten rules' docs read
# half in English in a French report).
_ENGLISH_GLUE = re.compile(
    r"\b(the|a|an|of|and|or|is|are|was|with|from|this|that|for|by|which|has|have|be|its|it|not|to|on|in|"
    r"at|as|after|before|again|otherwise|same|only|each|every|any|when|while|bets?|player|players|"
    r"stakes?|dealer|insurance|side|hands?|cards?|checks|open|draws?|says?|said|paid|knows|other)\b",
    re.IGNORECASE,
)


def _only_quoted(text: str) -> bool:
    """A doc text that is the law's own words, the same in both languages: quotations (« … ») joined by
    references and punctuation only (`5° : « … » ; art. 55-5 : « … »`), no English word between them."""
    stripped = text.strip().rstrip(".").strip()
    if not (stripped.startswith("«") or re.match(r"^[\w.°-]+\s*:\s*«", stripped)):
        return False
    if stripped.count("«") != stripped.count("»"):
        return False
    between = re.sub(r"«[^»]*»", " ", stripped)
    return _ENGLISH_GLUE.search(between) is None


def _parameters_read(tree: ast.RulesetFile) -> set[str]:
    """The parameters a version's rules, paytables and named conditions name, as written."""
    read: set[str] = set()
    for rule in tree.rules:
        for _unused, message in rule.messages:
            read.update(_PARAM_PLACEHOLDER.findall(message))
    for bet in tree.side_bets:
        for table in bet.paytables:
            read.update(
                line.pays.removeprefix("param.") for line in table.lines if isinstance(line.pays, str)
            )
    for expr in _expressions(tree):
        read.update(
            n.path.removeprefix("param.")
            for n in names_in(expr)
            if isinstance(n, ast.Name) and n.path.startswith("param.")
        )
    return read


def _any_of_in(node: ast.Expr) -> list[ast.AnyOf]:
    found: list[ast.AnyOf] = []
    stack: list[ast.Expr] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.AnyOf):
            found.append(current)
        stack.extend(ast.children(current))
    return found


def _guard(guard: ast.Expr | None, values: dict[str, Any], defines: Defines) -> ast.Expr | None:
    """A clause's condition under the version's parameters (folded whole: a guard is never shown in
    a finding); None when it always applies."""
    if guard is None:
        return None
    folded = fold(guard, values, defines)
    if isinstance(folded, ast.Literal) and folded.value is True:
        return None
    return folded


# What a `=> paytable …` reads: the name of the table, given the context (a constant or a house option).
_TableReader = Callable[[Any], Any]


def _named_table(name: str) -> _TableReader:
    return lambda ctx: name


def _house_table(field: str) -> _TableReader:
    return lambda ctx: ctx["house"].get(field)


def _ratio_winnings(ratio: ast.Ratio) -> Callable[[Any], Decimal]:
    factor = ratio.factor

    def winnings(ctx: Any) -> Decimal:
        amount: Decimal = ctx["stake"].amount
        return amount * factor

    return winnings


def _paytable_amount(bet: SideBetDef, readers: list[_TableReader]) -> Callable[[Any], PaytableOutcome]:
    """`=> paytable T and U`: in each table, the first line whose condition holds pays; the stake gets
    the sum, or is lost when no line of any table holds."""

    def outcome(ctx: Any) -> PaytableOutcome:
        total: Decimal | None = None
        labels: list[str] = []
        for read in readers:
            name = read(ctx)
            lines = bet.paytables.get(str(name)) if name is not None else None
            if lines is None:
                raise EvaluationError(
                    _("side bet {bet} has no paytable {table}").format(bet=bet.name, table=format_value(name))
                )
            for line in lines:
                if line.when(ctx):
                    won = line.winnings(ctx) if line.winnings is not None else None
                    if won is None:
                        raise EvaluationError(
                            _("{bet}: the amount of « {label} » is not known").format(
                                bet=bet.name, label=line.label
                            )
                        )
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
            return _("must be one of {values}, not {value}").format(
                values=", ".join(symbols), value=_show(value.value)
            )
        ok = True
    else:  # pragma: no cover - vocabulary types are closed
        ok = False
    if ok:
        return None
    return _("must be {kind}, not {value}").format(kind=_(_TYPE_WORDS[type_]), value=_show(value.value))


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
        return _("{value} is not a {type}").format(value=_show(value.value), type=type_)
    if type_ == "int" and value.value != value.value.to_integral_value():
        return _("{value} is not a whole number").format(value=value.value)
    return None


_TYPE_WORDS = {
    "int": N_("a whole number"),
    "int_or_none": N_("a whole number or none"),
    "bool": N_("true or false"),
    "ratio": N_("a ratio such as 3:2 (or none)"),
    "decimal": N_("a number (or none)"),
    "list": N_("a list such as [3, 3]"),
}


def compile_ruleset(tree: ast.RulesetFile, *, generate: bool = True) -> Ruleset:
    """The version `tree` gives. `generate=False` leaves out the generated functions the replay runs
    (`dsl.codegen`; a quarter of the time): for a version only compared, never used to judge a log
    (`rules test --mutate` comparing a mutant's alternatives)."""
    return _Compiler(tree).compile(generate)


def _address(address: ast.Address | None, file: str, line: int) -> AddressDef | None:
    if address is None:
        return None
    return AddressDef(address.url, address.reason, dict(address.translations), address.file or file, line)


def untranslated_address(ruleset: Ruleset) -> list[str]:
    """What `rules check` refuses of a text's address: `address none "…"` with its reason in English only."""
    address = ruleset.address
    if address is None or address.reason is None:
        return []
    return [
        _(
            "{file}:{line}:1: address none: the reason is in English only: write it in French just after it "
            '(address none "…" {lang} "…")'
        ).format(file=address.file, line=address.line, lang=lang)
        for lang in TRANSLATED
        if lang not in address.translations
    ]
