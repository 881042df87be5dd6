"""Every real file that carries double-dummy tags, against a fresh analysis.

Boards with ``DoubleDummyTricks``, ``OptimumResultTable``, ``OptimumScore`` or
``ParContract`` (BridgeComposer, Common Game, BEN, SPR, RealBridge, pybcdd, ...) are
compared with DDS. The files agree with it board for board, whatever side's view their
OptimumScore takes (NS always, or the par side's), except where explained below. Then each
file is analysed, written in preserve layout, read back and checked again: no mismatch.

The solver sees each distinct deal once (about 400), in one run for the module.
"""

from __future__ import annotations

import pytest
from shared import REAL_PBN as REAL

import bridgefiles as bf
from bridgefiles.analysis import Analysis, analyse_boards, check_board
from bridgefiles.analysis.annotate import with_analysis
from bridgefiles.analysis.check import carries_analysis
from bridgefiles.analysis.models import parse_hex
from bridgefiles.model.board import Board

pytest.importorskip("endplay", reason="the solver is the extra 'dds' (pip install endplay)")

if not REAL.is_dir():
    pytest.skip(f"the shared corpus is absent ({REAL})", allow_module_level=True)

# file -> boards carrying any of the tags (as our reader splits the file into games)
FILES = {
    "ben__Camrose24_1.pbn": 160,
    "ben__Free_Super_Sunday_Daylong_Aug4.pbn": 3,
    "bridgeparsers__CommonGame_260119HandRecord.pbn": 36,
    "bridgepbnrb__test_record_with_empty_line_in_comment.pbn": 1,
    "bridgepbnrb__test_record_with_lots_of_curlies.pbn": 1,
    "bridgepbnrb__three_test_records_crlf.pbn": 3,
    "dealconvert__test.pbn": 16,
    "endplay__example2.pbn": 299,
    "endplay__sample.pbn": 2,
    "jfrunk__SPR_PBN_FILE_1_1767133446-WyhciiaCll@D251230M.pbn": 24,
    "jfrunk__SPR_PBN_File_0_1766528722-gmeDcSvigL@D251223M.pbn": 24,
    "pbncpp__bridgecomposer.pbn": 15,
    "pybcdd__test-pybcdd.pbn": 99,
}
TAGS = (b"DoubleDummyTricks", b"OptimumResultTable", b"OptimumScore", b"ParContract")


def test_the_list_is_every_file_that_carries_the_tags() -> None:
    carrying = {p.name for p in REAL.iterdir()
                if p.is_file() and any(t in p.read_bytes() for t in TAGS)}
    assert carrying == set(FILES)


Corpus = dict[str, list[tuple[Board, Analysis | None]]]


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    """Each file's boards that carry the tags, with their fresh analysis."""
    files = {name: [b for b in bf.load(REAL / name).boards if carries_analysis(b)]
             for name in FILES}
    every = [b for boards in files.values() for b in boards]
    analyses = iter(analyse_boards(every))
    return {name: [(b, next(analyses)) for b in boards] for name, boards in files.items()}


def test_more_than_500_boards_are_compared(corpus: Corpus) -> None:
    compared = sum(a is not None for pairs in corpus.values() for _, a in pairs)
    assert compared > 500
    assert compared == sum(FILES.values()) - 1  # the game with no deal, below


def _camrose_filler(board: Board, analysis: Analysis) -> None:
    """BEN's Camrose file, boards 33-160: written by another program than boards 1-32 (no
    OptimumScore or ParContract, rows in N E S W x S H D C NT order). It writes every count
    below 7 as 1, as if only makeable contracts mattered; each count of 7 or more, and each
    1 that is right, equals ours. So DoubleDummyTricks and OptimumResultTable disagree."""
    expected = [n if n >= 7 else 1 for n in analysis.table.tricks]
    assert parse_hex(board.tag("DoubleDummyTricks") or "") == expected
    table = board.table("OptimumResultTable")
    assert table is not None
    rows = {(r["Declarer"], r["Denomination"]): int(r["Result"]) for r in table.records()}
    for (seat, strain, n) in analysis.table.rows():
        assert rows[(seat.value, strain.value)] == (n if n >= 7 else 1)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_values_equal_a_fresh_analysis(corpus: Corpus, name: str) -> None:
    pairs = corpus[name]
    assert len(pairs) == FILES[name]
    explained = 0
    for board, analysis in pairs:
        if analysis is None:
            # bridgepbnrb's "lots of curlies" stress file: its brace comment holds empty
            # lines, and an empty line ends a game (PBN 3.1), so the tags after it fall in
            # a second game that has no deal: nothing to compare with.
            assert name == "bridgepbnrb__test_record_with_lots_of_curlies.pbn"
            assert board.deal is None and board.tag("DoubleDummyTricks") is not None
            explained += 1
            continue
        found = check_board(board, analysis)
        if name == "ben__Camrose24_1.pbn" and int(board.board_number or 0) > 32:
            _camrose_filler(board, analysis)
            assert [d.message.split()[0] for d in found] == [
                "DoubleDummyTricks", "OptimumResultTable"]
            explained += 1
            continue
        assert found == [], f"{name} {board.label}: {found}"
    expected = {"ben__Camrose24_1.pbn": 128,
                "bridgepbnrb__test_record_with_lots_of_curlies.pbn": 1}.get(name, 0)
    assert explained == expected


@pytest.mark.parametrize("name", sorted(FILES))
def test_analyze_then_check_finds_no_mismatch(corpus: Corpus, name: str) -> None:
    pairs = corpus[name]
    bridge_file = bf.load(REAL / name)
    by_index = {b.index: a for b, a in pairs}
    boards = []
    for board in bridge_file.boards:
        analysis = by_index.get(board.index)
        boards.append(board if analysis is None else with_analysis(board, analysis)[0])
    written = bf.dumps(bridge_file.model_copy(update={"boards": tuple(boards)}),
                       layout="preserve")
    again = bf.loads(written, format="pbn")
    assert len(again.boards) == len(bridge_file.boards)
    for board in again.boards:
        analysis = by_index.get(board.index)
        if analysis is not None:
            assert check_board(board, analysis) == [], board.label
            assert board.tag("DoubleDummyTricks") == analysis.table.hex
