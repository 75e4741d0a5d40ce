"""The syntax tree is declared once (`ast.py`'s `@builds`) and the transformer is derived from it: every
rule of the grammar is either built from its declaration or gathered by a method, and a declaration
fills exactly the fields its node has."""

from __future__ import annotations

import dataclasses

from validator.dsl import ast
from validator.dsl.parser import _parser
from validator.dsl.transformer import RulesTransformer


def _tree_names() -> set[str]:
    """The names Lark gives the parse tree's nodes: an alias, else the rule's name (`?rule`s that
    only pass a single child up are left out: they make no node of their own)."""
    names = set()
    for rule in _parser().rules:
        origin = str(rule.origin.name)
        if origin.startswith("_"):
            continue
        if rule.alias:
            names.add(str(rule.alias))
        elif not rule.options.expand1:
            names.add(origin)
    return names


def test_every_grammar_rule_is_built_by_a_declaration_or_gathered_by_a_method():
    handled = {name for name in _tree_names() if name in ast.BUILDS or name in vars(RulesTransformer)}
    assert _tree_names() - handled == set()
    # A rule is built one way only.
    assert {name for name in ast.BUILDS if name in vars(RulesTransformer)} == set()


def test_each_declaration_fills_exactly_the_fields_of_its_node():
    for rule, build in ast.BUILDS.items():
        fields = {f.name: f for f in dataclasses.fields(build.node)}
        named = [c.strip("*?") for c in build.children] + [key for key, _ in build.fixed]
        assert len(named) == len(set(named)), rule
        assert set(named) <= set(fields), rule
        missing = {
            name
            for name, f in fields.items()
            if name != "pos"
            and name not in named
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        }
        assert missing == set(), rule
