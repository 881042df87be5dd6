"""A row of calls or cards (the PBN grammar's CALLS and CARDS terminals), annotations
and all, reads as its tokens would one by one: the same board, its calls and cards in
the same places, the same findings, as a reading through the grammar without the row
terminals (each call, card, suffix, note reference and NAG a token of its own)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput
from pbn_grammars import lalr

import bridgefiles as bf
from bridgefiles.formats.pbn import grammar, parser
from bridgefiles.limits import Limits

CALLS = ["Pass", "X", "XX", "1C", "1D", "2H", "3NT", "4S", "pass", "7nt", "1Nt", "1N", "AP"]
CARDS = ["SA", "HK", "D2", "CT", "sq", "h9", "-", "S10"]
ANNOTATIONS = ["", "!", "?", "!!", "!?", "=1=", "=2=", "=40=", "$1", "$14", "$300", "{c}"]
MARKS = ["", "", "", "", "", "", "^I ", "^S ", "^R ", "^L ", "+ ", "* "]
GAPS = [" ", "  ", "\n", "\t", " \n  ", ""]


def _without_rows() -> str:
    """The PBN grammar with no CALLS or CARDS terminal."""
    text = grammar.grammar_text()
    text = text.replace("(CALL | CALLS | WORD)", "(CALL | WORD)")
    text = text.replace("(CARD | CARDS | WORD)", "(CARD | WORD)")
    lines = [line for line in text.splitlines() if not line.startswith(("CALLS.", "CARDS."))]
    assert len(lines) == len(text.splitlines()) - 2, "the grammar's row terminals moved"
    rules = "\n".join(line for line in lines if not line.startswith("//"))
    assert "CALLS" not in rules and "CARDS" not in rules
    return "\n".join(lines)


@pytest.fixture(scope="module")
def one_by_one() -> Iterator[Any]:
    """A reading through the grammar without rows, on pure-Python Lark."""
    yield lalr(_without_rows())


def _read(text: str, limits: Limits) -> tuple[Any, ...]:
    boards = bf.loads(text, format="pbn", limits=limits)
    out = []
    for b in boards.boards:
        places = []
        for section in (b.auction, b.play):
            if section is not None:
                places.append(section.positions)
        out.append((b.model_dump(mode="json"), places))
    return out, [d.format() for d in boards.diagnostics], [d.format() for b in boards.boards
                                                           for d in b.diagnostics]


_ITEMS = st.lists(
    st.tuples(
        st.integers(0, 20),
        st.sampled_from(MARKS),
        st.tuples(st.sampled_from(["", " ", "\n"]), st.sampled_from(ANNOTATIONS)),
        st.sampled_from(GAPS[:-1]),
    ),
    max_size=24,
)


@settings(max_examples=200, deadline=None)
@given(auction=_ITEMS, play=_ITEMS)
def test_a_row_of_calls_or_cards_reads_as_its_tokens_one_by_one(
    auction: list[Any], play: list[Any], one_by_one: Any
) -> None:
    def body(words: list[str], items: list[Any]) -> str:
        out = ""
        for w, mark, (sep, note), gap in items:
            out += f"{mark}{words[w % len(words)]}{sep if note else ''}{note}{gap}"
        return out

    text = (
        '[Board "1"]\n[Dealer "N"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ '
        '765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
        f'[Auction "N"]\n{body(CALLS, auction)}\n[Note "1:alert"]\n'
        f'[Play "E"]\n{body(CARDS, play)}\n\n[Board "2"]\n'
    )
    rejected = [_rejected(lark, text) for lark in _grammars()]
    assert rejected[0] == rejected[1], "the rows change the language"
    if rejected[0] is not None:
        return  # (what is passed over is said of the token the grammar rejects: a row
        # is said whole, as the grammar rejects it, where the calls one by one are each)
    limits = Limits()
    in_rows = _read(text, limits)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(parser, "_parser", lambda which: one_by_one)
        singly = _read(text, limits)
    assert in_rows == singly


@cache
def _grammars() -> tuple[Any, Any]:
    """The reader's grammar and the one without rows, with no callbacks (a tree)."""
    return grammar.build(None, "python"), lalr(_without_rows(), callbacks=False)[0]


def _rejected(lark: Any, text: str) -> tuple[int, int] | None:
    """Where the grammar rejects ``text``, or None when it reads it."""
    try:
        lark.parse(text, start="start")
    except UnexpectedInput as exc:
        return exc.line, exc.column
    return None


def test_a_row_s_annotations_count_within_the_section_s_budget() -> None:
    """Each call, card and annotation of a row is one of the section's tokens
    (``max_commands_per_board``), as it is one by one: the section stops at the one past
    the budget, said there."""
    text = '[Auction "N"]\n1C =1= 1D ! 1H\n'
    board = bf.loads(text, format="pbn", limits=Limits(max_commands_per_board=3)).boards[0]
    [limit] = [d for d in board.diagnostics if d.code == "limit"]
    assert (limit.line, limit.column) == (2, 11)
    assert board.auction is not None
    assert [e.call.text for e in board.auction.entries if e.call] == ["1C", "1D"]
    assert board.auction.entries[0].annotations.note == 1


def test_the_reader_s_grammar_has_rows() -> None:
    """(What the test above compares against is another grammar than the reader's.)"""
    names = {t.name for t in grammar.build(None, "python").terminals}
    assert {"CALLS", "CARDS"} <= names
