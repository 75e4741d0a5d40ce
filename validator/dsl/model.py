"""A compiled ruleset: what the replay and the linter use. Frozen; built only by `compiler`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from validator.dsl import ast, codegen
from validator.dsl.codegen import AllHeld, Settle
from validator.dsl.expr import Compiled, names_in
from validator.dsl.readings import ReadingInfo
from validator.dsl.vocabulary import PARAMETERS
from validator.i18n import _


@dataclass(frozen=True, slots=True)
class ParamValue:
    name: str
    value: Any
    ref: str
    line: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class OptionDef:
    """A choice the text leaves to the casino's règlement intérieur."""

    name: str
    type: str
    allowed: tuple[Any, ...] | None  # explicit values
    range: tuple[Decimal, Decimal] | None  # inclusive bounds
    default: Any
    required: bool
    ref: str
    doc: dict[str, str]
    line: int
    aliases: tuple[str, ...] = ()  # the text's own words a house file may write instead of `name`

    def allows(self, value: Any) -> bool:
        if self.allowed is not None:
            return value in self.allowed
        if self.range is not None:
            return value is not None and self.range[0] <= value <= self.range[1]
        return True


@dataclass(frozen=True, slots=True)
class FixedDef:
    """Something the text fixes: a house file may not choose it."""

    name: str
    value: Any
    ref: str
    line: int
    aliases: tuple[str, ...] = ()  # the text's own words a house file may write instead of `name`


@dataclass(frozen=True, slots=True)
class CompiledPayLine:
    """A paytable line (`ast.PayLine`, as written) compiled: its condition and winnings as closures."""

    label: str
    pays: ast.Ratio | str  # a ratio of the stake, or the name / expression of an amount (shown as written)
    when: Compiled
    source: str
    line: int
    # The winnings the line gives the stake: stake.amount × the ratio, or the amount named.
    winnings: Compiled | None = None
    # The meter the line pays out, when its amount names one (jackpot.main, jackpot.secondary).
    prize: str | None = None
    # The condition as written (`source` is as applied: named conditions in their place).
    written: str = ""
    # The namespaces its condition reads (player, dealer, …).
    reads: frozenset[str] = frozenset()
    # The condition and the winnings' expression as they run (named conditions in their place; None for
    # winnings that are a ratio of the stake): what `edge` reads to know which suits the line tells apart.
    when_node: ast.Expr | None = None
    amount_node: ast.Expr | None = None


@dataclass(frozen=True, slots=True)
class PaytableOutcome:
    """What a side bet's paytables give one stake: the winnings (None: no line holds, the stake is
    lost) and the labels of the lines that pay."""

    winnings: Decimal | None
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NoteDef:
    """A note of a ruleset's header: its English, its line, and its text in each other language given
    (`note fr "…"` just after it)."""

    text: str
    line: int
    translations: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AddressDef:
    """Where the source text is published (`address "https://…"`), or, for a text with none, why
    (`address none "…"`, in English and the other languages given)."""

    url: str | None
    reason: str | None = None
    translations: dict[str, str] = field(default_factory=dict)
    file: str = ""
    line: int = 0

    def why_none(self, lang: str) -> str | None:
        """Why the text has no address, in `lang` (English where none is given in it); None with one."""
        if self.reason is None:
            return None
        return self.translations.get(lang) or self.reason


@dataclass(frozen=True, slots=True)
class SideBetDef:
    name: str
    title: str
    ref: str
    notes: tuple[str, ...]
    paytables: dict[str, tuple[CompiledPayLine, ...]]
    line: int
    # The name hand-log/1 gives the bet's stakes ("4:hyper:17": hyper), the block's name by default,
    # and the cases a stake names, when it names one (17, 18, …, bust), in the order declared.
    stake: str = ""
    cases: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # the text's own words a house file may write instead of `name`

    @property
    def stake_name(self) -> str:
        return self.stake or self.name

    @property
    def prizes(self) -> frozenset[str]:
        """The meters its paytables pay out (a progressive jackpot): a table that offers the bet carries
        them from round to round."""
        return frozenset(line.prize for lines in self.paytables.values() for line in lines if line.prize)


