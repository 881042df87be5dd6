"""One final count (issue 24, point 2): a LIN board with an established revoke and a
claim keeps its final tricks and score in PBN, and back.

LIN's ``mc`` is the tricks as played and claimed, with Law 64 applied on top; PBN's
Result is the final count. fixtures/lin-revoke-claims.lin holds, one a line: a
defender's revoke with declarer claiming (one trick), a defender's ruff-revoke (two
tricks, a suit contract), declarer's revoke with the defence taking the rest (one
trick), declarer's side revoking twice over (two tricks), a revoke by North for East's
contract, and a revoke on the twelfth trick (no transfer, Law 64B6).
"""

from __future__ import annotations

import pytest
from conversion_facts import facts
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.api import dumps_with_diagnostics
from bridgefiles.model.board import Board

BOARDS = bf.load(FIXTURES / "lin-revoke-claims.lin").boards


def test_the_fixture_holds_every_case() -> None:
    transfers = [bf.validate(b).tricks for b in BOARDS]
    assert [t.law64 if t is not None else None for t in transfers] == [1, 2, -1, -2, 1, 0]
    revokes = [
        (d.trick, d.seat.value if d.seat else None)
        for b in BOARDS
        for d in bf.validate(b).diagnostics
        if d.code == "revoke"
    ]
    assert revokes == [(3, "W"), (2, "E"), (3, "S"), (2, "N"), (4, "N"), (12, "W")]
    assert all(b.play is not None and b.play.claim is not None for b in BOARDS)


def _pbn(board: Board) -> tuple[Board, str]:
    text, _ = dumps_with_diagnostics([board], "pbn")
    return bf.loads(text, format="pbn").boards[0], text


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_lin_to_pbn_writes_the_final_count(index: int) -> None:
    board = BOARDS[index]
    pbn, text = _pbn(board)
    final = bf.validate(board).tricks
    assert final is not None and final.final is not None
    assert f'[Result "{final.final}"]' in text
    assert facts(pbn)["tricks"] == facts(board)["tricks"] == final.final
    assert facts(pbn)["score"] == facts(board)["score"] is not None


@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_pbn_to_lin_writes_the_claim_before_the_transfer(index: int) -> None:
    board = BOARDS[index]
    pbn, _ = _pbn(board)
    text, _ = dumps_with_diagnostics([pbn], "lin")
    lin = bf.loads(text, format="lin").boards[0]
    claim = board.play.claim if board.play is not None else None
    assert claim is not None and f"mc|{claim.tricks}|" in text
    assert facts(lin)["tricks"] == facts(pbn)["tricks"] == facts(board)["tricks"]
    assert facts(lin)["score"] == facts(pbn)["score"] == facts(board)["score"]
