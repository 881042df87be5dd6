"""The text of the PBN grammar, ``grammars/pbn.lark`` (the lexer compiles its terminals
once: formats/terminals.py)."""

from __future__ import annotations

from bridgefiles.formats import terminals


def grammar_text() -> str:
    """The text of ``pbn.lark``, from the installed package or the source tree."""
    return terminals.grammar_text("pbn.lark")
