"""Replaying hand logs: game mechanics (cards, shoe, hands) and one engine per game."""
