"""Checks of the reference verifier we make too (issue 10, point 5), on the real files
that show them, and the board's own text (``str(board)``, ``Board.player``)."""

from __future__ import annotations

import pytest
from shared import REAL_PBN as REAL
from shared import needs_corpus

import bridgefiles as bf
from bridgefiles.checks.validate import validate_board
from bridgefiles.errors import StrictModeError
from bridgefiles.model import Seat


def _codes(text: str) -> list[tuple[str, str, int | None]]:
    found = bf.loads(text, format="pbn").all_diagnostics()
    return [(d.code, d.severity.value, d.line) for d in found]


def test_dealer_after_the_auction_is_a_tag_order_warning() -> None:
    text = '[Event "x"]\n[Auction "N"]\nPass Pass Pass Pass\n[Dealer "N"]\n'
    assert ("tag-order", "warning", 4) in _codes(text)
    assert not [c for c in _codes(text.replace('[Dealer "N"]\n', "")) if c[0] == "tag-order"]


def test_contract_and_declarer_after_the_play_are_tag_order_warnings() -> None:
    text = (
        '[Dealer "N"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n[Play "E"]\nS2 - - -\n*\n'
        '[Declarer "N"]\n[Contract "3NT"]\n'
    )
    order = [c for c in _codes(text) if c[0] == "tag-order"]
    assert order == [("tag-order", "warning", 6), ("tag-order", "warning", 7)]


def test_tags_in_order_give_no_tag_order_finding() -> None:
    text = (
        '[Dealer "N"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n[Declarer "N"]\n[Contract "3NT"]\n'
        '[Auction "N"]\n3NT AP\n[Play "E"]\nS2 - - -\n*\n'
    )
    assert not [c for c in _codes(text) if c[0] == "tag-order"]


def test_the_first_of_a_repeated_tag_is_the_one_whose_place_counts() -> None:
    """PBN 2.6: the first tag of a name is the one in use, so it is the one whose place
    the order check and the other checks go by (a repeat after the section is only a
    duplicate)."""
    text = (
        '[Dealer "N"]\n[Auction "N"]\nPass Pass Pass Pass\n[Dealer "N"]\n'
        '[Result "0"]\n[Contract "Pass"]\n[Result "9"]\n'
    )
    found = _codes(text)
    assert not [c for c in found if c[0] == "tag-order"]
    assert ("duplicate-tag", "warning", 4) in found
    assert ("dialect", "warning", 5) in found  # the first Result, "0", on a passed-out board
    later = text.replace('[Dealer "N"]\n[Auction', "[Auction")
    assert ("tag-order", "warning", 3) in _codes(later)


def test_an_empty_play_tag_is_accepted_and_written_back() -> None:
    text = '[Event "x"]\n[Dealer "N"]\n[Play ""]\n'
    loaded = bf.loads(text, format="pbn")
    assert loaded.all_diagnostics() == []
    assert loaded.boards[0].play is None
    once = bf.dumps(loaded, "pbn")
    assert bf.dumps(bf.loads(once, format="pbn"), "pbn") == once


def test_a_passed_out_board_with_result_0_is_a_dialect_warning_strict_an_error() -> None:
    """BEN's Result "0" on a passed-out board (PBN writes ""): read as no result, said;
    refused in strict mode (formats.pbn.dialect)."""
    text = '[Dealer "N"]\n[Contract "Pass"]\n[Declarer ""]\n[Result "0"]\n'
    report = validate_board(bf.loads(text, format="pbn").boards[0])
    found = [(d.code, d.severity.value) for d in report.diagnostics]
    assert found == [("dialect", "warning")]
    with pytest.raises(StrictModeError):
        bf.loads(text, format="pbn", strict=True)


@needs_corpus
def test_strict_mode_reports_text_outside_latin1() -> None:
    path = REAL / "endplay__example2.pbn"
    with pytest.raises(StrictModeError) as caught:
        bf.load(path, strict=True)
    diag = caught.value.diagnostic
    assert diag is not None and diag.code == "encoding" and diag.line == 373
    assert "U+2663" in diag.message
    lenient = bf.load(path)  # lenient reading does not mind
    assert not [d for d in lenient.all_diagnostics() if "ISO-8859-1, PBN" in d.message]


