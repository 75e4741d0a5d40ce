"""Rulesets as a reader sees them: `rules list`, `rules show` and `rules diff`."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

from validator.casino.money import fmt
from validator.catalogue import builtin_docs
from validator.dsl.expr import format_value, unparse
from validator.dsl.model import OptionDef, Rule, Ruleset
from validator.dsl.readings import ReadingInfo
from validator.errors import ValidatorError
from validator.findings.words import kind_word, severity_word
from validator.i18n import N_, _, current, ngettext, pick
from validator.rulebook.registry import Registry


def show_value(value: Any) -> str:
    if hasattr(value, "as_integer_ratio") and not isinstance(value, bool | int):
        return fmt(value) or ""
    if isinstance(value, tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return format_value(value)


def list_lines(registry: Registry) -> Iterator[str]:
    for family in sorted(registry.families):
        yield family
        for ruleset in registry.families[family]:
            count = ngettext("{n:>3} rule", "{n:>3} rules", len(ruleset.rules)).format(n=len(ruleset.rules))
            yield f"  {ruleset.version:<28} {dates_words(ruleset):<36} {count}  {ruleset.source}"


def option_line(option: OptionDef) -> str:
    if option.allowed is not None:
        allowed = _("one of {values}").format(values=", ".join(show_value(v) for v in option.allowed))
    elif option.range is not None:
        allowed = _("{low} to {high}").format(
            low=show_value(option.range[0]), high=show_value(option.range[1])
        )
    else:
        allowed = _("any {type}").format(type=option.type)
    if option.required:
        default = _("must be declared")
    else:
        default = _("default {value}").format(value=show_value(option.default))
    return f"{option.name}: {option.type}, {allowed}; {default}" + _written(option.aliases)


def _written(aliases: tuple[str, ...]) -> str:
    """`; a house file may write it "abandon"`: the text's own words for a name, if it has any."""
    if not aliases:
        return ""
    words = ", ".join(f'"{alias}"' for alias in aliases)
    return "; " + _("a house file may write it {words}").format(words=words)


def check_lines(rule: Rule, *, applied: bool = False) -> Iterator[str]:
    """The rule's clauses as written, or (`applied`) as its version applies them, parameters folded in."""
    for check in rule.checks:
        guard_node = check.applied_guard if applied else check.guard_node
        require_node = check.applied_require if applied else check.require_node
        guard = f" when {unparse(guard_node)}" if guard_node is not None else ""
        yield f"on {check.event}{guard} require {unparse(require_node)}"
    for settle in rule.settles:
        settle_guard = settle.applied_guard if applied else settle.guard_node
        guard = f" when {unparse(settle_guard)}" if settle_guard is not None else ""
        amount = f" {unparse(settle.amount_node)}" if settle.amount_node is not None else ""
        if settle.tables:
            amount = " " + " and ".join(settle.tables)
        yield f"settle {settle.stake}{guard} => {settle.verb}{amount}"


def source_line(rule: Rule, *, where: bool = True) -> str | None:
    """`same check as fr/blackjack@2024-11-01 rule six-decks`, for a rule that takes its clauses from
    another (with `where`, the file and line that wrote them); None for a rule that writes its own."""
    source = rule.same_check
    if source is None:
        return None
    # i18n: not shown (the rules language's own words, as the ruleset writes them, like its clauses)
    line = f"same check as {source.cited}"
    return f"{line}    ({source.file}:{source.line})" if where else line


def clause_lines(rule: Rule) -> Iterator[str]:
    """The rule's clauses as written; under the citation, indented, when it takes them from another rule
    (what runs is shown, not only the name of the rule that says it)."""
    cited = source_line(rule)
    if cited is not None:
        yield cited
    for text in check_lines(rule):
        yield f"  {text}" if cited is not None else text


def address_lines(ruleset: Ruleset) -> Iterator[str]:
    """Where the source text is published (the ruleset's `address`), or why it is not."""
    address = ruleset.address
    if address is None:
        return
    if address.url:
        yield "  " + _("the text: {url}").format(url=address.url)
    else:
        yield "  " + _("the text: no official address ({why})").format(why=address.why_none(current()))