@dataclass(frozen=True, slots=True)
class CheckDef:
    event: str
    guard: Compiled | None
    require: Compiled
    guard_node: ast.Expr | None  # as written (`rules show`)
    require_node: ast.Expr
    line: int
    # As this version applies them: the parameters' values folded in (dsl.fold); what runs, and what
    # a finding shows.
    applied_guard: ast.Expr | None
    applied_require: ast.Expr


@dataclass(frozen=True, slots=True)
class SettleDef:
    stake: str
    guard: Compiled | None
    verb: str  # pay, lose, push
    amount: Compiled | None
    guard_node: ast.Expr | None  # as written
    amount_node: ast.Expr | None
    line: int
    applied_guard: ast.Expr | None  # as this version applies it (dsl.fold)
    # `=> paytable …`: the tables read, as written (a table's name, or the house option naming it);
    # `amount` then gives a PaytableOutcome.
    tables: tuple[str, ...] = ()
    applied_amount: ast.Expr | None = None  # the amount as it runs (named conditions in their place)


@dataclass(frozen=True, slots=True)
class CheckSource:
    """Where a rule written `same check as …` takes its clauses from: the citation as written
    (`fr/blackjack@2024-11-01 rule six-decks`), the version it resolved to, the cited rule's id, and the
    file and line that wrote the cited rule."""

    cited: str
    version: str
    rule_id: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    name: str
    ref: str
    severity: str
    kind: str  # procedure or payout: what a broken rule is, in findings
    message: str
    checks: tuple[CheckDef, ...]
    settles: tuple[SettleDef, ...]
    doc: dict[str, str]
    file: str
    line: int
    # The message and docs in the other languages: {"fr": {"message": …, "checks": …}}; `text` picks.
    translations: dict[str, dict[str, str]] = field(default_factory=dict)
    # `same check as …`: the rule's clauses are another rule's (its id, reference and words stay its own).
    same_check: CheckSource | None = None

    def text(self, key: str, lang: str) -> str:
        """The rule's message (`message`) or a doc field in `lang`; English where it has none."""
        english = self.message if key == "message" else self.doc.get(key, "")
        return self.translations.get(lang, {}).get(key) or english


@dataclass(frozen=True, slots=True)
class ConditionDef:
    """A named condition (`define`): a clause of the text written once, cited by name."""

    name: str
    source: str
    ref: str
    line: int
    file: str


@dataclass(frozen=True, slots=True)
class ProvisionDef:
    """One numbered provision of the version's source text (`provision "…" quote "…"`): its name as a
    reference cites it, the text's words, and, where nothing encodes it, why (`out of scope "…"`), in
    English and in the other languages given."""

    name: str
    quote: str
    reason: str | None
    translations: dict[str, str]
    line: int
    file: str

    def why_not(self, lang: str) -> str | None:
        """The reason it is out of scope in `lang`; English where none is given in it."""
        if self.reason is None:
            return None
        return self.translations.get(lang) or self.reason


