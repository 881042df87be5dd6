"""The LIN quirks of lin.md, each on the real file that shows it or a small fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
from shared import FIXTURES
from shared import REAL_LIN as LIN_DIR

import bridgefiles as bf
from bridgefiles.errors import StrictModeError
from bridgefiles.formats.lin.parser import chunks
from bridgefiles.model import Board, Card, PlayEnd, Seat, Slot


def corpus(name: str) -> Path:
    path = LIN_DIR / name
    if not path.is_file():
        pytest.skip(f"shared corpus file {name} not found under {LIN_DIR}")
    return path


def one(path: Path) -> Board:
    boards = bf.load(path).boards
    assert len(boards) == 1
    return boards[0]


def codes(board: Board) -> set[str]:
    return {d.code for d in board.diagnostics}


# -- claims ---------------------------------------------------------------------


def test_claim_in_the_middle_of_a_trick_real_file() -> None:
    board = one(corpus("pbntools__28190102.lin"))
    assert board.contract is not None and board.contract.text == "4H"
    assert board.declarer is Seat.E
    assert board.tag("Result") == "6"
    play = board.play
    assert play is not None and play.claim is not None and play.claim.tricks == 6
    assert play.end is PlayEnd.STOPPED
    cards = [s.card for s in play.slots if s.slot is Slot.CARD]
    assert len(cards) == 6
    # trick 2 is led by North (won trick 1 with the ace) and stops after East's card
    assert play.first is Seat.S
    assert [s.slot for s in play.slots[4:]] == [Slot.UNKNOWN, Slot.UNKNOWN, Slot.CARD, Slot.CARD]
    assert play.slots[6].card == Card.parse("S5") and play.slots[7].card == Card.parse("S2")


def test_claim_mid_trick_fixture_and_written_back() -> None:
    board = one(FIXTURES / "lin-claim-mid-trick.lin")
    assert board.tag("Result") == "13" and board.contract is not None
    assert board.play is not None and board.play.first is Seat.W
    # South won trick 1 with the ace of diamonds and led the ace of spades
    assert board.play.slots[7].card == Card.parse("SA")
    text = bf.dumps([board], format="lin")
    assert "pc|SA|mc|13|pg||" in text
    again = bf.loads(text, format="lin").boards[0]
    assert again.play is not None
    assert [s.card for s in again.play.slots] == [s.card for s in board.play.slots]
    assert again.tag("Result") == "13"


def test_claim_before_any_card() -> None:
    board = one(FIXTURES / "lin-claim-no-play.lin")
    assert board.play is None
    assert board.tag("Result") == "10" and board.declarer is Seat.E
    assert "mc|10|" in bf.dumps([board], format="lin")


def test_no_claim_after_thirteen_tricks_counts_the_winners() -> None:
    board = one(corpus("lin2pbn__test.lin"))
    assert board.play is not None and board.play.claim is None
    assert board.tag("Result") is not None
    assert len([s for s in board.play.slots if s.card is not None]) == 52


# -- deals ------------------------------------------------------------------------


def test_three_hand_md_implies_the_fourth() -> None:
    board = one(corpus("pbntools__28190027.lin"))
    assert board.deal is not None and board.deal.is_complete
    assert board.dealer is Seat.N


def test_four_hands_and_nt_spellings() -> None:
    board = one(corpus("bridgeencodings__read-four-hands.lin"))
    assert board.deal is not None and board.deal.is_complete
    assert board.auction is not None
    assert [c.text for _, c in board.auction.calls()] == [
        "1NT",
        "Pass",
        "2NT",
        "X",
        "XX",
        "Pass",
        "Pass",
        "Pass",
    ]
    assert board.contract is not None and board.contract.text == "2NTXX"


def test_partial_deals_are_reported_not_fatal() -> None:
    board = one(corpus("bridgeencodings__read-one-hand.lin"))
    deal = board.deal
    assert deal is not None and deal.known_seats == (Seat.S,)
    assert "deal" in codes(board)


def test_bad_deal_is_an_error_with_position_and_strict_raises() -> None:
    path = FIXTURES / "lin-bad-deal.lin"
    board = one(path)
    errors = [d for d in board.diagnostics if d.code == "deal" and d.severity.value == "error"]
    assert errors and errors[0].line == 1 and errors[0].column == 12
    assert board.deal is not None and board.deal.hand(Seat.E) is None  # not filled in
    with pytest.raises(StrictModeError):
        bf.load(path, strict=True)


# -- alerts and explanations ------------------------------------------------------


def test_alert_marks_and_an() -> None:
    board = one(corpus("bridgeencodings__read-alert-without-text.lin"))
    assert board.auction is not None
    anns = [
        (e.call.text if e.call else None, e.annotations.alert, e.annotations.explanation)
        for e in board.auction.entries
    ]
    assert anns == [
        ("1NT", True, None),
        ("Pass", False, None),
        ("2C", True, None),
        ("Pass", True, "no stopper"),
        ("2D", False, None),
    ]


def test_an_bang_is_an_alert() -> None:
    board = one(corpus("bridgeencodings__nag-and-notrump-bc.lin"))
    assert board.auction is not None
    three_d = board.auction.entries[4]
    assert three_d.call is not None and three_d.call.text == "3D"
    assert three_d.annotations.alert and three_d.annotations.explanation is None
    assert board.tag("Result") == "0"  # BridgeComposer's mc|0| read as written


def test_explanation_without_alert_and_robot_names() -> None:
    board = one(corpus("bridgescape__1193736484.lin"))
    assert board.auction is not None
    explained = [e for e in board.auction.entries if e.annotations.explanation]
    assert explained and not all(e.annotations.alert for e in explained)


# -- lexical quirks -----------------------------------------------------------------


def test_mixed_case_commands_comment_lines_and_missing_sv_pn() -> None:
    path = FIXTURES / "lin-mixed-case-no-sv.lin"
    loaded = bf.load(path)
    board = loaded.boards[0]
    assert [d.text for d in loaded.directives] == [" a comment line"]
    assert board.dealer is Seat.W and board.vulnerable is None
    assert board.player(Seat.N) is None
    assert "missing-tag" in codes(board)
    assert board.auction is not None and board.auction.entries[0].annotations.explanation == "15-17"
    assert board.play is not None and len(board.play.slots) == 4
    assert board.line == 2


def test_percent_comment_header_and_qx_records() -> None:
    loaded = bf.load(corpus("pbs__Dealer-FourthSuitForcing-S.lin"))
    assert len(loaded.directives) == 8
    assert loaded.preamble is not None and loaded.preamble.startswith("% LIN File created")
    numbers = [b.board_number for b in loaded.boards]
    assert numbers == [str(n) for n in range(1, 11)]
    assert {b.room for b in loaded.boards} == {"Open"}
    assert loaded.boards[1].vulnerable is not None and loaded.boards[1].vulnerable.value == "NS"


def test_lost_delimiters_are_recovered_and_reported() -> None:
    loaded = bf.load(corpus("lin2pbn__alltest.lin"))
    assert len(loaded.boards) == 4
    for board in loaded.boards:
        assert board.deal is not None and board.deal.is_complete
        assert board.contract is not None
        lost = [d for d in board.diagnostics if d.code == "syntax" and "lost" in d.message]
        assert lost and all(d.line is not None for d in lost)
    assert loaded.boards[0].contract.text == "4S"  # type: ignore[union-attr]


def test_final_command_without_bar() -> None:
    board = one(corpus("bridgescape__1193736503.lin"))
    assert board.tag("Result") == "13"


def test_values_spanning_lines_stay_whole() -> None:
    text = "md|1SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|nt|two\nlines|pg||\n"
    found = [c for chunk in chunks(iter(text.splitlines(keepends=True))) for c in chunk.commands]
    assert [(c.tag, c.value) for c in found] == [
        ("md", "1SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,"),
        ("nt", "two\nlines"),
        ("pg", ""),
    ]
    board = bf.loads(text, format="lin").boards[0]
    assert [e.value for e in board.extras if e.key == "nt"] == ["two\nlines"]


def test_an_unclosed_value_is_cut_at_the_limit() -> None:
    text = "pn|a,b,c,d|nt|" + "x\n" * 50 + "more"
    found = list(chunks(iter(text.splitlines(keepends=True)), max_open=20))
    assert any(c.cut for c in found)


def test_percent_escapes_stay_in_file_values() -> None:
    board = one(corpus("bridgeencodings__read-percent-encoding.lin"))
    assert board.player(Seat.S) == "a%20b"
    assert board.board_number == "10"
    assert board.auction is not None
    assert board.auction.entries[0].annotations.explanation == "15%2B HCP"


# -- file shapes --------------------------------------------------------------------


def test_one_board_per_line() -> None:
    boards = bf.load(corpus("bridgeencodings__read-one-board-per-line.lin")).boards
    assert [b.board_number for b in boards] == ["11", "12"]
    assert [b.dealer for b in boards] == [Seat.N, Seat.S]
    assert [b.line for b in boards] == [1, 2]
    assert boards[0].source is not None and boards[0].source.endswith("\n")


def test_endplay_robot_boards_one_per_line() -> None:
    boards = bf.load(corpus("endplay__example1.lin")).boards
    assert len(boards) == 8
    assert all(b.deal is not None and b.deal.is_complete for b in boards)
    assert all(b.tag("Result") is not None for b in boards)


def test_vugraph_header_goes_to_every_board() -> None:
    loaded = bf.load(corpus("vugraph/bph__00350.lin"))
    assert loaded.preamble is not None and loaded.preamble.startswith("vg|")
    first, second = loaded.boards[0], loaded.boards[1]
    assert first.tag("Event") == "EC 2004 Finland-Italy"
    assert first.tag("Stage") == "Segm.16/33"
    assert first.tag("Scoring") == "IMP"
    assert (first.tag("HomeTeam"), first.tag("VisitTeam")) == ("Finland", "Italy")
    assert (first.room, second.room) == ("Open", "Closed")
    assert first.board_number == second.board_number == "1"
    # 8-name pn: open room S,W,N,E then closed room S,W,N,E
    assert first.player(Seat.S) == "Nyberg" and first.player(Seat.E) == "Bocchi"
    assert second.player(Seat.S) == "NUNES" and second.player(Seat.E) == "JUURI-OJA"
    assert [e.key for e in first.extras if e.position == -1][:3] == ["vg", "rs", "pn"]


def test_vugraph_with_chat_and_alerts() -> None:
    boards = bf.load(corpus("mtday__test_vugraph.lin")).boards
    assert len(boards) == 16
    first = boards[0]
    assert first.board_number == "33"
    assert any(e.key == "nt" and e.value.startswith("benjy:") for e in first.extras)
    assert first.auction is not None
    assert first.auction.entries[0].annotations.explanation == "14-16"


def test_closed_room_first_and_other_room_bidding() -> None:
    boards = bf.load(corpus("aabridge__f1.lin")).boards
    assert [b.room for b in boards[:2]] == ["Closed", "Open"]
    first = boards[0]
    assert sum(1 for e in first.extras if e.key == "ob") == 7
    assert first.auction is not None and len(first.auction.entries) == 5


def test_pairs_header_with_board_players() -> None:
    loaded = bf.load(corpus("bridgeencodings__two-boards-bc.lin"))
    assert [b.board_number for b in loaded.boards] == ["5", "6"]
    assert all(b.tag("Scoring") == "MP" for b in loaded.boards)
    assert loaded.boards[0].tag("Result") == "13"
    assert loaded.boards[1].contract is None  # three passes only: the auction is unfinished


def test_substitution_pn_inside_the_match() -> None:
    boards = bf.load(corpus("dealconvert__test.lin")).boards
    assert len(boards) == 32 and all(b.deal is not None for b in boards)
    assert [b.room for b in boards[:2]] == ["Open", "Closed"]


def test_unknown_commands_are_kept_reported_and_written() -> None:
    boards = bf.load(corpus("bridgeparsers__kemistry-boards-2026-01-14.lin")).boards
    board = boards[0]
    zz = [e for e in board.extras if e.key == "zz"]
    assert zz and zz[0].value
    assert any(d.code == "unknown-tag" and d.severity.value == "info" for d in board.diagnostics)
    assert f"zz|{zz[0].value}|" in bf.dumps([board], format="lin")


def test_movie_constructs() -> None:
    board = one(corpus("bridgeencodings__movie-constructs.lin"))
    keys = [e.key for e in board.extras]
    for key in ("at", "hs", "hc", "up", "tc", "sk"):
        assert key in keys, key  # mixed-case At/Hs/HC read as at/hs/hc
    # up|4 takes the club trick back, and the closing up|13 takes every card back
    undo = [d for d in board.diagnostics if d.code == "play" and "taken back" in d.message]
    assert len(undo) == 2 and board.play is None
    assert board.contract is not None and board.contract.text == "3NT"


def test_movie_with_many_deals() -> None:
    boards = bf.load(corpus("aabridge__120_bergenhandevaluation.lin")).boards
    assert sum(1 for b in boards if b.deal is not None) >= 10


def test_names_with_delimiters_do_not_crash() -> None:
    board = one(corpus("bridgeencodings__names-with-delimiters-bc.lin"))
    assert board.diagnostics  # the broken grammar is reported


def test_sniff() -> None:
    from bridgefiles.formats.lin import sniff

    assert sniff("pn|a,b,c,d|st||md|1S...") >= 90
    assert sniff('[Event "x"]\n') == 0


def test_suit_alone_is_the_lowest_card_held() -> None:
    text = (
        "md|1SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,|sv|o|"
        "mb|1N|mb|p|mb|p|mb|p|pc|h|pc|h|pc|HT|pc|HA|\n"
    )
    board = bf.loads(text, format="lin").boards[0]
    assert board.play is not None and board.play.first is Seat.W
    assert [s.card for s in board.play.slots] == [Card.parse(c) for c in ("H2", "H6", "HT", "HA")]
    assert any(d.code == "tag-value" and "movie form" in d.message for d in board.diagnostics)


def test_rs_entries_are_checked_against_the_table() -> None:
    boards = bf.load(corpus("vugraph/bph__27444.lin")).boards
    board = next(b for b in boards if b.board_number == "17" and b.room == "Open")
    # the operator entered the wrong dealer: the rs list has West as declarer
    found = [d for d in board.diagnostics if d.code == "declarer-mismatch"]
    assert found and "4HW-1" in found[0].message and found[0].line == board.line
    others = [b for b in boards if b is not board]
    assert not any(d.code == "declarer-mismatch" for b in others for d in b.diagnostics)


def test_joined_vugraph_files_start_a_new_header() -> None:
    first = corpus("vugraph/bph__00350.lin").read_text("utf-8")
    second = corpus("vugraph/bph__01121.lin").read_text("utf-8")
    text = first.rstrip("\n") + "\n" + second
    loaded = bf.loads(text, format="lin")
    n = len(bf.loads(first, format="lin").boards)
    assert len(loaded.boards) == n + len(bf.loads(second, format="lin").boards)
    assert loaded.boards[n - 1].tag("Event") == "EC 2004 Finland-Italy"
    assert loaded.boards[n].tag("Event") == "Norwegian Chmp Teams"
    source = loaded.boards[n].source
    assert source is not None and source.startswith("vg|")
    assert bf.dumps(loaded, format="lin", layout="preserve") == text
    again = bf.loads(bf.dumps(loaded, format="lin"), format="lin").boards
    assert [b.tag("Event") for b in again] == [b.tag("Event") for b in loaded.boards]


def test_a_line_of_players_opens_the_next_board_without_a_deal() -> None:
    """lin.md 4 rule 3: a second table's record of a deal, written without ``md``."""
    text = (
        "pn|A,B,C,D|st||md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|rh||"
        "ah|Board 1|sv|o|mb|1S|mb|p|mb|p|mb|p|pg||\n"
        "pn|E,F,G,H|st||rh||mb|2S|mb|p|mb|p|mb|p|pg||\n"
        "st||md|4SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|rh||ah|Board 2|sv|n|"
        "mb|p|mb|p|mb|p|mb|p|pg||\n"
    )
    boards = bf.loads(text, format="lin").boards
    assert [b.tag("South") for b in boards] == ["A", "E", None]
    assert [len(b.auction.entries) if b.auction else 0 for b in boards] == [4, 4, 4]
    assert boards[1].deal is None and boards[2].board_number == "2"
    assert bf.dumps(bf.loads(text, format="lin"), "lin", layout="preserve") == text