def show_lines(ruleset: Ruleset) -> Iterator[str]:
    """`rules show VERSION`: the version resolved, part by part, each part under its title."""
    yield from _heading_lines(ruleset)
    yield from _part(
        _("Parameters"),
        (
            f"  {param.name} = {show_value(param.value)}    ({param.ref})"
            for param in ruleset.parameters.values()
        ),
    )
    yield from _part(
        _("House options (what the casino may choose)"),
        (f"  {option_line(option)}    ({option.ref})" for option in ruleset.options.values()),
    )
    if ruleset.fixed:
        yield from _part(
            _("Fixed by the text (a house file may not choose them)"),
            (
                f"  {fixed.name} = {show_value(fixed.value)}{_written(fixed.aliases)}    ({fixed.ref})"
                for fixed in ruleset.fixed.values()
            ),
        )
    yield from _side_bet_lines(ruleset)
    if ruleset.conditions:
        yield from _part(
            _("Named conditions (cited by name where they apply)"),
            (f"  {c.name} = {c.source}    ({c.ref})" for c in ruleset.conditions.values()),
        )
    if ruleset.readings:
        applied = ruleset.reading_choices()
        yield from _part(
            _("Readings (where the text is ambiguous: the question, its alternatives, the one applied)"),
            (
                line
                for reading in ruleset.readings.values()
                for line in reading_lines(reading, applied.get(reading.name, reading.default))
            ),
        )
    if ruleset.provisions:
        # What encodes each provision of the text (`rules coverage`, which also exits 1 on a gap).
        from validator.rulebook.text_coverage import coverage
        from validator.rulebook.text_coverage import lines as coverage_lines

        yield ""
        yield _("Provisions of the text (what encodes each, or why it is out of scope)")
        yield from coverage_lines(coverage(ruleset))
    yield from _part(_("Rules"), _rule_lines(ruleset))


def _part(title: str, lines: Iterable[str]) -> Iterator[str]:
    """A part of `rules show`: a blank line, its title, its lines."""
    yield ""
    yield title
    yield from lines


def _heading_lines(ruleset: Ruleset) -> Iterator[str]:
    """The version, its dates, source, file and address, its notes, and what it consolidates."""
    yield f"{ruleset.version} — {ruleset.title}"
    yield "  " + _("game: {game}   in force: {dates}   source: {source}   file: {file}").format(
        game=ruleset.game, dates=dates_words(ruleset), source=ruleset.source, file=ruleset.file
    )
    yield from address_lines(ruleset)
    for note in ruleset.note_defs:
        yield "  " + _("note: {note}").format(note=pick({**note.translations, "en": note.text}))
    if ruleset.amends is not None:
        yield ""
        yield _("Consolidated: {version} as amended by").format(version=ruleset.amends)
        yield from amendment_lines(ruleset)


def _side_bet_lines(ruleset: Ruleset) -> Iterator[str]:
    """The side bets, each with its paytables, and the words a house file may head them with."""
    if ruleset.side_bets and ruleset.side_bets_aliases:
        yield ""
        yield _("Side bets: a house file may head them side_bets or {words}").format(
            words=", ".join(f'"{alias}"' for alias in ruleset.side_bets_aliases)
        )
    for bet in ruleset.side_bets.values():
        yield ""
        yield (
            _("Side bet {name} — {title}").format(name=bet.name, title=bet.title)
            + _written(bet.aliases)
            + f"    ({bet.ref})"
        )
        for name, lines in bet.paytables.items():
            yield "  " + _("paytable {name}").format(name=name)
            for line in lines:
                yield f"    {line.label:<45} {line.pays!s:>16}   when {line.written or line.source}"


def _rule_lines(ruleset: Ruleset) -> Iterator[str]:
    """Each rule: its id, kind and severity, its message, its reference and its clauses."""
    lang = current()
    for rule in ruleset.rules:
        yield f"  {rule.id}  [{kind_word(rule.kind)}, {severity_word(rule.severity)}]"
        yield f"    {rule.text('message', lang)}"
        yield "    " + _("ref: {ref}").format(ref=rule.ref)
        for text in clause_lines(rule):
            yield f"    {text}"


