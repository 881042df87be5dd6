"""The model's small values: seats, cards, calls, contracts, deals, results."""

from __future__ import annotations

import pytest

from bridgefiles.model import (
    ALL_BIDS,
    ALL_CARDS,
    PASS,
    Board,
    Call,
    Card,
    Contract,
    Deal,
    Hand,
    Rank,
    Result,
    Risk,
    Seat,
    Side,
    Strain,
    Suit,
    TagPair,
    Vulnerability,
    trick_winner,
)
from bridgefiles.model.content import same_game


def test_rotation_is_clockwise() -> None:
    assert Seat.N.lho is Seat.E and Seat.E.lho is Seat.S and Seat.S.lho is Seat.W
    assert Seat.W.lho is Seat.N
    assert Seat.N.rho is Seat.W and Seat.N.partner is Seat.S
    assert Seat.E.side is Side.EW and Seat.S.side is Side.NS
    assert Seat.W.distance(Seat.N) == 1 and Seat.N.distance(Seat.W) == 3


@pytest.mark.parametrize(
    ("text", "vul"),
    [
        ("None", Vulnerability.NONE),
        ("love", Vulnerability.NONE),
        ("-", Vulnerability.NONE),
        ("ns", Vulnerability.NS),
        ("EW", Vulnerability.EW),
        ("Both", Vulnerability.ALL),
        ("all", Vulnerability.ALL),
    ],
)
def test_vulnerability_spellings(text: str, vul: Vulnerability) -> None:
    assert Vulnerability.parse(text) is vul


def test_vulnerability_by_seat() -> None:
    assert Vulnerability.NS.is_vulnerable(Seat.S)
    assert not Vulnerability.NS.is_vulnerable(Seat.E)
    assert Vulnerability.ALL.is_vulnerable(Side.EW)
    with pytest.raises(ValueError):
        Vulnerability.parse("NE")


def test_cards_are_interned_and_ordered() -> None:
    assert len(ALL_CARDS) == 52 and len(set(ALL_CARDS)) == 52
    assert Card.parse("sa") is Card.parse("SA") is Card.of(Suit.S, Rank.ACE)
    assert Card.parse("H10") is Card.parse("HT")
    assert Card.parse("C2") < Card.parse("D2") < Card.parse("SA")
    with pytest.raises(ValueError):
        Card.parse("X9")


def test_card_serialises_as_text_and_back() -> None:
    card = Card.parse("DQ")
    dumped: object = card.model_dump()  # a str, through the model serializer
    assert dumped == "DQ"
    assert card.model_dump_json() == '"DQ"'
    assert Card.model_validate("dq") == card


def test_calls() -> None:
    assert len(ALL_BIDS) == 35 and ALL_BIDS[0].text == "1C" and ALL_BIDS[-1].text == "7NT"
    assert Call.parse("1N") is Call.parse("1NT") is Call.bid(1, Strain.NT)
    assert Call.parse("p") is PASS and Call.parse("Pass") is PASS
    assert Call.parse("d").text == "X" and Call.parse("r").text == "XX"
    assert Call.parse("2C").index == 5 and Call.parse("1NT").index == 4
    with pytest.raises(ValueError):
        Call.parse("8C")


@pytest.mark.parametrize(
    ("text", "norm", "risk"),
    [
        ("4HX", "4HX", Risk.DOUBLED),
        ("3N", "3NT", Risk.NONE),
        ("7ntxx", "7NTXX", Risk.REDOUBLED),
        ("5Cx", "5CX", Risk.DOUBLED),
        ("Pass", "Pass", Risk.NONE),
        ("H", "H", Risk.NONE),
    ],
)
def test_contracts(text: str, norm: str, risk: Risk) -> None:
    c = Contract.parse(text)
    assert c.text == norm and c.risk is risk


def test_contract_rejects_nonsense() -> None:
    for bad in ("8S", "4Z", "", "4SXXX"):
        with pytest.raises(ValueError):
            Contract.parse(bad)


