"""Blackjack: its replay engine, its simulator and its mathematics."""
