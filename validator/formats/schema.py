"""The JSON Schema of the `json` document and of each `jsonl` line (`casino-validator schema findings`).

Written beside `Finding.as_dict` and `Summary.as_dict`, which it describes; a test validates real runs'
output against it, so the two cannot drift apart unnoticed.
"""

from __future__ import annotations

from typing import Any

from validator.findings.finding import KINDS

# The `version` of the json document: raised when a field is removed or changes meaning.
DOCUMENT_VERSION = 1

_NULLABLE_STRING = {"type": ["string", "null"]}
_COUNT = {"type": "integer", "minimum": 0}
_AMOUNT = {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$", "description": "an exact decimal amount"}
_VALUES = {
    "type": ["object", "null"],
    "description": 'what the rules give (expected) or the log shows (actual), e.g. {"pay": "30"}',
}

READING_CHOICE: dict[str, Any] = {
    "type": "object",
    "required": ["reading", "alternative"],
    "properties": {"reading": {"type": "string"}, "alternative": {"type": "string"}},
    "additionalProperties": False,
}

FINDING: dict[str, Any] = {
    "type": "object",
    "description": "One finding (one line of jsonl output); fields as docs/findings.md lists them.",
    "required": [
        "kind",
        "rule",
        "ref",
        "severity",
        "file",
        "line",
        "round",
        "stake",
        "message",
        "expected",
        "actual",
    ],
    "properties": {
        "kind": {"enum": list(KINDS)},
        "rule": {"type": "string", "minLength": 1},
        "ref": {"type": "string"},
        "severity": {"enum": ["error", "warning"]},
        "file": {"type": "string"},
        "line": {"type": ["integer", "null"], "minimum": 0},
        "round": _NULLABLE_STRING,
        "stake": _NULLABLE_STRING,
        "path": {"type": "string", "description": "lint only: the dotted key path in the house-rules file"},
        "firm": {
            "type": "boolean",
            "description": "check --all-readings only: given under every alternative of every reading judged",
        },
        "rests_on": {
            "type": "array",
            "description": "check --all-readings only: the readings, with the alternative applied, some "
            "other alternative of which would not give this finding (empty when firm; docs/readings.md)",
            "items": READING_CHOICE,
        },
        "holds_under": {
            "type": "array",
            "description": "check --all-readings only: every reading and alternative judged under which the "
            "finding is given",
            "items": READING_CHOICE,
        },
        "message": {"type": "string"},
        "expected": _VALUES,
        "actual": _VALUES,
        "caused_by": {
            "type": "string",
            "pattern": "^[0-9a-f]{32}$",
            "description": "only on a consequence: the fingerprint of the finding of the same round that "
            "caused it",
        },
    },
    "additionalProperties": False,
}

SUMMARY: dict[str, Any] = {
    "type": "object",
    "description": "check: files, records, rounds and money; lint: files and tables (table entries).",
    "required": ["files", "findings", "rulesets", "house", "notes"],
    "properties": {
        "tables": {
            "type": "object",
            "required": ["checked", "clean", "with_findings"],
            "properties": {k: _COUNT for k in ("checked", "clean", "with_findings")},
        },
        "files": _COUNT,
        "records": _COUNT,
        "rounds": {
            "type": "object",
            "required": ["read", "checked", "clean", "with_findings", "unreadable"],
            "properties": {k: _COUNT for k in ("read", "checked", "clean", "with_findings", "unreadable")},
        },
        "findings": {
            "type": "object",
            "required": ["total", "by_kind", "by_rule", "by_severity"],
            "properties": {
                "total": _COUNT,
                "by_kind": {"type": "object", "additionalProperties": _COUNT},
                "by_rule": {"type": "object", "additionalProperties": _COUNT},
                "by_severity": {"type": "object", "additionalProperties": _COUNT},
            },
        },
        "money": {
            "type": "object",
            "required": ["overpaid_by_house", "underpaid_to_players"],
            "properties": {
                "overpaid_by_house": _AMOUNT,
                "underpaid_to_players": _AMOUNT,
                "seances": {
                    "type": "object",
                    "description": "The séances whose table's money the logs record (hand-log/1.2): "
                    "reconciled to the cent, with a difference (money/reconciliation), or not reconciled "
                    "(the notes say why); left out when the logs record none",
                    "required": ["reconciled", "with_difference", "not_reconciled"],
                    "properties": {k: _COUNT for k in ("reconciled", "with_difference", "not_reconciled")},
                },
            },
        },
        "rulesets": {"type": "array", "items": {"type": "string"}},
        "house": _NULLABLE_STRING,
        "notes": {"type": "array", "items": {"type": "string"}},
        "readings_judged": {
            "type": "array",
            "description": "check --all-readings only: each run made, the readings it changed from those "
            "applied (one, or several that change the same rounds; none for the run under the readings "
            "applied) and the findings it gave",
            "items": {
                "type": "object",
                "required": ["changed", "findings"],
                "properties": {
                    "changed": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["reading", "alternative"],
                            "properties": {"reading": {"type": "string"}, "alternative": {"type": "string"}},
                            "additionalProperties": False,
                        },
                    },
                    "findings": _COUNT,
                },
                "additionalProperties": False,
            },
        },
        "readings": {
            "type": "object",
            "description": "only when a version judged has readings: for each version, the alternative each "
            "of its readings was applied with (docs/readings.md), and whether it is the reading's default",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["reading", "alternative", "default"],
                    "properties": {
                        "reading": {"type": "string"},
                        "alternative": {"type": "string"},
                        "default": {"type": "boolean"},
                    },
                    "additionalProperties": False,
                },
            },
        },
        "repeated": {
            "type": "array",
            "description": "json format, check only, where a rule was found in two rounds or more: each "
            "such rule, most rounds first, with the number of rounds it was found in and its first "
            "finding's message",
            "items": {
                "type": "object",
                "required": ["rule", "rounds", "of_rounds", "message"],
                "properties": {
                    "rule": {"type": "string"},
                    "rounds": _COUNT,
                    "of_rounds": _COUNT,
                    "message": {"type": "string"},
                },
                "additionalProperties": False,
            },
        },
        "left_out": {
            "type": "object",
            "description": "only when --select/--ignore, a baseline or inline suppressions left findings out",
            "required": ["ignored", "baselined", "suppressed", "suppressions"],
            "properties": {
                "ignored": _COUNT,
                "baselined": _COUNT,
                "suppressed": _COUNT,
                "suppressions": {"type": "object", "additionalProperties": _COUNT},
            },
        },
    },
}


def findings_schema() -> dict[str, Any]:
    """The `json` document's schema; `#/$defs/finding` is the schema of one `jsonl` line."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://casino-validator.invalid/schemas/findings-1.json",
        "title": "casino-validator findings",
        "description": (
            "The document of `--format json`. Each line of `--format jsonl` is one `#/$defs/finding`. "
            "See docs/findings.md."
        ),
        "type": "object",
        "required": ["version", "findings", "summary"],
        "properties": {
            "version": {"const": DOCUMENT_VERSION},
            "findings": {"type": "array", "items": {"$ref": "#/$defs/finding"}},
            "summary": {"$ref": "#/$defs/summary"},
        },
        "$defs": {"finding": FINDING, "summary": SUMMARY},
    }
