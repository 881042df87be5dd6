"""The LIN lexer gives exactly the tokens of the grammar through Lark.

``commands.lexer()`` joins the terminals of ``grammars/lin.lark`` into one regex in
the order Lark's lexer tries them, and the reader takes its matches instead of a Lark
parse (the grammar's one rule takes any sequence of tokens). Checked here against
Lark's own LALR parse of the grammar, pure-Python and, when the ``fast`` extra is
installed, lark-cython: on every real LIN file, LIN-like text made by hypothesis, and
texts built to sit on the edges between terminals.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark, Token
from shared import CORPUS

from bridgefiles.formats.lin.commands import grammar_text, lexer

FAST = importlib.util.find_spec("lark_cython") is not None

Tokens = list[tuple[str, int, str]]


@cache
def _lark(fast: bool) -> Lark:
    if fast:
        import lark_cython

        return Lark(grammar_text(), parser="lalr", lexer="basic", _plugins=lark_cython.plugins)
    return Lark(grammar_text(), parser="lalr", lexer="basic")


def _by_lark(text: str, fast: bool = False) -> Tokens:
    tree = _lark(fast).parse(text)
    found: list[Token] = tree.children  # type: ignore[assignment]  # no subtrees
    return [(t.type, t.start_pos or 0, str(t.value)) for t in found]


def _by_lexer(text: str) -> Tokens:
    return [(m.lastgroup or "", m.start(), m.group()) for m in lexer().finditer(text)]


def _check(text: str) -> None:
    tokens = _by_lexer(text)
    assert tokens == _by_lark(text)
    if FAST:
        assert tokens == _by_lark(text, fast=True)
    # the tokens cover the text, one after the other: nothing skipped
    assert "".join(body for _, _, body in tokens) == text
    assert all(a[1] + len(a[2]) == b[1] for a, b in pairwise(tokens))


def _files() -> list[Any]:
    if not CORPUS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{CORPUS} is absent"))]
    return [pytest.param(p, id=p.name) for p in sorted(CORPUS.rglob("*.lin"))]


@pytest.mark.parametrize("path", _files())
def test_the_lexer_gives_lark_s_tokens_on_the_corpus(path: Path) -> None:
    _check(path.read_bytes().decode("latin-1"))


EDGES = [
    "",
    "|",
    "||",
    "|||",
    "pc|SA|",
    "pc|SA|pg||pc|h2|",
    "pc|SA|\npc|HA|",
    "pc|S10|pc|SA|",
    " pc|SA|pc|HA|",
    "pc|SA|nt|hello|pc|HA|",
    "mb|1C|an|x|pg||nt|y|mb|p|pc|SA|",
    "mb|1C|\n mb|p|",
    "pn|a,b,c,d|st||md|3SA,,,|",
    "pc|SA",
    "pc|",
    "trailing words",
    "md|1SA,,,|  \n",
    "PC|sa|Pg||pG||",
    "%comment\npc|SA|",
    "\r\nmb|1C|\r\n",
]


@pytest.mark.parametrize("text", EDGES)
def test_the_lexer_gives_lark_s_tokens_on_the_edges(text: str) -> None:
    _check(text)


PIECES = st.sampled_from(
    [
        *("|", "||", "\n", "\r\n", " ", "\t", "%", "!", ",", "pc", "PC", "pC", "pg", "mb"),
        *("MB", "an", "nt", "md", "pn", "qx", "up", "SA", "s2", "hT", "D10", "C", "1N", "p"),
    ]
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=50).map("".join))
def test_the_lexer_gives_lark_s_tokens_on_any_lin_like_text(text: str) -> None:
    _check(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=100))
def test_the_lexer_gives_lark_s_tokens_on_any_text(text: str) -> None:
    _check(text)