def reading_lines(reading: ReadingInfo, applied: str) -> Iterator[str]:
    """A reading as `rules show` lists it: its sentence, question, and each alternative with what it
    changes; the default, and the one applied when it is another. The question, the alternatives'
    meanings and the reason in the language chosen (--lang)."""
    lang = current()
    yield f"  {reading.name}    ({reading.ref})"
    yield f"    « {reading.quote} »"
    yield f"    {reading.text('question', lang)}"
    for alt in reading.alternatives:
        flags = ((_("default"), alt.name == reading.default), (_("applied"), alt.name == applied))
        marks = [m for m, on in flags if on]
        mark = f" [{', '.join(marks)}]" if marks else ""
        yield f"    - {alt.name}{mark}: {alt.meaning_in(lang)}"
        changes = ", ".join(f"{verb} {kind} {name}" for verb, kind, name in alt.changes)
        yield "        " + _("changes: {changes}").format(
            changes=changes or _("nothing (the version as written)")
        )
    yield "    " + _("default {alternative} because {why}").format(
        alternative=reading.default, why=reading.text("because", lang)
    )


def reading_text(reading: ReadingInfo) -> str:
    """A reading in one line, to compare two versions' (`rules diff`)."""
    default = _(" (default)")
    alts = "; ".join(
        f"{a.name}{default if a.name == reading.default else ''}: "
        + (", ".join(f"{v} {k} {n}" for v, k, n in a.changes) or _("as written"))
        for a in reading.alternatives
    )
    return f"« {reading.quote} » — {alts}"


def amends(new: Ruleset, old: Ruleset) -> bool:
    """Whether `new` is written as an amendment of `old` (the version in force on the date it names)."""
    if new.amends is None or new.family != old.family:
        return False
    family, _at, day = new.amends.partition("@")
    # Undated (`amends FAMILY`): the family has one version, the one amended.
    return family == old.family and (not day or old.in_force_on(date.fromisoformat(day)))


def amendment_lines(ruleset: Ruleset) -> Iterator[str]:
    for amendment in ruleset.amendments:
        yield f"  {amendment.citation}"
        for verb, kind, name in amendment.changes:
            yield f"    {verb} {kind} {name}"


def diff_lines(old: Ruleset, new: Ruleset) -> Iterator[str]:
    yield f"--- {old.version} ({old.dates()})"
    yield f"+++ {new.version} ({new.dates()})"
    if amends(new, old):
        yield ""
        yield _("Amended by (the texts that make {new} from {old})").format(new=new.version, old=old.version)
        yield from amendment_lines(new)
    yield from _section(
        _("Parameters"),
        {n: show_value(p.value) for n, p in old.parameters.items()},
        {n: show_value(p.value) for n, p in new.parameters.items()},
    )
    yield from _section(
        _("House options"),
        {n: option_line(o) for n, o in old.options.items()},
        {n: option_line(o) for n, o in new.options.items()},
    )
    yield from _section(
        _("Fixed"),
        {n: show_value(f.value) for n, f in old.fixed.items()},
        {n: show_value(f.value) for n, f in new.fixed.items()},
    )
    yield from _section(
        _("Named conditions"),
        {n: c.source for n, c in old.conditions.items()},
        {n: c.source for n, c in new.conditions.items()},
    )
    yield from _section(
        _("Readings"),
        {n: reading_text(r) for n, r in old.readings.items()},
        {n: reading_text(r) for n, r in new.readings.items()},
    )
    yield from _section(
        _("Side bets"),
        {**{n: _side_bet_text(old, n) for n in old.side_bets}, **_paytable_lines(old, new.side_bets)},
        {**{n: _side_bet_text(new, n) for n in new.side_bets}, **_paytable_lines(new, old.side_bets)},
        ordered=True,
    )
    yield from _section(
        _("Rules"),
        {r.name: _rule_text(r) for r in old.rules},
        {r.name: _rule_text(r) for r in new.rules},
    )


