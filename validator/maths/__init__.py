"""The game's mathematics: exact expected returns of a ruleset version and a table's house options."""
