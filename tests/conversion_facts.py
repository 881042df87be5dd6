"""What a board comes to, and the conversions a board goes through, for the tests that
check that a conversion keeps every fact or says which it lost (issue 24)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import bridgefiles as bf
from bridgefiles.api import dumps_with_diagnostics
from bridgefiles.formats.convert import LOST, adapt
from bridgefiles.model.board import Board

# each fact, and the words a lost-in-conversion message uses to name it
NAMES = {
    "deal": ("deal",),
    "dealer": ("dealer",),
    "vulnerability": ("vulnerab",),
    "contract": ("contract", "auction"),
    "declarer": ("declarer",),
    "tricks": ("result",),
    "score": ("score",),
}


def facts(board: Board) -> dict[str, Any]:
    """What the board comes to, as ``validate`` rules on it."""
    report = bf.validate(board)
    deal = board.deal
    hands = None
    if deal is not None:
        hands = {
            seat: sorted(c.code for c in hand.cards) if hand is not None else None
            for seat, hand in deal.hands.items()
        }
    return {
        "deal": hands,
        "dealer": board.dealer,
        "vulnerability": board.vulnerable,
        "contract": report.contract.text if report.contract is not None else None,
        "declarer": report.declarer,
        "tricks": report.tricks.final if report.tricks is not None else None,
        "score": (report.score.ns, report.score.ew) if report.score is not None else None,
    }


def said(board: Board, target: str) -> str:
    """The lost-in-conversion messages for this board, converted to ``target``."""
    return " ".join(d.message.lower() for d in adapt(board, target).diagnostics if d.code == LOST)


def unsaid(before: Board, after: Board, messages: str) -> dict[str, tuple[Any, Any]]:
    """The facts that changed and that no message names."""
    old, new = facts(before), facts(after)
    return {
        name: (old[name], new[name])
        for name in NAMES
        if old[name] != new[name] and not any(w in messages for w in NAMES[name])
    }


def through_lin(boards: Sequence[Board]) -> Sequence[Board]:
    text, _ = dumps_with_diagnostics(boards, "lin")
    return bf.loads(text, format="lin").boards


def through_json(boards: Sequence[Board]) -> Sequence[Board]:
    text = bf.dumps(boards, format="json")
    again = bf.loads(text, format="json").boards
    return bf.loads(bf.dumps(again, format="pbn"), format="pbn").boards


def through_pbn(boards: Sequence[Board]) -> Sequence[Board]:
    text, _ = dumps_with_diagnostics(boards, "pbn")
    again = bf.loads(text, format="pbn").boards
    return through_lin(again)


Conversion = Callable[[Sequence[Board]], Sequence[Board]]


def check_every_board(boards: Sequence[Board], convert: Conversion, said_for: str | None) -> None:
    back = convert(boards)
    assert len(back) == len(boards), "a board was merged or dropped"
    wrong = []
    for before, after in zip(boards, back, strict=True):
        messages = said(before, said_for) if said_for is not None else ""
        changed = unsaid(before, after, messages)
        if changed:
            wrong.append((before.index, before.label, changed))
    assert wrong == [], wrong[:5]
