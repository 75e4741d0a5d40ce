"""The numbered provisions a reference cites: `ref "Arrêté du 14 mai 2007, art. 55-4, al. 7; 1°, al. 2"` cites
art. 55-4, al. 7 and art. 55-4, 1°, al. 2. A ruleset declares its text's provisions (`provision "art. 55-4,
1°, al. 2" quote "…"`, each named as a reference cites it); `rules coverage` and `rules check` read the
references of its rules, parameters, options, side bets, named conditions and readings against them.

What a reference may say, after the text's name (everything before the first `art.`, `bataille,`,
`section` or `al.`) and with its parenthesised remarks left out:

- an article, `art. 55-4`, or a part of a text named by a word and followed by its alinéas (the rules of la
  bataille, which the source gives no number: `bataille, al. 21`);
- a point of an article, `1°` … `8°`, and within one a lettered part, `a)`, `b)`;
- alinéas, `al. 7`, `al. 1 et 4`, `al. 21 à 23`, `al. 7, 9 et 10`; `NOTA`, an article's note;
- sections, `section 6`, `sections 3 et 7 à 10` (the Ontario licence);
- several of these in one reference, separated by `;` (each part keeps the article before it) or, for
  points, by `,` and `et`: `art. 55-4, 5°, a), 6°, al. 5, 7°, al. 3 et 8°, al. 4`; points by range,
  `5° à 8°`.

A point or an article cited without alinéas is the whole of it (`Key.al` None)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Key:
    """One provision, or a whole part of the text (a field None: the whole of what it would narrow)."""

    article: str = ""  # "55-4", "55-5"; a part named by a word; "" (a text's own alinéas, its sections)
    section: int = 0  # the Ontario licence's sections; 0 where the text has none
    point: int = 0  # 1° … 8°; 0: no point (an article's own alinéas)
    part: str = ""  # "a", "b": a lettered part of a point
    al: int | None = None  # the alinéa; None: the whole of the article, section, point or part; 0: NOTA

    def within(self, whole: Key) -> bool:
        """Whether this provision lies in `whole` (a key whose alinéa, part or point is left open)."""
        if whole.al is not None:
            return self == whole
        if (self.article, self.section) != (whole.article, whole.section):
            return False
        if whole.point and self.point != whole.point:
            return False
        return not (whole.part and self.part != whole.part)

    def words(self) -> str:
        """The provision as a reference cites it: `art. 55-4, 5°, a), al. 2`, `section 6`, `al. 3`."""
        parts = []
        if self.article[:1].isdigit():
            parts.append(f"art. {self.article}")
        elif self.article:
            parts.append(self.article)  # a part named by a word
        if self.section:
            parts.append(f"section {self.section}")
        if self.point:
            parts.append(f"{self.point}°")
        if self.part:
            parts.append(f"{self.part})")
        if self.al == 0:
            parts.append("NOTA")
        elif self.al is not None:
            parts.append(f"al. {self.al}")
        return ", ".join(parts)


class CitationError(ValueError):
    """A reference this module cannot read as provisions."""


# Where the citation starts, after the text's name: an article by number, a part of a text named by a word
# (the rules of la bataille, which the source gives no number: `…, bataille, al. 21`), sections, alinéas.
_START = re.compile(r"\bart\. |\b[a-zé]+, al\. \d|\bsections? \d|\bal\. \d")
_PARENS = re.compile(r"\s*\([^()]*\)")
_TOKEN = re.compile(
    r"art\. (?P<article>\d+-\d+)|(?P<named>[a-zé]{2,})(?=, al\.)|sections? (?=\d)|(?P<point>\d+)°"
    r"|(?P<part>[a-z])\)"
    r"|al\.|(?P<nota>NOTA)|(?P<number>\d+)|(?P<and>et)|(?P<to>à)|(?P<comma>,)"
)


def cited(ref: str) -> set[Key]:
    """The provisions (and whole parts) `ref` cites; empty when it names no part of a text (a bare name)."""
    text = ref
    while True:  # the remarks in parentheses, innermost first: "(« … »)", "(texte d'usage, …)"
        shorter = _PARENS.sub("", text)
        if shorter == text:
            break
        text = shorter
    start = _START.search(text)
    if start is None:
        return set()
    keys: set[Key] = set()
    article = ""
    for group in text[start.start() :].split(";"):
        article = _group(group.strip(), article, keys)
    return keys


def key_of(name: str) -> Key:
    """A declared provision's name as the one provision it is (`art. 55-4, 1°, al. 2`)."""
    keys = cited(name)
    if len(keys) != 1 or (next(iter(keys)).al is None and not next(iter(keys)).section):
        raise CitationError(name)
    return next(iter(keys))


