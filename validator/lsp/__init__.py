"""`casino-validator rules lsp`: a language server for ruleset files (the `lsp` extra: pygls)."""
