"""The registry of the rules Python itself applies: the hand-log/1 format's (`validator/logs/rules/`:
`hand-log/*`, `ruleset/no-version-in-force`) and the linter's (`validator/house/rules/`: `house/*`). Each
rule's docs live beside its check; this gathers them, in a fixed order, for `rules show`, SARIF's rule
list and `--select`/`--ignore`. Ruleset rules carry their docs in the ruleset.
"""

from __future__ import annotations

from validator.findings.ruledoc import HOUSE_REF, LOG_REF, RuleDoc

__all__ = ["HOUSE_REF", "LOG_REF", "RuleDoc", "all_docs", "builtin_docs"]


def _log_docs() -> tuple[RuleDoc, ...]:
    # start-up: each family's rules load only when asked for (`_FAMILIES`)
    from validator.logs.rules import DOCS

    return DOCS


def _house_docs() -> tuple[RuleDoc, ...]:
    # start-up: the linter's rules (its schema, jsonschema, YAML: half a second) load only for `house/`
    from validator.house.rules import RULES

    return tuple(rule.DOC for rule in RULES)


# Each family's prefixes and where its docs come from (imported only when asked for: `check` needs only
# the format's, `lint` only the house's).
_FAMILIES = ((("hand-log/", "ruleset/", "money/"), _log_docs), (("house/",), _house_docs))


def builtin_docs(prefixes: tuple[str, ...]) -> list[RuleDoc]:
    """The Python-side rules whose ids start with one of `prefixes` (`("hand-log/", "ruleset/")`)."""
    return [
        doc
        for family, docs in _FAMILIES
        if any(f.startswith(p) or p.startswith(f) for f in family for p in prefixes)
        for doc in docs()
        if doc.id.startswith(prefixes)
    ]


def all_docs() -> dict[str, RuleDoc]:
    """Every Python-side rule, by id."""
    return {doc.id: doc for _unused, docs in _FAMILIES for doc in docs()}


def __getattr__(name: str) -> dict[str, RuleDoc]:
    # `BUILTIN`, every rule by id, built the first time it is asked for.
    if name == "BUILTIN":
        built = all_docs()
        globals()["BUILTIN"] = built
        return built
    raise AttributeError(name)
