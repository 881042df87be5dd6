"""Lexes one PBN game with the terminals of ``grammars/pbn_tokens.lark``, in one compiled
regex.

The token list is the one definition of the tokens: its terminals are taken from it
(through Lark once, or as shipped beside it: formats/terminals.py) and joined into one
alternation in Lark's own order (priority, then width), so a token here is exactly the
token Lark's lexer would give. The list's rules accept any sequence of those tokens,
so they are grouped into sections here in the same pass that finds them.
"""

from __future__ import annotations

import re

from bridgefiles.formats.terminals import compiled_terminals


class Lexeme:
    """A token of a game: its terminal, its text, and where it starts (from 1)."""

    __slots__ = ("column", "line", "text", "type")

    def __init__(self, type: str, text: str, line: int, column: int) -> None:
        self.type = type
        self.text = text
        self.line = line
        self.column = column

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Lexeme({self.type}, {self.text!r}, {self.line}:{self.column})"


Section = tuple[Lexeme, list[Lexeme]]
# lead items, sections, and where the game stopped being read (None: read to its end)
Game = tuple[list[Lexeme], list[Section], tuple[int, int] | None]


def _master() -> tuple[re.Pattern[str], frozenset[str]]:
    """The grammar's terminals as one regex, in the order Lark's lexer tries them."""
    return compiled_terminals("pbn_tokens.lark")


def lex_game(text: str, max_tokens: int | None = None) -> Game:
    """The game's lead items (before its first tag) and its sections, in one pass.

    Past ``max_tokens`` tokens (comments, escape lines, tag runs, data runs) the rest of
    the game is not lexed, so one game of a million comments cannot take a GB; the
    position where it stopped is returned for the reader's ``limit`` finding.

    ``text`` has ``\\n`` line ends. Every character belongs to some terminal (``JUNK``
    takes any other), so nothing is skipped; a gap would be a bug, and is kept as JUNK.
    """
    master, ignored = _master()
    lead: list[Lexeme] = []
    sections: list[Section] = []
    items = lead
    line, line_start, last = 1, 0, 0
    budget = max_tokens if max_tokens is not None else -1
    for m in master.finditer(text):
        kind = m.lastgroup or "JUNK"
        if kind in ignored:
            continue
        start = m.start()
        newlines = text.count("\n", last, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", last, start) + 1
        if budget == 0:
            return lead, sections, (line, start - line_start + 1)
        budget -= 1
        if kind == "TAGS":
            items = []
            sections.append((Lexeme(kind, m.group(), line, start - line_start + 1), items))
        else:
            items.append(Lexeme(kind, m.group(), line, start - line_start + 1))
        last = start
    return lead, sections, None
