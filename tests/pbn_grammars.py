"""The PBN grammar read another way, for tests that compare the reader against it: the
reader's callbacks on a grammar text of the test's own (without a row terminal, say)."""

from __future__ import annotations

from typing import Any

from lark import Lark

from bridgefiles.formats.pbn import grammar, parser


def lalr(text: str, callbacks: bool = True) -> tuple[Lark, Any]:
    """The LALR parser of ``text`` on pure-Python Lark, as the reader builds its own, and
    the reader's callbacks it calls (``callbacks=False``: none, the parse gives a tree)."""
    rules = parser._Rules()
    lark = Lark(
        text, parser="lalr", lexer="contextual", transformer=rules if callbacks else None,
        maybe_placeholders=False, start=list(grammar.STARTS),
    )  # fmt: skip
    return lark, rules
