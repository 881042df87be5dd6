"""Every conversion tells the one truth (issue 24, point 1).

A board converted and read back has the same deal, dealer, vulnerability, contract,
declarer, final tricks and score as the board itself (as ``validate`` rules on them),
or the conversion says, for that board, which fact it could not carry. No board is
merged into another or dropped. Checked on every real PBN file (PBN -> LIN, and
PBN -> JSON -> PBN) and every real LIN file (LIN -> PBN -> LIN).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from conversion_facts import (
    check_every_board,
    facts,
    said,
    through_json,
    through_lin,
    through_pbn,
    unsaid,
)
from shared import REAL_LIN, REAL_PBN, files, need, needs_corpus

import bridgefiles as bf
from bridgefiles.model.board import Board

PBN_FILES = files(REAL_PBN, ".pbn")
LIN_FILES = files(REAL_LIN, ".lin")

@needs_corpus
@pytest.mark.parametrize("path", PBN_FILES, ids=[p.name for p in PBN_FILES])
def test_pbn_to_lin_keeps_every_fact_or_says_so(path: Path) -> None:
    check_every_board(bf.load(path).boards, through_lin, "lin")


@needs_corpus
@pytest.mark.parametrize("path", PBN_FILES, ids=[p.name for p in PBN_FILES])
def test_pbn_to_json_to_pbn_keeps_every_fact(path: Path) -> None:
    check_every_board(bf.load(path).boards, through_json, None)


@needs_corpus
@pytest.mark.parametrize("path", LIN_FILES, ids=[p.name for p in LIN_FILES])
def test_lin_to_pbn_to_lin_keeps_every_fact(path: Path) -> None:
    check_every_board(bf.load(path).boards, through_pbn, None)


# -- the cases of the issue, each on its real file ---------------------------------


def _real(name: str) -> Sequence[Board]:
    return bf.load(need(REAL_PBN / name)).boards


def test_games_with_no_deal_or_dealer_stay_boards_of_their_own() -> None:
    """endplay's example3: the second table of each board has no Board, Dealer or Deal
    (7,632 games once became 4,034 LIN boards)."""
    boards = _real("endplay__example3.pbn")
    back = through_lin(boards)
    assert len(back) == len(boards) == 7632
    second = boards[1]
    assert second.deal is None and second.dealer is None and second.auction is not None
    # its Declarer tag (N) contradicts its auction (W): said, with the dealer written
    assert facts(second)["declarer"] is bf.model.Seat.N
    assert facts(back[1])["declarer"] is bf.model.Seat.W
    assert facts(back[1])["contract"] == "4SX"
    message = said(second, "lin")
    assert "no dealer" in message and "declarer read back from lin would be 4sx by w" in message


def test_a_board_with_no_number_keeps_its_declarer() -> None:
    """bridgebots' shared deals: games with no Board or Dealer tag once rotated the
    declarer (their calls were read from South)."""
    boards = _real("bridgebots__shared_deals.pbn")
    back = through_lin(boards)
    unnumbered = [i for i, b in enumerate(boards) if b.board_number is None]
    assert unnumbered == [1, 3]
    for i in unnumbered:
        assert unsaid(boards[i], back[i], said(boards[i], "lin")) == {}
    # game 2: calls from East, no Dealer tag: East is written as dealer
    assert facts(back[1])["declarer"] == facts(boards[1])["declarer"] is bf.model.Seat.E
    assert facts(back[1])["contract"] == facts(boards[1])["contract"] == "6SX"
    # game 4: its Declarer tag (W) is not the auction's (S): said for the board
    assert "not the board's 6c by w" in said(boards[3], "lin")


def test_a_declarer_tag_against_the_auction_is_said_and_which_one_is_written() -> None:
    """endplay's example4: Declarer "E" but the auction makes North declarer; the score
    read back has the other sign, and the conversion says so for the board."""
    board = _real("endplay__example4.pbn")[0]
    back = through_lin([board])[0]
    assert facts(board)["declarer"] is bf.model.Seat.E
    assert facts(back)["declarer"] is bf.model.Seat.N
    assert facts(back)["score"] == tuple(-s for s in facts(board)["score"])
    message = said(board, "lin")
    assert "declarer read back from lin would be 5c by n" in message
    assert "not the board's 5c by e" in message and "score" in message


def test_a_contract_with_no_auction_names_the_declarer_result_and_score() -> None:
    """ben's pav_first120: Contract and Declarer with no auction; LIN keeps neither."""
    board = next(b for b in _real("ben__pav_first120.pbn") if b.auction is None and b.contract)
    assert facts(board)["declarer"] is not None
    back = through_lin([board])[0]
    assert facts(back)["declarer"] is None
    message = said(board, "lin")
    for word in ("contract", "declarer", "result", "score"):
        assert word in message


def test_two_boards_with_curly_commentary_stay_two() -> None:
    boards = _real("bridgepbnrb__test_record_with_lots_of_curlies.pbn")
    assert len(boards) == 2
    assert len(through_lin(boards)) == 2


def test_a_partial_result_is_not_written_as_a_final_count() -> None:
    """aba_17901 board 9: the play stops after 10 tricks with no '*' and Result "9": a
    partial result (pbn.md 4.3), no final count; LIN's mc would make it one."""
    board = next(b for b in _real("pbntools__aba_17901_aba_pairs.pbn") if b.line == 1375)
    assert board.board_number == "9"
    assert facts(board)["tricks"] is None
    back = through_lin([board])[0]
    assert facts(back)["tricks"] is None and facts(back)["score"] is None
    assert "partial result" in said(board, "lin")


def test_boards_with_nothing_to_tell_them_apart_are_still_boards() -> None:
    """Boards with tags only, or calls and no deal or dealer, each begin a LIN board."""
    text = (
        '[Board "1"]\n\n[Board "2"]\n\n[Event "x"]\n\n'
        '[Auction "S"]\n1S Pass Pass Pass\n\n[Auction "W"]\n1H Pass Pass Pass\n\n'
        '[Board "6"]\n[Dealer "E"]\n[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 '
        '6543.876.876.876 2.5432.5432.5432"]\n\n[Board "7"]\n'
    )
    boards = bf.loads(text, format="pbn").boards
    back = through_lin(boards)
    assert [b.board_number for b in back] == [b.board_number for b in boards]
    assert [facts(b)["declarer"] for b in back] == [facts(b)["declarer"] for b in boards]


def test_a_play_led_from_another_seat_than_lin_would_lead_is_said() -> None:
    """aabridge's mitche_097 board 3: 3D by South, then a question "how would you play 3NT
    from North on a club lead?" with East's C5 as the play. PBN keeps East as the leader
    (the Play tag); LIN names no leader and its reader leads from declarer's LHO, so
    the same card reads back from West, who does not hold it (a card-not-held error
    the file never had): the conversion to LIN says so, for that board."""
    lin = bf.load(need(REAL_LIN / "aabridge__103_mitche_097.lin")).boards
    pbn = bf.loads(bf.dumps(lin, format="pbn")).boards
    board = next(b for b in pbn if b.board_number == "3")
    assert board.play is not None and board.play.first.full_name == "East"
    message = said(board, "lin")
    assert "the play starts with east, not the opening leader west" in message
    assert [b.board_number for b in pbn if "opening leader" in said(b, "lin")] == ["3"]
    # led from the seat LIN leads from, the same cards are written with nothing to say
    assert board.declarer is not None
    play = board.play.model_copy(update={"first": board.declarer.lho})
    assert "opening leader" not in said(board.replace(play=play), "lin")
