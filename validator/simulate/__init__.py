"""`casino-validator simulate`: séances played by a ruleset version, written as hand-log/1.

Mechanics (shuffling, dealing, the dealer's drawing, payouts) come from the ruleset's parameters;
whether a player's decision is allowed is asked of the ruleset's own rules, so the players only ever
make legal moves. Same seed, same file.
"""