@needs_corpus
def test_an_export_file_is_checked_against_the_export_layout() -> None:
    path = REAL / "bridgepbnrb__test_record_with_lots_of_curlies.pbn"
    found = [
        (d.code, d.line) for d in bf.load(path).all_diagnostics() if "column 1" in d.message
    ]
    assert found == [("syntax", 49)]
    # the same game without '% EXPORT' is import format: any layout goes
    text = path.read_bytes().decode("latin-1").replace("% EXPORT", "% import")
    found_now = bf.loads(text, format="pbn").all_diagnostics()
    assert not [d for d in found_now if "column 1" in d.message]


@needs_corpus
def test_an_unknown_call_is_written_back_as_read() -> None:
    loaded = bf.load(REAL / "ben__pav_first120.pbn")
    exported = bf.dumps(loaded, "pbn")
    assert "AC 4S AC Pass" in exported
    assert bf.dumps(bf.loads(exported, format="pbn"), "pbn") == exported


def test_str_of_a_board_is_its_pbn_game_and_player_names_the_seat() -> None:
    text = '[Event "x"]\n[North "Ann"]\n[Dealer "N"]\n[Auction "N"]\n1NT Pass 3NT AP\n'
    board = bf.loads(text, format="pbn").boards[0]
    shown = str(board)
    assert shown.startswith('[Event "x"]\n') and '[Contract "3NT"]' in shown
    again = bf.loads(shown, format="pbn").boards[0].outcome
    assert again is not None and board.outcome is not None
    assert (again.contract, again.declarer) == (board.outcome.contract, board.outcome.declarer)
    assert board.player(Seat.N) == "Ann" and board.player(Seat.S) is None


def _found(text: str) -> list[tuple[str, str, int | None, int | None]]:
    found = bf.loads(text, format="pbn").all_diagnostics()
    return [(d.code, d.severity.value, d.line, d.column) for d in found]


def test_a_header_row_says_each_finding_where_its_tag_stands() -> None:
    """A game's usual header (each tag alone on its line) is read a row at a time: a
    repeated tag, a bad value, a Note and commentary after the last tag are still said
    at their own line and column, as the same tags one by one would be."""
    row = (
        '[Event "x"]\n[Dealer "Q"]\n[Event "y"]\n[Vulnerable "All"]\n[Note "1:Stayman"]\n'
        '[Board "3"]\n{after the row}\n'
    )
    found = _found(row)
    assert ("tag-value", "error", 2, 9) in found  # Dealer "Q", at its opening quote
    assert ("duplicate-tag", "warning", 3, 2) in found  # the second Event, at its name
    assert ("note", "error", 5, 1) in found  # a Note before any section
    board = bf.loads(row, format="pbn").boards[0]
    assert board.tag("Event") == "x" and board.tag("Board") == "3"
    assert [board.tag_where(i) for i in range(len(board.tags))] == [(n, 1) for n in range(1, 7)]
    assert board.tags[-1].comments[0].text == "after the row"
    assert board.tags[-1].comments[0].line == 7
    # the same tags, not a usual row (two on one line): the same findings and tags
    spread = row.replace('"]\n[Dealer', '"] [Dealer')
    moved = {(c, s) for c, s, _, _ in _found(spread)}
    assert moved == {(c, s) for c, s, _, _ in found}
    assert [t.value for t in bf.loads(spread, format="pbn").boards[0].tags] == [
        t.value for t in board.tags
    ]


def test_a_note_repeated_from_board_to_board_is_read_once_and_said_each_time() -> None:
    """A file repeats its notes: each board gets the same shared Note, and what is wrong
    with a note is said on every board that has it, at that board's line."""
    game = (
        '[Board "{n}"]\n[Auction "N"]\n1NT =1= Pass 2C =2= Pass\n[Note "1:15-17"]\n'
        '[Note "x"]\n[Note "#"]\n'
    )
    text = "\n".join(game.format(n=n) for n in (1, 2))
    boards = bf.loads(text, format="pbn").boards
    first, second = (b.auction for b in boards)
    assert first is not None and second is not None
    assert first.notes[0] is second.notes[0] and first.notes[0].text == "15-17"
    assert second.notes[1].raw == "x"
    said = [
        (d.board, d.code, d.line, d.column)
        for b in boards
        for d in b.diagnostics
        if d.code in ("note", "tag-value") and d.line != 3 and d.line != 10
    ]
    assert said == [
        ("1", "note", 5, 7), ("1", "tag-value", 6, 7),
        ("2", "note", 12, 7), ("2", "tag-value", 13, 7),
    ]  # fmt: skip