def _group(group: str, article: str, keys: set[Key]) -> str:
    """One `;`-separated part of a reference: its keys added to `keys`; the article it leaves."""
    tokens = list(_TOKEN.finditer(group))
    if re.match(r"sections? \d", group):
        numbers = _numbers(tokens, 1, group)[0]  # after the word "section(s)"
        for n in numbers:
            keys.add(Key(article, n, 0, "", None))
        return article
    return _Part(tokens, group, article, keys).read()


@dataclass(slots=True)
class _Part:
    """The reading of one part of a reference, token by token: where it stands (the article, the point
    and its lettered part), whether the current point (or the article) has had alinéas named, and the
    keys found so far."""

    tokens: list[re.Match[str]]
    text: str
    article: str
    keys: set[Key]
    index: int = 0
    point: int = 0
    part: str = ""
    told: bool = False

    def read(self) -> str:
        """The part's keys added to `keys`; the article it leaves."""
        while self.index < len(self.tokens):
            token = self.tokens[self.index]
            step = _STEPS.get(token.lastgroup or token.group(0))
            if step is None:
                raise CitationError(self.text)
            step(self, token)
        if self.point or self.part:
            self.whole()
        elif not self.told and self.article:
            self.keys.add(Key(self.article, 0, 0, "", None))
        return self.article

    def whole(self) -> None:
        """The current point (or part) is cited whole when no alinéa of it was named."""
        if not self.told:
            self.keys.add(Key(self.article, 0, self.point, self.part, None))

    def at_article(self, token: re.Match[str]) -> None:
        """`art. 55-4`, or a part of a text named by a word: what was cited before it is closed."""
        if self.point or self.part:
            self.whole()
        self.article = token.group("article") or token.group("named")
        self.point, self.part, self.told = 0, "", False
        self.index += 1

    def at_point(self, token: re.Match[str]) -> None:
        """`1°`, or a range of points `5° à 8°` (each cited whole)."""
        if self.point:
            self.whole()
        self.point, self.part, self.told = int(token.group("point")), "", False
        self.index += 1
        tokens, index = self.tokens, self.index
        if (
            index + 1 < len(tokens)
            and tokens[index].lastgroup == "to"
            and tokens[index + 1].lastgroup == "point"
        ):
            last = int(tokens[index + 1].group("point"))
            for n in range(self.point, last + 1):
                self.keys.add(Key(self.article, 0, n, "", None))
            self.point, self.told = last, True
            self.index += 2

    def at_part(self, token: re.Match[str]) -> None:
        """`a)`: a lettered part of the current point."""
        self.part, self.told = token.group("part"), False
        self.index += 1

    def at_alineas(self, token: re.Match[str]) -> None:
        """`al. 7`, `al. 1 et 4`, `al. 21 à 23`: alinéas of the current point (or article)."""
        numbers, self.index = _numbers(self.tokens, self.index + 1, self.text)
        for n in numbers:
            self.keys.add(Key(self.article, 0, self.point, self.part, n))
        self.told = True

    def at_nota(self, token: re.Match[str]) -> None:
        """`NOTA`: the article's note (alinéa 0)."""
        self.keys.add(Key(self.article, 0, self.point, self.part, 0))
        self.told = True
        self.index += 1

    def skip(self, token: re.Match[str]) -> None:
        """`,` and `et` between points."""
        self.index += 1


# What each token of a part does, by its group's name (`al.` by its text); any other token (a number or
# `à` out of place, `section` within a part) is not a citation.
_STEPS: dict[str, Callable[[_Part, re.Match[str]], None]] = {
    "article": _Part.at_article,
    "named": _Part.at_article,
    "point": _Part.at_point,
    "part": _Part.at_part,
    "al.": _Part.at_alineas,
    "nota": _Part.at_nota,
    "comma": _Part.skip,
    "and": _Part.skip,
}


def _numbers(tokens: list[re.Match[str]], index: int, group: str) -> tuple[list[int], int]:
    """The numbers of an alinéa (or section) list from `tokens[index]`: `7`, `1 et 4`, `21 à 23`, `7, 9 et
    10`, `4 et NOTA` (NOTA as 0); the index after it. A `,` or `et` not followed by a number ends it."""
    numbers: list[int] = []
    while index < len(tokens):
        token = tokens[index]
        if token.lastgroup == "number":
            numbers.append(int(token.group(0)))
            index += 1
        elif token.lastgroup == "nota" and numbers:
            numbers.append(0)
            index += 1
        elif token.lastgroup == "to" and numbers and index + 1 < len(tokens):
            last = int(tokens[index + 1].group(0))
            numbers.extend(range(numbers[-1] + 1, last + 1))
            index += 2
        elif (
            token.lastgroup in ("comma", "and")
            and index + 1 < len(tokens)
            and (tokens[index + 1].lastgroup in ("number", "nota"))
        ):
            index += 1
        else:
            break
    if not numbers:
        raise CitationError(group)
    return numbers, index
