"""Presentation over the model: a board drawn for the terminal, and boards as rows."""
