"""Lexes one PBN game with the terminals of ``grammars/pbn.lark``, in one compiled regex.

The grammar is the one definition of the tokens: its terminals are taken from it
(through Lark, once a process) and joined into one alternation in Lark's own order
(priority, then width), so a token here is exactly the token Lark's lexer would give.
The grammar's rules (``start: _item* section*``, ``section: TAGS _item*``) accept any
sequence of those tokens, so the LALR parser added nothing but its cost: the tokens
are grouped into sections here in the same pass that finds them. Measured on
``scripts/bench``'s generated event: see the header of ``grammars/pbn.lark``.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import cache

from lark import Lark

from bridgefiles.formats.pbn.grammar import TERMINALS_FILE, grammar_file_text, grammar_text


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


def derive_terminals(grammar_source: str) -> tuple[str, list[str]]:
    """The grammar's terminals as one alternation, in the order Lark's lexer tries them,
    and the names of the terminals it ignores: from Lark itself."""
    grammar = Lark(grammar_source, parser=None, lexer="basic")  # terminals only: no tables
    terminals = sorted(
        grammar.terminals,
        key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
    )
    union = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals)
    return union, sorted(grammar.ignore_tokens)


def grammar_digest(grammar_source: str) -> str:
    return hashlib.sha256(grammar_source.encode("utf-8")).hexdigest()


def terminals_record(grammar_source: str) -> str:
    """The text of ``pbn.terminals.json`` for this grammar (what the script writes)."""
    union, ignored = derive_terminals(grammar_source)
    record = {
        "grammar_sha256": grammar_digest(grammar_source),
        "pattern": union,
        "ignored": ignored,
    }
    return json.dumps(record, indent=1) + "\n"


def stored_terminals(grammar_source: str) -> tuple[str, list[str]] | None:
    """The shipped alternation, if it was derived from exactly this grammar."""
    text = grammar_file_text(TERMINALS_FILE)
    if text is None:
        return None
    try:
        record = json.loads(text)
        if record["grammar_sha256"] != grammar_digest(grammar_source):
            return None
        pattern, ignored = record["pattern"], record["ignored"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(pattern, str) or not isinstance(ignored, list):
        return None
    return pattern, [str(name) for name in ignored]


@cache
def _master() -> tuple[re.Pattern[str], frozenset[str]]:
    """The grammar's terminals as one regex, in the order Lark's lexer tries them."""
    source = grammar_text()
    union, ignored = stored_terminals(source) or derive_terminals(source)
    return re.compile(union), frozenset(ignored)


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
