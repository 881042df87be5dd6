"""Rubber bridge: ScoreRubberHistory, one deal above and below the line, the rubber bonus."""

from __future__ import annotations

import pytest
from shared import CONFORMANCE

import bridgefiles as bf
from bridgefiles.model.board import Board, TagPair
from bridgefiles.model.cards import Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.seats import Seat, Side, Vulnerability
from bridgefiles.scoring.board import board_dealer, board_vulnerability
from bridgefiles.scoring.chicago import chicago_deal, chicago_vulnerability, score_chicago
from bridgefiles.scoring.fill import score_file
from bridgefiles.scoring.rubber import (
    DealScore,
    RubberState,
    SideHistory,
    honours,
    parse_score_rubber,
    score_deal,
    unfinished_bonus,
)

FRESH = RubberState()


@pytest.mark.parametrize(
    ("text", "ns_vul", "ew_vul"),
    [
        ("NS 0 0 / 0 EW 0 0 / 0", False, False),
        ("NS 0 0 / 100 0 EW 0 0 / 0 0", True, False),
        ("NS 0 0 / 0 0 EW 0 0 / 100 0", False, True),
        ("NS 0 0 / 100 0 0 EW 0 0 / 0 100 0", True, True),
        ("NS 0 0/100 0 0 EW 0 0/0 120 40", True, True),
    ],
)
def test_history_vulnerability(text: str, ns_vul: bool, ew_vul: bool) -> None:
    state = RubberState.parse(text)
    assert state.vulnerable(Side.NS) is ns_vul
    assert state.vulnerable(Side.EW) is ew_vul
    assert RubberState.parse(state.text()) == state


@pytest.mark.parametrize(
    "text", ["", "NS 0 0 / 0", "NS 0 0 / 0 NS 0 0 / 0", "NS 0 0 / 0 0 EW 0 0 / 0", "NS a b / c"]
)
def test_history_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        RubberState.parse(text)


def test_conformance_histories_agree_with_vulnerable() -> None:
    path = CONFORMANCE / "correct_20.pbn"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    boards = bf.load(path).boards
    checked = 0
    for board in boards:
        history = board.tag("ScoreRubberHistory")
        if history is None or board.vulnerable is None:
            continue
        state = RubberState.parse(history)
        for side in Side:
            assert state.vulnerable(side) is board.vulnerable.is_vulnerable(side), history
        checked += 1
    assert checked == 4  # the fifth history is in a game with no Vulnerable tag


def test_game_made_then_vulnerable() -> None:
    score, after = score_deal("4S", Seat.N, 10, FRESH)
    assert score == DealScore(ns_below=120)
    assert after.ns.below == (120, 0) and after.ew.below == (0, 0)
    assert after.vulnerable(Side.NS) and not after.vulnerable(Side.EW)


def test_part_scores_add_up_to_game() -> None:
    score, state = score_deal("2S", Seat.S, 9, FRESH)
    assert score == DealScore(ns_above=30, ns_below=60)
    assert state.games(Side.NS) == 0
    score, state = score_deal("2H", Seat.N, 8, state)
    assert score.ns_below == 60
    assert state.ns.below == (120, 0) and state.games(Side.NS) == 1


def test_part_score_wiped_for_both_by_a_game() -> None:
    _, state = score_deal("2C", Seat.E, 8, FRESH)  # EW 40 below
    _, state = score_deal("3NT", Seat.N, 9, state)  # NS game
    assert state.ew.below == (40, 0) and state.ns.below == (100, 0)
    assert state.games(Side.EW) == 0  # 40 in a finished game is not a game


def test_rubber_bonus_two_nil_and_two_one() -> None:
    _, state = score_deal("4S", Seat.N, 10, FRESH)
    score, state = score_deal("3NT", Seat.S, 9, state)
    assert score.ns_below == 100 and score.ns_above == 0
    # 2-0: 700 for the rubber; the rubber's points go to "previous", a new rubber starts.
    assert state == RubberState(ns=SideHistory(previous=120 + 100 + 700), ew=SideHistory())
    _, state = score_deal("4S", Seat.N, 10, FRESH)
    _, state = score_deal("5D", Seat.E, 11, state)
    _, state = score_deal("4H", Seat.S, 10, state)
    assert state.ns.previous == 120 + 120 + 500 and state.ew.previous == 100


