"""The public verbs: format choice, errors that may escape, JSON round trips, writing."""

from __future__ import annotations

from pathlib import Path

import pytest

import bridgefiles as bf
from bridgefiles.model import (
    Annotations,
    Auction,
    AuctionEnd,
    AuctionEntry,
    Board,
    Call,
    Card,
    Comment,
    Note,
    Play,
    PlayedCard,
    PlayEnd,
    Seat,
    TagPair,
)
from bridgefiles.model.content import same_game


def _board() -> Board:
    return Board(
        tags=(
            TagPair(name="Event", value='Test "quoted" Pairs'),
            TagPair(name="Board", value="1"),
            TagPair(name="Dealer", value="N"),
            TagPair(
                name="Deal",
                value="N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85",
            ),
            TagPair(name="Contract", value="5HX"),
            TagPair(name="Declarer", value="S"),
        ),
        auction=Auction(
            first=Seat.N,
            entries=(
                AuctionEntry(call=Call.parse("1D")),
                AuctionEntry(
                    call=Call.parse("1S"),
                    annotations=Annotations(alert=True, explanation="5+ spades", nags=(3,)),
                ),
            ),
            end=AuctionEnd.STOPPED,
            notes=(Note(index=1, text="non-forcing"),),
        ),
        play=Play(
            first=Seat.W,
            slots=(
                PlayedCard(
                    card=Card.parse("SK"),
                    annotations=Annotations(comments=(Comment(text="highest of series"),)),
                ),
            ),
            end=PlayEnd.STOPPED,
        ),
        format="pbn",
    )


def test_json_round_trip_keeps_everything() -> None:
    board = _board()
    text = bf.dumps([board], format="json")
    back = bf.loads(text, format="json")
    assert back.format == "json" and len(back.boards) == 1
    assert same_game(back.boards[0], board)
    assert back.boards[0].auction == board.auction


def test_json_is_sniffed_from_content() -> None:
    text = bf.dumps([_board(), _board()], format="json")
    assert bf.loads(text).format == "json"
    assert len(bf.loads(text.encode("utf-8")).boards) == 2


def test_json_bad_board_is_a_diagnostic_not_a_crash() -> None:
    text = '{"bridgefiles": 1, "boards": [\n{"tags": 5},\n{"tags": []}\n]}\n'
    loaded = bf.loads(text, format="json")
    assert len(loaded.boards) == 1
    assert [d.code for d in loaded.diagnostics] == ["syntax"]
    assert loaded.diagnostics[0].line == 2
    with pytest.raises(bf.StrictModeError):
        bf.loads(text, format="json", strict=True)


def test_unknown_format_and_missing_file_raise_our_error(tmp_path: Path) -> None:
    with pytest.raises(bf.UsageError, match="unknown format 'docx'"):  # the caller's mistake
        bf.loads("hello", format="docx")
    with pytest.raises(bf.UnreadableInputError):
        bf.load(tmp_path / "missing.pbn")
    with pytest.raises(bf.BridgeFileError):
        list(bf.read(tmp_path / "missing.lin"))


def test_write_is_atomic_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    bf.write([_board()], target)
    assert target.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    assert same_game(bf.load(target).boards[0], _board())


def test_read_streams_from_a_binary_file(tmp_path: Path) -> None:
    target = tmp_path / "two.json"
    bf.write([_board(), _board()], target)
    with open(target, "rb") as f:
        boards = bf.read(f)
        first = next(boards)
        assert first.tag("Board") == "1"
        assert len(list(boards)) == 1


def test_deep_json_is_a_limit_finding_not_a_crash() -> None:
    deep = "[" * 5000 + "]" * 5000
    loaded = bf.loads(deep, format="json")
    assert [d.code for d in loaded.diagnostics] == ["limit"]
    assert "max_nesting" in loaded.diagnostics[0].message
    with pytest.raises(bf.StrictModeError):
        bf.loads(deep, format="json", strict=True)
    # strings that look like brackets do not count
    board_line = '{"tags": [{"name": "Event", "value": "' + "[" * 500 + '"}]}'
    text = '{"bridgefiles": 1, "boards": [\n' + board_line + "\n]}\n"
    assert bf.loads(text, format="json").boards[0].tag("Event") == "[" * 500


def test_bf_validate_is_the_function_even_after_the_module_is_imported() -> None:
    from bridgefiles.checks.validate import BoardReport, validate_board

    assert callable(bf.validate)
    report = bf.validate(_board())
    assert isinstance(report, BoardReport)
    assert report == validate_board(_board())
    assert report.contract is not None and report.contract.text == "5HX"
