"""Readings: where a text is ambiguous, a version names the question, quotes the sentence, lists the
answers (alternatives) and says which one applies unless a run is told otherwise (the default).

The version as written is the default's; every other alternative is a set of changes to it, the ones an
amendment makes (`add`, `replace`, `repeal` of a parameter, rule, named condition, …). Choosing readings
gives another consolidated version (`chosen`), compiled like any other. Readings are items of a version
like rules: a later version inherits them through `amends`, and its amendment may replace or repeal one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from validator.dsl import ast
from validator.dsl.amend import apply_changes, items_of, with_items
from validator.errors import RulesetError, RulesetErrors
from validator.i18n import _


@dataclass(frozen=True, slots=True)
class AlternativeInfo:
    name: str
    meaning: str
    # (verb, kind, name) of each change, as written: what the alternative changes in the version.
    changes: tuple[tuple[str, str, str], ...]
    # The meaning in the other languages: {"fr": "…"}.
    translations: Mapping[str, str] = field(default_factory=dict)

    def meaning_in(self, lang: str) -> str:
        """The meaning in `lang`; English where it has none."""
        return self.translations.get(lang) or self.meaning

    def gloss(self, lang: str) -> str | None:
        """What a run in `lang` shows beside the alternative's name (an English word, as typed after
        `--reading`): the first words of its meaning in `lang` (`per-box` → « Case par case »); None in
        English, or where the version gives no meaning in `lang`."""
        meaning = self.translations.get(lang)
        return headline(meaning) if meaning else None


# Where a meaning's first words end: its first pause (a comma between figures, `50, 100 ou 200`, is not one).
_PAUSE = re.compile(r" : | ; | \(|, (?!\d)|\. | – | — ")


def headline(text: str) -> str:
    """The first words of a meaning, up to its first pause outside the law's words (« … »), its final full
    stop dropped: « Case par case » of « Case par case : chaque case que joue un joueur … »."""
    start = 0
    while True:
        pause = _PAUSE.search(text, start)
        cut = pause.start() if pause is not None else len(text)
        head = text[:cut]
        if head.count("«") <= head.count("»"):
            return head.rstrip(" .")
        close = text.find("»", cut)
        if close < 0:
            return text.rstrip(" .")
        start = close + 1


@dataclass(frozen=True, slots=True)
class ReadingInfo:
    """A reading as `rules show`, the docs and the runs name it."""

    name: str
    ref: str
    quote: str
    question: str
    alternatives: tuple[AlternativeInfo, ...]
    default: str
    because: str
    file: str
    line: int
    # The question and the reason for the default in the other languages: {"fr": {"question": …,
    # "because": …}}; `text` picks.
    translations: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def text(self, key: str, lang: str) -> str:
        """The question (`question`) or the reason for the default (`because`) in `lang`; English where
        it has none."""
        english = self.question if key == "question" else self.because
        return self.translations.get(lang, {}).get(key) or english

    def untranslated(self, langs: tuple[str, ...]) -> list[str]:
        """What `rules check` refuses: the question, an alternative's meaning or the reason for the
        default written in English without its French beside it."""
        problems = []
        for lang in langs:
            given = self.translations.get(lang, {})
            missing = [f"{key} {lang}" for key in ("question", "because") if key not in given]
            missing += [
                _("the meaning of {name} in {lang}").format(name=a.name, lang=lang)
                for a in self.alternatives
                if lang not in a.translations
            ]
            if missing:
                problems.append(
                    _(
                        "{file}:{line}:1: reading {name!r} is in English only for "
                        '{missing}: write each in French beside it (question {lang} "…", '
                        'alternative NAME "…" {lang} "…", because {lang} "…")'
                    ).format(
                        file=self.file, line=self.line, name=self.name, missing=", ".join(missing), lang=lang
                    )
                )
        return problems

    def alternative(self, name: str) -> AlternativeInfo | None:
        return next((a for a in self.alternatives if a.name == name), None)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.alternatives)


def info(tree: ast.RulesetFile) -> dict[str, ReadingInfo]:
    """The readings of a consolidated version (assumed checked: `problems` found none)."""
    found: dict[str, ReadingInfo] = {}
    for reading in tree.readings:
        default = reading.defaults[0] if reading.defaults else (reading.pos, "", "")
        found[reading.name] = ReadingInfo(
            name=reading.name,
            ref=" ; ".join(r.text for r in reading.refs),
            quote=" … ".join(reading.quotes),
            question=" ".join(reading.questions),
            alternatives=tuple(
                AlternativeInfo(
                    a.name,
                    a.meaning,
                    tuple((c.verb, c.kind, c.name) for c in a.changes),
                    dict(a.translations),
                )
                for a in reading.alternatives
            ),
            default=default[1],
            because=default[2],
            file=tree.file_of("reading", reading.name),
            line=reading.pos.line,
            translations=_translations(reading),
        )
    return found


def _translations(reading: ast.Reading) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for lang, key, text, _pos in reading.translations:
        out.setdefault(lang, {})[key] = text
    return out


def problems(tree: ast.RulesetFile) -> list[RulesetError]:
    """What `rules check` refuses in a version's readings: a duplicate id or alternative, a reading with
    no sentence, fewer than two alternatives, a default missing or unknown, a default that changes the
    version (it is the version as written), an alternative that changes nothing, or one whose changes do
    not fit the version."""
    errors: list[RulesetError] = []
    seen: set[str] = set()
    for reading in tree.readings:
        file = tree.file_of("reading", reading.name)
        what = _("reading {name}").format(name=reading.name)
        if reading.name in seen:
            said = _("{what} is declared twice in this version").format(what=what)
            errors.append(RulesetError(file, reading.pos.line, reading.pos.column, said))
            continue
        seen.add(reading.name)
        errors.extend(_wording_problems(reading, what, file))
        errors.extend(_default_problems(tree, reading, what, file))
    return errors


def _wording_problems(reading: ast.Reading, what: str, file: str) -> list[RulesetError]:
    """A reading quotes its sentence, asks its question, names its (two or more) alternatives once each
    and gives each translation once; an alternative changes rules, not readings."""
    errors: list[RulesetError] = []

    def error(pos: ast.Pos, message: str) -> None:
        errors.append(RulesetError(file, pos.line, pos.column, message))

    if not reading.quotes:
        error(
            reading.pos,
            _('{what} quotes no sentence: give `quote "…"`, the words of the text it reads').format(
                what=what
            ),
        )
    if not reading.questions:
        error(reading.pos, _('{what} asks no question: give `question "…"`').format(what=what))
    names: set[str] = set()
    for alt in reading.alternatives:
        if alt.name in names:
            error(alt.pos, _("{what} has two alternatives named {name}").format(what=what, name=alt.name))
        names.add(alt.name)
        if any(c.kind == "reading" for c in alt.changes):
            error(
                alt.pos,
                _("alternative {name} of {what} changes a reading: it changes rules only").format(
                    name=alt.name, what=what
                ),
            )
    said: set[tuple[str, str]] = set()
    for lang, key, _text, at in reading.translations:
        if (lang, key) in said:
            error(at, _("{what} gives its {field} in {lang} twice").format(what=what, field=key, lang=lang))
        said.add((lang, key))
    if len(reading.alternatives) < 2:
        count = len(reading.alternatives)
        error(
            reading.pos,
            _("{what} has {count} alternative(s): a question needs two answers").format(
                what=what, count=count
            ),
        )
    return errors


def _default_problems(
    tree: ast.RulesetFile, reading: ast.Reading, what: str, file: str
) -> list[RulesetError]:
    """A reading names one of its alternatives as its default, once; the default is the version as
    written (it changes nothing), and every other alternative changes something, in a way that fits."""
    errors: list[RulesetError] = []

    def error(pos: ast.Pos, message: str) -> None:
        errors.append(RulesetError(file, pos.line, pos.column, message))

    if len(reading.defaults) != 1:
        error(
            reading.pos,
            _('{what} must name its default once (`default ALTERNATIVE because "…"`)').format(what=what),
        )
        return errors
    at, default, _because = reading.defaults[0]
    if default not in {alt.name for alt in reading.alternatives}:
        known = ", ".join(a.name for a in reading.alternatives)
        error(
            at,
            _("{what} has no alternative {name} to apply by default (its alternatives: {known})").format(
                what=what, name=default, known=known
            ),
        )
        return errors
    for alt in reading.alternatives:
        if alt.name == default:
            if alt.changes or alt.has_block:
                error(
                    alt.pos,
                    _(
                        "alternative {name} is the default of {what}: it is the version as written, "
                        "so it changes nothing (give it no `{{ … }}` block)"
                    ).format(name=alt.name, what=what),
                )
            continue
        local = _misfits(tree, alt, _("alternative {name} of {what}").format(name=alt.name, what=what), file)
        errors.extend(local)
        if not local and _same(_applied(tree, alt), items_of(tree)):
            error(
                alt.pos,
                _(
                    "alternative {name} of {what} changes nothing in this version: "
                    "say what it adds, replaces or repeals"
                ).format(name=alt.name, what=what),
            )
    return errors


def _applied(tree: ast.RulesetFile, alt: ast.Alternative) -> dict[str, list[Any]]:
    items = items_of(tree)
    apply_changes(items, alt.changes, _("this version"), lambda pos, message: None)
    return items


def _misfits(tree: ast.RulesetFile, alt: ast.Alternative, what: str, file: str) -> list[RulesetError]:
    """The changes of `alt` that do not fit the version (replacing what it lacks, …)."""
    found: list[RulesetError] = []

    def error(pos: ast.Pos, message: str) -> None:
        found.append(RulesetError(file, pos.line, pos.column, f"{what}: {message}"))

    apply_changes(items_of(tree), alt.changes, _("this version"), error)
    return found


def chosen(tree: ast.RulesetFile, choices: Mapping[str, str]) -> ast.RulesetFile:
    """The version under the alternatives chosen (reading → alternative); readings not named, or named
    with their default, stay as written. The alternatives are applied in the order the readings are
    declared. A choice that does not fit is a RulesetErrors (callers check choices first)."""
    items = items_of(tree)
    errors: list[RulesetError] = []
    for reading in tree.readings:
        choice = choices.get(reading.name)
        if choice is None:
            continue
        alt = next((a for a in reading.alternatives if a.name == choice), None)
        if alt is None:
            raise RulesetErrors(
                [
                    RulesetError(
                        tree.file,
                        reading.pos.line,
                        reading.pos.column,
                        _("no alternative {name}").format(name=choice),
                    )
                ]
            )
        what = _("alternative {name} of {what}").format(
            name=alt.name, what=_("reading {name}").format(name=reading.name)
        )
        errors.extend(_misfits(tree, alt, what, tree.file))
        apply_changes(items, alt.changes, tree.family, lambda pos, message: None)
    if errors:
        raise RulesetErrors(errors)
    own = {r.name for r in tree.readings}
    return with_items(tree, items, chosen=tuple(sorted((n, a) for n, a in choices.items() if n in own)))


def _same(a: dict[str, list[Any]], b: dict[str, list[Any]]) -> bool:
    """Do two versions' items say the same? An alternative's changes replace items and keep the others
    as they were (the same objects), so only the items that are not the very same are compared."""
    if a.keys() != b.keys():
        return False
    for kind, ours in a.items():
        theirs = b[kind]
        if len(ours) != len(theirs):
            return False
        if any(x is not y and not _equal(x, y) for x, y in zip(ours, theirs, strict=True)):
            return False
    return True


def _equal(a: Any, b: Any) -> bool:
    """`_plain(a) == _plain(b)`, stopping at the first difference instead of rebuilding both trees."""
    if a is b:
        return True
    kind_a, kind_b = type(a), type(b)
    names_a = _names(a)
    if names_a is not None and kind_a is kind_b:
        return all(_equal(getattr(a, name), getattr(b, name)) for name in names_a)
    if names_a is not None or _names(b) is not None or isinstance(a, ast.Pos) or isinstance(b, ast.Pos):
        return bool(_plain(a) == _plain(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(value, b[key]) for key, value in a.items())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (dict, list, tuple)) or isinstance(b, (dict, list, tuple)):
        return bool(_plain(a) == _plain(b))
    return bool(a == b)


def _names(value: Any) -> tuple[str, ...] | None:
    """The field names of a syntax-tree node (any dataclass instance but a position), else None."""
    if isinstance(value, ast.Pos):
        return None
    kind = type(value)
    names = _FIELD_NAMES.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(value))
    return names


# Each syntax-tree class's field names, looked up once (`dataclasses.fields` builds its answer anew).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain(value: Any) -> Any:
    """A syntax tree without the places it was written at, to compare what two trees say."""
    if isinstance(value, ast.Pos):
        return None
    names = _names(value)
    if names is not None:
        return (type(value).__name__, tuple(_plain(getattr(value, name)) for name in names))
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    return value