@pytest.mark.parametrize(
    ("contract", "tricks", "state", "expected"),
    [
        ("4SX", 10, FRESH, DealScore(ns_above=50, ns_below=240)),
        ("4SX", 11, FRESH, DealScore(ns_above=150, ns_below=240)),
        ("2HXX", 8, FRESH, DealScore(ns_above=100, ns_below=240)),
        ("4S", 8, FRESH, DealScore(ew_above=100)),
        ("4SX", 6, FRESH, DealScore(ew_above=800)),  # non-vulnerable: 100, 300, 500, 800
        ("6NT", 12, FRESH, DealScore(ns_above=500, ns_below=190)),
        (
            "7NT",
            13,
            RubberState.parse("NS 0 0 / 100 0 EW 0 0 / 0 0"),
            DealScore(ns_above=1500, ns_below=220),
        ),
        (
            "4SX",
            6,
            RubberState.parse("NS 0 0 / 100 0 EW 0 0 / 0 0"),
            DealScore(ew_above=1100),  # vulnerable: 200, 500, 800, 1100
        ),
    ],
)
def test_deal_points(contract: str, tricks: int, state: RubberState, expected: DealScore) -> None:
    score, _ = score_deal(contract, Seat.N, tricks, state)
    assert score == expected


def test_honours() -> None:
    deal = Deal.parse("N:AKQJ.432.432.432 T98.AK5.AK5.T765 7654.QJT.QJT.QJT 32.9876.9876.98")
    assert honours(deal, Strain.S) == {Side.NS: 100, Side.EW: 0}  # North: 4 of 5 in spades
    assert honours(deal, Strain.H) == {Side.NS: 0, Side.EW: 0}  # split between hands
    five = Deal.parse("N:AKQJT.432.432.32 98.AK5.AK5.T7654 7654.QJT.QJT.QJT 32.9876.9876.98")
    assert honours(five, Strain.S) == {Side.NS: 150, Side.EW: 0}
    aces = Deal.parse("N:KQJT.432.432.432 A98.AK5.AK5.AT76 7654.QJT.QJT.QJ5 32.9876.9876.98")
    assert honours(aces, Strain.NT) == {Side.NS: 0, Side.EW: 150}  # East: all four aces
    assert honours(None, Strain.NT) == {Side.NS: 0, Side.EW: 0}


def test_score_rubber_forms() -> None:
    assert parse_score_rubber("EW 300/40 NS 50 / 70  ", None) == {
        Side.EW: (300, 40),
        Side.NS: (50, 70),
    }
    assert parse_score_rubber("300/40", Seat.W) == {Side.EW: (300, 40)}
    assert parse_score_rubber("300/40", None) == {}
    with pytest.raises(ValueError):
        parse_score_rubber("NS 300", None)


def test_unfinished_rubber() -> None:
    state = RubberState.parse("NS 0 0 / 100 40 EW 0 0 / 0 0")
    assert unfinished_bonus(state, Side.NS) == 300 + 100
    assert unfinished_bonus(state, Side.NS, part_score=50) == 350
    assert unfinished_bonus(state, Side.EW) == 0


def _rubber_board(**tags: str) -> Board:
    base = {"Board": "1", "Scoring": "Rubber", "Vulnerable": "None"}
    base.update(tags)
    return Board(tags=tuple(TagPair(name=k, value=v) for k, v in base.items()))


FRESH_RUBBER = "NS 0 0 / 0 EW 0 0 / 0"  # a ScoreRubberHistory with nothing scored yet


def _filled(board: Board, replace: bool = False) -> Board:
    """The one board of a file, scored."""
    (out,) = score_file(BridgeFile(format="pbn", boards=(board,)), replace=replace).boards
    return out


def test_fill_writes_score_rubber() -> None:
    out = _filled(_rubber_board(Contract="4SX", Declarer="N", Result="11",
                                ScoreRubberHistory=FRESH_RUBBER))
    assert out.tag("ScoreRubber") == "NS 150/240 EW 0/0"
    assert out.tag("Score") is None  # rubber files get no duplicate score


