"""A finding's severity, kind and stake as a reader sees them, in the language in use (the ids stay as they
are in machine formats: json, jsonl, sarif)."""

from __future__ import annotations

from collections.abc import Mapping

from validator.casino.stakes import STAKE_KINDS
from validator.i18n import N_, _

SEVERITY_WORDS = {"error": N_("error"), "warning": N_("warning")}
KIND_WORDS = {
    "procedure": N_("procedure"),
    "payout": N_("payout"),
    "format": N_("format"),
    "house": N_("house"),
    "money": N_("money"),
}


def kind_word(kind: str) -> str:
    return _(KIND_WORDS[kind]) if kind in KIND_WORDS else kind


def severity_word(severity: str) -> str:
    return _(SEVERITY_WORDS[severity]) if severity in SEVERITY_WORDS else severity


def stake_words(stake: str, titles: Mapping[str, str] | None = None) -> str:
    """`3` → `box 3`, `3/2` → `box 3, hand 3/2`, `1:insurance` → `box 1, insurance`, `D` → `dealer`;
    a side bet's stake by its title in the version that judged it (`titles`: stake name → title),
    `5:lucky_ladies` → `box 5, dames de cœur`, `4:hyper:17` → `box 4, hyper black jack 17`."""
    if stake == "D":
        return _("dealer")
    box, _sep, side = stake.partition(":")
    hand = box
    box = box.split("/", 1)[0]
    words = _("box {box}").format(box=box)
    if hand != box:
        words += ", " + _("hand {hand}").format(hand=hand)
    if side:
        words += ", " + side_words(side, titles)
    return words


def side_words(side: str, titles: Mapping[str, str] | None = None) -> str:
    """The part of a stake after its box: `insurance` in the language of the run, a side bet by its
    title (lower-cased where it starts a plain word: « dames de cœur »), with its case (`hyper:17`)."""
    name, _sep, case = side.partition(":")
    title = (titles or {}).get(name)
    if title:
        word = title[0].lower() + title[1:] if len(title) > 1 and title[1].islower() else title
    elif name in STAKE_KINDS:
        word = _(STAKE_KINDS[name])
    else:
        word = name.replace("_", " ")
    return f"{word} {case.replace(':', ' ')}" if case else word
