"""How a reader hands over each board: build it whole, read its headers only, or skip it.

After python-chess's ``chess.pgn`` visitors: a reader reads every board in one pass
(it must, to find where the next one begins) but builds only what the visitor asks
for. ``bridgefiles show --board N``, indexing a big archive and "tags only" scans
need not build every auction and play.

A reader that supports visitors has ``visit(lines, options, info, visitor)``, an
iterator of ``visitor.result(board)`` for each board ``begin_board`` accepted. The
public way in is ``bridgefiles.read(source, visitor=...)`` (a visitor whose ``result``
is the board, such as the three below).

A PBN board's tags are read even when it is skipped: ``#`` and ``##`` carry values from
board to board (PBN 2.9), so the next board's headers depend on them; nothing is built
for it and nothing handed over.
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

    def end_headers(self, headers: Board) -> bool:
        """Whether to build the rest of a board, given its headers (a board with its tags,
        no auction or play): False skips it. Called only when a subclass overrides it.
        PBN stops reading the board there; LIN has read its commands already (they
        come in one run) but builds no auction or play for a board skipped."""
        return True

    @property
    def picks_by_headers(self) -> bool:
        """Whether this visitor decides from a board's headers (overrides end_headers)."""
        return type(self).end_headers is not BoardVisitor.end_headers

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


class PickBoardNumbers(BuildBoards):
    """Only the boards whose Board tag is one of ``numbers`` (``1`` is ``"01"``), whole:
    ``bridgefiles show --board N``. No reader builds another board past its tags."""

    def __init__(self, numbers: set[str] | frozenset[str]) -> None:
        self.numbers = frozenset(numbers)

    def end_headers(self, headers: Board) -> bool:
        return any(same_number(n, headers.board_number) for n in self.numbers)


def same_number(asked: str, number: str | None) -> bool:
    """Board ``1`` is board ``"01"`` (numbers compare as numbers, anything else as text)."""
    if number is None:
        return False
    a, b = asked.strip(), number.strip()
    if a.isdecimal() and b.isdecimal():
        return int(a) == int(b)
    return a.lower() == b.lower()


BUILD_BOARDS = BuildBoards()

__all__ = [
    "BUILD_BOARDS",
    "BoardVisitor",
    "BuildBoards",
    "HeadersOnly",
    "PickBoardNumbers",
    "PickBoards",
    "same_number",
]
