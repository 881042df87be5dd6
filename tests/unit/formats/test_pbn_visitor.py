"""Visitors through the public API (``bf.read(source, visitor=...)``) on the real corpus:
headers only gives the full board's tags and builds no section; picked boards are the
same boards a full read gives; the boards not picked are not built. PBN and LIN."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared import REAL_LIN, REAL_PBN, files, needs_corpus

import bridgefiles as bf
from bridgefiles.errors import UsageError
from bridgefiles.formats.lin.finish import finish
from bridgefiles.formats.lin.state import BoardState, Reading
from bridgefiles.formats.pbn.reader import GameReader
from bridgefiles.formats.visitor import HeadersOnly, PickBoardNumbers, PickBoards
from bridgefiles.model.board import Board

PBN_FILES = files(REAL_PBN, "")
LIN_FILES = files(REAL_LIN, ".lin")
FILES = [*PBN_FILES, *LIN_FILES]

pytestmark = needs_corpus


def _fmt(path: Path) -> str:
    return "lin" if path.suffix.lower() == ".lin" else "pbn"


def _without_encoding(board: Board) -> Board:
    """Encoding findings ride on the next board handed over (the decoder finds them as
    the lines go by), so a board picked after skipped ones may carry theirs."""
    kept = tuple(d for d in board.diagnostics if d.code != "encoding")
    return board.model_copy(update={"diagnostics": kept})


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_headers_only_gives_the_full_boards_tags_and_no_section(path: Path) -> None:
    full = list(bf.read(path, _fmt(path)))
    heads = list(bf.read(path, _fmt(path), visitor=HeadersOnly()))
    assert len(heads) == len(full)
    for head, board in zip(heads, full, strict=True):
        assert head.auction is None and head.play is None
        assert head.source == board.source and head.index == board.index
        if _fmt(path) == "pbn":
            assert head.tags == board.tags
        else:  # LIN: all but the tags derived from the auction and play, in their order
            derived = ("Declarer", "Contract", "Result")
            assert head.tags == tuple(t for t in board.tags if t.name not in derived)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_picked_boards_are_the_same_boards_a_full_read_gives(path: Path) -> None:
    full = list(bf.read(path, _fmt(path)))
    wanted = {0, len(full) // 2, len(full) - 1} if full else set()
    picked = list(bf.read(path, _fmt(path), visitor=PickBoards(wanted)))
    assert [b.index for b in picked] == sorted(wanted)
    for board in picked:
        assert _without_encoding(board) == _without_encoding(full[board.index])


def _count_whole_builds(fmt: str, built: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Note the index of each board a reader builds past its headers."""
    if fmt == "pbn":
        rest = GameReader.rest

        def rest_counted(self: GameReader) -> Board:
            built.append(self.index)
            return rest(self)

        monkeypatch.setattr(GameReader, "rest", rest_counted)
        return

    def finish_counted(
        r: Reading, acc: BoardState, source: str, headers_only: bool = False
    ) -> Board:
        if not headers_only:
            built.append(acc.index)
        return finish(r, acc, source, headers_only)

    monkeypatch.setattr("bridgefiles.formats.lin.reader.finish", finish_counted)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_boards_picked_by_number_are_built_and_no_other(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fmt = _fmt(path)
    full = list(bf.read(path, fmt))
    numbered = [b for b in full if b.board_number]
    if not numbered:
        pytest.skip("no board of this file has a board number")  # a fact of the file
    number = numbered[len(numbered) // 2].board_number
    assert number is not None
    expected = [b for b in full if b.board_number == number]
    built: list[int] = []
    _count_whole_builds(fmt, built, monkeypatch)
    picked = list(bf.read(path, fmt, visitor=PickBoardNumbers({number})))
    assert [b.index for b in picked] == [b.index for b in expected]
    assert built == [b.index for b in expected]  # no other board went past its headers
    for board in picked:
        assert _without_encoding(board) == _without_encoding(full[board.index])


def test_a_number_matches_its_zero_padded_form() -> None:
    text = '[Board "01"]\n[Dealer "N"]\n\n[Board "2"]\n[Dealer "E"]\n'
    picked = list(bf.read(text.encode(), "pbn", visitor=PickBoardNumbers({"1"})))
    assert [b.board_number for b in picked] == ["01"]


def test_skipped_boards_still_pass_on_their_inherited_values() -> None:
    """PBN 2.9: a value given with ## is the default of the boards after it, also when
    the board that gives it is not built."""
    text = '[Event "##Club"]\n[Board "1"]\n\n[Board "2"]\n\n[Site "#"]\n[Board "3"]\n'
    full = list(bf.read(text.encode(), "pbn"))
    picked = list(bf.read(text.encode(), "pbn", visitor=PickBoards({1, 2})))
    assert picked == full[1:]
    assert picked[0].tag("Event") == "Club"


def test_a_visitor_that_is_not_one_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        list(bf.read(b'[Board "1"]\n', "pbn", visitor="headers"))  # type: ignore[arg-type]
