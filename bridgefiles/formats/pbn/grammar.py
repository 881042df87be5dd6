"""The PBN grammar, ``grammars/pbn.lark``, and its LALR parser (on lark-cython when it is
installed; ``BRIDGEFILES_LARK=python`` picks pure-Python Lark: formats/terminals.py)."""

from __future__ import annotations

from typing import Any

from lark import Lark

from bridgefiles.formats import terminals

GRAMMAR = "pbn.lark"


def grammar_text() -> str:
    """The text of ``pbn.lark``, from the installed package or the source tree."""
    return terminals.grammar_text(GRAMMAR)


def build(transformer: Any = None, which: str | None = None) -> Lark:
    """The grammar's LALR parser with ``transformer``'s callbacks, on the engine ``which``
    (default: lark-cython when installed). Its lexer is contextual: a token means what
    the section it stands in says (``4NT`` is a call in an auction, an element in a
    table)."""
    return terminals.lalr(GRAMMAR, transformer, which)
