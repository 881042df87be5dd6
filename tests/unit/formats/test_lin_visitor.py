"""Visitors over a LIN file (formats/visitor.py): the same one pass, building only what
is asked: every board, headers only, or a few boards picked by index."""

from __future__ import annotations

import bridgefiles as bf
from bridgefiles.formats.lin.reader import visit
from bridgefiles.formats.registry import FileInfo, ReadOptions
from bridgefiles.formats.visitor import BoardVisitor, BuildBoards, HeadersOnly, PickBoards
from bridgefiles.model import Board

DEALS = [
    "md|3SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,ST987HT98DAKQJCAK,|",
    "md|4S6H6D6543C876543,SAKQJ5432HAKQJ5D2C2,ST987HT98DAKQJCAK,|",
    "md|1ST987HT98DAKQJCAK,SAKQJ5432HAKQJ5D2C2,S6H6D6543C876543,|",
]
TEXT = "".join(
    f"pn|s{i},w,n,e|{deal}ah|Board {i + 1}|sv|o|mb|1N!|an|15-17|mb|p|mb|p|mb|p|pc|SA|mc|7|pg||\n"
    for i, deal in enumerate(DEALS)
)


def _visit(visitor: BoardVisitor[Board]) -> list[Board]:
    info = FileInfo()
    return list(visit(iter(TEXT.splitlines(keepends=True)), ReadOptions(), info, visitor))


def test_building_every_board_is_what_read_gives() -> None:
    built = _visit(BuildBoards())
    assert built == list(bf.loads(TEXT, "lin").boards)
    assert [b.board_number for b in built] == ["1", "2", "3"]


def test_headers_only_builds_tags_and_no_auction_or_play() -> None:
    heads = _visit(HeadersOnly())
    full = _visit(BuildBoards())
    assert len(heads) == 3
    for head, board in zip(heads, full, strict=True):
        assert head.auction is None and head.play is None
        assert head.tag("Deal") == board.tag("Deal") and head.tag("South") == board.tag("South")
        assert head.tag("Contract") is None and board.tag("Contract") == "1NT"
        assert head.source == board.source


def test_picked_boards_only_and_the_others_not_built() -> None:
    picked = _visit(PickBoards({1}))
    assert [b.board_number for b in picked] == ["2"]
    assert picked[0] == _visit(BuildBoards())[1]


def test_a_visitor_can_hand_over_anything() -> None:
    class Numbers(BoardVisitor[str | None]):
        headers_only = True

        def result(self, board: Board) -> str | None:
            return board.board_number

    info = FileInfo()
    lines = iter(TEXT.splitlines(keepends=True))
    assert list(visit(lines, ReadOptions(), info, Numbers())) == ["1", "2", "3"]
