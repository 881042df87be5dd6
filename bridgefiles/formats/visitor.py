"""How a reader hands over each board: build it whole, read its headers only, or skip it.

After python-chess's ``chess.pgn`` visitors: a reader reads every board in one pass
(it must, to find where the next one begins) but builds only what the visitor asks
for. ``bridgefiles show --board N``, indexing a big archive and "tags only" scans
need not build every auction and play.

A reader that supports visitors has ``visit(lines, options, info, visitor)``, an
iterator of ``visitor.result(board)`` for each board ``begin_board`` accepted.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from bridgefiles.model.board import Board

T = TypeVar("T")


class BoardVisitor(Generic[T]):
    """Build every board whole (the default); subclass to ask for less."""

    headers_only: bool = False
    """True: build the tags a board's headers give (Event, Board, players, Dealer,
    Vulnerable, Deal, Room...), not its auction, play or what is derived from them."""

    def begin_board(self, index: int) -> bool:
        """Whether to build the board ``index`` (0-based); False skips it: nothing is
        built and nothing is handed over for it."""
        return True

    def result(self, board: Board) -> T:
        """What the reader hands over for a board it built."""
        raise NotImplementedError


class BuildBoards(BoardVisitor[Board]):
    """Every board, whole: what ``read`` gives."""

    def result(self, board: Board) -> Board:
        return board


class HeadersOnly(BuildBoards):
    """Every board with its tags only: a quick scan or an index of an archive."""

    headers_only = True


class PickBoards(BuildBoards):
    """Only the boards whose 0-based index is in ``wanted``, whole (``show --board N``)."""

    def __init__(self, wanted: set[int] | frozenset[int]) -> None:
        self.wanted = frozenset(wanted)

    def begin_board(self, index: int) -> bool:
        return index in self.wanted


BUILD_BOARDS = BuildBoards()

__all__ = ["BUILD_BOARDS", "BoardVisitor", "BuildBoards", "HeadersOnly", "PickBoards"]
