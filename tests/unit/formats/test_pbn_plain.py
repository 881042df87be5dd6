"""The PBN reader's fast paths read exactly as its general paths do.

A play laid out the usual way (rows of four cards, maybe a last ``*``) is read in a few
C-level passes (``plain._card_rows``); anything else row by row or token by token. Each
board read with the fast path must be the board read without it: the same model, the
same diagnostics. Checked on the real corpus, the conformance files, a synthetic event,
hand-made layouts around the fast path's edges, and mutated files (hypothesis).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import pbn_params

import bridgefiles as bf
from bridgefiles.formats.pbn import plain
from bridgefiles.model import Board
from bridgefiles.model.cards import ALL_CARDS
from bridgefiles.model.play import plain_card_fields, plain_card_rows
from bridgefiles.testing import synthetic


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    """Each board and its diagnostics, read with the fast path and without it."""

    def read() -> list[Any]:
        boards: list[Board] = list(bf.read(data, format="pbn"))
        return [(b, b.diagnostics, b.play.slots if b.play else None) for b in boards]

    fast = read()
    with monkeypatch.context() as m:
        m.setattr(plain, "_card_rows", lambda text, line: None)
        slow = read()
    return fast, slow


@pytest.mark.parametrize("path", pbn_params())
def test_card_rows_on_the_corpus(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fast, slow = _both(path.read_bytes(), monkeypatch)
    assert fast == slow


def test_card_rows_on_a_synthetic_event(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(synthetic.to_pbn(synthetic.generate(40, seed=7)))
    taken: list[object] = []
    card_rows = plain._card_rows

    def spy(text: str, line: int) -> object:
        found = card_rows(text, line)
        taken.append(found)
        return found

    monkeypatch.setattr(plain, "_card_rows", spy)
    fast, slow = _both(text.encode(), monkeypatch)
    assert fast == slow
    assert sum(1 for found in taken if found is not None) > 20  # the fast path was taken


HEAD = (
    '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:K32.A7.8653.KQT2 AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865"]\n'
    '[Declarer "N"]\n[Contract "1C"]\n[Result "6"]\n'
    '[Auction "N"]\n1C Pass Pass Pass\n'
)
ROWS = ["H9 H3 HK HA", "CA C9 C6 C2", "DK D4 D9 D3", "S6 S5 ST SK"]


@pytest.mark.parametrize(
    "play",
    [
        "\n".join(ROWS),
        "\n".join(ROWS) + "\n*",
        "\n".join(ROWS[:3]) + "\nS6 S5",
        "\n".join(ROWS[:3]) + "\nS6 S5\n*",
        "\n".join(ROWS[:3]) + "\nS6",
        "\n".join(ROWS) + " *",
        "\n".join(ROWS) + "\n* ",
        "\n".join(ROWS).lower(),
        "\n".join(ROWS).replace("H3 ", "H3  ", 1),
        "\n".join(ROWS).replace("H3 ", "H3\t", 1),
        "\n".join(ROWS).replace("H9", " H9", 1),
        "\n".join(ROWS).replace("HA", "HA ", 1),
        "\n".join(ROWS).replace("HK", "HK =1=", 1),
        "\n".join(ROWS).replace("HK", "^RHK", 1),
        "\n".join(ROWS).replace("HK", "HK!", 1),
        "\n".join(ROWS).replace("HK", "H10", 1),
        "\n".join(ROWS).replace("HK", "-", 1),
        "\n".join(ROWS).replace("HK", "+", 1),
        "\n".join(ROWS).replace("HK", "XX", 1),
        "\n".join(ROWS).replace("\nCA", "\n\x0bCA", 1),
        "\n".join(ROWS * 4),
        "\n".join([*ROWS * 3, "H9", "*"]),
        "\n".join(ROWS) + "\n*\nS6",
        "*",
        "H9 H3 HK HA {a comment} CA C9 C6 C2",
        "H9 H3 HK HA ; to the end\nCA C9 C6 C2",
    ],
)
def test_card_rows_at_their_edges(play: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for tag in ('[Play "E"]\n', '[Play "E"] '):
        data = (HEAD + tag + play + "\n\n").encode()
        fast, slow = _both(data, monkeypatch)
        assert fast == slow


def _seeds() -> list[bytes]:
    text = "".join(synthetic.to_pbn(synthetic.generate(3, seed=11)))
    return [text.encode()]


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(_seeds()),
    st.lists(
        st.tuples(st.integers(0, 10_000), st.sampled_from([" ", "  ", "\n", "*", "x", "S", ""])),
        max_size=4,
    ),
)
def test_card_rows_on_mutated_plays(seed: bytes, edits: list[tuple[int, str]]) -> None:
    data = bytearray(seed)
    for at, text in edits:
        i = at % max(1, len(data))
        data[i : i + 1] = text.encode()
    with pytest.MonkeyPatch.context() as m:
        fast, slow = _both(bytes(data), m)
    assert fast == slow


def test_card_rows_give_plain_card_fields() -> None:
    """``plain_card_rows`` (many cards in one comprehension) is ``plain_card_fields``."""
    cards = list(ALL_CARDS)
    lines = range(10, 10 + len(cards))
    columns = [1 + 3 * (k % 4) for k in range(len(cards))]
    assert plain_card_rows(cards, lines, columns) == list(
        map(plain_card_fields, cards, lines, columns)
    )
    assert plain_card_rows(cards[:5], lines, columns) == list(
        map(plain_card_fields, cards[:5], lines, columns)
    )