def test_deal_parse_and_write_back() -> None:
    text = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
    deal = Deal.parse(text)
    assert deal.is_complete and not deal.problems()
    assert deal.pbn() == text
    assert deal.pbn(Seat.W).startswith("W:KQT2.AT.J6542.85 .63")
    hand = deal.hand(Seat.E)
    assert hand is not None and hand.hcp == 12
    assert Hand.parse("a2.kq.t.j").pbn == "A2.KQ.T.J"


def test_deal_problems_are_found_not_repaired() -> None:
    assert Deal.parse("N:AKQ... - - -").problems() == []  # one hand of an end position
    twice = Deal.parse("N:AA.K.Q.J - - -")
    assert any("twice" in p for p in twice.problems())
    shared = Deal.parse("N:A... A... - -")
    assert any("both" in p for p in shared.problems())
    unequal = Deal.parse("N:AK... A... - -")
    assert any("different numbers" in p for p in unequal.problems())
    with pytest.raises(ValueError):
        Deal.parse("AKQ.. - - -")


def test_three_hands_imply_the_fourth() -> None:
    deal = Deal.parse("N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 -")
    full = deal.completed()
    assert full.is_complete and full.hand(Seat.W) == Hand.parse("KQT2.AT.J6542.85")


def test_trick_winner() -> None:
    cards = [Card.parse(c) for c in ("SK", "H3", "S4", "S3")]
    assert trick_winner(Seat.W, cards, Strain.H) is Seat.N
    assert trick_winner(Seat.W, cards, Strain.NT) is Seat.W
    assert trick_winner(Seat.W, cards, None) is Seat.W


@pytest.mark.parametrize(
    ("text", "declarer", "tricks"),
    [
        ("9", Seat.S, 9),
        ("NS 9", Seat.S, 9),
        ("NS 9", Seat.E, 4),
        ("EW 3 NS 10", Seat.N, 10),
        ("^8", Seat.W, 8),
    ],
)
def test_results(text: str, declarer: Seat, tricks: int) -> None:
    assert Result.parse(text).declarer_tricks(declarer) == tricks


def test_result_rejects_impossible_counts() -> None:
    for bad in ("14", "NS 9 EW 9", "NS 2 NS 3", "nine"):
        with pytest.raises(ValueError):
            Result.parse(bad)


def test_board_views_and_replace() -> None:
    board = Board(
        tags=(
            TagPair(name="Board", value="4"),
            TagPair(name="Dealer", value="w"),
            TagPair(name="Contract", value="4SX"),
            TagPair(name="Declarer", value="^S"),
        ),
        source='[Board "4"]\n',
    )
    assert board.dealer is Seat.W and board.declarer is Seat.S and board.declarer_swapped
    assert board.contract is not None and board.contract.text == "4SX"
    changed = board.with_tag("Result", "10")
    assert changed.source is None and changed.tag("Result") == "10"
    assert board.source is not None  # the original is untouched
    assert not same_game(board, changed)
    assert same_game(board, board.model_copy(update={"line": 99, "source": None}))


def test_tags_by_name_follow_the_tags_of_each_copy() -> None:
    """The index behind ``tag`` and ``tag_pair`` is the first tag of each name (PBN 2.6),
    kept beside the tags tuple it indexes: a copy with other tags reads its own."""
    board = Board(
        tags=(
            TagPair(name="Board", value="4"),
            TagPair(name="Result", value="9"),
            TagPair(name="Result", value="10"),
        )
    )
    assert board.tag("Result") == "9" and board.tag("Contract") is None
    pair = board.tag_pair("Result")
    assert pair is not None and pair.value == "9"
    other = board.model_copy(update={"tags": (TagPair(name="Result", value="7"),)})
    assert other.tag("Result") == "7" and other.tag("Board") is None
    assert board.with_tag("Result", "11").tag("Result") == "11"
    assert board.tag("Result") == "9"  # the original's index is its own


@pytest.mark.parametrize("text", [str(n) for n in range(14)])
def test_a_bare_trick_count_reads_as_one_shared_result(text: str) -> None:
    """Result.parse of "0".."13" is a shared value, equal to the one built from it."""
    shared = Result.parse(text)
    assert shared is Result.parse(text)
    assert shared == Result.parse(f" {text} ") == Result(tricks=int(text))
    assert Result.parse(f"^{text}") == Result(tricks=int(text), disputed=True)
