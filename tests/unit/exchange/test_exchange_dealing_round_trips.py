"""Every whole deal of the real PBN files, and generated ones, through each dealing-machine
format and back: the same deals in the same order, and each loss reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared import REAL_LIN, REAL_PBN, files, needs_corpus
from strategies import deals

import bridgefiles as bf
from bridgefiles.exchange.cards import owners_of
from bridgefiles.formats.convert import LOST
from bridgefiles.model import Board, Deal, TagPair
from bridgefiles.model.diagnostic import Diagnostic

MACHINES = ("bri", "dge", "dup", "dlm")
REAL = files(REAL_PBN, ".pbn")
LIN = files(REAL_LIN, ".lin")


def _whole(path: Path) -> list[Board]:
    """The file's boards with a whole deal, numbered from 1 (a machine's boards are
    numbered); the test is skipped when it has none."""
    boards = [b for b in bf.load(path).boards if owners_of(b) is not None]
    if not boards:
        pytest.skip(f"{path.name} has no whole deal")
    return [b.with_tag("Board", str(i)) for i, b in enumerate(boards, start=1)]


@needs_corpus
@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_every_real_deal_comes_back(path: Path) -> None:
    boards = _whole(path)
    for fmt in MACHINES:
        sent = boards[:99] if fmt == "dlm" else boards  # DLM holds boards 1-99
        found: list[Diagnostic] = []
        data = bf.dumps(sent, fmt, on_diagnostic=found.append).encode("iso8859-1")
        back = bf.loads(data, format=fmt)
        assert [owners_of(b) for b in back.boards] == [owners_of(b) for b in sent], fmt
        assert [b.tag("Board") for b in back.boards] == [str(i) for i in range(1, len(sent) + 1)]
        assert all(not b.diagnostics for b in back.boards) and not back.diagnostics
        assert all(d.code == LOST for d in found)
        # a board that held more than its deal says so
        richer = [b for b in sent if b.auction is not None and b.auction.entries]
        if richer:
            assert any("auction" in d.message for d in found), fmt


@pytest.mark.parametrize("fmt", MACHINES)
@given(dealt=st.lists(deals(), min_size=1, max_size=8))
def test_generated_deals_round_trip(fmt: str, dealt: list[Deal]) -> None:
    boards = [
        Board(tags=(TagPair(name="Board", value=str(i)), TagPair(name="Deal", value=d.pbn())))
        for i, d in enumerate(dealt, start=1)
    ]
    text = bf.dumps(boards, fmt)
    back = bf.loads(text.encode("iso8859-1"), format=fmt).boards
    assert [owners_of(b) for b in back] == [owners_of(b) for b in boards]
    # and the same format again gives the same bytes (export layout)
    assert bf.dumps(back, fmt) == text


@needs_corpus
@pytest.mark.parametrize("path", LIN, ids=[p.name for p in LIN])
def test_lin_deals_go_to_a_dealing_machine_and_back_to_lin(path: Path) -> None:
    boards = _whole(path)
    dup = bf.dumps(boards, "dup").encode("ascii")
    back = bf.loads(bf.dumps(bf.loads(dup, format="dup"), "lin").encode("utf-8"), format="lin")
    assert [owners_of(b) for b in back.boards] == [owners_of(b) for b in boards]