def changed_items(old: Ruleset, new: Ruleset) -> set[tuple[str, str]]:
    """Every (kind, name) whose whole content differs between two versions — value, reference,
    message, docs, conditions, paytable lines — or that only one of them has."""

    def contents(ruleset: Ruleset) -> dict[tuple[str, str], str]:
        out: dict[tuple[str, str], str] = {}
        for name, param in ruleset.parameters.items():
            out["parameter", name] = f"{show_value(param.value)} | {param.ref} | {param.note}"
        for name, option in ruleset.options.items():
            out["option", name] = f"{option_line(option)} | {option.ref} | {sorted(option.doc.items())}"
        for name, fixed in ruleset.fixed.items():
            out["fixed", name] = f"{show_value(fixed.value)} | {fixed.ref}"
        for name, bet in ruleset.side_bets.items():
            lines = [
                f"{table}: {line.label} {line.pays} when {line.written or line.source}"
                for table, paylines in bet.paytables.items()
                for line in paylines
            ]
            out["side_bet", name] = f"{bet.title} | {bet.ref} | {bet.notes} | {lines}"
        for name, condition in ruleset.conditions.items():
            out["define", name] = f"{condition.source} | {condition.ref}"
        for name, reading in ruleset.readings.items():
            lang = current()
            said = f"{reading.ref} | {reading.text('question', lang)} | {reading.text('because', lang)}"
            out["reading", name] = f"{reading_text(reading)} | {said}"
        for rule in ruleset.rules:
            docs = sorted(rule.doc.items())
            out["rule", rule.name] = f"{_rule_text(rule)} | {rule.ref} | {rule.message} | {docs}"
        for name, p in ruleset.provisions.items():
            out["provision", name] = f"{p.quote} | {p.reason} | {sorted(p.translations.items())}"
        return out

    before, after = contents(old), contents(new)
    return {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}


def _rule_text(rule: Rule) -> str:
    cited = source_line(rule, where=False)
    return "; ".join([f"{rule.kind}/{rule.severity}", *([cited] if cited else []), *check_lines(rule)])


def _side_bet_text(ruleset: Ruleset, name: str) -> str:
    bet = ruleset.side_bets[name]
    return "; ".join(
        f"{t}: " + ", ".join(f"{line.label} {line.pays}" for line in lines)
        for t, lines in bet.paytables.items()
    )


def _paytable_lines(ruleset: Ruleset, other: Any) -> dict[str, str]:
    """Each paytable line of the side bets both versions have, with its condition: a line whose
    condition changed (2019 → 2020, lucky ladies' pair gained same_suit) shows even when its odds did
    not. Lines are matched by their place in the table, the order the text lists them in."""
    lines: dict[str, str] = {}
    for name, bet in ruleset.side_bets.items():
        if name not in other:
            continue
        for table, table_lines in bet.paytables.items():
            for number, line in enumerate(table_lines, 1):
                key = f"{name}, paytable {table}, line {number}"
                lines[key] = f'"{line.label}" {line.pays} when {line.written or line.source}'
    return lines


def _section(title: str, old: dict[str, str], new: dict[str, str], *, ordered: bool = False) -> Iterator[str]:
    """What was removed, added or changed; `ordered` keeps the dicts' order (old's, then new's
    additions) rather than sorting by name."""
    changes = []
    names = list(dict.fromkeys([*old, *new])) if ordered else sorted(old.keys() | new.keys())
    for name in names:
        if name not in new:
            changes.append(f"  - {name}: {old[name]}")
        elif name not in old:
            changes.append(f"  + {name}: {new[name]}")
        elif old[name] != new[name]:
            changes.append(f"  ~ {name}:")
            changes.append("      " + _("was: {value}").format(value=old[name]))
            changes.append("      " + _("now: {value}").format(value=new[name]))
    if changes:
        yield ""
        yield title
        yield from changes


