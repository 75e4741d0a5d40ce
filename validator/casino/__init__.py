"""The game's nouns: cards, stakes, money, and the settlements of a round (`ledger`).

A leaf of the package: it imports nothing of `validator`, and every layer that speaks of the game
(`dsl`, `replay`, `simulate`, `house`, `maths`, the reports) imports it. What the law says of these
nouns is in the rulesets; this package only reads and writes them (a card's code and value, a stake's
name, an exact amount of money).
"""
