"""The rules language: parse (grammar/rules.lark) → syntax tree (ast) → compiled ruleset (compiler)."""
