"""Splitting a PBN text into games: lossless, at the semi-empty lines the standard
puts between games (pbn.md 3), and the same however the lines come in batches.

``split_games`` takes every line by the same rules, one at a time; the batches the
decoder hands it are only how the lines travel. Checked on the real corpus, the
conformance files, a synthetic event with LF and CRLF line ends, and random texts cut
into random batches (hypothesis); texts of plain lines also against a reference split
written from the standard (a game ends at the first semi-empty line after content).
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

from bridgefiles.formats.decode import LineDecoder
from bridgefiles.formats.lines import Lines
from bridgefiles.formats.pbn import split
from bridgefiles.testing import synthetic


def _games(batches: list[list[str]], latin1: bool = False) -> list[Any]:
    parts = split.split_games(Lines(iter(batches)), 1_000_000, 10_000, latin1)
    return [(p.kind, p.game.text, p.game.first_line, p.game.problems) for p in parts]


def _both(batches: list[list[str]], latin1: bool = False) -> tuple[list[Any], list[Any]]:
    """The split of the lines in ``batches`` as batched, and a line to a batch."""
    return _games(batches, latin1), _games([[line] for b in batches for line in b], latin1)


def _decoded(data: bytes) -> list[list[str]]:
    """The decoder's batches of ``data``, read in 4 KB chunks (so games span batches)."""
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    return list(LineDecoder().read_batches(chunks))


@pytest.mark.parametrize("path", pbn_params())
def test_batches_split_as_lines_on_the_corpus(path: Path) -> None:
    data = path.read_bytes()
    batches = _decoded(data)
    for latin1 in (False, True):
        batched, by_line = _both(batches, latin1)
        assert batched == by_line
        assert "".join(text for _, text, _, _ in batched) == "".join(map("".join, batches))


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_batches_split_as_lines_on_a_synthetic_event(newline: str) -> None:
    text = "".join(synthetic.to_pbn(synthetic.generate(60, seed=11))).replace("\n", newline)
    batched, by_line = _both(_decoded(text.encode()))
    assert batched == by_line
    assert [kind for kind, *_ in batched].count("game") == 60
    assert "".join(t for _, t, _, _ in batched) == text


# Lines a PBN text is made of: plain ones far more often than comments, escape lines,
# strings, tables and long lines, the lines whose rules differ.
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
    if lead:  # a first batch that ends the preamble
        batches.insert(0, ['[Board "0"]\n'])
    batched, by_line = _both(batches, latin1)
    assert batched == by_line
    assert "".join(t for _, t, _, _ in batched) == "".join(map("".join, batches))


_SEMI_EMPTY = re.compile(r"[ \t]*(?:\r\n|\r|\n|\Z)")  # (pbn.md 2.4: spaces and tabs only)


def _reference(texts: list[str]) -> list[tuple[str, str]]:
    """The split of lines holding no comment, string or escape line, from the standard:
    a game is its lines up to the first semi-empty line after one with content; text
    before the first content is the preamble, after the last game the trailer."""
    parts: list[tuple[str, str]] = []
    pending: list[str] = []
    content = False
    for line in texts:
        pending.append(line)
        if _SEMI_EMPTY.fullmatch(line):
            if content:
                parts.append(("game", "".join(pending)))
                pending, content = [], False
        elif not content and not parts and len(pending) > 1:
            parts.append(("preamble", "".join(pending[:-1])))
            pending, content = [line], True
        else:
            content = True
    if pending:
        kind = "game" if content else "preamble" if not parts else "trailer"
        parts.append((kind, "".join(pending)))
    return parts


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.tuples(st.sampled_from(_PLAIN), _END), max_size=60),
    cuts=st.lists(st.integers(min_value=0, max_value=60), max_size=8),
)
def test_plain_texts_split_as_the_standard_says(
    lines: list[tuple[str, str]], cuts: list[int]
) -> None:
    texts = _LINE_SPLIT.findall("".join(line + end for line, end in lines))
    points = sorted({0, len(texts), *(c for c in cuts if c < len(texts))})
    found = _games([texts[a:b] for a, b in pairwise(points)])
    assert [(kind, text) for kind, text, _, _ in found] == _reference(texts)


def test_a_plain_iterator_of_lines_is_split_too() -> None:
    """A reader handed a plain iterator (``bf.loads``) gets it in runs of lines."""
    text = "".join(synthetic.to_pbn(synthetic.generate(3, seed=1)))
    lines: Iterator[str] = iter(text.splitlines(keepends=True))
    games = [p for p in split.split_games(lines) if p.kind == "game"]
    assert "".join(p.game.text for p in games) in text
    assert len(games) == 3