@dataclass(frozen=True, slots=True)
class AmendmentInfo:
    """What one amending text changed: (verb, kind, name) for each add, replace or repeal."""

    citation: str
    changes: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Ruleset:
    family: str
    title: str
    source: str
    game: str
    valid_from: date | None  # None: an undated text, applied to every date
    valid_until: date | None
    notes: tuple[str, ...]
    parameters: dict[str, ParamValue]
    options: dict[str, OptionDef]
    fixed: dict[str, FixedDef]
    side_bets: dict[str, SideBetDef]
    rules: tuple[Rule, ...]
    file: str
    # A version written as an amendment: the version it amends (ID@DATE as written) and what changed.
    amends: str | None = None
    amendments: tuple[AmendmentInfo, ...] = ()
    conditions: dict[str, ConditionDef] = field(default_factory=dict)
    # Where the text is ambiguous: the readings of this version (dsl.readings), and which alternative of
    # each this compiled version applies (the default unless chosen).
    readings: dict[str, ReadingInfo] = field(default_factory=dict)
    applied: tuple[tuple[str, str], ...] = ()
    # The consolidated syntax tree it was compiled from, to compile it again under other readings.
    tree: ast.RulesetFile | None = field(default=None, repr=False, compare=False)
    # Indexes built once by the compiler for the replay's hot path.
    checks_by_event: dict[str, tuple[tuple[Rule, CheckDef], ...]] = field(default_factory=dict)
    settles_by_stake: dict[str, tuple[tuple[Rule, SettleDef], ...]] = field(default_factory=dict)
    # Each event's checks as one generated function (dsl.codegen): True when all held, else run them.
    all_held_by_event: dict[str, AllHeld] = field(default_factory=dict)
    # Each stake kind's settle clauses as one generated function: the clause that applies, its amount.
    settlement_by_stake: dict[str, Settle] = field(default_factory=dict)
    # The header's notes as written, each with its line and translations (`notes` is their English).
    note_defs: tuple[NoteDef, ...] = ()
    # The text's own words for the side bets as a whole (`side_bets alias "mises additionnelles"`): a
    # house file may head its `side_bets:` block with one of them.
    side_bets_aliases: tuple[str, ...] = ()
    # `under_house`'s functions, by the house options' values.
    by_house: dict[Any, HouseChecks] = field(default_factory=dict, repr=False, compare=False)
    # The numbered provisions of the source text, by name (`rules coverage`); empty where none is declared.
    provisions: dict[str, ProvisionDef] = field(default_factory=dict)
    # Where the source text is published, or why it is not (`address`); None where the file does not say.
    address: AddressDef | None = None

    @property
    def url(self) -> str:
        """The source text's official address; "" where it has none or the ruleset does not name it."""
        return self.address.url or "" if self.address is not None else ""

    @property
    def version(self) -> str:
        return f"{self.family}@{self.valid_from.isoformat()}" if self.valid_from else self.family

    def in_force_on(self, day: date) -> bool:
        if self.valid_from is not None and day < self.valid_from:
            return False
        return self.valid_until is None or day <= self.valid_until

    def param(self, name: str, default: Any = None) -> Any:
        """The one path by which Python reads a parameter: only one the vocabulary says the game
        mechanics read (`ParamSpec.mechanics`), or the simulator plays by (`ParamSpec.simulator`: the rules
        still apply it); every other parameter is the rules' alone, and a version
        must have a rule that reads it (`rules check`). `default` when the version does not set it, or
        sets it to none."""
        spec = PARAMETERS.get(name)
        if spec is None or not (spec.mechanics or spec.simulator):  # i18n: not shown (a bug of the program)
            raise LookupError(f"parameter {name!r} is read by the rules only: Python may not read it")
        parameter = self.parameters.get(name)
        return default if parameter is None or parameter.value is None else parameter.value

    def under_house(self, house: dict[str, Any]) -> HouseChecks:
        """The generated functions (`all_held_by_event`, `settlement_by_stake`) with these house options'
        values written in: what a table's options decide is decided once, not at every event. Made once
        per distinct set of options (a judge's are made once per version and table)."""
        # True and 1 are equal keys but not the same value: each value's class is part of its key.
        key: tuple[Any, ...] | None = tuple(
            (name, value.__class__, value) for name, value in sorted(house.items(), key=_first)
        )
        try:
            found = self.by_house.get(key)
        except TypeError:  # a value that cannot be a key (a list): made for this judge alone
            key, found = None, None
        if found is not None:
            return found
        params = {name: p.value for name, p in self.parameters.items()}
        made = generated_checks(self.checks_by_event, self.settles_by_stake, params, house)
        if key is not None:
            self.by_house[key] = made
        return made

    def reading_choices(self) -> dict[str, str]:
        """Each reading of the version → the alternative this compiled version applies."""
        chosen = dict(self.applied)
        return {name: chosen.get(name, r.default) for name, r in self.readings.items()}

    def main_settlement_reads(self, fact: str) -> bool:
        """Whether a settle clause of the main stake reads `fact` (`hand.surrendered`, `hand.even_money`)
        in its guard: whether the version gives such a hand a settlement of its own. A text without
        even money has none, and an even money a log writes leaves the blackjack to be settled as any."""
        return any(
            isinstance(name, ast.Name) and name.path == fact
            for rule in self.rules
            for settle in rule.settles
            if settle.stake == "main" and settle.guard_node is not None
            for name in names_in(settle.guard_node)
        )

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(rule_id)

    def house_defaults(self) -> dict[str, Any]:
        """The game as played when the casino has chosen nothing."""
        values = {name: opt.default for name, opt in self.options.items()}
        values.update({name: fixed.value for name, fixed in self.fixed.items()})
        return values

    def dates(self) -> str:
        """When the version is in force, in the language in use (`from 2013-12-15 until 2019-08-11`)."""
        if self.valid_from is None:
            return _("undated (applies to every date)")
        if self.valid_until is None:
            return _("from {start} (in force)").format(start=self.valid_from.isoformat())
        return _("from {start} until {end}").format(
            start=self.valid_from.isoformat(), end=self.valid_until.isoformat()
        )


