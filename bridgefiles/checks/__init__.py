"""Checking a board as a whole (its reading's findings, the Laws, the score) and the JSON
Schemas of what other programs read from us."""
