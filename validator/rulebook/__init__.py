"""The rulesets as the commands see them: every version loaded and picked by id and date (`registry`),
shown and compared (`view`), the docs of the rules Python applies (`builtin_docs`), and the rule
fixtures `rules test` runs (`fixtures`)."""
