"""Every rule a run may apply, the rulesets' and the Python-side ones (`hand-log/*`, `house/*`) together:
their docs gathered (`builtin_docs`), shown and compared by `rules list/show/diff` (`view`), and which of
them a run reports and fails on (`policy`: `--select`/`--ignore`, baselines, suppressions, the fail
level). It sits above the layers that define rules (the logs, the house linter) and below those that run
them (`checking`, `live`, the commands)."""
