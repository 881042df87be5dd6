"""Issue 15 in the JSON reader: no board we wrote lost on the way back (a long
commentary makes a long line, which the JSON reader takes a board at a time)."""

from __future__ import annotations

import pytest

import bridgefiles as bf
from bridgefiles.errors import StrictModeError
from bridgefiles.limits import Limits
from bridgefiles.model.board import Board


def _content(board: Board) -> Board:
    """A board without what reading makes of the reading itself."""
    return board.model_copy(update={"diagnostics": (), "source": None, "format": None})


def _same_boards(a: bf.BridgeFile, b: bf.BridgeFile) -> bool:
    return len(a.boards) == len(b.boards) and all(
        _content(x) == _content(y) for x, y in zip(a.boards, b.boards, strict=True)
    )


# -- a long commentary ------------------------------------------------------------------------

DEAL = "N:AKQJ.AKQ.AKQ.AKQ 5432.5432.JT9.JT T987.T98.8765.98 6.J76.432.765432"


def _commented_game(size: int) -> str:
    lines = ("A long analysis of the play, " * 3 + "\n") * (size // 90 + 1)
    return f'[Board "1"]\n[Dealer "N"]\n[Deal "{DEAL}"]\n{{{lines}}}\n\n'


def test_a_300_kb_commentary_goes_to_json_and_back() -> None:
    pbn = _commented_game(300_000)
    read = bf.loads(pbn, format="pbn")
    assert not read.all_diagnostics()
    out = bf.dumps(read, "json")
    longest = max(len(line) for line in out.splitlines())
    assert longest > (Limits().max_line_length or 0)  # longer than any line of PBN or LIN may be
    for back in (bf.loads(out, format="json"), bf.loads(out.encode(), format="json")):
        assert not back.all_diagnostics()
        assert _same_boards(read, back)
        assert back.boards[0].comments == read.boards[0].comments


def test_a_board_past_the_board_size_limit_is_a_limit_error_never_silent() -> None:
    out = bf.dumps(bf.loads(_commented_game(3_000), format="pbn"), "json").encode()
    back = bf.loads(out, format="json", limits=Limits(max_board_size=1_000))
    assert back.boards == ()
    found = [d for d in back.all_diagnostics() if d.code == "limit"]
    assert found and "max_board_size=1,000" in found[0].message
    assert found[0].severity.value == "error"
    report = bf.validate_input(out, format="json", limits=Limits(max_board_size=1_000))
    assert report.counts.errors >= 2 and report.boards == []  # the limit, the cut line


# -- a number too long to be a value ------------------------------------------------------------

_LONG = "7" * 5_000  # past Python's own limit for reading an int (4,300 digits)


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (f'{{"boards": [{{"index": {_LONG}}}]}}', 1),  # a whole document
        (f'{{"bridgefiles": 1, "boards": [\n{{"index": -{_LONG}}},\n]}}', 2),  # a board a line
    ],
)
def test_a_5000_digit_number_is_bad_input_not_our_bug(text: str, line: int) -> None:
    """It was an ``internal`` error (the ValueError of int()); now a syntax finding on its
    line in lenient mode, a StrictModeError in strict mode."""
    loaded = bf.loads(text, format="json")
    assert not loaded.boards
    (diag,) = loaded.diagnostics
    assert (diag.code, diag.line) == ("syntax", line)
    assert "5,000 digits" in diag.message
    with pytest.raises(StrictModeError) as raised:
        bf.loads(text, format="json", strict=True)
    assert raised.value.diagnostic is not None and raised.value.diagnostic.code == "syntax"


def test_numbers_a_board_holds_are_still_read() -> None:
    text = '{"auction": {"first": "N", "entries": [{"call": "1C", "line": 7, "column": 30}]}}'
    (board,) = bf.loads(text, format="json").boards
    assert board.auction is not None
    assert [board.auction.where(i) for i in range(len(board.auction.entries))] == [(7, 30)]
