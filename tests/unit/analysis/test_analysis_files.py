"""Writing the analysis into files: tags where BridgeComposer puts them, the rest as read;
``check_board`` on what files carry; a rotated deal caught."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from analysis_corpus import COMMON_GAME, CRLF_RECORDS, YOUTH, need

import bridgefiles as bf
from bridgefiles.analysis import analyse_boards, analyze, check_board, dd_table, par
from bridgefiles.analysis.annotate import with_analysis
from bridgefiles.model.cards import Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.seats import Seat, Vulnerability

pytest.importorskip("endplay", reason="the solver is the extra 'dds' (pip install endplay)")


def _head(path: Path, games: int) -> str:
    """The first ``games`` games of a file, as text (to keep the solver's work small)."""
    text = need(path).read_bytes().decode("utf-8")
    starts = [m.start() for m in re.finditer(r"(?m)^\[Event ", text)]
    return text if len(starts) <= games else text[: starts[games]]


def test_dd_table_and_par_of_a_real_board() -> None:
    board = bf.loads(_head(COMMON_GAME, 1), format="pbn").boards[0]
    assert board.deal is not None
    table = dd_table(board.deal)
    assert table.hex == board.tag("DoubleDummyTricks") == "2333223332aaaabaaaab"
    assert table.tricks_for(Seat.E, Strain.C) == 11
    result = par(table, Vulnerability.NONE, Seat.N)
    assert (result.score, result.optimum_score, result.par_contract) == (-430, "EW 430", "EW 3N+1")


def test_par_takes_vulnerability_and_dealer_from_the_board() -> None:
    board = bf.loads(_head(COMMON_GAME, 1), format="pbn").boards[0]
    assert board.deal is not None
    table = dd_table(board.deal)
    # EW make 3NT+1 and 5C: vulnerable, 3NT+1 is 630; the par moves with vulnerability.
    assert par(table, Vulnerability.EW, Seat.N).score == -630
    assert par(table, Vulnerability.ALL, Seat.N).score == -630


def test_real_board_carries_what_we_compute() -> None:
    boards = bf.loads(_head(COMMON_GAME, 4), format="pbn").boards
    analyses = analyse_boards(boards)
    for board, analysis in zip(boards, analyses, strict=True):
        assert analysis is not None and analysis.par is not None
        assert check_board(board, analysis) == []
        assert analysis.par.optimum_score == board.tag("OptimumScore")
        assert analysis.par.par_contract == board.tag("ParContract")
        assert analysis.table.hex == board.tag("DoubleDummyTricks")


def _rotated(deal: Deal) -> str:
    """The same four hands, each moved one seat clockwise."""
    hands = {seat.lho: deal.hand(seat) for seat in Seat}
    return Deal(hands=hands, first=Seat.N).pbn(Seat.N)


def test_rotated_deal_is_caught() -> None:
    text = _head(COMMON_GAME, 1)
    board = bf.loads(text, format="pbn").boards[0]
    assert board.deal is not None
    rotated = text.replace(board.deal.pbn(Seat.N), _rotated(board.deal))
    assert rotated != text
    found = check_board(bf.loads(rotated, format="pbn").boards[0])
    assert {d.code for d in found} == {"dd-mismatch"}
    messages = " | ".join(d.message for d in found)
    for tag in ("DoubleDummyTricks", "OptimumResultTable", "OptimumScore", "ParContract"):
        assert tag in messages
    first = found[0]
    assert first.line == 60 and first.severity.value == "error"
    assert "double dummy" in first.message


def test_hand_edited_count_is_named() -> None:
    text = _head(COMMON_GAME, 1).replace("E  C 11", "E  C 10")
    found = check_board(bf.loads(text, format="pbn").boards[0])
    assert [d.message for d in found] == [
        "OptimumResultTable disagrees with the deal: East in C takes 11 tricks double dummy, "
        "not 10"]


def test_analyze_adds_tags_at_the_end_of_each_game_and_keeps_every_other_byte() -> None:
    original = need(YOUTH).read_bytes().decode("utf-8")
    analysed = analyze(bf.load(YOUTH))
    out = bf.dumps(analysed, layout="preserve")
    old, new = original.splitlines(keepends=True), out.splitlines(keepends=True)
    added = [line for tag, line in _diff(old, new) if tag == "+"]
    assert all(tag == "+" for tag, _ in _diff(old, new)), "nothing may change or go"
    games = len(analysed.boards)
    assert len(added) == games * (3 + 1 + 20)
    assert added[0].startswith('[DoubleDummyTricks "')
    assert [line.split(" ")[0] for line in added[:4]] == [
        "[DoubleDummyTricks", "[OptimumScore", "[ParContract", "[OptimumResultTable"]
    again = bf.loads(out, format="pbn")
    for board in again.boards:
        assert board.tag("DoubleDummyTricks") is not None
        assert check_board(board) == []
    for before, after in zip(analysed.boards, again.boards, strict=True):
        assert [(t.name, t.value) for t in before.tags] == [(t.name, t.value) for t in after.tags]
        assert before.tables == tuple(t.model_copy(update={"line": None, "column": None})
                                      for t in after.tables)


def _diff(old: list[str], new: list[str]) -> list[tuple[str, str]]:
    return [(line[0], line[2:]) for line in difflib.ndiff(old, new) if line[:1] in "+-"]


def test_wrong_value_replaced_in_place_with_the_file_line_ends() -> None:
    text = need(CRLF_RECORDS).read_bytes().decode("utf-8")
    wrong = text.replace('[DoubleDummyTricks "63b3c63b3c492a0492a0"]',
                         '[DoubleDummyTricks "63b3c63b3c492a0492a1"]', 1)
    assert wrong != text
    bridge_file = bf.loads(wrong, format="pbn")
    board = bridge_file.boards[0]
    analysis = analyse_boards([board])[0]
    assert analysis is not None
    new, edited = with_analysis(board, analysis)
    assert "DoubleDummyTricks" in edited
    assert new.source is not None and "\r\n" in new.source
    assert '[DoubleDummyTricks "63b3c63b3c492a0492a0"]\r\n' in new.source
    assert new.tag("DoubleDummyTricks") == "63b3c63b3c492a0492a0"
    assert check_board(new, analysis) == [] or all(
        "DoubleDummyTricks" not in d.message for d in check_board(new, analysis))


def test_analyze_then_check_finds_nothing() -> None:
    text = need(CRLF_RECORDS).read_bytes().decode("utf-8")
    once = bf.dumps(analyze(bf.loads(text, format="pbn")), layout="preserve")
    assert "\n" not in once.replace("\r\n", "")
    for board in bf.loads(once, format="pbn").boards:
        assert check_board(board) == []
    twice = bf.dumps(analyze(bf.loads(once, format="pbn")), layout="preserve")
    assert twice == once, "a second analysis changes nothing"


def test_board_without_a_full_deal_is_left_alone() -> None:
    text = '[Board "1"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n'
    bridge_file = bf.loads(text, format="pbn")
    assert analyse_boards(bridge_file.boards) == [None]
    assert bf.dumps(analyze(bridge_file), layout="preserve") == text
    assert check_board(bridge_file.boards[0]) == []


def test_doctests() -> None:
    import doctest

    from bridgefiles.analysis import annotate, check, solver

    for module in (annotate, check, solver):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_last_game_without_a_final_line_end_keeps_none() -> None:
    text = ('[Board "1"]\n[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. '
            '...AKQJT98765432"]')
    out = bf.dumps(analyze(bf.loads(text, format="pbn")), layout="preserve")
    assert out.startswith(text + '\n[DoubleDummyTricks "')
    assert out.endswith("W  C 13")
