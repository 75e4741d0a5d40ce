"""The game's mathematics: exact expected returns of a ruleset version and a table's house options."""

# What `edge` writes (`--format`: the CLI reads its choices here; this package's __init__ imports nothing).
FORMATS = ("text", "json")
