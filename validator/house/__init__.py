"""House rules (règlement intérieur): reading the YAML, linting it against a ruleset, applying it."""