def test_fill_reports_a_wrong_score_rubber() -> None:
    board = _rubber_board(Contract="4S", Declarer="N", Result="8",
                          ScoreRubberHistory=FRESH_RUBBER, ScoreRubber="EW 50/0")
    out = _filled(board)
    assert out.tag("ScoreRubber") == "EW 50/0"
    (d,) = out.diagnostics
    assert d.code == "score-mismatch" and "EW 100/0" in d.message
    assert _filled(board, replace=True).tag("ScoreRubber") == "NS 0/0 EW 100/0"


# -- Chicago ---------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5, 8])
def test_chicago_vulnerability(number: int) -> None:
    dealer = board_dealer(number)
    # The duplicate convention (non-dealer side on deals 2-3) is Law 2's boards 1-4.
    assert chicago_vulnerability(number, dealer, dealer_side=False) is board_vulnerability(
        (number - 1) % 4 + 1
    )
    ours = chicago_vulnerability(number, dealer)
    if chicago_deal(number) in (2, 3):
        assert ours.is_vulnerable(dealer) and not ours.is_vulnerable(dealer.lho)
    else:
        assert ours is board_vulnerability((number - 1) % 4 + 1)


def test_chicago_game_in_one_deal_matches_duplicate() -> None:
    points, carry = score_chicago("4S", Seat.N, 10, 1, Vulnerability.NONE)
    assert points == {Side.NS: 420, Side.EW: 0} and carry == {Side.NS: 0, Side.EW: 0}
    points, _ = score_chicago("4S", Seat.N, 7, 1, Vulnerability.NONE)
    assert points == {Side.NS: 0, Side.EW: 150}


def test_chicago_part_scores_carry_to_game() -> None:
    points, carry = score_chicago("2S", Seat.N, 8, 1, Vulnerability.NONE)
    assert points[Side.NS] == 60 and carry == {Side.NS: 60, Side.EW: 0}
    points, carry = score_chicago("2C", Seat.E, 8, 2, Vulnerability.EW, carry)
    assert points[Side.EW] == 40 and carry == {Side.NS: 60, Side.EW: 40}
    # Deal 3, N-S vulnerable: 2H completes the game: 60 + 500, both part scores wiped.
    points, carry = score_chicago("2H", Seat.S, 8, 3, Vulnerability.NS, carry)
    assert points == {Side.NS: 560, Side.EW: 0} and carry == {Side.NS: 0, Side.EW: 0}


def test_chicago_part_score_on_deal_four() -> None:
    points, carry = score_chicago("1NT", Seat.W, 7, 4, Vulnerability.ALL)
    assert points == {Side.NS: 0, Side.EW: 140} and carry == {Side.NS: 0, Side.EW: 0}


def test_successive_histories_follow_from_the_deal_before() -> None:
    """Each deal's ScoreRubberHistory is the state the deal before it left (PBN 10.1)."""
    start = "NS 0 0 / 0 EW 0 0 / 0"
    after_game = "NS 0 0 / 120 0 EW 0 0 / 0 0"  # 4S made: a game below the line for N-S
    boards = (
        _rubber_board(Board="1", Contract="4S", Declarer="N", Result="10",
                      ScoreRubberHistory=start),
        _rubber_board(Board="2", Contract="2H", Declarer="E", Result="8",
                      ScoreRubberHistory=after_game),
        # 2H= gives E-W 60 below: the next history must show it, not the game's state again.
        _rubber_board(Board="3", Contract="3NT", Declarer="S", Result="9",
                      ScoreRubberHistory=after_game),
    )
    out = score_file(BridgeFile(format="pbn", boards=boards)).boards
    assert out[0].diagnostics == () and out[1].diagnostics == ()
    (d,) = out[2].diagnostics
    assert d.code == "score-mismatch" and d.law == "77"
    assert "NS 0 0 / 120 0 EW 0 0 / 0 60" in d.message


def test_histories_of_different_tables_are_not_compared() -> None:
    one = _rubber_board(Board="1", Table="1", Contract="4S", Declarer="N", Result="10",
                        ScoreRubberHistory="NS 0 0 / 0 EW 0 0 / 0")
    two = _rubber_board(Board="1", Table="2", Contract="4S", Declarer="N", Result="10",
                        ScoreRubberHistory="NS 0 0 / 0 EW 0 0 / 0")
    out = score_file(BridgeFile(format="pbn", boards=(one, two))).boards
    assert all(b.diagnostics == () for b in out)
