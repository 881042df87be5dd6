"""A row of tag pairs (the PBN grammar's TAGS terminal) reads as its pairs would one by
one: the same board, the same tags in the same places, the same findings, as a reading
through the grammar without the row terminal (each pair a TAG of its own)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pbn_grammars import lalr

import bridgefiles as bf
from bridgefiles.formats.pbn import grammar, parser

NAMES = [
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
    "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result", "Note",
    "Auctioneer", "Player", "Annotator", "MyTag", "lower", "_x", "Event",
]  # fmt: skip
VALUES = [
    "", "?", "1", "N", "All", "3NT", "9", "E", "x y", "#", "##club", "a\tb",
    "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765", "2026.12.04",
]  # fmt: skip
GAPS = [" ", "\n", "\n  ", "\t", "  \n\t", "\n"]


def _without_rows() -> str:
    """The PBN grammar with no TAGS terminal: each pair is a TAG."""
    text = grammar.grammar_text().replace("(TAG | TAGS | INHERITED", "(TAG | INHERITED")
    lines = [line for line in text.splitlines() if not line.startswith("TAGS.")]
    assert len(lines) == len(text.splitlines()) - 1, "the grammar's TAGS terminal moved"
    return "\n".join(lines)


@pytest.fixture(scope="module")
def one_by_one() -> Iterator[Any]:
    """A reading through the grammar without rows, on pure-Python Lark."""
    yield lalr(_without_rows())


def _read(text: str) -> tuple[Any, ...]:
    boards = bf.loads(text, format="pbn")
    return (
        [b.model_dump(mode="json") for b in boards.boards],
        [[b.tag_where(i) for i in range(len(b.tags))] for b in boards.boards],
        [d.format() for d in boards.diagnostics],
    )


@settings(max_examples=150, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(st.sampled_from(NAMES), st.sampled_from(VALUES), st.sampled_from(GAPS)),
        min_size=1, max_size=12,
    ),
    lead=st.sampled_from(["", "% EXPORT\n", "  "]),
    section=st.sampled_from(["", '[Auction "N"]\n1NT Pass Pass Pass\n', 'el "s"\n', "{c}\n"]),
)  # fmt: skip
def test_a_row_of_tags_reads_as_its_pairs_one_by_one(
    pairs: list[tuple[str, str, str]], lead: str, section: str, one_by_one: Any
) -> None:
    text = lead + "".join(f'[{name} "{value}"]{gap}' for name, value, gap in pairs)
    text += ("\n" if not text.endswith("\n") else "") + section
    text += '\n[Board "2"]\n'
    in_rows = _read(text)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(parser, "_parser", lambda which: one_by_one)
        singly = _read(text)
    assert in_rows == singly


def test_the_reader_s_grammar_has_rows() -> None:
    """(What the test above compares against is another grammar than the reader's.)"""
    assert any(t.name == "TAGS" for t in grammar.build(None, "python").terminals)
