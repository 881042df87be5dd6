"""Splitting a PBN text into games a batch of lines at a time gives what splitting it a
line at a time gives.

``split_games`` takes a batch of plain lines (no comment, ``;``, escape line, table tag
or CR alone; no long line; after the preamble, outside a comment or table) in C-level
passes over its text (``split._plain_text`` says which); any other batch a line at a
time. Every game (its text, first line and problems), the preamble and the trailer must
be the same either way: checked on the real corpus, the conformance files, a synthetic
event with LF and CRLF line ends, and random texts cut into random batches (hypothesis).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import pbn_params

import bridgefiles as bf
from bridgefiles.formats.decode import LineDecoder
from bridgefiles.formats.lines import Lines
from bridgefiles.formats.pbn import split
from bridgefiles.testing import synthetic


def _games(batches: list[list[str]], latin1: bool = False) -> list[Any]:
    parts = split.split_games(Lines(iter(batches)), 1_000_000, 10_000, latin1)
    return [(p.kind, p.game.text, p.game.first_line, p.game.problems) for p in parts]


def _both(
    batches: list[list[str]], monkeypatch: pytest.MonkeyPatch, latin1: bool = False
) -> tuple[list[Any], list[Any], int]:
    """The split with batches taken whole where they can be, and a line at a time; and
    how many batches were taken whole."""
    taken: list[bool] = []
    plain_text = split._plain_text

    def spy(text: str) -> bool:
        taken.append(plain_text(text))
        return taken[-1]

    with monkeypatch.context() as m:
        m.setattr(split, "_plain_text", spy)
        fast = _games(batches, latin1)
    with monkeypatch.context() as m:
        m.setattr(split, "_plain_text", lambda text: False)
        slow = _games(batches, latin1)
    return fast, slow, sum(taken)


def _decoded(data: bytes) -> list[list[str]]:
    """The decoder's batches of ``data``, read in 4 KB chunks (so games span batches)."""
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    return list(LineDecoder().read_batches(chunks))


@pytest.mark.parametrize("path", pbn_params())
def test_batches_split_as_lines_on_the_corpus(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    batches = _decoded(path.read_bytes())
    for latin1 in (False, True):
        fast, slow, _ = _both(batches, monkeypatch, latin1)
        assert fast == slow


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_batches_split_as_lines_on_a_synthetic_event(
    newline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "".join(synthetic.to_pbn(synthetic.generate(60, seed=11))).replace("\n", newline)
    fast, slow, taken = _both(_decoded(text.encode()), monkeypatch)
    assert fast == slow
    assert len(fast) >= 60
    assert taken >= 5  # the batches were taken whole


def test_a_read_with_batches_is_a_read_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole reader, over the real decode path (64 KB chunks), with and without."""
    text = "".join(synthetic.to_pbn(synthetic.generate(300, seed=5))).replace("\n", "\r\n")
    data = text.encode()

    def read() -> list[Any]:
        f = bf.load(data, format="pbn")
        return [f.diagnostics, [(b, b.diagnostics) for b in f.boards]]

    fast = read()
    with monkeypatch.context() as m:
        m.setattr(split, "_plain_text", lambda text: False)
        slow = read()
    assert fast == slow


# Lines a PBN text is made of: plain ones (a batch of them is taken whole) far more
# often than those around the edges of what a plain batch may hold.
_PLAIN = [
    '[Event "x"]',
    '[Board "1"]',
    '[Deal "N:AKQJ.T98.765.432 - - -"]',
    "N NT 7",
    "1C Pass 2H =1= Pass",
    "H9 H3 HK HA",
    "*",
    "",
    " ",
    "\t ",
    "\x0c",
    "\x0b",
    "caf\u00e9 \u2663",
]
_ODD = [
    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',
    "% escape",
    "{ a comment",
    "ends it }",
    "{ one line }",
    "; rest of line",
    '[Note "1:a; b"]',
    '"a string { not a comment"',
    "x" * 230,
    "K" * 260,
]
_LINE_SPLIT = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_LINE = st.sampled_from(_PLAIN * 4 + _ODD)
_END = st.sampled_from(["\n"] * 8 + ["\r\n"] * 8 + ["\r"])


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.tuples(_LINE, _END), max_size=60),
    cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=8),
    last_end=st.booleans(),
    latin1=st.booleans(),
    lead=st.booleans(),
)
@example(lines=[("", "\n"), ("", "\n")], cuts=[], last_end=False, latin1=False, lead=True)
def test_batches_split_as_lines_on_random_texts(
    lines: list[tuple[str, str]], cuts: list[int], last_end: bool, latin1: bool, lead: bool
) -> None:
    texts = [line + end for line, end in lines]
    if texts and not last_end:
        texts[-1] = lines[-1][0]
    # Lines as a decoder gives them: a line ended by a lone CR and an empty line after it
    # are one CRLF line in the text, never two lines.
    texts = _LINE_SPLIT.findall("".join(texts))
    points = sorted({0, len(texts), *(c for c in cuts if c < len(texts))})
    batches = [texts[a:b] for a, b in pairwise(points)]
    if lead:  # a first batch that ends the preamble: the next ones may be taken whole
        batches.insert(0, ['[Board "0"]\n'])
    with pytest.MonkeyPatch.context() as m:
        fast, slow, _ = _both(batches, m, latin1)
    assert fast == slow


@pytest.mark.parametrize("end", ["\n", "\r\n"])
@pytest.mark.parametrize("cut", [1, 3, 7])
def test_plain_texts_built_to_reach_the_batch_path_are_taken_whole(
    end: str, cut: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Texts of plain lines only, after a batch that ends the preamble, reach the batch
    path by construction (so the comparison above is known to cover it, whatever the
    draw): the same games either way, and batches were taken whole."""
    texts = [line + end for line in _PLAIN * 3]
    batches = [['[Board "0"]\n']] + [texts[i : i + cut] for i in range(0, len(texts), cut)]
    fast, slow, taken = _both(batches, monkeypatch, False)
    assert fast == slow
    assert taken >= 1


def test_a_plain_iterator_of_lines_is_split_too() -> None:
    """A reader handed a plain iterator (``bf.loads``) gets it in runs of lines."""
    text = "".join(synthetic.to_pbn(synthetic.generate(3, seed=1)))
    lines: Iterator[str] = iter(text.splitlines(keepends=True))
    games = [p for p in split.split_games(lines) if p.kind == "game"]
    assert "".join(p.game.text for p in games) in text
    assert len(games) == 3
