"""`casino-validator rules coverage FAMILY[@DATE]`: every numbered provision of a version's source text, and
what encodes it.

A version declares its text's provisions (`provision "art. 55-4, 1°, al. 2" quote "…"`, in
docs/rules-language.md); each rule, parameter, house option, fixed value, side bet, named condition and
reading cites provisions in its `ref` (`dsl.provisions` reads them). A provision is accounted for when an
item cites it, or when the version says why it is out of scope (`out of scope "…"`); one that is neither
makes the command exit 1. An item citing a provision the text does not have (an alinéa miscounted) is
listed too, and fails it as well.

This is the law's coverage: which sentences of the text the rulesets encode. It is not the fixtures'
coverage (which rules a log of `tests/fixtures/rules` breaks), a different question.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from validator.dsl.model import AddressDef, ProvisionDef, Ruleset
from validator.dsl.provisions import CitationError, Key, cited, key_of
from validator.i18n import _, current


@dataclass(frozen=True, slots=True)
class Provision:
    """One provision of the text and what encodes it: the items citing it (`kind name`), and those citing
    the whole point or article it lies in (they do not account for it: each provision is cited itself)."""

    definition: ProvisionDef
    key: Key
    encoded_by: tuple[str, ...]
    within: tuple[str, ...]

    @property
    def accounted(self) -> bool:
        return bool(self.encoded_by) or self.definition.reason is not None


@dataclass(frozen=True, slots=True)
class TextCoverage:
    version: str
    provisions: tuple[Provision, ...]
    # An item citing a provision the text does not have, or whose ref cannot be read.
    stray: tuple[Item, ...]
    # Where the text is published, or why it is not (the version's `address`).
    address: AddressDef | None = None

    @property
    def unaccounted(self) -> tuple[Provision, ...]:
        return tuple(p for p in self.provisions if not p.accounted)

    @property
    def ok(self) -> bool:
        return bool(self.provisions) and not self.unaccounted and not self.stray


@dataclass(frozen=True, slots=True)
class Item:
    """An item of a version that cites its text: `kind name`, its ref, where it is written."""

    label: str
    ref: str
    file: str
    line: int


def items(ruleset: Ruleset) -> Iterator[Item]:
    """Every item of the version that cites its text (its rules, parameters, options, fixed values, side
    bets, named conditions and readings)."""
    tree = ruleset.tree

    def where(kind: str, name: str) -> str:
        """The file the item is written in (an amended version's items may be its base's)."""
        return tree.file_of(kind, name) if tree is not None else ruleset.file

    for name, p in ruleset.parameters.items():
        yield Item(f"parameter {name}", p.ref, where("parameter", name), p.line)
    for name, o in ruleset.options.items():
        if o.ref:
            yield Item(f"option {name}", o.ref, where("option", name), o.line)
    for name, f in ruleset.fixed.items():
        yield Item(f"fixed {name}", f.ref, where("fixed", name), f.line)
    for name, b in ruleset.side_bets.items():
        if b.ref:
            yield Item(f"side_bet {name}", b.ref, where("side_bet", name), b.line)
    for name, c in ruleset.conditions.items():
        yield Item(f"define {name}", c.ref, c.file, c.line)
    for name, r in ruleset.readings.items():
        yield Item(f"reading {name}", r.ref, r.file, r.line)
    for rule in ruleset.rules:
        yield Item(f"rule {rule.name}", rule.ref, rule.file, rule.line)


def coverage(ruleset: Ruleset) -> TextCoverage:
    """What encodes each provision `ruleset` declares, and the items citing none of them."""
    keyed = {key_of(name): p for name, p in ruleset.provisions.items()}
    encoded: dict[Key, list[str]] = {key: [] for key in keyed}
    within: dict[Key, list[str]] = {key: [] for key in keyed}
    stray: list[Item] = []
    for item in items(ruleset):
        try:
            keys = cited(item.ref)
        except CitationError:
            stray.append(item)
            continue
        for key in keys:
            if key in keyed:
                encoded[key].append(item.label)
                continue
            inside = [k for k in keyed if k.within(key)]
            if not inside:
                stray.append(item)
            for k in inside:
                within[k].append(item.label)
    provisions = tuple(
        Provision(keyed[key], key, tuple(dict.fromkeys(encoded[key])), tuple(dict.fromkeys(within[key])))
        for key in sorted(keyed, key=_order)
    )
    return TextCoverage(ruleset.version, provisions, tuple(dict.fromkeys(stray)), ruleset.address)


def stray_problems(ruleset: Ruleset) -> list[str]:
    """What `rules check` refuses of a version that declares its text's provisions: each item whose ref
    cites one the text does not have (an alinéa miscounted), at the item's line."""
    if not ruleset.provisions:
        return []
    return [
        _(
            "{file}:{line}:1: {item} cites {ref!r}: the text has no such provision (its provisions: "
            "`rules coverage {version}`)"
        ).format(file=item.file, line=item.line, item=item.label, ref=item.ref, version=ruleset.version)
        for item in coverage(ruleset).stray
    ]


def _order(key: Key) -> tuple[object, ...]:
    # The NOTA (al. 0) after the article's alinéas.
    return (key.article, key.section, key.point, key.part, 10**6 if key.al == 0 else (key.al or 0))


def lines(report: TextCoverage) -> Iterator[str]:
    """The coverage as `rules coverage` prints it: each provision, what encodes it or why it is out of
    scope; then what is missing."""
    lang = current()
    yield _("{version}: {count} provisions of the text").format(
        version=report.version, count=len(report.provisions)
    )
    if report.address is not None and report.address.url:
        yield "  " + _("the text: {url}").format(url=report.address.url)
    elif report.address is not None:
        yield "  " + _("the text: no official address ({why})").format(why=report.address.why_none(lang))
    for p in report.provisions:
        quote = p.definition.quote
        shown = quote if len(quote) <= 90 else quote[:87].rstrip() + "…"
        yield f"  {p.definition.name}  « {shown} »"
        if p.encoded_by:
            yield "    " + _("encoded by: {items}").format(items=", ".join(p.encoded_by))
        reason = p.definition.why_not(lang)
        if reason is not None:
            label = (
                _("not encoded, out of scope: {reason}")
                if not p.encoded_by
                else _("the rest out of scope: {reason}")
            )
            yield "    " + label.format(reason=reason)
        if not p.accounted:
            yield "    " + _("NOT ACCOUNTED FOR: no item cites it and no reason says why it is out of scope")
    for item in report.stray:
        yield "  " + _("{item} cites a provision the text does not have: {ref}").format(
            item=item.label, ref=item.ref
        )
    missing = len(report.unaccounted)
    if not report.provisions:
        yield _('{version} declares no provision of its text (provision "…" quote "…")').format(
            version=report.version
        )
    elif missing or report.stray:
        yield _(
            "{missing} provision(s) not accounted for, {stray} reference(s) to provisions the text does not "
            "have"
        ).format(missing=missing, stray=len(report.stray))
    else:
        yield _("every provision accounted for: encoded, or out of scope with the reason why")
