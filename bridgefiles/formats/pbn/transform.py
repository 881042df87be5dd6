"""Turns the grammar's rules into plain tuples while Lark parses (no tree is built).

A game becomes its lead items (commentary and escape lines before the first tag)
and a list of sections, each a tag token with the items that follow it. The
reader gives them meaning; this module only shapes what the parser matched.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer

Section = tuple[Token, list[Token]]
Game = tuple[list[Token], list[Section]]


class GameShaper(Transformer[Token, Any]):
    """Shapes ``start`` and ``section`` (see ``grammars/pbn.lark``)."""

    def section(self, children: list[Token]) -> Section:
        return children[0], children[1:]

    def start(self, children: list[Any]) -> Game:
        lead: list[Token] = []
        sections: list[Section] = []
        for child in children:
            if isinstance(child, tuple):
                sections.append(child)
            else:
                lead.append(child)
        return lead, sections


SHAPER = GameShaper()