def is_rule_id(registry: Registry, spec: str) -> bool:
    """`rules show fr/blackjack/dealer-stands-17` (a rule) rather than `rules show fr/blackjack` (a
    ruleset): an id some version holds, or a Python-side rule (`hand-log/*`, `house/*`)."""
    return spec in builtin_docs.BUILTIN or any(
        rule.id == spec for ruleset in registry.all() for rule in ruleset.rules
    )


def all_rule_ids(registry: Registry) -> list[str]:
    """Every rule id some version holds, then the Python-side ones (`hand-log/*`, `house/*`), each once:
    what --select, --ignore and --inject take."""
    ids = dict.fromkeys(rule.id for ruleset in registry.all() for rule in ruleset.rules)
    return [*ids, *sorted(builtin_docs.BUILTIN)]


def close_rule_ids(registry: Registry, word: str, n: int = 3) -> list[str]:
    """The rule ids closest to a mistyped one, closest first: compared whole (`fr/blackjack/…`) and by
    their last part, the name a reader remembers (`dealer-stand-17` → `fr/blackjack/dealer-stands-17`)."""
    ids = all_rule_ids(registry)
    close = difflib.get_close_matches(word, ids, n=n, cutoff=0.6)
    names: dict[str, list[str]] = {}
    for rule_id in ids:
        names.setdefault(rule_id.rsplit("/", 1)[-1], []).append(rule_id)
    tail = word.rsplit("/", 1)[-1]
    for name in difflib.get_close_matches(tail, list(names), n=n, cutoff=0.6):
        close.extend(r for r in names[name] if r not in close)
    return close[:n]


def rule_lines(registry: Registry, rule_id: str, day: date | None = None) -> Iterator[str]:
    """One rule, as `ruff rule` shows one: its reference and docs, then each version that has it with
    its dates, and what it runs there (where versions differ, each wording is shown). With `day`, only
    the version in force that day (RULE@DATE)."""
    builtin = builtin_docs.BUILTIN.get(rule_id)
    if builtin is not None:
        builtin = builtin.shown()
        yield f"{rule_id} ({kind_word(builtin.kind)}, {severity_word(builtin.severity)})"
        yield "  " + _("ref: {ref}").format(ref=builtin.ref)
        yield from _docs(builtin.checks, builtin.why, builtin.fails, builtin.passes)
        yield "  " + _("applied by casino-validator itself, in every version")
        return
    found = [(ruleset, rule) for ruleset in registry.all() for rule in ruleset.rules if rule.id == rule_id]
    if day is not None:
        family = found[0][0].family
        in_force = registry.in_force(family, day)
        found = [(r, rule) for r, rule in found if r is in_force]
        if not found:
            raise ValidatorError(
                _("{rule} is not a rule of {version}, the version in force on {day}").format(
                    rule=rule_id, version=in_force.version, day=day.isoformat()
                )
            )
    ruleset, latest = found[-1]
    lang = current()
    yield f"{rule_id} ({kind_word(latest.kind)}, {severity_word(latest.severity)})"
    yield "  " + _("ref: {ref}").format(ref=latest.ref)
    yield from address_lines(ruleset)
    yield "  " + _("message: {message}").format(message=latest.text("message", lang))
    yield from _docs(*(latest.text(key, lang) for key in ("checks", "why", "fails", "passes")))
    yield "  " + _("versions:")
    shown: str | None = None
    for ruleset, rule in found:
        yield f"    {ruleset.version:<28} {dates_words(ruleset):<36} {rule.file}:{rule.line}"
        text = _rule_text(rule)
        if text != shown:
            for line in clause_lines(rule):
                yield f"      {line}"
            shown = text


_DOC_WORDS = (N_("checks: {text}"), N_("why: {text}"), N_("fails: {text}"), N_("passes: {text}"))


def _docs(checks: str, why: str, fails: str, passes: str) -> Iterator[str]:
    for label, text in zip(_DOC_WORDS, (checks, why, fails, passes), strict=True):
        if text:
            yield "  " + _(label).format(text=text)


def dates_words(ruleset: Ruleset) -> str:
    """When a version is in force, in the language in use (`from 2013-12-15 until 2019-08-11`)."""
    return ruleset.dates()
