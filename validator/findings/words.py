"""A finding's severity and kind as a reader sees them, in the language in use (the ids stay as they
are in machine formats: json, jsonl, sarif)."""

from __future__ import annotations

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