@dataclass(frozen=True, slots=True)
class HouseChecks:
    """A ruleset's generated functions under one table's house options (`Ruleset.under_house`)."""

    all_held: dict[str, AllHeld]
    settlement: dict[str, Settle]
    # Events checked one right after the other, each pair's rules as one function (`folded_checks`):
    # made when a judge first asks (None: no rule listens to either).
    folded: dict[tuple[str, str], AllHeld | None] = field(default_factory=dict)
    # False where every rule must run on its own (a version probed for `rules test --coverage`, whose
    # clauses report what they decide): no pair is folded, each event's own function is asked.
    fold: bool = True


def generated_checks(
    checks_by_event: Mapping[str, Sequence[tuple[Rule, CheckDef]]],
    settles_by_stake: Mapping[str, Sequence[tuple[Rule, SettleDef]]],
    params: Mapping[str, Any],
    house: Mapping[str, Any] | None = None,
) -> HouseChecks:
    """Each event's checks and each stake's settle clauses as generated functions (dsl.codegen): with
    `house`, its values written in (`Ruleset.under_house`); without, read from the context (what the
    compiler gives every version: `all_held_by_event`, `settlement_by_stake`)."""
    return HouseChecks(
        all_held={
            event: codegen.all_held(
                [(c.applied_guard, c.applied_require) for _unused, c in pairs],
                params,
                f"rules_on_{event}",
                house,
            )
            for event, pairs in checks_by_event.items()
        },
        settlement={
            stake: codegen.settlement(settle_clauses(pairs), params, f"settle_{stake}", house)
            for stake, pairs in settles_by_stake.items()
        },
    )


def folded_checks(
    checks_by_event: Mapping[str, Sequence[tuple[Rule, CheckDef]]],
    events: tuple[str, str],
    params: Mapping[str, Any],
    house: Mapping[str, Any],
) -> AllHeld | None:
    """The rules of two events that the replay checks one right after the other, with nothing changed
    in between that either reads, as one generated function (one call where there were two): True when
    every rule of both held, so the caller that gets False asks each event's own function in turn, as
    it would have. None where no rule listens to either."""
    conditions = [
        (check.applied_guard, check.applied_require)
        for event in events
        for _unused, check in checks_by_event.get(event, ())
    ]
    if not conditions:
        return None
    return codegen.all_held(conditions, params, f"rules_on_{events[0]}_then_{events[1]}", house)


def settle_clauses(pairs: Sequence[tuple[Rule, SettleDef]]) -> list[codegen.Clause]:
    """A stake's clauses as `codegen.settlement` takes them: each gives (rule, clause, amount). The
    amount is worked out from its expression, or by its function where a side bet's paytables give it."""
    return [
        (
            settle.applied_guard,
            settle.applied_amount if settle.verb != "paytable" else settle.amount,
            (rule, settle),
        )
        for rule, settle in pairs
    ]


def _first(item: tuple[str, Any]) -> str:
    return item[0]
